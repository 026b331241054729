"""The ``codex-exec`` reader: what a ``codex exec --json`` stream carries, and the rollout it pairs with."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.agents.codex_exec.reader import PROMPT
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock
from toolhist.ran_on import ran_on

THREAD = "0199a213-81c0-7800-8aa1-bbab2a035a53"


def write(path: Path, *events: dict[str, Any]) -> Path:
    path.write_text("".join(json.dumps(e) + "\n" for e in events))
    return path


def item(kind: str, iid: str, **fields: Any) -> dict[str, Any]:
    return {"id": iid, "type": kind, **fields}


def stream(tmp_path: Path) -> Path:
    cmd = {"command": "bash -lc ls", "aggregated_output": "a.py\n", "exit_code": 2, "status": "failed"}
    return write(
        tmp_path / "run.jsonl",
        {"type": "thread.started", "thread_id": THREAD},
        {"type": "turn.started"},
        {"type": "item.completed", "item": item("reasoning", "item_0", text="**Listing**")},
        {
            "type": "item.started",
            "item": item("command_execution", "item_1", command="bash -lc ls", status="in_progress"),
        },
        {"type": "item.completed", "item": item("command_execution", "item_1", **cmd)},
        {"type": "item.completed", "item": item("web_search", "item_2", query="python glob")},
        {
            "type": "item.started",
            "item": item(
                "mcp_tool_call",
                "item_3",
                server="docs",
                tool="search",
                arguments={"q": "x"},
                status="in_progress",
            ),
        },
        {"type": "turn.failed", "error": {"message": "stream disconnected"}},
        {"type": "future.event"},
    )


def test_turns_and_items_read_as_far_as_the_stream_carries_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "no-codex"))
    s = toolhist.load(stream(tmp_path))
    assert s.source.format == "codex-exec"
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "ai"]
    assert s.messages[0].blocks == (TextBlock(text=PROMPT),)
    assert s.messages[0].metadata.synthetic
    assert s.messages[1].blocks[0] == ThinkingBlock(text="**Listing**", source_provider="codex-exec")
    call = s.messages[1].blocks[1]
    assert isinstance(call, ToolCallBlock)
    assert (call.id, call.name, call.parameters) == (
        "item_1",
        "command_execution",
        {"command": "bash -lc ls"},
    )
    result = s.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert (result.call_id, result.result, result.error) == ("item_1", "a.py\n", "exit code 2")
    pending = list(s.messages[3].tool_calls())
    assert [(c.id, c.name) for c in pending] == [("item_3", "mcp_tool_call")]
    assert [(u.kind, u.text) for u in s.unsent] == [
        ("web_search", "python glob"),
        ("turn.failed", "stream disconnected"),
    ]
    assert s.source.skipped == {"event type 'future.event'": 1}
    assert ran_on(s) is None  # the stream names no provider, and no rollout was found


def test_the_rollout_of_the_thread_says_where_it_ran(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "codex"
    day = home / "sessions" / "2025" / "10" / "02"
    day.mkdir(parents=True)
    meta = {
        "id": THREAD,
        "cwd": "/w",
        "cli_version": "0.46.0",
        "model_provider": "openai",
        "originator": "codex_exec",
    }
    write(
        day / f"rollout-2025-10-02T09-12-00-{THREAD}.jsonl",
        {"timestamp": "t", "type": "session_meta", "payload": meta},
        {"timestamp": "t", "type": "turn_context", "payload": {"model": "gpt-5-codex"}},
    )
    monkeypatch.setenv("CODEX_HOME", str(home))
    s = toolhist.load(stream(tmp_path))
    assert s.metadata["rollout"] == {
        "path": str(day / f"rollout-2025-10-02T09-12-00-{THREAD}.jsonl"),
        "model_provider": "openai",
        "cli_version": "0.46.0",
        "model": "gpt-5-codex",
    }
    ran = ran_on(s)
    assert ran is not None
    assert (ran.named, ran.provider, ran.model) == ("openai", "openai-responses", "gpt-5-codex")


def test_a_rollout_is_never_read_as_an_exec_stream() -> None:
    rollout = Path(__file__).parent.parent / "corpus" / "logs" / "codex" / "simonw-sample-codex-session.jsonl"
    assert toolhist.load(rollout).source.format == "codex"
