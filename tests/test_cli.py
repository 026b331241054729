"""The installed ``toolhist`` command: exit codes and exact output (DESIGN §6)."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolhist.readers import FORMATS


def run(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None, "the toolhist console script is not installed next to this Python"
    return subprocess.run([exe, *args], capture_output=True, text=True, check=False, timeout=60)


def test_formats_lists_every_reader() -> None:
    out = run("formats")
    assert out.returncode == 0
    assert [line.split()[0] for line in out.stdout.splitlines()] == list(FORMATS)
    listed = json.loads(run("formats", "--json").stdout)
    assert [f["id"] for f in listed] == list(FORMATS)


def test_summary_text_and_json(tmp_path: Path) -> None:
    f = tmp_path / "s.json"
    f.write_text(
        json.dumps(
            [
                {"role": "user", "content": "go"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
                        {"id": "call_2", "type": "function", "function": {"name": "ls", "arguments": "{}"}},
                    ],
                },
                {"role": "tool", "tool_call_id": "call_1", "content": "a"},
                {"role": "tool", "tool_call_id": "call_1", "content": "a"},
                {"role": "tool", "tool_call_id": "call_X", "content": "?"},
            ]
        )
    )
    out = run("summary", str(f))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        f"file               {f}",
        "format             openai-chat",
        "messages           5 (system 0, human 1, ai 1, tool 3)",
        "tool calls         2",
        "tool results       3",
        "unanswered calls   1: call_2",
        "unmatched results  1: call_X",
        "duplicate results  1: call_1",
        "tools declared     none",
    ]
    data = json.loads(run("summary", str(f), "--json").stdout)
    assert data == {
        "file": str(f),
        "format": "openai-chat",
        "messages": 5,
        "by_speaker": {"system": 0, "human": 1, "ai": 1, "tool": 3},
        "tool_calls": 2,
        "tool_results": 3,
        "unanswered_calls": ["call_2"],
        "unmatched_results": ["call_X"],
        "duplicate_results": ["call_1"],
        "tools_declared": None,
        "notes": [],
        "unsent": {},
        "skipped": {},
    }


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b'{"messages": [\n{"role": "us', ":2:13: not valid JSON: unexpected end of data"),
        (b'["caf\xe9"]', ":1:6: not valid UTF-8 (byte 0xe9 at offset 5)"),
        (b"", ": file is empty"),
        (
            b'{"contents": [{"role": "model", "parts": "nope"}]}',
            ":1:42: at contents[0].parts: unknown format",
        ),
        (b'{"hello": "world"}', ": unknown format: a JSON object with keys hello;"),
    ],
    ids=["truncated", "utf8", "empty", "wrong-shape", "unknown"],
)
def test_bad_input_exits_2_with_one_line(tmp_path: Path, data: bytes, expected: str) -> None:
    f = tmp_path / "bad.json"
    f.write_bytes(data)
    out = run("summary", str(f))
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith(f"toolhist: error: {f}{expected}")
    assert "Traceback" not in out.stderr


def test_bad_arguments_exit_2() -> None:
    out = run("summary", "x.json", "--format", "nope")
    assert out.returncode == 2
    assert out.stderr.startswith(
        "toolhist: error: Invalid value for '--format': 'nope' is not one of 'openai-chat'"
    )
    assert run("nosuchcommand").returncode == 2


def test_schema_is_the_session_json_schema() -> None:
    out = run("schema")
    assert out.returncode == 0
    schema = json.loads(out.stdout)
    assert schema["title"] == "toolhist Session"
    assert set(schema["properties"]) == {
        "kind",
        "version",
        "messages",
        "tools",
        "request",
        "source",
        "metadata",
        "unsent",
    }
    # Field docstrings are exported, so the schema documents itself.
    call = schema["$defs"]["ToolCallBlock"]["properties"]
    assert call["raw_id"]["description"].startswith("The id exactly as the source had it")
