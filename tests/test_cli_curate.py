"""``toolhist curate``, ``compare`` and ``strategies``: exit codes, exact output, JSON keys (DESIGN §6)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import toolhist
from toolhist.cli import main
from toolhist.curation.strategies import STRATEGY_REGISTRY

ROOT = Path(__file__).parent.parent
CHAT = "sample_logs/openai_chat_request.json"
SAMPLES = sorted(p.name for p in (ROOT / "sample_logs").glob("*.json"))
UNANSWERED = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
    "'tool_call_id'. The following tool_call_ids did not have response messages: call_Rk2Vb7nXc4LzA9qWe6tYu1Io"
)
needs_reference = pytest.mark.skipif(
    "toolhist" not in toolhist.STRATEGIES, reason="the toolhist strategy is not registered yet"
)


def run(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None, "the toolhist console script is not installed next to this Python"
    return subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=60)


def test_curate_none_reports_no_change_and_the_violation_left() -> None:
    out = run("curate", CHAT, "--provider", "openai-chat", "--strategy", "none")
    assert out.returncode == 1, out.stderr
    assert out.stderr == ""
    assert out.stdout.splitlines() == [
        f"{CHAT}: openai-chat, 10 messages",
        "strategy none for openai-chat: 10 → 10 messages (10 same, 0 changed, 0 inserted, 0 deleted, 0 moved)",
        "changes  0",
        "left     1 error(s), 0 warning(s)",
        "  error   oai.call_unanswered      messages[9].role (message 9)",
        f"          {UNANSWERED}",
    ]


def test_curate_json_keys_and_canonical_messages() -> None:
    out = run("curate", CHAT, "--provider", "openai-chat", "--strategy", "none", "--json")
    assert out.returncode == 1, out.stderr
    data = json.loads(out.stdout)
    assert {"session", "changes"} <= set(data)
    assert set(data) == {"strategy", "provider", "session", "changes", "violations"}
    assert (data["strategy"], data["provider"], data["changes"]) == ("none", "openai-chat", [])
    messages = data["session"]["messages"]
    assert len(messages) == 10
    assert all(set(m) == {"speaker", "blocks", "metadata"} for m in messages)
    assert [m["speaker"] for m in messages][:3] == ["system", "human", "ai"]
    # the session object is the canonical form: load() reads it back to the same history
    assert toolhist.load(data["session"]).messages == toolhist.load(str(ROOT / CHAT)).messages
    assert [v["rule"] for v in data["violations"]] == ["oai.call_unanswered"]


def test_curate_bad_file_exits_2_with_one_line(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"messages": [\n{"role": "us')
    out = run("curate", str(bad), "--provider", "openai-chat", "--strategy", "none")
    assert out.returncode == 2
    assert out.stdout == ""
    assert out.stderr.splitlines() == [f"toolhist: error: {bad}:2:13: not valid JSON: unexpected end of data"]
    missing = run("curate", str(tmp_path / "nope.json"), "--provider", "openai-chat", "--strategy", "none")
    assert missing.returncode == 2
    assert len(missing.stderr.splitlines()) == 1
    assert "Traceback" not in missing.stderr


@pytest.mark.parametrize("command", ["curate", "check", "render", "compare"])
def test_unknown_strategy_exits_2_listing_choices(command: str) -> None:
    out = run(command, CHAT, "--provider", "openai-chat", "--strategy", "bogus")
    assert out.returncode == 2
    assert out.stdout == ""
    choices = ", ".join(toolhist.STRATEGIES)
    assert out.stderr.splitlines() == [f"toolhist: error: unknown strategy 'bogus'; choose one of: {choices}"]


def test_bad_provider_and_missing_provider_exit_2() -> None:
    out = run("curate", CHAT, "--provider", "nope", "--strategy", "none")
    assert out.returncode == 2
    assert out.stderr.startswith("toolhist: error: unknown provider 'nope'; choose one of: openai-chat")
    out = run("curate", CHAT)
    assert out.returncode == 2
    assert out.stderr.splitlines() == ["toolhist: error: Missing option '--provider'."]


def test_strategies_lists_every_registered_strategy() -> None:
    out = run("strategies")
    assert out.returncode == 0
    width = max(len(name) for name in STRATEGY_REGISTRY)
    # The strategies that run a real library name it, its pinned version and whether it is installed.
    runs = {
        "litellm": " [runs litellm 1.106.2, installed]",
        "openai-agents": " [runs openai-agents 0.24.0, installed]",
    }
    assert out.stdout.splitlines() == [
        f"{s.name:<{width}}  {s.summary}{runs.get(s.name, '')}" for s in STRATEGY_REGISTRY.values()
    ]
    listed = json.loads(run("strategies", "--json").stdout)
    libraries = {
        "litellm": {
            "name": "litellm",
            "version": "1.106.2",
            "why": "pin",
            "pin": "1.106.2",
            "installed": True,
        },
        "openai-agents": {
            "name": "openai-agents",
            "version": "0.24.0",
            "why": "pin",
            "pin": "0.24.0",
            "installed": True,
        },
    }
    assert listed == [
        {
            "name": s.name,
            "summary": s.summary,
            **({"library": libraries[s.name]} if s.name in libraries else {}),
        }
        for s in STRATEGY_REGISTRY.values()
    ]
    assert listed[0]["name"] == "none"


def test_compare_table_and_json() -> None:
    out = run("compare", CHAT, "--provider", "openai-chat", "--strategy", "none")
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        f"{CHAT}: openai-chat, 10 messages, for openai-chat",
        "strategy  changes  errors  warnings  actions; rules left",
        "none            0       1         0  -; oai.call_unanswered 1",
    ]
    data = json.loads(run("compare", CHAT, "--provider", "openai-chat", "--json").stdout)
    assert list(data) == list(toolhist.STRATEGIES)  # default: every registered strategy
    none = data["none"]
    assert {k: v for k, v in none.items() if k != "violations"} == {
        "status": "ran",
        "messages": 10,
        "changes": 0,
        "actions": {},
        "errors": 1,
        "warnings": 0,
        "rules": {"error": {"oai.call_unanswered": 1}, "warning": {}},
    }
    kimi = json.loads(run("compare", CHAT, "--provider", "kimi", "--strategy", "none", "--json").stdout)
    assert kimi["none"]["rules"] == {"error": {"oai.call_unanswered": 1}, "warning": {"kimi.id_format": 4}}
    assert (kimi["none"]["errors"], kimi["none"]["warnings"]) == (1, 4)
    out = run("compare", CHAT, "--provider", "kimi", "--strategy", "none")
    assert out.stdout.splitlines()[-1] == (
        "none            0       1         4  -; oai.call_unanswered 1, kimi.id_format 4 (warning)"
    )
    assert [v["rule"] for v in none["violations"]] == ["oai.call_unanswered"]


@pytest.mark.parametrize("strategy", toolhist.STRATEGIES)
def test_check_and_render_accept_every_registered_strategy(
    strategy: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["render", str(ROOT / CHAT), "--provider", "anthropic", "--strategy", strategy]) == 0
    assert json.loads(capsys.readouterr().out)["messages"]
    assert main(["check", str(ROOT / CHAT), "--provider", "anthropic", "--strategy", strategy]) in (0, 1)
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("strategy", toolhist.STRATEGIES)
def test_curate_every_strategy_on_every_sample(strategy: str, capsys: pytest.CaptureFixture[str]) -> None:
    for sample in SAMPLES:
        for provider in toolhist.PROVIDERS:
            path = str(ROOT / "sample_logs" / sample)
            code = main(["curate", path, "--provider", provider, "--strategy", strategy, "--json"])
            captured = capsys.readouterr()
            assert code in (0, 1), (sample, provider, captured.err)
            data = json.loads(captured.out)
            errors = [v for v in data["violations"] if v["severity"] == "error"]
            assert code == (1 if errors else 0), (sample, provider)
            for change in data["changes"]:
                assert {"pass", "action", "reason", "call_id", "before", "after"} <= set(change)


@needs_reference
def test_reference_strategy_leaves_no_error_on_the_samples(capsys: pytest.CaptureFixture[str]) -> None:
    for sample in SAMPLES:
        for provider in toolhist.PROVIDERS:
            code = main(["curate", str(ROOT / "sample_logs" / sample), "--provider", provider])
            captured = capsys.readouterr()
            assert code == 0, (sample, provider, captured.out)
            left = next(line for line in captured.out.splitlines() if line.startswith("left     "))
            assert left == "left     ok" or left.startswith("left     0 error(s)"), (sample, provider)


@needs_reference
def test_reference_curate_on_the_stuck_chat_sample() -> None:
    out = run("curate", CHAT, "--provider", "openai-chat")  # default strategy: toolhist
    assert out.returncode == 0, out.stdout
    # Issue 24: the one real repair, naming the rule it repairs; the 7 id rewrites and the SDK-only
    # strip it used to make (ids OpenAI takes, a `name` OpenAI ignores) are gone.
    assert out.stdout.splitlines() == [
        f"{CHAT}: openai-chat, 10 messages",
        "strategy toolhist for openai-chat: 10 → 11 messages (10 same, 0 changed, 1 inserted, 0 deleted, 0 moved)",
        "changes  1 (close 1); 1 repair a violation of the history as given, listed first",
        "  close_orphans close @- → 10.0 call_Rk2Vb7nXc4LzA9qWe6tYu1Io (fixes oai.call_unanswered): pending call: "
        "nothing follows it, and a request cannot end on an unanswered call; a synthetic result closes it (send "
        "the real result as tail to keep it)",
        "left     ok",
    ]
    data = json.loads(run("curate", CHAT, "--provider", "openai-chat", "--json").stdout)
    assert data["strategy"] == "toolhist"
    assert data["violations"] == []
    assert data["session"]["messages"][-1]["speaker"] == "tool"
    table = run("compare", CHAT, "--provider", "openai-chat", "--strategy", "none", "--strategy", "toolhist")
    assert table.returncode == 0
    rows = {line.split()[0]: line.split() for line in table.stdout.splitlines()[2:]}
    assert rows["none"][1:3] == ["0", "1"]
    assert rows["toolhist"][2] == "0"  # no error left


def test_curate_shows_the_id_sent_for_each_rewrite() -> None:
    mistral = "sample_logs/mistral_ids_after_openai.json"
    lines = run("curate", mistral, "--provider", "mistral").stdout.splitlines()
    assert lines[2] == "changes  2 (rewrite_id 2); 2 repair a violation of the history as given, listed first"
    assert lines[3].startswith("  map_ids rewrite_id @2.1 → 2.1 call_Zx8Cv2Bn6Mq4Wr9Ty1Ui3Op7 → ")
    sent = lines[3].split(" → ")[2].split(" ")[0]
    assert len(sent) == 9
    assert sent.isalnum()
    assert "(fixes mis.id_format): mistral refuses this id: Mistral ids are exactly 9 characters" in lines[3]
    data = json.loads(run("curate", mistral, "--provider", "mistral", "--json").stdout)
    assert [(c["fixes"], c["detail"]["new_id"]) for c in data["changes"]] == [(["mis.id_format"], sent)] * 2
    assert "id_map" not in data


def test_curate_canonical_prints_one_id_map() -> None:
    out = run("curate", CHAT, "--provider", "anthropic", "--strategy", "canonical")
    lines = out.stdout.splitlines()
    assert lines[2].startswith("changes  1 (close 1)")  # the ids are not a Change each
    start = lines.index("id map   4 call(s): source id → canonical → sent to anthropic")
    rows = [line.strip().split(" → ") for line in lines[start + 1 : start + 5]]
    assert [r[0] for r in rows] == [
        "call_8fJx2LmQ0pV4tR7wN1sYb3Kd",
        "call_Zq5Hn9cWe1XuT6gA4mBv0Ros",
        "call_Ty3Dk8aPz6QwE2rUo9iLm5Sx",
        "call_Rk2Vb7nXc4LzA9qWe6tYu1Io",
    ]
    assert all(r[2] == "toolu_" + r[1].removeprefix("hist_tool_") for r in rows)
    data = json.loads(
        run("curate", CHAT, "--provider", "anthropic", "--strategy", "canonical", "--json").stdout
    )
    assert [row["sent"] for row in data["id_map"]] == [r[2] for r in rows]
    assert [c["action"] for c in data["changes"]] == ["close"]


def test_compare_says_not_run_and_how_to_install(tmp_path: Path) -> None:
    """A peers home with nothing installed (a real empty folder): the peer strategies did not run."""
    env = {**os.environ, "TOOLHIST_PEERS_HOME": str(tmp_path)}
    args = [
        "compare",
        CHAT,
        "--provider",
        "openai-chat",
        "--strategy",
        "litellm",
        "--strategy",
        "openai-agents",
    ]
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    out = subprocess.run(
        [exe, *args], cwd=ROOT, capture_output=True, text=True, check=False, env=env, timeout=60
    )
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[2:] == [
        "litellm        not run: litellm 1.106.2 is not installed; install it with `toolhist peers install`",
        "openai-agents  not run: openai-agents 0.24.0 is not installed; install it with `toolhist peers install`",
        "versions litellm: litellm 1.106.2 (the pin); openai-agents: openai-agents 0.24.0 (the pin)",
    ]
    data = json.loads(
        subprocess.run(
            [exe, *args, "--json"], cwd=ROOT, capture_output=True, text=True, env=env, check=True
        ).stdout
    )
    assert {k: data["litellm"][k] for k in ("status", "changes", "errors", "warnings", "install")} == {
        "status": "not run",
        "changes": None,
        "errors": None,
        "warnings": None,
        "install": "toolhist peers install",
    }
