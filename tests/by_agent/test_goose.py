"""Goose's sessions read as Goose sends them: agent-visible messages repaired by ``fix_conversation``."""

from __future__ import annotations

import json
from typing import Any

import toolhist
from toolhist.model import Session, TextBlock

META = {"working_dir": "/w", "description": "d"}


def msg(role: str, *content: dict[str, Any], visible: bool = True) -> dict[str, Any]:
    return {
        "role": role,
        "created": 1,
        "content": list(content),
        "metadata": {"userVisible": True, "agentVisible": visible},
    }


def text(t: str) -> dict[str, Any]:
    return {"type": "text", "text": t}


def req(i: str) -> dict[str, Any]:
    return {
        "type": "toolRequest",
        "id": i,
        "toolCall": {"status": "success", "value": {"name": "shell", "arguments": {"c": i}}},
    }


def resp(i: str) -> dict[str, Any]:
    return {
        "type": "toolResponse",
        "id": i,
        "toolResult": {"status": "success", "value": [{"type": "text", "text": "ok"}]},
    }


def load(*messages: dict[str, Any]) -> Session:
    return toolhist.load("\n".join(json.dumps(m) for m in (META, *messages)), format="goose")


def test_a_tool_response_is_a_tool_message_before_the_rest_of_its_user_message() -> None:
    session = load(
        msg("user", text("go")), msg("assistant", req("a")), msg("user", resp("a"), text("and now?"))
    )
    assert [(m.speaker, [b.type for b in m.blocks]) for m in session.messages] == [
        ("human", ["text"]),
        ("ai", ["tool_call"]),
        ("tool", ["tool_response"]),
        ("human", ["text"]),
    ]


def test_fix_conversation_drops_hidden_orphaned_and_leading_content() -> None:
    session = load(
        msg("assistant", text("hello from before")),
        msg("user", text("hidden"), visible=False),
        msg("user", text("go"), resp("nobody")),
        msg("assistant", text("a "), text("b   "), req("never")),
        msg("user", text("next")),
    )
    assert [(m.speaker, [b.type for b in m.blocks]) for m in session.messages] == [
        ("human", ["text"]),
        ("ai", ["text"]),
        ("human", ["text"]),
    ]
    assert session.messages[1].blocks == (TextBlock(text="a b"),)
    assert [u.kind for u in session.unsent] == [
        "leading assistant message",
        "not agent-visible",
        "tool response to no earlier request",
        "unanswered tool request",
    ]


def test_an_empty_conversation_is_hello_and_unknown_content_is_named() -> None:
    session = load(msg("user", text("x"), visible=False), msg("user", {"type": "hologram"}, text("")))
    assert [m.blocks for m in session.messages] == [(TextBlock(text="Hello"),)]
    assert session.source.skipped == {"content type 'hologram'": 1}
