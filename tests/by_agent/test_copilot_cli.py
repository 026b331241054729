"""GitHub Copilot CLI's events.jsonl read as a resumed session replays it (toolhist/agents/copilot_cli/)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.agents.copilot_cli.events import INTERRUPTED, SUMMARY_HEAD
from toolhist.errors import LoadError
from toolhist.model import Session, TextBlock, ToolCallBlock, ToolResponseBlock
from toolhist.ran_on import ran_on, said

START = {"sessionId": "s1", "version": 1, "producer": "copilot-agent", "copilotVersion": "1.0.55"}


def log(*events: tuple[str, dict[str, Any]] | dict[str, Any]) -> bytes:
    lines = [{"type": "session.start", "data": START, "id": "e0", "timestamp": "2026-05-26T16:00:00Z"}]
    for n, item in enumerate(events, start=1):
        event = item if isinstance(item, dict) else {"type": item[0], "data": item[1]}
        lines.append({"id": f"e{n}", "timestamp": f"2026-05-26T16:00:{n:02}Z", **event})
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


def user(text: str) -> tuple[str, dict[str, Any]]:
    return ("user.message", {"content": text})


def answer(text: str = "", *calls: str, **extra: Any) -> tuple[str, dict[str, Any]]:
    requests = [{"toolCallId": c, "name": "bash", "arguments": {"command": c}} for c in calls]
    return (
        "assistant.message",
        {"messageId": f"m{text}{calls}", "content": text, "toolRequests": requests, **extra},
    )


def done(call: str, content: str = "ok", **result: Any) -> tuple[str, dict[str, Any]]:
    return (
        "tool.execution_complete",
        {"toolCallId": call, "success": True, "result": {"content": content, **result}},
    )


def shape(session: Session) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for m in session.messages:
        parts = []
        for b in m.blocks:
            if isinstance(b, TextBlock):
                parts.append(b.text)
            elif isinstance(b, ToolCallBlock):
                parts.append(f"call {b.id}")
            elif isinstance(b, ToolResponseBlock):
                parts.append(f"result {b.call_id}: {b.result}")
        out.append((m.speaker, parts))
    return out


def test_the_transformed_message_is_sent_and_the_latest_system_prompt_goes_first() -> None:
    session = toolhist.load(
        log(
            ("system.message", {"role": "system", "content": "old prompt"}),
            (
                "user.message",
                {"content": "hi", "transformedContent": "<current_datetime>x</current_datetime>\nhi"},
            ),
            answer("hello"),
            ("system.message", {"role": "system", "content": "new prompt"}),
        )
    )
    assert session.source.format == "copilot-cli"
    assert shape(session) == [
        ("system", ["new prompt"]),
        ("human", ["<current_datetime>x</current_datetime>\nhi"]),
        ("ai", ["hello"]),
    ]
    assert session.messages[1].metadata.extra == {"content": "hi"}
    assert [(u.kind, u.text) for u in session.unsent] == [("replaced system message", "old prompt")]


def test_an_aborted_call_gets_the_clis_interrupted_result() -> None:
    session = toolhist.load(
        log(
            user("go"),
            answer("", "c1", "c2"),
            done("c1"),
            ("abort", {"reason": "user_initiated"}),
            user("next"),
        )
    )
    assert shape(session) == [
        ("human", ["go"]),
        ("ai", ["call c1", "call c2"]),
        ("tool", ["result c1: ok", f"result c2: {INTERRUPTED}"]),
        ("human", ["next"]),
    ]
    synthetic = session.messages[2].blocks[1]
    assert isinstance(synthetic, ToolResponseBlock)
    assert synthetic.is_complete is False
    assert "_synthetic" in synthetic.provider_data


def test_a_compaction_replaces_the_earlier_history_with_the_summary() -> None:
    session = toolhist.load(
        log(
            user("first"),
            answer("one"),
            user("second"),
            ("session.compaction_start", {}),
            answer("two"),
            ("session.compaction_complete", {"success": True, "summaryContent": "SUMMARY"}),
            user("third"),
        )
    )
    wrapper = (
        SUMMARY_HEAD
        + "<user_message>\nfirst\n</user_message>\n<user_message>\nsecond\n</user_message>\n"
        + "\nHere is a summary of the prior context:\n<summary>\nSUMMARY\n</summary>"
    )
    assert shape(session) == [("human", [wrapper]), ("ai", ["two"]), ("human", ["third"])]
    assert session.messages[0].metadata.synthetic is True
    assert [u.kind for u in session.unsent] == [
        "compacted human message",
        "compacted ai message",
        "compacted human message",
    ]
    assert [u.before for u in session.unsent] == [0, 0, 0]


def test_rewinds_clear_and_subagents_are_kept_unsent() -> None:
    session = toolhist.load(
        log(
            user("a"),
            {"type": "assistant.message", "data": {"messageId": "x", "content": "sub"}, "agentId": "agent-1"},
            {
                "type": "tool.execution_complete",
                "data": {"toolCallId": "z", "success": True},
                "agentId": "agent-1",
            },
            answer("b"),
            user("c"),
            ("session.snapshot_rewind", {"upToEventId": "e5", "eventsRemoved": 1}),
            user("d"),
            ("session.context_cleared", {"messagesCleared": 3}),
            user("e"),
        )
    )
    assert shape(session) == [("human", ["e"])]
    assert [(u.kind, u.before) for u in session.unsent] == [
        ("cleared human message", 0),
        ("subagent", 0),
        ("cleared ai message", 0),
        ("rewound user.message", 0),
        ("cleared human message", 0),
    ]
    sub = next(u for u in session.unsent if u.kind == "subagent")
    assert sub.data == {"agentId": "agent-1", "first_line": 3, "events": 2, "messages": 2}


def test_chunks_merge_reasoning_and_display_text_are_unsent() -> None:
    session = toolhist.load(
        log(
            user("q"),
            answer("part one", apiCallId="r1", chunkIndex=0, reasoningText="thought", reasoningOpaque="XYZ"),
            answer("", "c1", apiCallId="r1", chunkIndex=1),
            done("c1", "short", detailedContent="long display"),
            answer(""),
        )
    )
    assert shape(session) == [
        ("human", ["q"]),
        ("ai", ["part one", "call c1"]),
        ("tool", ["result c1: short"]),
    ]
    assert [(u.kind, u.text) for u in session.unsent] == [
        ("reasoning", "thought"),
        ("tool display text", "long display"),
        ("empty answer", ""),
    ]
    assert session.unsent[0].data == {"reasoningOpaque": True}


def test_unknown_and_ephemeral_events_are_skipped_and_named() -> None:
    session = toolhist.load(
        log(
            user("q"),
            ("future.event", {}),
            {"type": "assistant.message_delta", "data": {}, "ephemeral": True},
        )
    )
    assert session.source.skipped == {"event type 'future.event'": 1}
    assert any("future.event" in note and "line 3" in note for note in session.source.notes)
    assert "1 ephemeral event(s) skipped: the CLI does not replay them" in session.source.notes


def test_a_failed_call_sends_its_error() -> None:
    failure = {"toolCallId": "c1", "success": False, "error": {"message": "permission denied"}}
    session = toolhist.load(log(user("q"), answer("", "c1"), ("tool.execution_complete", failure)))
    result = session.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert (result.result, result.error) == ("permission denied", "permission denied")


@pytest.mark.parametrize(
    ("event", "message"),
    [
        ("[1]", ":2: at $: not a valid copilot-cli log: expected an event object, got list"),
        ('{"data": {}}', ":2: at type: not a valid copilot-cli log: expected the event's type as a string"),
        (
            '{"type": "user.message", "data": {"content": 5}}',
            ":2: at data.content: not a valid copilot-cli log: expected a string, got number",
        ),
        (
            '{"type": "assistant.message", "data": {"content": "", "toolRequests": [{"name": "x"}]}}',
            ":2: at data.toolRequests[0].toolCallId: not a valid copilot-cli log: expected a string, got null",
        ),
    ],
)
def test_a_malformed_line_is_one_error_naming_file_line_and_field(
    tmp_path: Path, event: str, message: str
) -> None:
    path = tmp_path / "events.jsonl"
    path.write_bytes(log()[:-1] + b"\n" + event.encode() + b"\n")
    with pytest.raises(LoadError) as caught:
        toolhist.load(path)
    assert str(caught.value) == f"{path}{message}"


def test_the_model_family_says_where_it_ran() -> None:
    session = toolhist.load(log(("session.model_change", {"newModel": "claude-sonnet-4.5"}), user("q")))
    assert said(ran_on(session)) == (  # type: ignore[arg-type]
        "ran on anthropic (claude-sonnet-4.5; the model's family, through GitHub's Copilot API)"
    )
    failed = log(user("q"), ("model.call_failure", {"source": "top_level", "apiEndpoint": "/responses"}))
    ran = ran_on(toolhist.load(failed))
    assert ran is not None
    assert (ran.provider, ran.evidence) == ("openai-responses", "model.call_failure apiEndpoint /responses")


_events = st.lists(
    st.one_of(
        st.builds(user, st.text(min_size=1, max_size=5)),
        st.builds(lambda n: answer("", *(f"c{i}" for i in range(n))), st.integers(0, 2)),
        st.builds(done, st.sampled_from(["c0", "c1", "c9"])),
        st.just(("abort", {"reason": "user_initiated"})),
        st.just(("session.compaction_start", {})),
        st.just(("session.compaction_complete", {"success": True, "summaryContent": "S"})),
        st.just(("session.context_cleared", {"messagesCleared": 1})),
    ),
    max_size=14,
)


@settings(max_examples=60, deadline=None)
@given(_events)
@example(  # found by CI: a call pending when a compaction starts, interrupted while it runs
    [
        answer("", "c0"),
        ("session.compaction_start", {}),
        user("0"),
        ("session.compaction_complete", {"success": True, "summaryContent": "S"}),
    ]
)
def test_every_result_answers_a_call_sent_before_it(events: list[tuple[str, dict[str, Any]]]) -> None:
    session = toolhist.load(log(*events))
    seen: set[str] = set()
    for message in session.messages:
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                seen.add(block.id)
            if isinstance(block, ToolResponseBlock):
                assert block.call_id in seen
    assert all(0 <= u.before <= len(session.messages) for u in session.unsent)
