"""llxprt checkpoint reader: ``/chat save`` checkpoints and session recording replay."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.readers import READERS

HISTORY = [
    {"role": "user", "parts": [{"text": "list files"}]},
    {
        "role": "model",
        "parts": [{"functionCall": {"id": "hist_tool_1", "name": "glob", "args": {"pattern": "*"}}}],
    },
    {
        "role": "user",
        "parts": [
            {"functionResponse": {"id": "hist_tool_1", "name": "glob", "response": {"output": "a.py"}}}
        ],
    },
    {"role": "model", "parts": [{"text": "One file: a.py"}]},
]


def test_checkpoint_reads_gemini_contents_and_keeps_context() -> None:
    session = toolhist.load({"history": HISTORY, "context": {"tag": "t1"}})
    assert session.source.format == "llxprt-checkpoint"
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai"]
    (fc,) = session.messages[1].tool_calls()
    (fr,) = session.messages[2].tool_responses()
    assert (fc.id, fr.call_id, fr.tool_name) == ("hist_tool_1", "hist_tool_1", "glob")
    assert session.metadata == {"kind": "checkpoint", "context": {"tag": "t1"}}
    errors = {
        p: {v.rule for v in toolhist.validate(session, p) if v.severity == "error"}
        for p in toolhist.PROVIDERS
    }
    # valid everywhere but Mistral: its 9-character ids, and a history ending on the assistant
    # as it stands it ends on the model's answer right after a tool result: Mistral's last role, and
    # an assistant prefill with tools for Bedrock (judged as the next request, neither applies)
    assert errors == {p: set() for p in toolhist.PROVIDERS} | {
        "mistral": {"mis.id_format", "mis.last_role"},
        "bedrock": {"brk.prefill_tools"},
    }


def test_detection_scores() -> None:
    reader = READERS["llxprt-checkpoint"]
    assert reader.recognise({"history": HISTORY, "context": {}}) == 2
    assert reader.recognise({"history": HISTORY}) == 1
    assert reader.recognise(HISTORY) == 0  # the legacy bare list is a plain Gemini list
    assert toolhist.load(HISTORY).source.format == "gemini"


def record(seq: int, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"v": 1, "seq": seq, "ts": "2026-03-01T10:00:00.000Z", "type": kind, "payload": payload}


def content(speaker: str, *blocks: dict[str, Any]) -> dict[str, Any]:
    return {"speaker": speaker, "blocks": list(blocks)}


TEXT = {"type": "text", "text": "hi"}


def write(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "session-2026-03-01T10-00-00-abcdef123456.jsonl"
    path.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    return path


def test_recording_replays_content_compression_and_rewind(tmp_path: Path) -> None:
    call = {"type": "tool_call", "id": "hist_tool_2", "name": "glob", "parameters": {}}
    answer = {"type": "tool_response", "callId": "hist_tool_2", "toolName": "glob", "result": "a.py"}
    path = write(
        tmp_path,
        record(1, "session_start", {"sessionId": "abc", "provider": "gemini", "model": "gemini-2.5-pro"}),
        record(2, "content", {"content": content("human", TEXT)}),
        record(3, "content", {"content": content("ai", TEXT)}),
        record(
            4,
            "compressed",
            {"summary": content("human", {"type": "text", "text": "summary"}), "itemsCompressed": 2},
        ),
        record(5, "content", {"content": content("ai", call)}),
        record(6, "content", {"content": content("tool", answer)}),
        record(7, "content", {"content": content("human", TEXT)}),
        record(8, "rewind", {"itemsRemoved": 1}),
        record(9, "provider_switch", {"provider": "openai", "model": "gpt-4.1"}),
        record(10, "session_event", {"kind": "x"}),
    )
    session = toolhist.load(path)
    assert session.source.format == "llxprt-checkpoint"
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool"]
    assert [loc.line for loc in session.source.locations] == [4, 5, 6]
    assert session.request == {"model": "gpt-4.1"}
    assert session.source.notes == (
        "line 4: compression replaced 2 messages with its summary",
        "line 8: rewind removed the last 1 messages",
        "records not in the history: session_event x1",
    )
    assert session.metadata["provider_switches"] == [{"line": 9, "provider": "openai", "model": "gpt-4.1"}]


@pytest.mark.parametrize(
    ("bad", "reason", "json_path"),
    [
        (record(2, "wat", {}), "unknown record type 'wat'", "type"),
        (
            record(2, "content", {"content": content("robot", TEXT)}),
            "unknown speaker 'robot'; expected human, ai or tool",
            "payload.content.speaker",
        ),
        (
            record(2, "rewind", {"itemsRemoved": -1}),
            "expected a non-negative integer",
            "payload.itemsRemoved",
        ),
        (
            record(2, "content", {"content": content("ai", {"type": "tool_call", "name": "x"})}),
            "expected a string, got null",
            "payload.content.blocks[0].id",
        ),
    ],
)
def test_malformed_records_name_file_line_and_field(
    tmp_path: Path, bad: dict[str, Any], reason: str, json_path: str
) -> None:
    path = write(tmp_path, record(1, "session_start", {"model": "m"}), bad)
    for fmt in (None, "llxprt-checkpoint"):  # named, and sniffed: the broken line does not hide the format
        with pytest.raises(LoadError) as info:
            toolhist.load(path, format=fmt)
        assert (info.value.file, info.value.line, info.value.json_path) == (str(path), 2, json_path)
        assert info.value.reason == f"not a valid llxprt-checkpoint log: {reason}"
