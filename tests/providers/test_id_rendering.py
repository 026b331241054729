"""Tool-call ids as rendered for each provider with ``ids="provider"``: Kimi's ``functions.{name}:{index}``,
Mistral's nine base62 characters (collisions included), Anthropic's ``^[a-zA-Z0-9_-]+$`` for any raw id."""

from __future__ import annotations

import re
from typing import Any

from builders import ai, call, human, result, session, tool
from hypothesis import example, given, settings
from hypothesis import strategies as st
from realistic import REALISTIC

from toolhist.model import Session
from toolhist.providers import render, validate
from toolhist.providers.edge_ids import mistral_id

MISTRAL = re.compile(r"^[a-zA-Z0-9]{9}$")
ANTHROPIC = re.compile(r"^[a-zA-Z0-9_-]+$")


def chat_ids(body: dict[str, Any]) -> tuple[list[str], list[str]]:
    """(tool_calls ids, tool_call_id of tool messages) of a chat body, in order."""
    calls = [c["id"] for m in body["messages"] for c in m.get("tool_calls") or []]
    results = [m["tool_call_id"] for m in body["messages"] if m["role"] == "tool"]
    return calls, results


# --- Kimi ------------------------------------------------------------------------------------------


def test_kimi_realistic_ids_count_calls_across_the_conversation() -> None:
    payload = render(REALISTIC, "kimi", ids="provider")
    assert chat_ids(payload.body) == (
        ["functions.read_file:0", "functions.read_file:1", "functions.run_tests:2"],
        ["functions.read_file:0", "functions.read_file:1", "functions.run_tests:2"],
    )
    assert payload.id_map == {
        "call_Qm1xWv9aKd2R": "functions.read_file:0",
        "call_Lp7TzN0bYc4E": "functions.read_file:1",
        "call_Vb3NsE8uHw5J": "functions.run_tests:2",
    }
    assert validate(REALISTIC, "kimi", ids="provider") == []


def test_kimi_index_is_global_not_turn_local_and_results_follow_their_call() -> None:
    s = session(
        human("look around"),
        ai(call("toolu_01A", "ls"), call("toolu_01B", "read_file")),
        tool(result("toolu_01B", name="read_file"), result("toolu_01A", name="ls")),  # answered out of order
        ai(call("toolu_01C", "grep")),
        tool(result("toolu_01C", name="grep")),
        ai(call("toolu_01D", "read_file")),
        tool(result("toolu_01D")),
        human("thanks"),
    )
    calls, results = chat_ids(render(s, "kimi", ids="provider").body)
    assert calls == ["functions.ls:0", "functions.read_file:1", "functions.grep:2", "functions.read_file:3"]
    assert results == ["functions.read_file:1", "functions.ls:0", "functions.grep:2", "functions.read_file:3"]
    assert validate(s, "kimi", ids="provider") == []


def test_kimi_without_mapping_warns_about_every_foreign_call_id() -> None:
    assert [(v.rule, v.severity, v.path) for v in validate(REALISTIC, "kimi", ids="source")] == [
        ("kimi.id_format", "warning", "messages[2].tool_calls[0].id"),
        ("kimi.id_format", "warning", "messages[2].tool_calls[1].id"),
        ("kimi.id_format", "warning", "messages[5].tool_calls[0].id"),
    ]


# --- Mistral ---------------------------------------------------------------------------------------


def test_mistral_realistic_ids_are_nine_base62_characters_and_pair() -> None:
    payload = render(REALISTIC, "mistral", ids="provider")
    calls, results = chat_ids(payload.body)
    assert len(calls) == 3
    assert all(MISTRAL.fullmatch(c) for c in calls)
    assert len(set(calls)) == 3
    assert results == calls
    assert calls == [
        payload.id_map[r] for r in ("call_Qm1xWv9aKd2R", "call_Lp7TzN0bYc4E", "call_Vb3NsE8uHw5J")
    ]
    assert calls[0] == mistral_id("call_Qm1xWv9aKd2R", set())


def test_mistral_id_moves_off_a_taken_id() -> None:
    would_be = mistral_id("call_Qm1xWv9aKd2R", set())
    moved = mistral_id("call_Qm1xWv9aKd2R", {would_be})
    assert MISTRAL.fullmatch(would_be)
    assert MISTRAL.fullmatch(moved)
    assert moved != would_be
    assert mistral_id("call_Qm1xWv9aKd2R", {would_be}) == moved  # deterministic


def collide(first: str, second: str) -> Session:
    """Two calls in one turn whose raw ids would map to the same Mistral id, each answered."""
    return session(
        human("read both"),
        ai(call(first), call(second, "grep")),
        tool(result(first), result(second, name="grep")),
        ai("Both read."),
        human("ok"),
    )


def test_mistral_hash_colliding_with_a_native_id_is_moved_and_pairs_stay_paired() -> None:
    raw = "call_Qm1xWv9aKd2R"
    native = mistral_id(raw, set())  # a valid Mistral id equal to the hash of the other raw id
    for first, second in ((native, raw), (raw, native)):
        s = collide(first, second)
        payload = render(s, "mistral", ids="provider")
        calls, results = chat_ids(payload.body)
        assert calls == results
        assert len(set(calls)) == 2
        assert all(MISTRAL.fullmatch(c) for c in calls)
        assert calls[0] == native  # whoever comes first keeps it
        assert calls[1] == mistral_id(second, {native})
        messages: Any = payload.body["messages"]
        names = [c["function"]["name"] for m in messages for c in m.get("tool_calls") or []]
        assert names == ["read_file", "grep"]
        assert validate(s, "mistral", ids="provider") == []


def test_mistral_without_mapping_breaks_the_id_format() -> None:
    found = [(v.rule, v.path) for v in validate(REALISTIC, "mistral", ids="source") if v.severity == "error"]
    assert found == [
        ("mis.id_format", "messages[2].tool_calls[0].id"),
        ("mis.id_format", "messages[2].tool_calls[1].id"),
        ("mis.id_format", "messages[3].tool_call_id"),
        ("mis.id_format", "messages[4].tool_call_id"),
        ("mis.id_format", "messages[5].tool_calls[0].id"),
        ("mis.id_format", "messages[6].tool_call_id"),
    ]


# --- Anthropic -------------------------------------------------------------------------------------

raw_ids = st.text(max_size=60)
turns = st.lists(st.lists(raw_ids, min_size=1, max_size=3), min_size=1, max_size=4)


def anthropic_session(id_turns: list[list[str]]) -> Session:
    messages = [human("go")]
    for k, turn in enumerate(id_turns):
        messages.append(ai(f"step {k}", *(call(cid) for cid in turn)))
        messages.append(tool(*(result(cid) for cid in turn)))
    messages.append(ai("done"))
    return session(*messages)


def unique_turns(id_turns: list[list[str]]) -> list[list[str]]:
    seen: set[str] = set()
    out = []
    for turn in id_turns:
        kept = [i for i in dict.fromkeys(turn) if i not in seen]
        seen.update(kept)
        if kept:
            out.append(kept)
    return out or [["call_1"]]


@settings(max_examples=150, deadline=None)
@given(turns)
@example([["functions.read:0", "functions.read:1"], ["functions.read:2"]])
@example([["server.tool", "a|b", "a.b", "a:b"]])
@example([["ünïcødé", "日本語", "😀", ""]])
@example([["toolu_01A", "toolu_01A_8c3b9d1f"]])
def test_anthropic_ids_always_match_the_pattern_and_pairs_stay_paired(id_turns: list[list[str]]) -> None:
    id_turns = unique_turns(id_turns)
    s = anthropic_session(id_turns)
    payload = render(s, "anthropic", ids="provider")
    messages: Any = payload.body["messages"]
    blocks = [(m["role"], b) for m in messages if isinstance(m["content"], list) for b in m["content"]]
    calls = [b["id"] for role, b in blocks if role == "assistant" and b["type"] == "tool_use"]
    results = [b["tool_use_id"] for role, b in blocks if role == "user" and b["type"] == "tool_result"]
    assert all(ANTHROPIC.fullmatch(i) for i in calls + results)
    assert results == calls  # every result answers the call it answered before mapping
    assert len(set(calls)) == sum(len(t) for t in id_turns)
    for k, turn in enumerate(id_turns):  # each turn's results sit in the message right after its calls
        use_ids = [b["id"] for b in messages[1 + 2 * k]["content"] if b["type"] == "tool_use"]
        result_ids = [b["tool_use_id"] for b in messages[2 + 2 * k]["content"]]
        assert use_ids == result_ids == [payload.id_map.get(r, r) for r in turn]
    assert validate(s, "anthropic", ids="provider") == []
