"""The ``gemini-cli`` reader: checkpoints, session JSONL (rewind, $set, UI-only records), errors."""

from __future__ import annotations

import json

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock

META = {"sessionId": "s1", "projectHash": "h", "startTime": "2025-12-02T08:00:00.000Z", "lastUpdated": "x"}
USER = {"id": "m1", "timestamp": "2025-12-02T08:00:01.000Z", "type": "user", "content": [{"text": "ls"}]}
CALL = {
    "id": "ls-1",
    "name": "list_directory",
    "args": {"path": "."},
    "status": "success",
    "timestamp": "2025-12-02T08:00:02.000Z",
    "result": [
        {"functionResponse": {"id": "ls-1", "name": "list_directory", "response": {"output": "a.ts"}}}
    ],
}
GEMINI = {
    "id": "m2",
    "timestamp": "2025-12-02T08:00:02.000Z",
    "type": "gemini",
    "content": "Listing.",
    "model": "gemini-2.5-pro",
    "toolCalls": [CALL],
    "thoughts": [{"subject": "s", "description": "d", "timestamp": "t"}],
}


def _jsonl(*lines: object) -> str:
    return "".join(json.dumps(line) + "\n" for line in lines)


def test_session_records_become_call_and_result_turns() -> None:
    s = toolhist.load(_jsonl(META, USER, GEMINI))
    assert s.source.format == "gemini-cli"
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert s.messages[1].blocks == (
        TextBlock(text="Listing."),
        ToolCallBlock(
            id="ls-1",
            name="list_directory",
            parameters={"path": "."},
            raw_id="ls-1",
            provider_data={"status": "success", "timestamp": "2025-12-02T08:00:02.000Z"},
        ),
    )
    assert s.messages[2].blocks == (
        ToolResponseBlock(
            call_id="ls-1", tool_name="list_directory", result={"output": "a.ts"}, raw_call_id="ls-1"
        ),
    )
    meta = s.messages[1].metadata
    assert (meta.model, meta.turn_id, meta.timestamp) == ("gemini-2.5-pro", "m2", 1764662402.0)
    assert meta.extra == {"thoughts": [{"subject": "s", "description": "d", "timestamp": "t"}]}
    assert s.metadata["sessionId"] == "s1"
    assert [loc.line for loc in s.source.locations] == [2, 3, 3]


def test_cancelled_call_is_an_incomplete_error_result() -> None:
    denied = {"error": "[Operation Cancelled] Reason: User denied execution."}
    call = {
        **CALL,
        "status": "cancelled",
        "result": [{"functionResponse": {"id": "ls-1", "name": "list_directory", "response": denied}}],
    }
    s = toolhist.load(_jsonl(META, USER, {**GEMINI, "toolCalls": [call]}))
    result = s.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert (result.error, result.is_complete) == (denied["error"], False)


def test_rewind_set_and_ui_records() -> None:
    info = {"id": "m3", "timestamp": "t", "type": "info", "content": "Request cancelled."}
    later = {"id": "m4", "timestamp": "t", "type": "user", "content": "oops"}
    s = toolhist.load(
        _jsonl(META, USER, GEMINI, info, later, {"$rewindTo": "m4"}, {"$set": {"summary": "ls"}})
    )
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert s.metadata["summary"] == "ls"
    assert s.source.notes == (
        "line 6: $rewindTo 'm4' removed 1 record(s) (they are not part of the history any more)",
        "1 info/error/warning record(s) are shown to the user only and never sent to the model: "
        "kept in session.unsent, not made messages",
    )
    (kept,) = s.unsent
    assert (kept.kind, kept.before, kept.line, kept.text, kept.json_path) == (
        "info record",
        3,
        4,
        "Request cancelled.",
        "[3]",
    )
    assert kept.data == {"id": "m3", "timestamp": "t", "type": "info"}


def test_unknown_record_kinds_are_skipped_and_counted() -> None:
    # A record kind newer than the reader (shape of a MessageRecord, type unknown) and a line of no
    # known shape: both skipped and named, the rest read.
    tool_group = {"id": "m5", "timestamp": "t", "type": "tool_group", "content": ""}
    s = toolhist.load(_jsonl(META, USER, tool_group, {"checkpoint": 3}, GEMINI))
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert s.source.skipped == {"line of an unknown shape": 1, "record type 'tool_group'": 1}
    assert s.source.notes[-1] == (
        "skipped 2 record(s) this reader does not know: line of an unknown shape x1 (first on line 4), "
        "record type 'tool_group' x1 (first on line 3)"
    )


def test_legacy_json_conversation_record() -> None:
    s = toolhist.load({**META, "messages": [USER, GEMINI]})
    assert s.source.format == "gemini-cli"
    assert len(s.messages) == 3


def test_legacy_json_with_an_unknown_record_kind_is_detected_and_skips_it() -> None:
    """It read with Format = gemini-cli, but detection called it an unknown format: one kind too new."""
    tool_group = {"id": "m5", "timestamp": "t", "type": "tool_group", "content": ""}
    s = toolhist.load({**META, "messages": [USER, tool_group, GEMINI]})
    assert s.source.format == "gemini-cli"
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert s.source.skipped == {"record type 'tool_group'": 1}


def test_checkpoint_history_reads_as_gemini_contents() -> None:
    checkpoint = {
        "history": [
            {"role": "user", "parts": [{"text": "ls"}]},
            {"role": "model", "parts": [{"functionCall": {"name": "ls", "args": {}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "ls", "response": {"output": "a"}}}]},
        ],
        "authType": "oauth-personal",
    }
    s = toolhist.load(checkpoint)
    assert s.source.format == "gemini-cli"
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert s.metadata == {"kind": "checkpoint", "authType": "oauth-personal"}
    call, result = s.messages[1].blocks[0], s.messages[2].blocks[0]
    assert isinstance(call, ToolCallBlock)
    assert isinstance(result, ToolResponseBlock)
    assert result.call_id == call.id == "gemini-1-0"


def test_llxprt_checkpoint_with_context_is_not_claimed() -> None:
    from toolhist.agents.gemini_cli.reader import GeminiCliReader

    value = {"history": [{"role": "user", "parts": [{"text": "x"}]}], "context": []}
    assert GeminiCliReader().recognise(value) == 0


def test_rewind_to_an_unknown_record_drops_every_message() -> None:
    """Gemini CLI's ``loadConversationRecord`` clears its messages when no record has the id."""
    session = toolhist.load(_jsonl(META, USER, {"$rewindTo": "nope"}), format="gemini-cli")
    assert session.messages == ()
    assert (
        "line 3: $rewindTo 'nope' removed 1 record(s), which no earlier record has, so Gemini CLI drops "
        "them all (they are not part of the history any more)" in session.source.notes
    )


def test_a_rewritten_record_replaces_the_message_where_it_stood() -> None:
    """The session file is an upsert log: the last version of an id wins, in the first one's place."""
    first = {**GEMINI, "toolCalls": [{**CALL, "result": None}]}
    later = {"id": "u2", "type": "user", "timestamp": "2025-12-02T08:00:09.000Z", "content": "thanks"}
    session = toolhist.load(_jsonl(META, USER, first, later, GEMINI), format="gemini-cli")
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "human"]
    assert sum(len(list(m.tool_calls())) for m in session.messages) == 1
    assert (
        "1 record(s) rewrite a message already written (same id): Gemini CLI keeps the last version of "
        "each, where the first one stood" in session.source.notes
    )


def test_set_messages_replaces_the_records() -> None:
    session = toolhist.load(_jsonl(META, USER, GEMINI, {"$set": {"messages": [USER]}}), format="gemini-cli")
    assert [m.speaker for m in session.messages] == ["human"]
    assert "messages" not in session.metadata
    assert (
        "line 4: $set.messages replaces the 2 message record(s) with 1 (Gemini CLI loads those instead)"
        in session.source.notes
    )


def test_tool_call_without_name_names_the_field() -> None:
    bad = {**GEMINI, "toolCalls": [{"id": "x", "args": {}}]}
    with pytest.raises(LoadError) as err:
        toolhist.load(_jsonl(META, USER, bad), format="gemini-cli")
    assert str(err.value) == (
        "<text>:3: at [2].toolCalls[0].name: not a valid gemini-cli session: expected a string, got null"
    )


def test_history_is_built_as_convert_session_to_client_history_does() -> None:
    """Slash commands and empty model records are not sent; a text result is the call's output;
    a call already in the content is sent once (gemini-cli ``sessionUtils.ts``)."""
    slash = {"id": "c1", "type": "user", "content": [{"text": "/chat save x"}]}
    empty = {"id": "e1", "type": "gemini", "content": "", "model": "gemini-2.5-pro"}
    in_content = {"functionCall": {"id": "ls-1", "name": "list_directory", "args": {"path": "."}}}
    text_result = {**CALL, "result": "a.ts"}
    twice = {**GEMINI, "content": [in_content], "toolCalls": [text_result]}
    session = toolhist.load(_jsonl(META, USER, slash, empty, twice), format="gemini-cli")
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool"]
    assert [(b.id, b.name) for m in session.messages for b in m.tool_calls()] == [("ls-1", "list_directory")]
    (result,) = [b for m in session.messages for b in m.tool_responses()]
    assert (result.call_id, result.tool_name, result.result) == ("ls-1", "list_directory", {"output": "a.ts"})
    assert [(u.kind, u.line, u.text) for u in session.unsent] == [
        ("user record", 3, "/chat save x"),
        ("gemini record", 4, ""),
    ]
