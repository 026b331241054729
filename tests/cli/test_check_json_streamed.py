"""``check --json`` written provider by provider, ``curate --json`` a message at a time: the same bytes.

The text must be exactly what ``_emit_json(CheckResult.to_json())`` printed when every provider's
violations were held at once (DESIGN §6 fixes the object; scripts diff it), and no two providers'
violations may be alive at once while it is written (issue 26: the peak memory of a gigabyte log).
"""

from __future__ import annotations

import gc
import json
import os
import pty
import re
import signal
import subprocess
import sys
import weakref
from collections.abc import Iterator
from pathlib import Path

import pytest
from bench_modules import benchmark_module
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolhist.check import CheckResult, check, judged_verdict, result_of, start
from toolhist.cli.streamed import write_check_json, write_curate_json
from toolhist.curation import curate
from toolhist.curation.base import Curation
from toolhist.judgement import judge
from toolhist.model import Session
from toolhist.providers import PROVIDERS, Violation, validate
from toolhist.ran_on import RanOn
from toolhist.readers import load

CORPUS = Path(__file__).resolve().parents[1] / "corpus"


def emitted(result: CheckResult) -> str:
    """What ``check --json`` printed before it streamed: `toolhist.cli._emit_json` of the whole."""
    return json.dumps(result.to_json(), indent=2, ensure_ascii=False) + "\n"


def streamed(result: CheckResult, batch: int = 1000) -> tuple[str, int]:
    """The streamed text of ``result`` (its envelope and its results written provider by provider)."""
    parts: list[str] = []
    envelope = CheckResult(**{**result.__dict__, "results": {}})
    errors = write_check_json(envelope, iter(result.results.items()), parts.append, batch=batch)
    return "".join(parts), errors


any_text = st.text(max_size=12)  # every code point: controls, quotes, non-ASCII, lone surrogates
violations = st.builds(
    Violation,
    provider=st.sampled_from(list(PROVIDERS)),
    rule=any_text,
    severity=st.sampled_from(["error", "warning"]),
    path=any_text,
    message_index=st.none() | st.integers(0, 10**6),
    block_index=st.none() | st.integers(0, 50),
    call_ids=st.lists(any_text, max_size=3).map(tuple),
    error_text=any_text,
    source=any_text,
    fix=any_text,
)
results = st.dictionaries(st.sampled_from(list(PROVIDERS)), st.lists(violations, max_size=7), max_size=4)
ran = st.none() | st.builds(RanOn, named=any_text, provider=st.none() | any_text, model=st.none() | any_text,
                            evidence=any_text)  # fmt: skip
counts = st.dictionaries(any_text, st.integers(0, 99), max_size=3)
check_results = st.builds(
    CheckResult,
    file=any_text,
    format=any_text,
    messages=st.integers(0, 10**6),
    notes=st.lists(any_text, max_size=3).map(tuple),
    skipped=counts,
    unsent=counts,
    results=results,
    judged=st.sampled_from(["as-sent", "next-request"]),
    appended=st.none() | any_text,
    ran_on=ran,
)


@given(check_results, st.integers(1, 4))
def test_streamed_text_is_the_whole_dumped(result: CheckResult, batch: int) -> None:
    """Any result, any batch size: the bytes of ``_emit_json(to_json())`` and its error count."""
    text, errors = streamed(result, batch)
    assert text == emitted(result)
    assert errors == result.errors()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions())
def test_streamed_verdicts_of_generated_sessions(session: Session) -> None:
    """Real verdicts of generated broken histories, every provider: the same text as `to_json`."""
    judged = judge(session)
    found = {p: judged_verdict(judged, p, remember=False) for p in PROVIDERS}
    result = result_of("generated.json", session, found, judged)
    text, errors = streamed(result, batch=2)
    assert text == emitted(result)
    assert json.loads(text)["results"].keys() == set(PROVIDERS)
    assert errors == result.errors()


def watched(
    verdicts: Iterator[tuple[str, list[Violation]]], seen: list[str]
) -> Iterator[tuple[str, list[Violation]]]:
    """``verdicts``, asserting before each next verdict is made that the last one's violations are gone."""
    alive: list[weakref.ref[Violation]] = []
    for provider, found in verdicts:
        gc.collect()
        assert [r for r in alive if r() is not None] == [], f"{seen[-1]}'s violations outlived it"
        alive = [weakref.ref(v) for v in found]
        seen.append(provider)
        yield provider, found
        del found
    gc.collect()
    assert [r for r in alive if r() is not None] == [], f"{seen[-1]}'s violations outlived the writing"


def test_no_two_providers_violations_alive_at_once() -> None:
    """Structural bound on the peak: each provider's violations are dead before the next is made."""
    log = CORPUS / "logs" / "codex" / "masonc15-demo-v0155-apply-patch.fixture.jsonl"
    run = start(str(log))
    seen: list[str] = []
    parts: list[str] = []
    errors = write_check_json(run.result({}), watched(run.verdicts(), seen), parts.append)
    assert seen == list(PROVIDERS)
    whole = check(str(log))
    assert "".join(parts) == emitted(whole)
    assert errors == whole.errors() > 0  # the log has violations to hold


def test_many_violations_for_one_provider_let_go() -> None:
    """More violations than one batch: every batch written, none kept after the provider's are done."""
    many = [
        Violation(provider="kimi", rule="kimi.id_format", severity="error", path=f"messages[{i}]",
                  message_index=i, error_text="bad id é\u2028", source="s", fix="f")
        for i in range(2500)
    ]  # fmt: skip
    result = CheckResult(file="f", format="codex", messages=2500, results={"kimi": many, "gemini": []})
    text, errors = streamed(result)
    assert text == emitted(result)
    assert errors == 2500


def _toolhist(*args: str) -> subprocess.CompletedProcess[bytes]:
    exe = Path(sys.executable).parent / "toolhist"
    return subprocess.run([str(exe), *args], capture_output=True, check=False, timeout=120)


@pytest.mark.parametrize(
    ("log", "options"),
    [
        ("logs/claude-code/kvsankar-real-session-01.jsonl", ()),
        (
            "logs/claude-code/kvsankar-real-session-01.jsonl",
            ("--provider", "kimi", "--provider", "anthropic"),
        ),
        ("logs/codex/masonc15-demo-v0155-apply-patch.fixture.jsonl", ("--strategy", "toolhist")),
        ("logs/codex/masonc15-demo-v0155-apply-patch.fixture.jsonl", ("--provider", "gemini")),
    ],
)
def test_cli_prints_the_library_result_and_its_exit_code(log: str, options: tuple[str, ...]) -> None:
    """The installed command: stdout is ``_emit_json`` of `toolhist.check.check`; exit 1 on errors."""
    path = str(CORPUS / log)
    out = _toolhist("check", path, *options, "--json")
    providers = [options[i + 1] for i, o in enumerate(options) if o == "--provider"] or None
    strategy = options[1] if options[:1] == ("--strategy",) else "none"
    result = check(path, providers, strategy=strategy)
    assert out.stdout.decode() == emitted(result)
    assert out.returncode == (1 if result.errors() else 0)


def test_cli_redacts_the_streamed_text(tmp_path: Path) -> None:
    """``--redact`` sees each write whole: a key inside a violation's text is replaced as before."""
    key = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0"
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": "go"},
            {"role": "tool", "tool_call_id": key, "content": "x"},
        ],
    }
    f = tmp_path / "leak.json"
    f.write_text(json.dumps(body))
    out = _toolhist("--redact", "check", str(f), "--provider", "openai-chat", "--json")
    assert out.returncode == 1
    assert key not in out.stdout.decode()
    plain = _toolhist("check", str(f), "--provider", "openai-chat", "--json")
    assert key in plain.stdout.decode()
    assert json.loads(out.stdout)["results"]["openai-chat"]["violations"]


def curate_emitted(curation: Curation, left: list[Violation]) -> str:
    """What ``curate --json`` printed before it streamed."""
    data = curation.to_json()
    data["violations"] = [v.model_dump(mode="json") for v in left]
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions(), st.sampled_from(["openai-chat", "anthropic", "gemini", "mistral"]),
       st.sampled_from(["toolhist", "canonical", "none"]))  # fmt: skip
def test_curate_json_streamed_is_the_whole_dumped(session: Session, provider: str, strategy: str) -> None:
    """``curate --json`` written a message, a Change and a batch of violations at a time: same text."""
    curation = curate(session, provider, strategy=strategy)
    left = validate(session, provider, strategy=strategy)
    parts: list[str] = []
    write_curate_json(curation, left, parts.append)
    assert "".join(parts) == curate_emitted(curation, left)


@pytest.mark.parametrize(
    ("log", "provider", "strategy"),
    [
        ("logs/codex/masonc15-demo-v0155-apply-patch.fixture.jsonl", "mistral", "toolhist"),
        ("logs/claude-code/kvsankar-real-session-01.jsonl", "openai-chat", "canonical"),
        ("logs/codex/masonc15-demo-v0155-apply-patch.fixture.jsonl", "gemini", "none"),
    ],
)
def test_curate_cli_prints_the_library_result(log: str, provider: str, strategy: str) -> None:
    """The installed ``curate --json``: the library's curation as ``_emit_json`` printed it, exit code."""
    path = str(CORPUS / log)
    out = _toolhist("curate", path, "--provider", provider, "--strategy", strategy, "--json")
    session = load(path)
    left = validate(session, provider, strategy=strategy)
    assert out.stdout.decode() == curate_emitted(curate(session, provider, strategy=strategy), left)
    assert out.returncode == (1 if any(v.severity == "error" for v in left) else 0)


def test_interrupted_mid_write_is_one_line_and_leaves_no_file(tmp_path: Path) -> None:
    """Ctrl-C while the JSON is being written (stdout blocked on a full pipe): exit 130, one line.

    stdout is the user's (a shell redirection truncates it itself); toolhist writes no file of its
    own for ``check``, so the folder it ran in holds only the log afterwards.
    """
    log = tmp_path / "rollout.jsonl"
    benchmark_module("agent_logs").write("codex", log, lines=3000)  # 1.7 MB of JSON: more than a pipe holds
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolhist", "check", str(log), "--json"],
        cwd=tmp_path,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None
    first = proc.stdout.read1(4096)  # type: ignore[attr-defined]  # written: the writing has begun
    assert first.startswith(b'{\n  "file": ')
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == b"toolhist: interrupted\n"
    assert len(first + out) < 1_700_000  # stopped before the end
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rollout.jsonl"]


def _screen(drawn: str) -> list[str]:
    """The lines a terminal shows for ``drawn``: ``\\r`` goes to the line's start, ESC[K erases to its end."""
    lines: list[str] = []
    line: list[str] = []
    col = 0
    for part in re.split(r"(\r|\n|\x1b\[K)", drawn):
        if part == "\r":
            col = 0
        elif part == "\n":
            lines.append("".join(line))
            line, col = [], 0
        elif part == "\x1b[K":
            del line[col:]
        else:
            for ch in part:
                line[col : col + 1] = [ch]
                col += 1
    return [*lines, "".join(line)] if line else lines


def test_a_terminal_showing_both_shows_the_json_whole(tmp_path: Path) -> None:
    """stdout and the status line on one terminal: what it shows at the end is the JSON, every line.

    The status is drawn between providers; were a provider's last line left half-written, the
    status would be drawn over it and its erasure take the JSON's text with it.
    """
    log = CORPUS / "logs" / "codex" / "masonc15-demo-v0155-apply-patch.fixture.jsonl"
    leader, follower = pty.openpty()
    proc = subprocess.Popen(
        [sys.executable, "-m", "toolhist", "check", str(log), "--json"], stdout=follower, stderr=follower
    )
    os.close(follower)
    drawn = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the process closed the terminal (it exited)
            break
        if not chunk:
            break
        drawn += chunk
    assert proc.wait(timeout=120) == 1
    os.close(leader)
    text = drawn.decode()
    assert "\rchecking masonc15-demo-v0155-apply-patch.fixture.jsonl  bedrock (7/7)" in text  # drawn
    assert _screen(text) == emitted(check(str(log))).splitlines()
