"""The reference strategy on small histories: exact curated messages and exact Changes per repair."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, cast

import pytest
from builders import ai, call, human, result, session, tool

import toolhist
from toolhist.curation import Position, curate
from toolhist.curation.close import INTERRUPTED, PENDING
from toolhist.curation.turns import BRIDGE, PLACEHOLDER_USER
from toolhist.ids import canonical_id
from toolhist.model import Message, TextBlock, ThinkingBlock, ToolResponseBlock
from toolhist.providers import PROVIDERS, render, validate
from toolhist.providers.edge_ids import mistral_id


def shape(messages: tuple[Message, ...]) -> list[tuple[str, list[str]]]:
    """Each message as (speaker, [block summaries]) with ids shown raw as the input had them."""
    out = []
    for m in messages:
        parts = []
        for b in m.blocks:
            if b.type == "text":
                parts.append(f"text:{b.text}")
            elif b.type == "tool_call":
                parts.append(f"call:{b.raw_id or '?'}")
            elif b.type == "tool_response":
                parts.append(f"result:{b.raw_call_id or '?'}")
            else:
                parts.append(b.type)
        out.append((str(m.speaker), parts))
    return out


def actions(curation: toolhist.Curation) -> list[tuple[str, str, str | None]]:
    return [(c.pass_, c.action, c.call_id) for c in curation.changes if c.action != "rewrite_id"]


def test_a_valid_history_is_sent_as_it_is() -> None:
    # Issue 24: a history the provider accepts needs no repair (it used to get a canonical id per
    # call and result, two Changes here). These four take it as it is.
    s = session(human("read it"), ai(call("call_1")), tool(result("call_1")), ai("done"))
    for provider in ("openai-chat", "openai-responses", "anthropic", "gemini"):
        assert validate(s, provider) == []
        c = curate(s, provider)
        assert c.changes == ()
        assert c.session is s
        assert render(s, provider, strategy="toolhist").body == render(s, provider).body


def test_ids_the_target_refuses_are_rewritten_and_only_those() -> None:
    # Mistral takes 9 alphanumerics only: "abc123XYZ" stays, "call_1" goes out as its canonical id's
    # Mistral form, and its result follows. Each rewrite names the rule it repairs.
    s = session(
        human("go"), ai(call("abc123XYZ"), call("call_1")), tool(result("abc123XYZ"), result("call_1"))
    )
    c = curate(s, "mistral")
    canonical = canonical_id("toolhist", "call_1", "read_file", "", 0)
    sent = mistral_id(canonical, {"abc123XYZ"})
    assert [(ch.pass_, ch.action, ch.call_id, ch.detail, ch.fixes) for ch in c.changes] == [
        (
            "map_ids",
            "rewrite_id",
            "call_1",
            {"old_id": "call_1", "new_id": sent, "canonical": canonical, "rule": "mis.id_format"},
            ("mis.id_format",),
        ),
        (
            "map_ids",
            "rewrite_id",
            "call_1",
            {"old_id": "call_1", "new_id": sent, "canonical": canonical, "rule": "mis.id_format"},
            ("mis.id_format",),
        ),
    ]
    body: Any = render(s, "mistral", strategy="toolhist").body
    assert [c["id"] for c in body["messages"][1]["tool_calls"]] == ["abc123XYZ", sent]
    assert [m["tool_call_id"] for m in body["messages"][2:]] == ["abc123XYZ", sent]
    # The curated session holds what is sent: the after column shows no internal hist_tool_ id.
    assert [b.id for b in c.session.messages[1].tool_calls()] == ["abc123XYZ", sent]


def test_failure_mode_a_sample_is_repaired_for_every_provider() -> None:
    s = toolhist.load("sample_logs/llxprt_icontent.json")
    assert [v.rule for v in validate(s, "openai-chat")] == ["oai.call_unanswered"]
    c = curate(s, "openai-chat")
    assert [(ch.pass_, ch.action, ch.before) for ch in c.changes] == [
        ("split_tool_calls", "split", Position(message=4, block=0)),
        ("dedupe_calls", "dedupe", Position(message=4, block=0)),
        ("dedupe_calls", "drop", None),
    ]
    assert [m.speaker for m in c.session.messages] == ["human", "ai", "tool", "ai", "tool", "human", "ai"]
    for provider in PROVIDERS:
        assert [v.rule for v in validate(s, provider, strategy="toolhist") if v.severity == "error"] == []


def test_orphaned_and_pending_calls_are_closed_and_told_apart() -> None:
    s = session(human("go"), ai(call("a")), human("never mind"), ai(call("b")))
    c = curate(s, "anthropic")
    assert shape(c.session.messages) == [
        ("human", ["text:go"]),
        ("ai", ["call:a"]),
        ("tool", ["result:?"]),
        ("human", ["text:never mind"]),
        ("ai", ["call:b"]),
        ("tool", ["result:?"]),
    ]
    closed = [b for m in c.session.messages for b in m.tool_responses()]
    assert [(b.error, b.is_complete) for b in closed] == [(INTERRUPTED, False), (PENDING, False)]
    assert [
        (ch.action, ch.call_id, ch.detail, ch.after) for ch in c.changes if ch.pass_ == "close_orphans"
    ] == [
        ("close", "a", {"state": "orphaned"}, Position(message=2, block=0)),
        ("close", "b", {"state": "pending"}, Position(message=5, block=0)),
    ]
    assert all(m.metadata.synthetic for m in (c.session.messages[2], c.session.messages[5]))


def test_the_tail_makes_a_pending_call_orphaned() -> None:
    s = session(human("go"), ai(call("b")))
    c = toolhist.curate(s, "openai-chat", tail=[human("next question")])
    assert [ch.detail for ch in c.changes if ch.pass_ == "close_orphans"] == [{"state": "orphaned"}]
    assert shape(c.session.messages)[-1] == ("human", ["text:next question"])


def test_duplicate_results_keep_one_and_report_a_conflict_with_both_contents() -> None:
    s = session(
        human("go"),
        ai(call("a")),
        tool(result("a", "first")),
        tool(result("a", "first")),
        tool(result("a", "second")),
    )
    c = curate(s, "openai-chat")
    kept = [b.result for m in c.session.messages for b in m.tool_responses()]
    assert kept == ["first"]
    dedupes: list[Any] = [
        (ch.action, ch.before, ch.dropped, ch.detail) for ch in c.changes if ch.pass_ == "dedupe_results"
    ]
    assert [d[0] for d in dedupes] == ["dedupe", "conflict"]
    assert dedupes[1][1] == Position(message=4, block=0)
    assert dedupes[1][2]["result"] == "second"
    assert dedupes[1][3]["kept"]["result"] == "first"


def test_a_result_whose_call_was_compacted_away_gets_its_call_back() -> None:
    s = session(
        human("summary of earlier work"),
        tool(result("call_old", "42 lines", name="read_file")),
        human("go on"),
    )
    c = curate(s, "anthropic")
    assert shape(c.session.messages) == [
        ("human", ["text:summary of earlier work"]),
        ("ai", ["call:?"]),
        ("tool", ["result:call_old"]),
        ("human", ["text:go on"]),
    ]
    rebuilt = next(c.session.messages[1].tool_calls())
    assert (rebuilt.name, rebuilt.parameters) == ("read_file", {})
    assert c.session.messages[1].metadata.reason == "reconstructed_tool_call"
    # No add_tool_declarations Change: a history from another format is rendered afresh, and the
    # Anthropic renderer derives the declarations itself (and says so in the payload's notes).
    assert actions(c) == [("synthesize_calls", "synthesize", "call_old")]
    assert render(s, "anthropic", strategy="toolhist").body["tools"] == [
        {
            "name": "read_file",
            "description": "derived by toolhist from the calls in the history",
            "input_schema": {"type": "object", "properties": {}},
        }
    ]


def test_early_and_late_results_move_next_to_their_call() -> None:
    s = session(human("go"), tool(result("b")), ai(call("a"), call("b")), human("hm"), tool(result("a")))
    c = curate(s, "openai-chat")
    assert shape(c.session.messages) == [
        ("human", ["text:go"]),
        ("ai", ["call:a", "call:b"]),
        ("tool", ["result:a", "result:b"]),
        ("human", ["text:hm"]),
    ]
    moves = [(ch.call_id, ch.before, ch.after) for ch in c.changes if ch.pass_ == "move_results"]
    assert moves == [
        ("a", Position(message=4, block=0), Position(message=2, block=0)),
        ("b", Position(message=1, block=0), Position(message=2, block=1)),
    ]


def test_kimi_ids_repeating_across_turns_stay_distinct_calls() -> None:
    s = session(
        human("go"),
        ai(call("functions.read:0", "read", path="a")),
        tool(result("functions.read:0", "A", name="read")),
        ai(call("functions.read:0", "read", path="b")),
        tool(result("functions.read:0", "B", name="read")),
    )
    assert {v.rule for v in validate(s, "anthropic")} >= {"ant.id_pattern", "ant.reused_tool_use_id"}
    c = curate(s, "anthropic")
    calls = [b.id for m in c.session.messages for b in m.tool_calls()]
    results = [(b.call_id, b.result) for m in c.session.messages for b in m.tool_responses()]
    assert len(set(calls)) == 2
    assert results == [(calls[0], "A"), (calls[1], "B")]
    assert validate(s, "anthropic", strategy="toolhist") == []


def test_text_stored_in_a_tool_message_goes_out_as_a_user_message() -> None:
    # Cline's shape (results, then the user's text, in one turn). OpenAI Chat's renderer sends it as
    # the tool message and then a user message, which OpenAI takes: no split Change (issue 24: a
    # Cline history got one per text block). Mistral refuses a user message right after the tool
    # messages, so there the text is split out and bridged.
    s = session(
        human("go"), ai(call("a")), tool(result("a"), TextBlock(text="also, use tabs")), ai(call("b"))
    )
    c = curate(s, "openai-chat")
    assert shape(c.session.messages)[2] == ("tool", ["result:a", "text:also, use tabs"])
    assert [ch.pass_ for ch in c.changes] == ["close_orphans"]
    body: Any = render(s, "openai-chat", strategy="toolhist").body
    assert [(m["role"], m.get("content")) for m in body["messages"][2:4]] == [
        ("tool", "ok"),
        ("user", "also, use tabs"),
    ]
    m = curate(s, "mistral")
    assert shape(m.session.messages)[2:5] == [
        ("tool", ["result:a"]),
        ("ai", [f"text:{BRIDGE}"]),
        ("human", ["text:also, use tabs"]),
    ]


def test_text_in_a_tool_message_moves_after_results_placed_behind_it() -> None:
    # call "b" has no result: close_orphans puts one after the tool message, and the text kept in it
    # would then cut that result off from its call; it goes after the results.
    s = session(
        human("go"), ai(call("a"), call("b")), tool(result("a"), TextBlock(text="note")), human("next")
    )
    c = curate(s, "openai-chat")
    assert shape(c.session.messages)[2:] == [
        ("tool", ["result:a"]),
        ("tool", ["result:?"]),
        ("human", ["text:note"]),
        ("human", ["text:next"]),
    ]
    assert [(ch.pass_, ch.action, ch.fixes) for ch in c.changes] == [
        ("close_orphans", "close", ("oai.call_unanswered",)),
        ("split_tool_calls", "split", ()),
    ]
    assert validate(s, "openai-chat", strategy="toolhist") == []


def test_mistral_gets_a_bridge_and_a_prefix_instead_of_losing_turns() -> None:
    s = session(human("go"), ai(call("a")), tool(result("a")), human("and now?"), ai("Let me think"))
    c = curate(s, "mistral")
    assert shape(c.session.messages) == [
        ("human", ["text:go"]),
        ("ai", ["call:a"]),
        ("tool", ["result:a"]),
        ("ai", [f"text:{BRIDGE}"]),
        ("human", ["text:and now?"]),
        ("ai", ["text:Let me think"]),
    ]
    body: Any = render(s, "mistral", strategy="toolhist").body
    assert body["messages"][-1] == {"role": "assistant", "content": "Let me think", "prefix": True}
    assert validate(s, "mistral", strategy="toolhist") == []


def test_mistral_takes_a_later_system_message_to_the_start() -> None:
    # Mistral refuses a system message after an assistant or tool turn, after the first user message
    # too (mis.order); a bridge would be one more assistant turn before it. Hypothesis found this one:
    # the text a leading tool message carried became the first user message once split off.
    sys_msg = Message(speaker="system", blocks=(TextBlock(text="You are a coding agent."),))
    s = session(human("go"), ai(" "), sys_msg, human("hi"), ai(call("a")), tool(result("a")), sys_msg)
    assert [(v.rule, v.path) for v in validate(s, "mistral") if v.rule == "mis.order"] == [
        ("mis.order", "messages[2].role"),
        ("mis.order", "messages[6].role"),
    ]
    c = curate(s, "mistral")
    assert shape(c.session.messages) == [
        ("system", ["text:You are a coding agent."]),
        ("system", ["text:You are a coding agent."]),
        ("human", ["text:go"]),
        ("ai", ["text: "]),
        ("human", ["text:hi"]),
        ("ai", ["call:a"]),
        ("tool", ["result:a"]),
    ]
    assert [(ch.pass_, ch.action, ch.fixes) for ch in c.changes[:2]] == [
        ("merge_turns", "move", ("mis.order",)),
        ("merge_turns", "move", ("mis.order",)),
    ]
    assert [v for v in validate(s, "mistral", strategy="toolhist") if v.severity == "error"] == []
    # A system message after a user message is Mistral's to take: it stays where it is.
    kept = session(human("go"), sys_msg, ai("ok"), human("next"))
    assert [ch.pass_ for ch in curate(kept, "mistral").changes] == []


def test_bedrock_turns_alternate_and_open_with_the_user() -> None:
    s = session(
        ai("Hello, I am ready."), human("a"), human("b"), ai(call("a")), tool(result("a")), human("thanks")
    )
    assert "brk.first_user" in {v.rule for v in validate(s, "bedrock")}
    c = curate(s, "bedrock")
    # The placeholder is the repair; the Converse renderer folds consecutive user turns itself, so
    # the curated history keeps them apart (no merge Changes) and the body alternates.
    assert shape(c.session.messages) == [
        ("human", [f"text:{PLACEHOLDER_USER}"]),
        ("ai", ["text:Hello, I am ready."]),
        ("human", ["text:a"]),
        ("human", ["text:b"]),
        ("ai", ["call:a"]),
        ("tool", ["result:a"]),
        ("human", ["text:thanks"]),
    ]
    assert [(ch.pass_, ch.action, ch.fixes) for ch in c.changes] == [
        ("merge_turns", "insert", ("brk.first_user",))
    ]
    body: Any = render(s, "bedrock", strategy="toolhist").body
    assert [m["role"] for m in body["messages"]] == ["user", "assistant", "user", "assistant", "user"]
    assert body["messages"][4]["content"][1] == {"text": "thanks"}
    # Results and text in one user turn is Converse's own shape; one model family warns about it.
    assert [(v.rule, v.severity) for v in validate(s, "bedrock", strategy="toolhist")] == [
        ("brk.mixed_turn", "warning")
    ]


def test_foreign_thinking_is_not_sent_and_not_a_change() -> None:
    # The renderers send back only reasoning the target wrote (the rest is listed as omitted), so a
    # foreign thinking block needs no repair: it stays in the curated history, no Change (issue 24).
    thought = ThinkingBlock(text="plan: read then fix", signature="EuYBCkQ", source_provider="anthropic")
    s = session(human("go"), ai(thought, call("a")), tool(result("a")), human("ok"))
    for provider in ("anthropic", "gemini"):
        c = curate(s, provider)
        assert any(isinstance(b, ThinkingBlock) for b in c.session.messages[1].blocks)
        assert c.changes == ()
    payload = render(s, "gemini", strategy="toolhist")
    assert not any("thought" in p for turn in cast("Any", payload.body)["contents"] for p in turn["parts"])
    assert any("message 1 block 0" in note for note in payload.omitted)


def test_unsigned_anthropic_thinking_is_dropped_with_its_text_in_the_change() -> None:
    thought = ThinkingBlock(text="plan: read then fix", source_provider="anthropic")
    s = session(human("go"), ai(thought, call("a")), tool(result("a")), human("ok"))
    assert "ant.thinking_signature" in {v.rule for v in validate(s, "anthropic")}
    c = curate(s, "anthropic")
    [change] = c.changes
    assert (change.pass_, change.action, change.fixes) == (
        "drop_foreign_thinking",
        "drop",
        ("ant.thinking_signature",),
    )
    assert cast("Any", change.dropped)["text"] == "plan: read then fix"


def test_tool_names_are_renamed_alike_in_calls_and_results() -> None:
    s = session(human("go"), ai(call("a", "mcp.github.search")), tool(result("a", name="mcp.github.search")))
    assert "brk.tool_name_pattern" in {v.rule for v in validate(s, "bedrock")}
    c = curate(s, "bedrock")
    call_name = next(c.session.messages[1].tool_calls()).name
    result_name = next(c.session.messages[2].tool_responses()).tool_name
    assert call_name == result_name
    assert call_name.startswith("mcp_github_search_")
    assert next(ch.detail for ch in c.changes if ch.pass_ == "sanitize_tool_names") == {
        "old_name": "mcp.github.search",
        "new_name": call_name,
    }


def test_curation_never_mutates_and_is_idempotent_on_the_samples() -> None:
    for path in [
        "sample_logs/openai_chat_request.json",
        "sample_logs/llxprt_icontent.json",
        "sample_logs/anthropic_request.json",
    ]:
        s = toolhist.load(path)
        before = s.model_dump()
        for provider in PROVIDERS:
            once = curate(s, provider)
            assert curate(once.session, provider).changes == ()
        assert s.model_dump() == before


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_sample_is_clean_under_toolhist(provider: str) -> None:
    from pathlib import Path

    for path in sorted(Path("sample_logs").glob("*.json")):
        s = toolhist.load(path)
        errors = [v.rule for v in validate(s, provider, strategy="toolhist") if v.severity == "error"]
        assert errors == [], path.name


def test_a_result_is_never_silently_lost() -> None:
    s = session(
        human("go"), ai(call("a")), tool(result("a", "x")), tool(ToolResponseBlock(call_id="a", result="y"))
    )
    c = curate(s, "openai-chat")
    [conflict] = [ch for ch in c.changes if ch.action == "conflict"]
    assert cast("Any", conflict.dropped)["result"] == "y"


def test_responses_calls_lose_item_ids_their_reasoning_cannot_back() -> None:
    body = json.loads(Path("sample_logs/openai_responses_input.json").read_text())
    body["input"] = [item for item in body["input"] if item.get("type") != "reasoning"]
    s = toolhist.load(body, name="no-reasoning.json")
    assert [v.rule for v in validate(s, "openai-responses")] == ["resp.fc_needs_reasoning"] * 3
    c = curate(s, "openai-responses")
    assert [(ch.pass_, ch.action, ch.dropped) for ch in c.changes if ch.action != "rewrite_id"] == [
        ("drop_item_ids", "strip", {"id": "fc_68a1f0c3a0d4819da1b2c3d4e5f60718"}),
        ("drop_item_ids", "strip", {"id": "fc_68a1f0c3a0e8819db2c3d4e5f6071829"}),
        ("drop_item_ids", "strip", {"id": "fc_68a1f0d2e3f4819e9a8b7c6d5e4f3021"}),
    ]
    assert validate(s, "openai-responses", strategy="toolhist") == []


def test_deepseek_thinking_gets_an_empty_reasoning_content() -> None:
    s = session(human("go"), ai(call("a")), tool(result("a"))).model_copy(
        update={"request": {"model": "deepseek-reasoner"}}
    )
    assert [v.rule for v in validate(s, "openai-chat")] == ["ds.reasoning_required"]
    body: Any = render(s, "openai-chat", strategy="toolhist").body
    assert body["messages"][1]["reasoning_content"] == ""
    assert validate(s, "openai-chat", strategy="toolhist") == []
    assert [ch.pass_ for ch in curate(s, "openai-chat").changes if ch.action == "fill"] == [
        "fill_reasoning_content"
    ]


def test_gemini_3_calls_of_the_current_turn_get_the_documented_sentinel() -> None:
    s = session(human("go"), ai(call("a")), tool(result("a")), ai(call("b")), tool(result("b"))).model_copy(
        update={"request": {"model": "gemini-3-pro-preview"}}
    )
    assert [v.rule for v in validate(s, "gemini")] == ["gem.thought_sig", "gem.thought_sig"]
    body: Any = render(s, "gemini", strategy="toolhist").body
    signatures = [
        p.get("thoughtSignature") for c in body["contents"] for p in c["parts"] if "functionCall" in p
    ]
    assert signatures == ["skip_thought_signature_validator"] * 2
    assert validate(s, "gemini", strategy="toolhist") == []


def test_anthropic_thinking_is_disabled_when_the_open_round_lost_its_signature() -> None:
    request: dict[str, Any] = {
        "model": "claude-sonnet-4-5",
        "max_tokens": 2048,
        "thinking": {"type": "enabled", "budget_tokens": 1024},
    }
    s = session(human("go"), ai(call("a")), tool(result("a"))).model_copy(update={"request": request})
    s = s.model_copy(update={"source": s.source.model_copy(update={"format": "anthropic"})})
    assert "ant.thinking_first" in [v.rule for v in validate(s, "anthropic")]
    c = curate(s, "anthropic")
    assert c.changes[0].pass_ == "disable_thinking"
    assert c.changes[0].dropped == {"thinking": {"type": "enabled", "budget_tokens": 1024}}
    assert "thinking" not in render(s, "anthropic", strategy="toolhist").body
    assert validate(s, "anthropic", strategy="toolhist") == []
