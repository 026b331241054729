"""The ``pi`` reader: the session tree, compaction, convertToLlm and transformMessages as Pi runs them."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.agents.pi.context import BRANCH_PREFIX, BRANCH_SUFFIX, COMPACTION_PREFIX, COMPACTION_SUFFIX
from toolhist.agents.pi.transform import NO_RESULT, short_hash
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock
from toolhist.ran_on import ran_on

HEADER = {"type": "session", "version": 3, "id": "s-1", "timestamp": "2026-01-09T10:00:00.000Z", "cwd": "/w"}
CLAUDE = {"api": "anthropic-messages", "provider": "anthropic", "model": "claude-sonnet-4-5"}


def entry(
    eid: str, parent: str | None, message: dict[str, Any] | None = None, **fields: Any
) -> dict[str, Any]:
    out: dict[str, Any] = {
        "type": "message",
        "id": eid,
        "parentId": parent,
        "timestamp": "2026-01-09T10:00:01.000Z",
    }
    if message is not None:
        out["message"] = message
    return {**out, **fields}


def user(text: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": text}], "timestamp": 1767952800000}


def answer(*content: dict[str, Any], stop: str = "stop", who: dict[str, str] = CLAUDE) -> dict[str, Any]:
    return {"role": "assistant", "content": list(content), **who, "stopReason": stop, "timestamp": 1}


def call(cid: str, name: str = "read") -> dict[str, Any]:
    return {"type": "toolCall", "id": cid, "name": name, "arguments": {"path": "a.ts"}}


def result(cid: str, text: str = "ok", *, error: bool = False) -> dict[str, Any]:
    return {
        "role": "toolResult",
        "toolCallId": cid,
        "toolName": "read",
        "content": [{"type": "text", "text": text}],
        "isError": error,
        "timestamp": 2,
    }


def load(*entries: dict[str, Any], header: dict[str, Any] = HEADER) -> toolhist.Session:
    text = "".join(json.dumps(e) + "\n" for e in (header, *entries))
    return toolhist.load(text)


def texts(session: toolhist.Session) -> list[str]:
    return [" ".join(b.text for b in m.blocks if isinstance(b, TextBlock)) for m in session.messages]


def test_the_path_from_the_last_entry_is_sent_and_other_branches_are_kept_unsent() -> None:
    s = load(
        entry("a", None, user("first")),
        entry("b", "a", answer({"type": "text", "text": "one"})),
        entry("c", "b", user("abandoned")),
        entry("d", "b", user("retried")),
    )
    assert s.source.format == "pi"
    assert texts(s) == ["first", "one", "retried"]
    assert [(u.kind, u.text, u.line, u.before) for u in s.unsent] == [
        ("other branch user", "abandoned", 4, 3)
    ]
    assert (
        "1 entr(y/ies) on other branches of the session tree are not sent (session.unsent)" in s.source.notes
    )


def test_the_latest_compaction_sends_its_summary_then_the_kept_entries() -> None:
    s = load(
        entry("a", None, user("old")),
        entry("b", "a", answer({"type": "text", "text": "old answer"})),
        entry("c", "b", user("kept")),
        {
            "type": "compaction",
            "id": "k1",
            "parentId": "c",
            "summary": "S1",
            "firstKeptEntryId": "c",
            "tokensBefore": 9,
        },
        entry("d", "k1", answer({"type": "text", "text": "after"})),
        {
            "type": "compaction",
            "id": "k2",
            "parentId": "d",
            "summary": "S2",
            "firstKeptEntryId": "c",
            "tokensBefore": 9,
        },
        entry("e", "k2", user("now")),
    )
    assert texts(s) == [COMPACTION_PREFIX + "S2" + COMPACTION_SUFFIX, "kept", "after", "now"]
    assert s.messages[0].metadata.source_role == "compactionSummary"
    assert [(u.kind, u.text) for u in s.unsent] == [
        ("compacted user", "old"),
        ("compacted assistant", "old answer"),
        ("compaction (superseded)", "S1"),
    ]


def test_a_version_1_file_is_chained_in_file_order_and_its_compaction_index_kept() -> None:
    v1 = {
        "type": "session",
        "id": "s-1",
        "timestamp": "t",
        "cwd": "/w",
        "provider": "anthropic",
        "modelId": "m",
    }
    s = load(
        {"type": "message", "timestamp": "t", "message": user("a")},
        {"type": "message", "timestamp": "t", "message": answer({"type": "text", "text": "b"})},
        {"type": "message", "timestamp": "t", "message": user("c")},
        {"type": "compaction", "timestamp": "t", "summary": "S", "firstKeptEntryIndex": 3, "tokensBefore": 1},
        header=v1,
    )
    assert texts(s) == [COMPACTION_PREFIX + "S" + COMPACTION_SUFFIX, "c"]
    assert [u.kind for u in s.unsent] == ["compacted user", "compacted assistant"]


def test_aborted_turns_are_skipped_and_calls_left_open_get_pis_no_result() -> None:
    s = load(
        entry("a", None, user("go")),
        entry("b", "a", answer(call("toolu_1"), call("toolu_2"), stop="toolUse")),
        entry("c", "b", result("toolu_1")),
        entry("d", "c", answer({"type": "text", "text": "partial"}, stop="aborted")),
        entry("e", "d", user("again")),
        entry("f", "e", answer(call("toolu_3"), stop="toolUse")),
    )
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "human", "ai"]
    made = s.messages[2].blocks[1]
    assert isinstance(made, ToolResponseBlock)
    assert (made.call_id, made.result, made.error, made.is_complete) == (
        "toolu_2",
        NO_RESULT,
        NO_RESULT,
        False,
    )
    assert [(u.kind, u.text, u.before) for u in s.unsent] == [("aborted assistant turn", "partial", 3)]
    # the last call is pending: the next request answers it, Pi adds nothing
    assert [b.id for b in s.messages[4].tool_calls()] == ["toolu_3"]
    assert "Pi answers 1 call(s) left without a result with 'No result provided': toolu_2" in s.source.notes


def test_another_models_messages_are_rewritten_for_the_next_model() -> None:
    gpt = {"api": "openai-responses", "provider": "openai", "model": "gpt-5"}
    reasoning = json.dumps({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "enc"})
    s = load(
        entry("a", None, user("go")),
        entry(
            "b",
            "a",
            answer(
                {"type": "thinking", "thinking": "plan", "thinkingSignature": reasoning},
                {"type": "thinking", "thinking": "", "thinkingSignature": "x", "redacted": True},
                call("call_9|fc_+/9=", "read"),
                who=gpt,
                stop="toolUse",
            ),
        ),
        entry("c", "b", result("call_9|fc_+/9=")),
        {
            "type": "model_change",
            "id": "m",
            "parentId": "c",
            "provider": "anthropic",
            "modelId": "claude-sonnet-4-5",
        },
        entry("d", "m", answer({"type": "text", "text": "done"})),
    )
    ai = s.messages[1]
    assert ai.blocks == (
        TextBlock(text="plan"),
        ToolCallBlock(id="call_9_fc___9_", name="read", parameters={"path": "a.ts"}, raw_id="call_9_fc___9_"),
    )
    answered = s.messages[2].blocks[0]
    assert isinstance(answered, ToolResponseBlock)
    assert (answered.call_id, answered.raw_call_id) == ("call_9_fc___9_", "call_9_fc___9_")
    ran = ran_on(s)
    assert ran is not None
    assert ran.provider == "anthropic"


def test_responses_ids_and_reasoning_are_sent_as_the_responses_converter_sends_them() -> None:
    gpt = {"api": "openai-responses", "provider": "openai", "model": "gpt-5"}
    reasoning = {"type": "reasoning", "id": "rs_1", "summary": [{"type": "summary_text", "text": "why"}]}
    reasoning["encrypted_content"] = "enc"
    s = load(
        entry("a", None, user("go")),
        entry(
            "b",
            "a",
            answer(
                {"type": "thinking", "thinking": "why", "thinkingSignature": json.dumps(reasoning)},
                {"type": "thinking", "thinking": "unsigned"},
                call("call_9|fc_1"),
                who=gpt,
                stop="toolUse",
            ),
        ),
        entry("c", "b", result("call_9|fc_1")),
    )
    thinking, fc = s.messages[1].blocks
    assert isinstance(thinking, ThinkingBlock)
    assert (thinking.text, thinking.data, thinking.source_provider) == ("why", "enc", "openai-responses")
    assert isinstance(fc, ToolCallBlock)
    assert (fc.id, fc.provider_data) == ("call_9", {"type": "function_call", "id": "fc_1"})
    body: Any = toolhist.render(s, "openai-responses").body
    assert [i.get("type", "message") for i in body["input"]] == [
        "message",
        "reasoning",
        "function_call",
        "function_call_output",
    ]
    assert body["input"][3]["call_id"] == "call_9"
    assert (
        "1 blank or unsigned block(s) the target API's converter does not send were left out"
        in s.source.notes
    )


def test_anthropic_thinking_keeps_its_signature_and_unsigned_thinking_goes_as_text() -> None:
    s = load(
        entry("a", None, user("go")),
        entry(
            "b",
            "a",
            answer(
                {"type": "thinking", "thinking": "signed", "thinkingSignature": "sig"},
                {"type": "thinking", "thinking": "cut short"},
                {"type": "thinking", "thinking": "", "thinkingSignature": "opaque", "redacted": True},
                {"type": "text", "text": "  "},
            ),
        ),
    )
    assert s.messages[1].blocks == (
        ThinkingBlock(text="signed", signature="sig", source_provider="anthropic"),
        TextBlock(text="cut short"),
        ThinkingBlock(redacted=True, data="opaque", source_provider="anthropic"),
    )


def test_pis_own_entries_become_the_user_messages_it_makes() -> None:
    bash = {"role": "bashExecution", "command": "ls", "output": "a\nb", "exitCode": 2, "cancelled": False}
    quiet = {"role": "bashExecution", "command": "env", "output": "K=V", "excludeFromContext": True}
    s = load(
        entry("a", None, bash),
        entry("b", "a", quiet),
        {
            "type": "custom_message",
            "id": "c",
            "parentId": "b",
            "customType": "x",
            "content": "hint",
            "display": False,
        },
        {"type": "branch_summary", "id": "d", "parentId": "c", "fromId": "a", "summary": "tried X"},
        {"type": "custom", "id": "e", "parentId": "d", "customType": "state", "data": {}},
        {"type": "label", "id": "f", "parentId": "e", "targetId": "a", "label": "here"},
    )
    assert texts(s) == [
        "Ran `ls`\n```\na\nb\n```\n\nCommand exited with code 2",
        "hint",
        BRANCH_PREFIX + "tried X" + BRANCH_SUFFIX,
    ]
    assert [m.metadata.source_role for m in s.messages] == ["bashExecution", "custom", "branchSummary"]
    assert [(u.kind, u.text) for u in s.unsent] == [("bashExecution (!!)", "env")]
    assert "settings entries on the path (not messages): custom x1, label x1" in s.source.notes


def test_unknown_entries_and_roles_are_skipped_and_named() -> None:
    s = load(
        entry("a", None, user("go")),
        {"type": "future_entry", "id": "z", "parentId": "a"},
        entry("b", "a", {"role": "futureRole", "content": "?"}),
        entry("c", "b", answer({"type": "text", "text": "ok"})),
    )
    assert texts(s) == ["go", "ok"]
    assert s.source.skipped == {"entry type 'future_entry'": 1, "message role 'futureRole'": 1}
    assert any(
        "'future_entry' x1 (first on line 3)" in n and "'futureRole' x1 (first on line 4)" in n
        for n in s.source.notes
    )


def test_a_file_without_a_pi_header_is_refused_in_one_line(tmp_path: Any) -> None:
    path = tmp_path / "s.jsonl"
    lines = [{"type": "session_meta", "payload": {}}, entry("a", None, user("x"))]
    path.write_text("".join(json.dumps(v) + "\n" for v in lines))
    with pytest.raises(LoadError) as info:
        toolhist.load(path, format="pi")
    assert str(info.value) == (
        f"{path}:1: at $: not a valid pi log: line 1 is not a Pi session header ({{'type': 'session', 'id': …}})"
    )


@pytest.mark.parametrize(
    ("bad", "note"),
    [
        (
            answer({"type": "toolCall", "id": "c1", "name": 7, "arguments": {}}),
            "line 3: skipped a record of kind `message` whose `message.content[0].name` is a number: "
            "expected a string, got number",
        ),
        (
            answer({"type": "toolCall", "id": ["c1"], "name": "read", "arguments": {}}),
            "line 3: skipped a record of kind `message` whose `message.content[0].id` is an array: "
            "expected a string, got array",
        ),
        (
            {"role": "user", "content": [{"type": "video", "url": "u"}]},
            "line 3: skipped a record of kind `message` whose `message.content[0].type` is a string: "
            "unknown content part type 'video'; expected 'text' or 'image'",
        ),
    ],
)
def test_a_malformed_entry_is_skipped_and_named_with_its_line_and_field(
    tmp_path: Any, bad: dict[str, Any], note: str
) -> None:
    """One damaged entry in a session is left out and named (`toolhist.formats.records`); the rest is read."""
    path = tmp_path / "s.jsonl"
    lines = [HEADER, entry("a", None, user("go")), entry("b", "a", bad), entry("c", "b", user("on"))]
    path.write_text("".join(json.dumps(v) + "\n" for v in lines))
    for fmt in (None, "pi"):  # named, and sniffed: the broken line does not hide the format
        s = toolhist.load(path, format=fmt)
        assert note in s.source.notes
        assert s.source.skipped == {"unreadable message": 1}
        assert texts(s) == ["go", "on"]


@pytest.mark.parametrize("role", [["user"], {"k": 1}, 7, None])
def test_a_role_that_is_not_a_string_is_a_role_pi_does_not_know(role: Any) -> None:
    s = load(
        entry("a", None, user("go")),
        entry("b", "a", {**user("x"), "role": role}),
        entry("c", "b", user("on")),
    )
    assert texts(s) == ["go", "on"]
    assert s.source.skipped == {"message without a string 'role'": 1}
    assert any("message without a string 'role' x1 (first on line 3)" in n for n in s.source.notes)


def test_a_compaction_off_the_path_is_kept_unsent() -> None:
    s = load(
        entry("a", None, user("go")),
        {
            "type": "compaction",
            "id": "k",
            "parentId": "a",
            "timestamp": "t",
            "summary": "S",
            "tokensBefore": 1,
        },
        entry("b", "a", user("retried")),
    )
    assert texts(s) == ["go", "retried"]
    assert [(u.kind, u.line, u.text) for u in s.unsent] == [("other branch compaction", 3, "S")]


def test_a_router_is_reported_by_name_with_no_toolhist_provider() -> None:
    router = {"api": "openai-completions", "provider": "openrouter", "model": "anthropic/claude-sonnet-4.5"}
    s = load(
        entry("a", None, user("go")), entry("b", "a", answer({"type": "text", "text": "ok"}, who=router))
    )
    ran = ran_on(s)
    assert ran is not None
    assert (ran.named, ran.provider, ran.model) == (
        "openrouter/openai-completions",
        None,
        "anthropic/claude-sonnet-4.5",
    )


def test_short_hash_is_pis() -> None:
    # Pi's shortHash (packages/ai/src/utils/hash.ts) run in Node 20 on these strings
    assert [
        short_hash(s) for s in ("", "toolu_017qEkVzzPb7b7o4FkgJLF23", "call_abc|fc_123", "héllo😀", "x:1")
    ] == [
        "k4n83c7h0j2b",
        "bb96381aw1klf",
        "jp01dsxufnom",
        "1olj6nu1frhbfw",
        "18j26151qcs4at",
    ]


_turn = st.one_of(
    st.just("user"),
    st.lists(st.sampled_from(["c1", "c2", "c3"]), min_size=1, max_size=3, unique=True),
    st.sampled_from(["c1", "c2", "c3"]),
)


@settings(deadline=None)
@given(st.lists(_turn, min_size=1, max_size=12))
def test_every_call_but_the_last_turns_is_answered_once_after_it(turns: list[Any]) -> None:
    """transformMessages' invariant: a call is answered before the next user or assistant turn."""
    entries: list[dict[str, Any]] = []
    parent = None
    for i, turn in enumerate(turns):
        eid = f"e{i}"
        if turn == "user":
            message = user("u")
        elif isinstance(turn, list):
            message = answer(*(call(f"{c}-{i}") for c in turn), stop="toolUse")
        else:
            message = result(f"{turn}-{max(0, i - 1)}")
        entries.append(entry(eid, parent, message))
        parent = eid
    s = load(*entries)
    ais = [i for i, m in enumerate(s.messages) if m.speaker == "ai"]
    for i in ais[:-1] if ais else []:
        later = s.messages[i + 1 :]
        nxt = next((k for k, m in enumerate(later) if m.speaker in ("ai", "human")), len(later))
        answered = [b.call_id for m in later[:nxt] for b in m.tool_responses()]
        for c in s.messages[i].tool_calls():
            assert answered.count(c.id) >= 1, (turns, c.id)
