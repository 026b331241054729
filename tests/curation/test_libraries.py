"""The library ports (litellm-port, vercel-ai, openai-agents-port; `tests/peers` runs the real libraries): each behaviour of LiteLLM, the AI SDK and the Agents SDK on a minimal
history with its exact curated output, then what each leaves for every provider on seed 000's
failure modes."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest
from builders import ai, call, human, result, tool
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings
from library_cases import SEEDS, declared

from toolhist.curation import Curation, curate
from toolhist.curation.libraries_agents import REJECTION_MESSAGE, curate_with_rejections
from toolhist.curation.libraries_litellm import EMPTY_TEXT_PLACEHOLDER, skipped_result_text
from toolhist.curation.libraries_vercel import missing_results_message
from toolhist.curation.strategies import STRATEGY_REGISTRY
from toolhist.model import Message, Session, SessionSource, TextBlock, ThinkingBlock, ToolResponseBlock
from toolhist.providers import PROVIDERS, render, validate

LIBRARIES = ("litellm-port", "vercel-ai", "openai-agents-port")


def shape(curation: Curation) -> list[tuple[str, list[str]]]:
    """Each message as (speaker, blocks), a block as ``type:id`` or ``text:…``; synthetic marked ``*``."""
    out = []
    for message in curation.session.messages:
        blocks = []
        for block in message.blocks:
            if isinstance(block, TextBlock):
                blocks.append(f"text:{block.text}")
            elif isinstance(block, ToolResponseBlock):
                blocks.append(f"result:{block.call_id}")
            elif isinstance(block, ThinkingBlock):
                blocks.append("thinking")
            else:
                blocks.append(f"{block.type}:{getattr(block, 'id', '')}")
        out.append((message.speaker + ("*" if message.metadata.synthetic else ""), blocks))
    return out


def at(position: Any) -> tuple[int, int | None] | None:
    return None if position is None else (position.message, position.block)


def changes(curation: Curation) -> list[tuple[str, str, str | None, Any, Any]]:
    return [(c.pass_, c.action, c.call_id, at(c.before), at(c.after)) for c in curation.changes]


def rules(s: Session, provider: str, strategy: str) -> list[str]:
    return sorted({v.rule for v in validate(s, provider, strategy=strategy)})


# --- registry -------------------------------------------------------------------------------------


def test_the_three_strategies_are_registered_and_pass_ids_through() -> None:
    s = SEEDS["A"]()
    for name in LIBRARIES:
        assert name in STRATEGY_REGISTRY
        for provider in PROVIDERS:
            curated = curate(s, provider, strategy=name).session
            assert STRATEGY_REGISTRY[name].edge_ids(curated, provider) == (curated, {})
            assert render(s, provider, strategy=name).id_map == {}


# --- LiteLLM --------------------------------------------------------------------------------------


def test_litellm_case_a_adds_a_placeholder_result_after_the_real_ones() -> None:
    s = declared(human("go"), ai(call("a"), call("b", "grep")), tool(result("a")), human("next"), ai("fine"))
    c = curate(s, "anthropic", strategy="litellm-port")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["tool_call:a", "tool_call:b"]),
        ("tool", ["result:a"]),
        ("tool*", ["result:b"]),
        ("human", ["text:next"]),
        ("ai", ["text:fine"]),
    ]
    made = c.session.messages[3]
    block = made.blocks[0]
    assert isinstance(block, ToolResponseBlock)
    assert (
        block.result
        == "[System: Tool execution skipped/interrupted by user. No result provided for tool 'grep'.]"
    )
    assert block.result == skipped_result_text("grep")
    assert (block.tool_name, block.is_complete) == ("grep", False)
    assert made.metadata.reason == (
        "LiteLLM (modify_params) invents a result for call b (grep): no tool message answers it before the "
        "next assistant message"
    )
    assert changes(c) == [("add_missing_tool_results", "synthesize", "b", None, (3, 0))]
    assert c.changes[0].reason == made.metadata.reason
    assert c.session.messages[2] is s.messages[2]  # untouched messages are the same objects


def test_litellm_case_b_judges_results_by_the_most_recent_assistant_message_only() -> None:
    # call a is answered only after a later assistant message: Case A invents a result for it, and
    # Case B then drops the real one, since the latest assistant message has no call a.
    s = declared(human("go"), ai(call("a")), ai("thinking aloud"), tool(result("a", "real")))
    c = curate(s, "anthropic", strategy="litellm-port")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["tool_call:a"]),
        ("tool*", ["result:a"]),
        ("ai", ["text:thinking aloud"]),
    ]
    assert changes(c) == [
        ("add_missing_tool_results", "synthesize", "a", None, (2, 0)),
        ("drop_orphaned_tool_results", "drop", "a", (3, 0), None),
    ]
    assert c.changes[1].reason == (
        "LiteLLM drops a tool result whose id is not among the calls of the most recent assistant message"
    )
    assert c.changes[1].dropped == {
        "call_id": "a",
        "tool_name": "read_file",
        "result": "real",
        "raw_call_id": "a",
    }


def test_litellm_case_b_drops_a_result_with_an_unknown_id() -> None:
    s = declared(human("go"), ai(call("a")), tool(result("a"), result("x")))
    c = curate(s, "anthropic", strategy="litellm-port")
    assert shape(c) == [("human", ["text:go"]), ("ai", ["tool_call:a"]), ("tool", ["result:a"])]
    assert changes(c) == [("drop_orphaned_tool_results", "drop", "x", (2, 1), None)]


def test_litellm_case_c_fills_blank_user_and_assistant_text() -> None:
    s = declared(human(" "), ai("", call("a")), tool(result("a")), human("ok"))
    c = curate(s, "anthropic", strategy="litellm-port")
    assert shape(c) == [
        ("human", [f"text:{EMPTY_TEXT_PLACEHOLDER}"]),
        ("ai", [f"text:{EMPTY_TEXT_PLACEHOLDER}", "tool_call:a"]),
        ("tool", ["result:a"]),
        ("human", ["text:ok"]),
    ]
    assert EMPTY_TEXT_PLACEHOLDER == "[System: Empty message content sanitised to satisfy protocol]"
    assert changes(c) == [
        ("sanitize_empty_text_content", "fill", None, (0, 0), (0, 0)),
        ("sanitize_empty_text_content", "fill", None, (1, 0), (1, 0)),
    ]
    assert c.changes[0].detail == {"old_text": " ", "new_text": EMPTY_TEXT_PLACEHOLDER}
    assert rules(s, "anthropic", "none") == ["ant.empty_text"]
    assert rules(s, "anthropic", "litellm-port") == []


def test_litellm_case_d_keeps_the_last_of_duplicate_results() -> None:
    s = declared(human("go"), ai(call("a")), tool(result("a", "first")), tool(result("a", "second")))
    c = curate(s, "anthropic", strategy="litellm-port")
    assert shape(c) == [("human", ["text:go"]), ("ai", ["tool_call:a"]), ("tool", ["result:a"])]
    kept = c.session.messages[2].blocks[0]
    assert isinstance(kept, ToolResponseBlock)
    assert kept.result == "second"
    assert changes(c) == [("dedupe_tool_results", "conflict", "a", (2, 0), None)]
    assert c.changes[0].detail["kept"] == {
        "call_id": "a",
        "tool_name": "read_file",
        "result": "second",
        "raw_call_id": "a",
    }


def test_litellm_case_a_skips_by_count_losing_a_user_message_and_resending_a_result() -> None:
    # LiteLLM gathers a and b, invents c, then skips 2 messages (the count of a and b): the user's
    # "wait" is never sent, and b is read again; Case D then drops the first b.
    s = declared(
        human("go"),
        ai(call("a"), call("b", "grep"), call("c")),
        tool(result("a")),
        human("wait"),
        tool(result("b", name="grep")),
    )
    c = curate(s, "anthropic", strategy="litellm-port")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["tool_call:a", "tool_call:b", "tool_call:c"]),
        ("tool", ["result:a"]),
        ("tool*", ["result:c"]),
        ("tool", ["result:b"]),
    ]
    assert changes(c) == [
        ("add_missing_tool_results", "synthesize", "c", None, (3, 0)),
        ("add_missing_tool_results", "drop", None, (3, None), None),
        ("add_missing_tool_results", "insert", "b", (4, 0), (4, 0)),
        ("dedupe_tool_results", "dedupe", "b", (4, 0), None),
    ]
    assert c.changes[1].dropped == {"speaker": "human", "blocks": [{"text": "wait"}]}
    assert c.changes[1].reason == (
        "LiteLLM skips the 2 message(s) after the assistant turn that answered some of its calls, counting "
        "only its results; this user message fell in that count and is not sent"
    )


def test_litellm_repairs_only_the_anthropic_and_bedrock_routes() -> None:
    s = declared(human("go"), ai(call("a")), human("next"))
    for provider in ("openai-chat", "openai-responses", "gemini", "mistral", "kimi"):
        c = curate(s, provider, strategy="litellm-port")
        assert c.session == s
        assert c.changes == ()
    assert rules(s, "openai-chat", "litellm-port") == ["oai.call_unanswered"]
    assert rules(s, "anthropic", "litellm-port") == []


def test_litellm_declares_a_dummy_tool_and_drops_thinking_for_an_anthropic_body() -> None:
    s = Session(
        messages=(human("go"), ai(call("a")), tool(result("a"))),
        request={
            "model": "claude-x",
            "max_tokens": 1024,
            "thinking": {"type": "enabled", "budget_tokens": 512},
        },
        source=SessionSource(format="anthropic"),
    )
    assert rules(s, "anthropic", "none") == ["ant.thinking_first", "ant.tools_required"]
    c = curate(s, "anthropic", strategy="litellm-port")
    assert changes(c) == [
        ("add_dummy_tool", "insert", None, None, None),
        ("drop_thinking_param", "drop", None, None, None),
    ]
    assert c.changes[1].dropped == {"thinking": {"type": "enabled", "budget_tokens": 512}}
    body = render(s, "anthropic", strategy="litellm-port").body
    assert body["tools"] == [
        {
            "name": "dummy_tool",
            "description": "This is a dummy tool call",
            "input_schema": {"type": "object", "properties": {}},
        }
    ]
    assert "thinking" not in body
    assert rules(s, "anthropic", "litellm-port") == []
    assert c.original is s


def test_litellm_keeps_thinking_when_an_assistant_message_has_thinking() -> None:
    s = Session(
        messages=(human("go"), ai(ThinkingBlock(text="hm", signature="sig"), call("a")), tool(result("a"))),
        tools=declared().tools,
        request={"thinking": {"type": "enabled", "budget_tokens": 512}},
        source=SessionSource(format="anthropic"),
    )
    c = curate(s, "anthropic", strategy="litellm-port")
    assert c.changes == ()
    assert c.session.request == s.request


def test_litellm_declares_the_dummy_tool_for_bedrock_as_a_tool_config() -> None:
    s = Session(
        messages=(human("go"), ai(call("a")), tool(result("a")), human("thanks")),
        request={"modelId": "m"},
        source=SessionSource(format="bedrock"),
    )
    assert "brk.toolconfig" in rules(s, "bedrock", "none")
    c = curate(s, "bedrock", strategy="litellm-port")
    assert changes(c) == [
        ("add_dummy_tool", "insert", None, None, None),
        ("bedrock_continue_messages", "insert", None, None, (3, None)),
    ]
    assert render(s, "bedrock", strategy="litellm-port").body["toolConfig"] == {
        "tools": [
            {
                "toolSpec": {
                    "name": "dummy_tool",
                    "description": "This is a dummy tool call",
                    "inputSchema": {"json": {"type": "object", "properties": {}}},
                }
            }
        ]
    }
    assert rules(s, "bedrock", "litellm-port") == []


def test_litellm_drops_bedrock_thinking_from_the_additional_fields() -> None:
    s = Session(
        messages=(human("go"), ai(call("a")), tool(result("a")), human("thanks")),
        tools=declared().tools,
        request={"modelId": "m", "additionalModelRequestFields": {"thinking": {"type": "enabled"}}},
        source=SessionSource(format="bedrock"),
    )
    c = curate(s, "bedrock", strategy="litellm-port")
    assert changes(c)[0] == ("drop_thinking_param", "drop", None, None, None)
    assert c.changes[0].dropped == {"additionalModelRequestFields.thinking": {"type": "enabled"}}
    assert c.session.request == {"modelId": "m"}


def test_litellm_bedrock_continue_messages() -> None:
    # An assistant turn first and last gets a user "Please continue." around it; tool results right
    # before user text get an assistant "Please continue." between them.
    s = declared(ai("Hello."), human("hi"), ai(call("a")), tool(result("a")), human("more"), ai("Done."))
    c = curate(s, "bedrock", strategy="litellm-port")
    assert shape(c) == [
        ("human*", ["text:Please continue."]),
        ("ai", ["text:Hello."]),
        ("human", ["text:hi"]),
        ("ai", ["tool_call:a"]),
        ("tool", ["result:a"]),
        ("ai*", ["text:Please continue."]),
        ("human", ["text:more"]),
        ("ai", ["text:Done."]),
        ("human*", ["text:Please continue."]),
    ]
    assert changes(c) == [
        ("bedrock_continue_messages", "insert", None, None, (0, None)),
        ("bedrock_continue_messages", "insert", None, None, (5, None)),
        ("bedrock_continue_messages", "insert", None, None, (8, None)),
    ]
    assert [ch.reason for ch in c.changes] == [
        "LiteLLM (modify_params) gives a Bedrock conversation that opens with an assistant turn a default "
        "user message first",
        "LiteLLM (modify_params) puts a default assistant message between two user-side turns (user text "
        "right after user-side content), since Bedrock needs the roles to alternate",
        "LiteLLM (modify_params) gives a Bedrock conversation that closes with an assistant turn a default "
        "user message last",
    ]
    assert rules(s, "bedrock", "none") == ["brk.first_user", "brk.mixed_turn", "brk.prefill_tools"]
    assert rules(s, "bedrock", "litellm-port") == []


# --- Vercel AI SDK --------------------------------------------------------------------------------


def test_vercel_ignores_incomplete_tool_calls() -> None:
    s = declared(human("go"), ai("Looking.", call("a")), ai(call("b")), human("never mind"))
    c = curate(s, "openai-chat", strategy="vercel-ai")
    assert shape(c) == [("human", ["text:go"]), ("ai", ["text:Looking."]), ("human", ["text:never mind"])]
    assert changes(c) == [
        ("ignore_incomplete_tool_calls", "drop", "a", (1, 1), None),
        ("ignore_incomplete_tool_calls", "drop", "b", (2, 0), None),
    ]
    assert c.changes[0].reason == (
        "call a (read_file) has no result, so its tool part is still 'input-available'; convertToModelMessages "
        "with ignoreIncompleteToolCalls leaves it out"
    )


def test_vercel_throws_missing_tool_results_and_keeps_the_history() -> None:
    # b is answered, but only after the user spoke: the AI SDK throws before the user message.
    s = declared(human("go"), ai(call("a"), call("b")), tool(result("a")), human("hurry"), tool(result("b")))
    c = curate(s, "openai-chat", strategy="vercel-ai-model")
    assert c.session == s
    assert changes(c) == [("missing_tool_results", "keep", "b", (1, 1), (1, 1))]
    change = c.changes[0]
    assert change.reason == (
        "the AI SDK throws AI_MissingToolResultsError and sends nothing: Tool result is missing for tool call b."
    )
    assert change.detail == {
        "error": "AI_MissingToolResultsError",
        "error_text": "Tool result is missing for tool call b.",
        "tool_call_ids": ["b"],
        "at_message": 3,
    }
    # Nothing is sent, so validate checks the history as given.
    assert (
        rules(s, "openai-chat", "vercel-ai-model")
        == rules(s, "openai-chat", "none")
        == [
            "oai.call_unanswered",
            "oai.tool_orphan",
        ]
    )


def test_vercel_missing_results_message_is_plural_for_several_calls() -> None:
    s = declared(human("go"), ai(call("a"), call("b")), human("hurry"), tool(result("a"), result("b")))
    c = curate(s, "anthropic", strategy="vercel-ai-model")
    assert c.changes[0].detail["error_text"] == "Tool results are missing for tool calls a, b."
    assert missing_results_message(["x"]) == "Tool result is missing for tool call x."
    assert missing_results_message(["x", "y", "z"]) == "Tool results are missing for tool calls x, y, z."


def test_vercel_throws_at_the_end_of_the_prompt_too() -> None:
    # Only tool messages resolve calls: a result stored in the assistant message itself leaves the
    # call unresolved when the prompt ends.
    s = declared(human("go"), ai(call("a"), result("a")))
    c = curate(s, "openai-chat", strategy="vercel-ai-model")
    assert changes(c) == [("missing_tool_results", "keep", "a", (1, 0), (1, 0))]
    assert c.changes[0].detail["at_message"] is None


def test_vercel_counts_a_result_before_its_call_as_no_result() -> None:
    s = declared(human("go"), tool(result("a")), ai(call("a")), tool(result("b")))
    c = curate(s, "openai-chat", strategy="vercel-ai")
    # UI messages: a result before its call is in no tool part (dropped), so the call has none.
    assert shape(c) == [("human", ["text:go"])]
    assert changes(c) == [
        ("ui_message_history", "drop", "a", (1, 0), None),
        ("ui_message_history", "drop", "b", (3, 0), None),
        ("ignore_incomplete_tool_calls", "drop", "a", (2, 0), None),
    ]


def test_vercel_combines_consecutive_tool_messages_and_keeps_orphan_results() -> None:
    s = declared(
        human("go"), ai(call("a"), call("b")), tool(result("a")), tool(result("b")), tool(result("x"))
    )
    c = curate(s, "anthropic", strategy="vercel-ai-model")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["tool_call:a", "tool_call:b"]),
        ("tool", ["result:a", "result:b", "result:x"]),
    ]
    assert changes(c) == [
        ("combine_tool_messages", "merge", None, (3, None), (2, None)),
        ("combine_tool_messages", "merge", None, (4, None), (2, None)),
    ]
    assert rules(s, "anthropic", "vercel-ai-model") == ["ant.result_orphan"]


def test_vercel_removes_empty_text_parts_but_not_blank_ones() -> None:
    s = declared(
        Message(speaker="human", blocks=(TextBlock(text=""), TextBlock(text="hi"))),
        ai("", call("a")),
        tool(result("a")),
        ai(" "),
    )
    c = curate(s, "openai-chat", strategy="vercel-ai")
    assert shape(c) == [
        ("human", ["text:hi"]),
        ("ai", ["tool_call:a"]),
        ("tool", ["result:a"]),
        ("ai", ["text: "]),
    ]
    assert changes(c) == [
        ("remove_empty_text_parts", "drop", None, (0, 0), None),
        ("remove_empty_text_parts", "drop", None, (1, 0), None),
    ]


def test_vercel_filters_empty_tool_messages() -> None:
    s = declared(human("go"), ai(call("a")), tool(result("a")), Message(speaker="tool"), human("ok"))
    c = curate(s, "openai-chat", strategy="vercel-ai-model")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["tool_call:a"]),
        ("tool", ["result:a"]),
        ("human", ["text:ok"]),
    ]
    assert changes(c) == [
        ("combine_tool_messages", "merge", None, (3, None), (2, None)),
    ]


# --- OpenAI Agents SDK ----------------------------------------------------------------------------


def test_agents_drops_orphan_calls_with_the_reasoning_right_before_them() -> None:
    s = declared(
        human("go"),
        ai(ThinkingBlock(text="first"), ThinkingBlock(text="second"), call("a")),
        ai(ThinkingBlock(text="kept"), "I will look.", call("b")),
        human("stop"),
    )
    c = curate(s, "openai-responses", strategy="openai-agents-port")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["thinking", "text:I will look."]),
        ("human", ["text:stop"]),
    ]
    assert changes(c) == [
        ("drop_orphan_function_calls", "drop", None, (1, 0), None),
        ("drop_orphan_function_calls", "drop", None, (1, 1), None),
        ("drop_orphan_function_calls", "drop", "a", (1, 2), None),
        ("drop_orphan_function_calls", "drop", "b", (2, 2), None),
    ]
    assert c.changes[0].reason == (
        "the Agents SDK drops a reasoning item whose following call it drops, since the Responses API rejects "
        "reasoning without its required following item"
    )
    assert c.changes[2].reason == (
        "call a (read_file) has no output anywhere in the input; the Agents SDK drops it so a resumed run does "
        "not replay a stale call"
    )


def test_agents_keeps_a_call_whose_output_is_anywhere() -> None:
    s = declared(human("go"), ai(call("a")), human("hurry"), tool(result("a")))
    c = curate(s, "openai-chat", strategy="openai-agents-port")
    assert c.changes == ()
    assert c.session == s


def test_agents_deduplicates_by_call_id_keeping_the_first() -> None:
    s = declared(human("go"), ai(call("a")), tool(result("a", "first")), tool(result("a", "second")))
    c = curate(s, "anthropic", strategy="openai-agents-port")
    assert shape(c) == [("human", ["text:go"]), ("ai", ["tool_call:a"]), ("tool", ["result:a"])]
    kept = c.session.messages[2].blocks[0]
    assert isinstance(kept, ToolResponseBlock)
    assert kept.result == "first"
    assert changes(c) == [("deduplicate_input_items", "conflict", "a", (3, 0), None)]
    assert c.changes[0].detail["key"] == "call_id:function_call_output:a"


def test_agents_deduplicates_by_item_id_when_items_have_one() -> None:
    one = result("a", "first").model_copy(update={"provider_data": {"id": "fco_1"}})
    two = result("a", "second").model_copy(update={"provider_data": {"id": "fco_2"}})
    s = declared(human("go"), ai(call("a")), tool(one), tool(two))
    assert curate(s, "openai-responses", strategy="openai-agents-port").changes == ()
    fake = result("a", "again").model_copy(update={"provider_data": {"id": "__fake_id__"}})
    s = declared(human("go"), ai(call("a")), tool(result("a")), tool(fake))
    assert changes(curate(s, "openai-responses", strategy="openai-agents-port")) == [
        ("deduplicate_input_items", "conflict", "a", (3, 0), None)
    ]


def test_agents_answers_rejected_calls_with_the_rejection_message() -> None:
    s = declared(human("go"), ai(call("a"), call("b")), tool(result("b")), human("next"))
    c = curate_with_rejections(s, "openai-chat", rejected={"a"})
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["tool_call:a", "tool_call:b"]),
        ("tool", ["result:b"]),
        ("tool*", ["result:a"]),
        ("human", ["text:next"]),
    ]
    block = c.session.messages[3].blocks[0]
    assert isinstance(block, ToolResponseBlock)
    assert block.result == REJECTION_MESSAGE == "Tool execution was not approved."
    assert changes(c) == [("function_rejection_item", "synthesize", "a", None, (3, 0))]
    # Without a rejection decision the registered strategy drops the unanswered call instead.
    assert changes(curate(s, "openai-chat", strategy="openai-agents-port")) == [
        ("drop_orphan_function_calls", "drop", "a", (1, 0), None)
    ]


# --- tails ----------------------------------------------------------------------------------------


def test_the_tail_takes_part_in_every_library_strategy() -> None:
    # The call is answered by the tail (the results being returned now): nothing to repair. Without
    # the tail each library acts on the unanswered call.
    s = declared(human("go"), ai(call("a")))
    tail = (tool(result("a")),)
    for name in LIBRARIES:
        c = curate(s, "anthropic", strategy=name, tail=tail)
        assert c.session.messages == (*s.messages, *tail)
        assert c.changes == ()
        assert curate(s, "anthropic", strategy=name).changes != ()


# --- seed 000 failure modes -----------------------------------------------------------------------

SEED_RULES: dict[str, dict[str, dict[str, list[str]]]] = {
    "A": {
        "litellm-port": {
            "openai-chat": ["oai.call_unanswered"],
            "openai-responses": [],
            "anthropic": ["ant.reused_tool_use_id"],
            "gemini": ["gem.fc_fr_mixed", "gem.fc_position", "gem.fr_count"],
            "mistral": ["mis.content_xor_calls", "mis.count", "mis.id_format", "mis.last_role"],
            "kimi": ["kimi.id_format", "oai.call_unanswered"],
            "bedrock": ["brk.result_missing"],
        },
        "vercel-ai": {
            "openai-chat": [],
            "openai-responses": [],
            "anthropic": [],
            "gemini": [],
            "mistral": ["mis.content_xor_calls", "mis.id_format", "mis.last_role", "mis.user_after_tool"],
            "kimi": ["kimi.id_format"],
            "bedrock": ["brk.mixed_turn", "brk.prefill_tools"],
        },
        "openai-agents-port": {
            "openai-chat": [],
            "openai-responses": [],
            "anthropic": [],
            "gemini": [],
            "mistral": ["mis.content_xor_calls", "mis.id_format", "mis.last_role", "mis.user_after_tool"],
            "kimi": ["kimi.id_format"],
            "bedrock": ["brk.mixed_turn", "brk.prefill_tools"],
        },
    },
    "B-duplicate": {
        "litellm-port": {
            "openai-chat": ["oai.tool_id_unknown"],
            "openai-responses": [],
            "anthropic": [],
            "gemini": ["gem.fr_count"],
            "mistral": [
                "mis.content_xor_calls",
                "mis.id_format",
                "mis.unexpected_result",
                "mis.user_after_tool",
            ],
            "kimi": ["kimi.id_format", "oai.tool_id_unknown"],
            "bedrock": ["brk.result_count"],
        },
        "vercel-ai": {
            "openai-chat": [],
            "openai-responses": [],
            "anthropic": [],
            "gemini": [],
            "mistral": ["mis.content_xor_calls", "mis.id_format", "mis.user_after_tool"],
            "kimi": ["kimi.id_format"],
            "bedrock": ["brk.mixed_turn"],
        },
        "openai-agents-port": {
            "openai-chat": [],
            "openai-responses": [],
            "anthropic": [],
            "gemini": [],
            "mistral": ["mis.content_xor_calls", "mis.id_format", "mis.user_after_tool"],
            "kimi": ["kimi.id_format"],
            "bedrock": ["brk.mixed_turn"],
        },
    },
    "B-out-of-order": {
        "litellm-port": {
            "openai-chat": ["oai.call_unanswered", "oai.tool_orphan"],
            "openai-responses": [],
            "anthropic": [],
            "gemini": ["gem.fr_count", "gem.fr_position"],
            "mistral": ["mis.count", "mis.id_format", "mis.unexpected_result", "mis.user_after_tool"],
            "kimi": ["kimi.id_format", "oai.call_unanswered", "oai.tool_orphan"],
            "bedrock": ["brk.result_count", "brk.result_missing"],
        },
        "vercel-ai": {
            "openai-chat": [],
            "openai-responses": [],
            "anthropic": [],
            "gemini": [],
            "mistral": ["mis.id_format"],
            "kimi": ["kimi.id_format"],
            "bedrock": [],
        },
        "openai-agents-port": {
            "openai-chat": ["oai.call_unanswered", "oai.tool_orphan"],
            "openai-responses": [],
            "anthropic": ["ant.result_missing", "ant.result_orphan"],
            "gemini": ["gem.fr_count", "gem.fr_position"],
            "mistral": ["mis.count", "mis.id_format", "mis.unexpected_result", "mis.user_after_tool"],
            "kimi": ["kimi.id_format", "oai.call_unanswered", "oai.tool_orphan"],
            "bedrock": ["brk.mixed_turn", "brk.result_count", "brk.result_missing"],
        },
    },
    "B-unanswered": {
        "litellm-port": {
            "openai-chat": ["oai.call_unanswered"],
            "openai-responses": ["resp.call_unanswered"],
            "anthropic": [],
            "gemini": ["gem.fr_count"],
            "mistral": ["mis.content_xor_calls", "mis.count", "mis.id_format"],
            "kimi": ["kimi.id_format", "oai.call_unanswered"],
            "bedrock": ["brk.result_missing"],
        },
        "vercel-ai": {
            "openai-chat": [],
            "openai-responses": [],
            "anthropic": [],
            "gemini": [],
            "mistral": [],
            "kimi": [],
            "bedrock": [],
        },
        "openai-agents-port": {
            "openai-chat": [],
            "openai-responses": [],
            "anthropic": [],
            "gemini": [],
            "mistral": [],
            "kimi": [],
            "bedrock": [],
        },
    },
}
"""What each library leaves, per provider. Read across: LiteLLM repairs the Anthropic route only
(placeholder results, orphan and duplicate results dropped) and on Bedrock only the turn order; the
AI SDK drops unanswered calls but sends duplicate, orphan and misplaced results as they are; the
Agents SDK drops unanswered calls and a call or result repeated under one id, wherever it is, but
leaves a result after a later assistant message where it is."""


@pytest.mark.parametrize("seed", list(SEED_RULES))
@pytest.mark.parametrize("strategy", LIBRARIES)
def test_seed_000_failure_modes_per_provider(seed: str, strategy: str) -> None:
    s = SEEDS[seed]()
    left = {provider: rules(s, provider, strategy) for provider in PROVIDERS}
    assert left == SEED_RULES[seed][strategy]


def test_seed_000_changes_per_library() -> None:
    a = SEEDS["A"]()
    # Mode A: the call repeated inside the tool message is a second call under one id.
    assert changes(curate(a, "anthropic", strategy="litellm-port")) == [
        ("add_dummy_tool", "insert", None, None, None),
        ("add_missing_tool_results", "synthesize", "hist_tool_c03Ms4Br9Yo6Tz1Vp5Xd7Ne", None, (5, 0)),
    ]
    # UI messages (route 1): the call repeated in the tool message has no result after it.
    assert changes(curate(a, "anthropic", strategy="vercel-ai")) == [
        ("ignore_incomplete_tool_calls", "drop", "hist_tool_c03Ms4Br9Yo6Tz1Vp5Xd7Ne", (4, 0), None)
    ]
    assert changes(curate(a, "anthropic", strategy="openai-agents-port")) == [
        ("deduplicate_input_items", "dedupe", "hist_tool_c03Ms4Br9Yo6Tz1Vp5Xd7Ne", (4, 0), None)
    ]
    dup = SEEDS["B-duplicate"]()
    assert changes(curate(dup, "anthropic", strategy="litellm-port")) == [
        ("drop_orphaned_tool_results", "drop", "call_A", (7, 0), None)
    ]
    assert changes(curate(dup, "anthropic", strategy="openai-agents-port")) == [
        ("deduplicate_input_items", "dedupe", "call_A", (7, 0), None)
    ]
    order = SEEDS["B-out-of-order"]()
    assert changes(curate(order, "anthropic", strategy="litellm-port")) == [
        ("add_missing_tool_results", "synthesize", "call_D", None, (3, 0)),
        ("drop_orphaned_tool_results", "drop", "call_D", (4, 0), None),
    ]
    pending = SEEDS["B-unanswered"]()
    assert changes(curate(pending, "gemini", strategy="vercel-ai")) == [
        ("ignore_incomplete_tool_calls", "drop", "call_E", (1, 1), None)
    ]


# --- generated histories --------------------------------------------------------------------------

PROPERTY_SETTINGS = settings(
    max_examples=int(os.environ.get("TOOLHIST_LIBRARY_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
)


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("strategy", LIBRARIES)
@PROPERTY_SETTINGS
@given(s=broken_sessions())
def test_library_strategies_account_for_every_block(strategy: str, provider: str, s: Session) -> None:
    """On any broken history: no crash, positions that exist, nothing lost or made without a Change."""
    before = s.model_dump()
    c = curate(s, provider, strategy=strategy)
    render(s, provider, strategy=strategy)
    assert s.model_dump() == before
    json.dumps([change.to_json() for change in c.changes])
    given_blocks = [(m, b) for m, message in enumerate(s.messages) for b in range(len(message.blocks))]
    touched = {at(change.before) for change in c.changes} | {
        (change.before.message, None) for change in c.changes if change.before is not None
    }
    made = {at(change.after) for change in c.changes if change.after is not None}
    out_values = [block for message in c.session.messages for block in message.blocks]
    # One block object may sit at several places (the generator copies by reference); Trace knows
    # an object by identity, so a Change names the first of its places.
    places: dict[int, list[tuple[int, int]]] = {}
    for m, b in given_blocks:
        places.setdefault(id(s.messages[m].blocks[b]), []).append((m, b))
    for m, b in given_blocks:
        block = s.messages[m].blocks[b]
        named = any(p in touched or (p[0], None) in touched for p in places[id(block)])
        assert block in out_values or named, (m, b, block)
    in_values = [block for message in s.messages for block in message.blocks]
    for m, message in enumerate(c.session.messages):
        if message.metadata.synthetic and message not in s.messages:
            assert message.metadata.reason
        for b, block in enumerate(message.blocks):
            assert block in in_values or (m, b) in made or (m, None) in made, (m, b, block)
    for change in c.changes:
        if change.before is not None:
            assert change.before.message < len(s.messages)
            if change.before.block is not None:
                assert change.before.block < len(s.messages[change.before.message].blocks)
        if change.after is not None:
            assert change.after.message < len(c.session.messages)
