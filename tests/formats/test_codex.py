"""Codex rollout reader: response items grouped as Responses input, local shell calls, compaction, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.model import ThinkingBlock, ToolCallBlock


def rec(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-10-02T09:12:00.000Z", "type": kind, "payload": payload}


def item(payload: dict[str, Any]) -> dict[str, Any]:
    return rec("response_item", payload)


def user(text: str) -> dict[str, Any]:
    return item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})


def call(cid: str, name: str = "shell") -> dict[str, Any]:
    return item({"type": "function_call", "name": name, "arguments": '{"command":["ls"]}', "call_id": cid})


def output(cid: str, text: str = "ok") -> dict[str, Any]:
    return item({"type": "function_call_output", "call_id": cid, "output": text})


META = rec(
    "session_meta", {"id": "0199", "cwd": "/repo", "originator": "codex_cli_rs", "cli_version": "0.44.0"}
)
TURN = rec("turn_context", {"cwd": "/repo", "model": "gpt-5-codex", "approval_policy": "on-request"})


def write(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "rollout-2025-10-02T09-12-00-0199.jsonl"
    path.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    return path


def test_items_grouped_into_turns_with_reasoning_and_calls(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        META,
        TURN,
        user("fix the build"),
        item(
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Looking**"}],
                "encrypted_content": "gAAA",
            }
        ),
        call("call_1"),
        rec("event_msg", {"type": "exec_command_end", "call_id": "call_1", "exit_code": 0}),
        output("call_1"),
        item(
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Fixed."}]}
        ),
    )
    session = toolhist.load(path)
    assert session.source.format == "codex"
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai"]
    thinking, fc = session.messages[1].blocks
    assert isinstance(thinking, ThinkingBlock)
    assert (thinking.text, thinking.data) == ("**Looking**", "gAAA")
    assert isinstance(fc, ToolCallBlock)
    assert (fc.id, fc.name, fc.parameters) == (
        "call_1",
        "shell",
        {"command": ["ls"]},
    )
    assert [loc.line for loc in session.source.locations] == [3, 4, 7, 8]
    assert session.request == {"model": "gpt-5-codex"}
    assert session.metadata["session_meta"] == {
        "id": "0199",
        "cwd": "/repo",
        "originator": "codex_cli_rs",
        "cli_version": "0.44.0",
    }
    assert session.metadata["events"] == {"event_msg:exec_command_end": 1}
    assert toolhist.validate(session, "openai-responses") == []


def test_local_shell_call_pairs_with_its_function_call_output(tmp_path: Path) -> None:
    shell = {
        "type": "local_shell_call",
        "call_id": "call_sh",
        "status": "completed",
        "action": {"type": "exec", "command": ["pwd"]},
    }
    path = write(tmp_path, user("where am I"), item(shell), output("call_sh", "/repo"))
    session = toolhist.load(path)
    (fc,) = session.messages[1].tool_calls()
    assert (fc.id, fc.name, fc.parameters) == ("call_sh", "local_shell", {"type": "exec", "command": ["pwd"]})
    assert fc.provider_data["codex_item"] == shell
    assert [r.tool_name for r in session.messages[2].tool_responses()] == ["local_shell"]
    assert "1 local_shell_call item(s) read as calls named 'local_shell'" in session.source.notes


def test_compaction_with_replacement_history_resets_the_items(tmp_path: Path) -> None:
    replacement = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "summary"}]}
    ]
    path = write(
        tmp_path,
        user("one"),
        call("call_1"),
        output("call_1"),
        rec("compacted", {"message": "", "replacement_history": replacement}),
        user("two"),
    )
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "human"]
    assert [loc.line for loc in session.source.locations] == [4, 5]
    assert session.metadata["compactions"] == [{"line": 4, "replaced_items": 3, "kept_items": 1}]
    assert (
        "line 4: compaction replaced 3 items with 1 (earlier items are not in the history Codex sends after it)"
        in (session.source.notes)
    )


def test_compaction_without_replacement_keeps_user_messages_and_the_summary(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        user("one"),
        call("call_1"),
        output("call_1"),
        rec("compacted", {"message": "we listed files"}),
    )
    session = toolhist.load(path)
    texts = [b.text for m in session.messages for b in m.blocks if b.type == "text"]
    assert texts == ["one", "we listed files"]


@pytest.mark.parametrize(
    ("bad", "reason", "json_path"),
    [
        (
            {"timestamp": "t", "type": "bogus", "payload": {}},
            "unknown line type 'bogus'; expected one of ['compacted', 'event_msg', 'response_item', 'session_meta', 'turn_context', 'world_state']",
            "type",
        ),
        ({"timestamp": "t", "type": "response_item", "payload": []}, "expected an object", "payload"),
        (
            item({"type": "function_call", "name": "shell", "arguments": "{}"}),
            "expected a string, got null",
            "payload.call_id",
        ),
        (rec("compacted", {}), "a compaction needs a string 'message'", "payload.message"),
    ],
)
def test_malformed_lines_name_file_line_and_field(
    tmp_path: Path, bad: dict[str, Any], reason: str, json_path: str
) -> None:
    path = write(tmp_path, META, bad)
    for fmt in (None, "codex"):  # named, and sniffed: the broken line does not hide the format
        with pytest.raises(LoadError) as info:
            toolhist.load(path, format=fmt)
        assert (info.value.file, info.value.line, info.value.json_path) == (str(path), 2, json_path)
        assert info.value.reason == f"not a valid codex log: {reason}"
