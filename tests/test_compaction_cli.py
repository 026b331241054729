"""``toolhist compact``: the printed tier table and the --json object, on samples, as a user runs it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

import toolhist
from toolhist.compaction import compact

ROOT = Path(__file__).parent.parent
SAMPLES = sorted(p.name for p in (ROOT / "sample_logs").iterdir() if p.suffix in {".json", ".jsonl"})


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolhist", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_text_output_openai_chat_sample() -> None:
    done = run(
        "compact",
        "sample_logs/openai_chat_request.json",
        "--provider",
        "openai-chat",
        "--keep",
        "1",
        "--threshold",
        "0",
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:5] == [
        "sample_logs/openai_chat_request.json: openai-chat, 10 messages, for openai-chat",
        "tokens     exact (o200k_base)",
        "pairs      3 (206 tool tokens); keep 1, threshold 0",
        "rendering  native",
        "result     2 older pair(s) compacted: 206 tool tokens > 0",
    ]
    assert lines[6:13] == [
        "tier                                 messages             tokens",
        "                              before    after    before    after",
        "1 system + original intent         2        2        40       40",
        "2 historical summary               3        3       100       85",
        "3 recent tool pairs                5        5       222      222",
        "4 current turn                     0        0         0        0",
        "total                             10       10       362      347",
    ]
    assert "      [Earlier: Read tests/test_login.py with read_file (6 lines, 89 chars)]" in lines


@pytest.mark.parametrize("sample", SAMPLES)
def test_json_matches_the_library_on_every_sample(sample: str) -> None:
    done = run(
        "compact",
        f"sample_logs/{sample}",
        "--provider",
        "anthropic",
        "--keep",
        "1",
        "--threshold",
        "0",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    c = compact(toolhist.load(ROOT / "sample_logs" / sample), "anthropic", keep=1, threshold=0)
    assert data["tokens"] == {
        "encoding": "o200k_base",
        "exact": False,
        "label": "approx (o200k)",
        "tool": c.tool_tokens,
        "before": c.tokens_before,
        "after": c.tokens_after,
    }
    assert [(t["tier"], t["tokens_before"], t["tokens_after"]) for t in data["tiers"]] == [
        (t.tier, t.tokens_before, t.tokens_after) for t in c.tiers
    ]
    assert [r["summary"] for r in data["replacements"]] == [r.summary for r in c.replacements]
    assert sum(m["tokens"] for m in data["messages"]["before"]) == c.tokens_before
    assert len(data["session"]["messages"]) == len(c.session.messages)
    assert set(data) == {
        "file",
        "format",
        "provider",
        "rendering",
        "keep",
        "threshold",
        "triggered",
        "reason",
        "pairs",
        "tokens",
        "tiers",
        "replacements",
        "summary",
        "notes",
        "messages",
        "session",
    }


def test_exact_totals_for_two_samples() -> None:
    chat = json.loads(
        run("compact", "sample_logs/openai_chat_request.json", "--provider", "openai-chat", "--json").stdout
    )
    assert (chat["tokens"]["before"], chat["tokens"]["after"], chat["tokens"]["label"]) == (
        362,
        362,
        "exact (o200k_base)",
    )
    claude = json.loads(
        run("compact", "sample_logs/anthropic_request.json", "--provider", "anthropic", "--json").stdout
    )
    assert (claude["tokens"]["before"], claude["tokens"]["label"]) == (252, "approx (o200k)")


def test_text_embed_prints_the_summary_message() -> None:
    done = run(
        "compact",
        "sample_logs/anthropic_request.json",
        "--provider",
        "anthropic",
        "--keep",
        "1",
        "--threshold",
        "0",
        "--rendering",
        "text-embed",
    )
    assert done.returncode == 0, done.stderr
    assert "summary message\n  [Earlier in this session:]\n" in done.stdout
    assert (
        "  - read_file: PermissionError: [Errno 13] Permission denied: 'src/users/legacy.py'\n" in done.stdout
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--provider", "nope"], "toolhist: error: unknown provider 'nope'"),
        (["--provider", "anthropic", "--keep", "-1"], "toolhist: error: Invalid value for '--keep'"),
    ],
)
def test_bad_arguments_exit_2(args: list[str], message: str) -> None:
    done = run("compact", "sample_logs/anthropic_request.json", *args)
    assert done.returncode == 2
    assert done.stderr.startswith(message), done.stderr
    assert "Traceback" not in done.stderr


def test_unreadable_file_exit_2(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    done = run("compact", str(bad), "--provider", "anthropic")
    assert done.returncode == 2
    assert done.stderr.startswith("toolhist: error: ")
    assert str(bad) in done.stderr
