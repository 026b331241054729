"""LangChain: BaseMessage lists made by the real langchain-core (and its fake chat model), live and dumped."""

from __future__ import annotations

import json
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.load import dumpd, dumps
from langchain_core.messages import (
    AIMessage,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
    messages_to_dict,
)

import toolhist
from toolhist.model import ThinkingBlock, ToolCallBlock, ToolResponseBlock

CALL = {"name": "get_weather", "args": {"city": "Paris"}, "id": "call_1"}
HISTORY: list[BaseMessage] = [
    SystemMessage("Be brief."),
    HumanMessage("Weather in Paris?"),
    AIMessage("", tool_calls=[CALL]),
    ToolMessage("sunny", tool_call_id="call_1", name="get_weather"),
    AIMessage("It is sunny."),
]
SHAPE = [
    ("system", ["text"]),
    ("human", ["text"]),
    ("ai", ["tool_call"]),
    ("tool", ["tool_response"]),
    ("ai", ["text"]),
]


def shape(session: toolhist.Session) -> list[tuple[str, list[str]]]:
    return [(m.speaker, [b.type for b in m.blocks]) for m in session.messages]


FORMS: dict[str, Any] = {
    "live": HISTORY,
    "messages_to_dict": messages_to_dict(HISTORY),
    "dumpd": [dumpd(m) for m in HISTORY],
    "dumps": json.loads(dumps(HISTORY)),
    "model_dump": [m.model_dump() for m in HISTORY],
    "state": {"messages": HISTORY},
    "dumped state": {"messages": messages_to_dict(HISTORY)},
}


@pytest.mark.parametrize("form", list(FORMS))
def test_every_serialised_form_reads_the_same(form: str) -> None:
    session = toolhist.load(FORMS[form])
    assert session.source.format == "langchain"
    assert shape(session) == SHAPE
    call = session.messages[2].blocks[0]
    result = session.messages[3].blocks[0]
    assert isinstance(call, ToolCallBlock)
    assert isinstance(result, ToolResponseBlock)
    assert (call.id, call.name, call.parameters) == ("call_1", "get_weather", {"city": "Paris"})
    assert (result.call_id, result.result) == ("call_1", "sunny")


def test_a_fake_chat_model_answer_joins_the_history() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("", tool_calls=[CALL])]))
    history: list[BaseMessage] = [HumanMessage("Weather in Paris?")]
    history.append(model.invoke(history))
    assert [v.rule for v in toolhist.validate(history, "openai-chat")] == ["oai.call_unanswered"]
    history.append(ToolMessage("sunny", tool_call_id="call_1"))
    assert toolhist.validate(history, "openai-chat") == []


def test_orphaned_tool_message_after_trimming_is_named() -> None:
    """The case of langchain-ai/langchain's open issue: trimming drops the call, keeps its result."""
    trimmed = HISTORY[3:]
    assert "oai.tool_orphan" in [v.rule for v in toolhist.validate(trimmed, "openai-chat")]


def test_a_provider_copy_of_a_call_in_content_is_not_a_second_call() -> None:
    message = AIMessage(
        content=[
            {"type": "thinking", "thinking": "hmm", "signature": "sig"},
            {"type": "tool_use", "id": "call_1", "name": "get_weather", "input": {"city": "Paris"}},
        ],
        tool_calls=[CALL],
    )
    session = toolhist.load([HumanMessage("hi"), message])
    blocks = session.messages[1].blocks
    assert [b.type for b in blocks] == ["thinking", "tool_call"]
    assert isinstance(blocks[0], ThinkingBlock)
    assert blocks[0].signature == "sig"


def test_invalid_tool_calls_keep_their_arguments_verbatim() -> None:
    message = AIMessage(
        "",
        invalid_tool_calls=[
            {"name": "f", "args": "{oops", "id": "c9", "error": "bad json", "type": "invalid_tool_call"}
        ],
    )
    session = toolhist.load([HumanMessage("hi"), message])
    (call,) = session.messages[1].blocks
    assert isinstance(call, ToolCallBlock)
    assert call.raw_arguments == "{oops"
    assert call.arguments_error is not None


def test_remove_messages_are_skipped_and_named() -> None:
    session = toolhist.load([*HISTORY, RemoveMessage(id="x")])
    assert shape(session) == SHAPE
    assert session.source.skipped == {"type 'remove'": 1}


def test_a_tool_error_status_is_an_error() -> None:
    session = toolhist.load(
        [
            HumanMessage("hi"),
            AIMessage("", tool_calls=[CALL]),
            ToolMessage("boom", tool_call_id="call_1", status="error"),
        ]
    )
    result = session.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert result.error == "boom"


@pytest.mark.parametrize("provider", ["anthropic", "openai-chat", "openai-responses", "kimi"])
def test_the_langchain_strategy_is_what_langchain_sends(provider: str) -> None:
    curation = toolhist.curate(HISTORY, provider, strategy="langchain")
    assert curation.library is not None
    assert curation.library.startswith("langchain ")
    assert toolhist.summarize(curation.session).tool_calls == 1
    assert toolhist.summarize(curation.session).tool_results == 1


def test_the_langchain_strategy_keeps_a_history_it_has_no_integration_for() -> None:
    kept = toolhist.curate(HISTORY, "gemini", strategy="langchain")
    assert [c.action for c in kept.changes] == ["keep"]
    assert kept.session.messages == toolhist.load(HISTORY).messages
