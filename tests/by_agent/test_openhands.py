"""The ``openhands`` reader: folders gathered, the branch, the view's properties, events_to_messages."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.model import TextBlock

FIXTURE = Path(__file__).parent.parent / "corpus" / "logs" / "openhands" / "sdk-v1-49-1-mcp.fixture"


def ev(eid: str, kind: str, **fields: Any) -> dict[str, Any]:
    return {"id": eid, "timestamp": "2026-01-01T00:00:00", "source": "agent", "kind": kind, **fields}


def msg(eid: str, source: str, text: str) -> dict[str, Any]:
    content = [{"type": "text", "text": text}]
    return ev(
        eid,
        "MessageEvent",
        source=source,
        llm_message={"role": source if source == "user" else "assistant", "content": content},
    )


def act(eid: str, cid: str, response: str) -> dict[str, Any]:
    call = {"id": cid, "name": "terminal", "arguments": '{"command":"ls"}', "origin": "completion"}
    return ev(
        eid,
        "ActionEvent",
        thought=[{"type": "text", "text": ""}],
        tool_name="terminal",
        tool_call_id=cid,
        tool_call=call,
        llm_response_id=response,
    )


def obs(eid: str, cid: str, text: str = "ok", *, error: bool = False) -> dict[str, Any]:
    observation = {
        "content": [{"type": "text", "text": text}],
        "is_error": error,
        "kind": "TerminalObservation",
    }
    return ev(
        eid,
        "ObservationEvent",
        source="environment",
        tool_name="terminal",
        tool_call_id=cid,
        observation=observation,
    )


def load(*events: dict[str, Any]) -> toolhist.Session:
    return toolhist.load(json.dumps(list(events)))


def test_a_conversation_folder_loads_by_its_path() -> None:
    s = toolhist.load(FIXTURE)
    assert (s.source.format, s.source.path, len(s.messages)) == ("openhands", str(FIXTURE), 12)
    assert s.metadata["llm"] == {"model": "test-model", "usage_id": "test-llm"}
    error = [b for m in s.messages for b in m.tool_responses() if b.call_id == "call_no_such_tool"]
    assert [b.error for b in error] == [
        "Tool 'no_such_tool' not found. Available: ['terminal', 'file_editor', 'finish', 'think', "
        "'inspect_image_with_vision', 'read_file']"
    ]


def test_a_folder_that_is_no_conversation_is_one_line(tmp_path: Path) -> None:
    with pytest.raises(LoadError) as info:
        toolhist.load(tmp_path)
    assert str(info.value) == f"{tmp_path}: is a directory, not a session file"


def test_one_responses_actions_are_one_message_and_unmatched_ones_are_dropped() -> None:
    s = load(
        msg("u1", "user", "go"),
        act("a1", "c1", "r1"),
        act("a2", "c2", "r1"),
        obs("o1", "c1"),
        obs("o2", "c2", "boom", error=True),
        obs("o3", "c2", "late duplicate"),
        act("a3", "c3", "r2"),  # never observed, and a user message follows: dropped
        msg("u2", "user", "stop"),
        act("a4", "c4", "r3"),  # the last response: pending, the agent runs it next
    )
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "tool", "human", "ai"]
    assert [b.id for b in s.messages[1].tool_calls()] == ["c1", "c2"]
    assert [b.error for b in s.messages[3].tool_responses()] == [
        "[An error occurred during execution.]\nboom"
    ]
    assert [u.kind for u in s.unsent] == ["duplicate ObservationEvent", "unmatched ActionEvent"]


def test_a_condensation_forgets_events_and_inserts_its_summary() -> None:
    s = load(
        msg("u1", "user", "old"),
        msg("m1", "agent", "old answer"),
        msg("u2", "user", "newer"),
        ev(
            "c",
            "Condensation",
            forgotten_event_ids=["u1", "m1"],
            summary="they talked",
            summary_offset=0,
            llm_response_id="r",
        ),
        msg("m2", "agent", "fine"),
    )
    texts = [[b.text for b in m.blocks if isinstance(b, TextBlock)] for m in s.messages]
    assert texts == [["they talked", "newer"], ["fine"]]  # adjacent plain user messages merge
    assert [u.kind for u in s.unsent] == ["forgotten MessageEvent", "forgotten MessageEvent"]


def test_the_leaf_in_base_state_picks_the_branch(tmp_path: Path) -> None:
    folder = tmp_path / "c1"
    shutil.copytree(FIXTURE, folder)
    state = json.loads((folder / "base_state.json").read_text())
    state["leaf_event_id"] = "fb58d9b8-09d5-48fb-a7f1-c3a45a2e9374"  # back at the user's 'hello'
    (folder / "base_state.json").write_text(json.dumps(state))
    s = toolhist.load(folder)
    assert [m.speaker for m in s.messages] == ["system", "human"]
    assert len(s.unsent) == 10
    assert {u.kind.split()[0] for u in s.unsent} == {"branch"}


def test_unknown_event_kinds_are_skipped_and_named() -> None:
    s = load(msg("u1", "user", "go"), ev("x", "FutureEvent"), msg("m1", "agent", "ok"))
    assert s.source.skipped == {"event kind 'FutureEvent'": 1}
    assert any("event kind 'FutureEvent' x1" in n for n in s.source.notes)


def test_events_that_are_none_of_openhands_are_one_line() -> None:
    with pytest.raises(LoadError) as info:
        toolhist.load(b'[{"kind": []}, {"role": "user"}]', format="openhands", name="e.json")
    assert str(info.value) == (
        "e.json:1:2: at [0]: not a valid openhands session: no OpenHands event (an object with kind, id and "
        "timestamp); skipped 2 record(s) this reader does not know: event without a string 'kind' x2"
    )
    with pytest.raises(LoadError) as info:
        toolhist.load(b'{"base_state": {}}', format="openhands", name="c.json")
    assert str(info.value) == (
        "c.json:1:1: at events: not a valid openhands session: expected a gathered conversation "
        "{base_state, events} or a list of events"
    )
