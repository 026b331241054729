"""The ``qwen-code`` reader: the record tree, compression, curation, and the content generator's wire."""

from __future__ import annotations

import json
from typing import Any

import pytest

import toolhist
from toolhist.agents.qwen_code.reader import looks_qwen
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock
from toolhist.ran_on import ran_on


def rec(
    uuid: str, parent: str | None, kind: str, message: dict[str, Any] | None = None, **extra: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "uuid": uuid,
        "parentUuid": parent,
        "sessionId": "s",
        "timestamp": "2026-01-01T00:00:00.000Z",
    }
    out |= {"type": kind, "cwd": "/w", "version": "0.8.0"}
    if message is not None:
        out["message"] = message
    return out | extra


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "parts": [{"text": text}]}


def model(*parts: dict[str, Any]) -> dict[str, Any]:
    return {"role": "model", "parts": list(parts)}


def call(cid: str) -> dict[str, Any]:
    return {"functionCall": {"id": cid, "name": "read_file", "args": {"path": "a"}}}


def response(cid: str) -> dict[str, Any]:
    return {
        "role": "user",
        "parts": [{"functionResponse": {"id": cid, "name": "read_file", "response": {"output": "x"}}}],
    }


def load(*records: dict[str, Any], fmt: str | None = None) -> toolhist.Session:
    return toolhist.load("".join(json.dumps(r) + "\n" for r in records), format=fmt)


def test_the_openai_generator_drops_orphans_but_keeps_the_pending_calls() -> None:
    s = load(
        rec("1", None, "user", user("go")),
        rec("2", "1", "assistant", model(call("c1")), model="qwen3-coder-plus"),  # cancelled: no response
        rec("3", "2", "user", user("again")),
        rec(
            "4",
            "3",
            "assistant",
            model({"text": "why", "thought": True}, call("c2")),
            model="qwen3-coder-plus",
        ),
    )
    assert s.source.format == "qwen-code"
    assert [m.speaker for m in s.messages] == ["human", "human", "ai"]
    assert s.messages[2].blocks == (
        ThinkingBlock(
            text="why", source_provider="openai-chat", provider_data={"field": "reasoning_content"}
        ),
        ToolCallBlock(
            id="c2",
            name="read_file",
            parameters={"path": "a"},
            raw_id="c2",
            raw_arguments='{"path":"a"}',
            provider_data={"type": "function"},
        ),
    )
    assert [u.kind for u in s.unsent] == ["orphan tool call"]
    ran = ran_on(s)
    assert ran is not None
    assert (ran.named, ran.provider) == ("qwen-oauth", "openai-chat")


def test_a_compression_checkpoint_replaces_the_history_before_it() -> None:
    compressed = [user("summary of earlier work"), model({"text": "Got it."})]
    s = load(
        rec("1", None, "user", user("old")),
        rec("2", "1", "assistant", model({"text": "old answer"})),
        rec(
            "3",
            "2",
            "system",
            subtype="chat_compression",
            systemPayload={"info": {}, "compressedHistory": compressed},
        ),
        rec("4", "3", "user", user("new")),
        rec(
            "5",
            "4",
            "system",
            subtype="session_model",
            systemPayload={"modelId": "gemini-2.5-pro", "authType": "gemini"},
        ),
    )
    texts = [[b.text for b in m.blocks if isinstance(b, TextBlock)] for m in s.messages]
    assert texts == [["summary of earlier work"], ["Got it."], ["new"]]
    assert [u.kind for u in s.unsent] == ["compressed user", "compressed assistant"]
    assert s.metadata["auth_type"] == "gemini"
    ran = ran_on(s)
    assert ran is not None
    assert (ran.named, ran.provider, ran.evidence) == ("gemini", "gemini", "system/session_model authType")


def test_an_invalid_model_turn_is_curated_out() -> None:
    s = load(
        rec("1", None, "user", user("go")),
        rec("2", "1", "assistant", model({"text": ""})),
        rec("3", "2", "user", user("hello?")),
        rec("4", "3", "assistant", model({"text": "hi"})),
    )
    assert [m.speaker for m in s.messages] == ["human", "human", "ai"]
    assert [u.kind for u in s.unsent] == ["invalid model turn"]


def test_claude_code_lines_are_not_claimed() -> None:
    first: dict[str, Any] = {"uuid": "u", "parentUuid": None, "sessionId": "s", "type": "user"}
    first["message"] = {"role": "user", "content": "hi"}
    second = {**first, "uuid": "v", "parentUuid": "u", "type": "assistant"}
    second["message"] = {"role": "assistant", "content": [{"type": "text", "text": "yo"}]}
    assert looks_qwen([first, second]) == 0
    assert toolhist.load(json.dumps(first) + "\n" + json.dumps(second) + "\n").source.format == "claude-code"


def test_the_recording_and_its_response_pair_across_records() -> None:
    s = load(
        rec("1", None, "user", user("go")),
        rec("2", "1", "assistant", model(call("c1"))),
        rec("3", "2", "tool_result", response("c1")),
        rec("4", "3", "assistant", model({"text": "done"})),
    )
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "ai"]
    assert not s.unsent


@pytest.mark.parametrize(
    ("message", "note"),
    [
        (
            None,
            "line 2: skipped a record of kind `user` whose `message` is null: expected an object, got null",
        ),
        ({"role": "user", "parts": 7}, "whose `message.parts` is a number: expected an array, got number"),
        (
            {"role": "user", "parts": ["x"]},
            "whose `message.parts[0]` is a string: expected an object, got string",
        ),
        (
            {"role": "user", "parts": [{"functionResponse": {"id": ["c"], "response": {}}}]},
            "whose `message.parts[0].functionResponse.id` is an array: expected a string, got array",
        ),
    ],
)
def test_a_damaged_message_is_left_out_and_named_and_the_chain_holds(message: Any, note: str) -> None:
    """The record stays in the tree (the records after it still reach the first), its message goes."""
    s = load(
        rec("1", None, "user", user("go")),
        rec("2", "1", "user") | {"message": message},
        rec("3", "2", "user", user("on")),
        fmt="qwen-code",  # sniffing wants every message's parts a list
    )
    assert [b.text for m in s.messages for b in m.blocks if isinstance(b, TextBlock)] == ["go", "on"]
    assert s.source.skipped == {"unreadable user": 1}
    assert any(
        n.startswith("line 2: skipped a record of kind `user`") and n.endswith(note) for n in s.source.notes
    )
    assert s.unsent == ()


def test_a_call_id_that_is_not_a_string_leaves_its_message_out() -> None:
    bad = {"functionCall": {"id": {"k": 1}, "name": "read_file", "args": {}}}
    s = load(
        rec("1", None, "user", user("go")), rec("2", "1", "assistant", model(bad), model="qwen3-coder-plus")
    )
    assert [m.speaker for m in s.messages] == ["human"]
    assert (
        "line 2: skipped a record of kind `assistant` whose `message.parts[0].functionCall.id` is an object: "
        "expected a string, got object" in s.source.notes
    )


@pytest.mark.parametrize("kind", [["user"], {"k": 1}, 7])
def test_a_type_that_is_not_a_string_is_a_kind_qwen_code_does_not_write(kind: Any) -> None:
    s = load(rec("1", None, "user", user("go")), rec("2", "1", "user", user("x")) | {"type": kind})
    assert [m.speaker for m in s.messages] == ["human"]
    assert s.source.skipped == {"record without a string 'type'": 1}
    assert any("record without a string 'type' x1 (first on line 2)" in n for n in s.source.notes)


@pytest.mark.parametrize("parts", [[{"k": 1}], [{"text": None}], []])
def test_a_content_the_openai_converter_makes_nothing_of_is_kept_unsent(parts: list[Any]) -> None:
    s = load(rec("1", None, "user", user("go")), rec("2", "1", "user", {"role": "user", "parts": parts}))
    assert [m.speaker for m in s.messages] == ["human"]
    assert [(u.kind, u.line, u.before) for u in s.unsent] == [("content sent as nothing", 2, 1)]
    assert (
        "removed by Qwen Code's OpenAI converter (session.unsent): content sent as nothing x1"
        in s.source.notes
    )
