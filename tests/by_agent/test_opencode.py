"""OpenCode's sessions read as OpenCode sends them (toolhist/agents/opencode/send.py's rules, each a case)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.agents.opencode.send import COMPACTED_OUTPUT, COMPACTION_PROMPT, INTERRUPTED
from toolhist.errors import LoadError
from toolhist.model import Session, TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs" / "opencode"
SID = "ses_test"


def user(
    mid: str, *parts: dict[str, Any], model: tuple[str, str] = ("anthropic", "claude-sonnet-4-5")
) -> dict[str, Any]:
    info = {"id": mid, "sessionID": SID, "role": "user", "time": {"created": 1}, "agent": "build"}
    info["model"] = {"providerID": model[0], "modelID": model[1]}
    return {"info": info, "parts": [{"id": f"{mid}-p{i}", **p} for i, p in enumerate(parts)]}


def assistant(
    mid: str,
    *parts: dict[str, Any],
    provider: str = "anthropic",
    model: str = "claude-sonnet-4-5",
    **info: Any,
) -> dict[str, Any]:
    base = {"id": mid, "sessionID": SID, "role": "assistant", "time": {"created": 2}, "parentID": "u1"}
    base |= {"providerID": provider, "modelID": model, "mode": "build", "agent": "build", **info}
    return {"info": base, "parts": [{"id": f"{mid}-p{i}", **p} for i, p in enumerate(parts)]}


def text(t: str, **kw: Any) -> dict[str, Any]:
    return {"type": "text", "text": t, **kw}


def tool(call: str, status: str, **state: Any) -> dict[str, Any]:
    return {
        "type": "tool",
        "callID": call,
        "tool": "bash",
        "state": {"status": status, "input": {"command": "ls"}, **state},
    }


def load(*messages: dict[str, Any]) -> Session:
    export = {
        "info": {
            "id": SID,
            "projectID": "p",
            "directory": "/d",
            "title": "t",
            "version": "1.2.6",
            "time": {"created": 1, "updated": 2},
        },
        "messages": list(messages),
    }
    return toolhist.load(export)


def shape(session: Session) -> list[tuple[str, list[str]]]:
    return [(m.speaker, [b.type for b in m.blocks]) for m in session.messages]


def test_each_step_is_an_assistant_message_followed_by_its_results() -> None:
    session = load(
        user("u1", text("run it")),
        assistant(
            "a1",
            {"type": "step-start"},
            text("first"),
            tool("c1", "completed", output="ok", title="ls", metadata={}, time={"start": 1, "end": 2}),
            {"type": "step-finish", "reason": "tool-calls", "cost": 0, "tokens": {}},
            {"type": "step-start"},
            tool("c2", "error", error="boom", time={"start": 1, "end": 2}),
            {"type": "step-start"},
            text("done"),
        ),
    )
    assert shape(session) == [
        ("human", ["text"]),
        ("ai", ["text", "tool_call"]),
        ("tool", ["tool_response"]),
        ("ai", ["tool_call"]),
        ("tool", ["tool_response"]),
        ("ai", ["text"]),
    ]
    errored = session.messages[4].blocks[0]
    assert isinstance(errored, ToolResponseBlock)
    assert errored.error == "boom"
    assert errored.result == "boom"
    assert session.source.notes == ("parts OpenCode keeps for itself and never sends: step-finish x1",)


def test_compacted_output_pending_calls_and_ignored_text() -> None:
    session = load(
        user(
            "u1",
            text("hi"),
            text("not sent", ignored=True),
            {"type": "file", "mime": "text/plain", "url": "file:///a", "filename": "a"},
        ),
        assistant(
            "a1",
            tool(
                "c1",
                "completed",
                output="secret",
                title="t",
                metadata={},
                time={"start": 1, "end": 2, "compacted": 3},
            ),
            tool("c2", "running", time={"start": 1}),
        ),
    )
    results = [b for m in session.messages for b in m.tool_responses()]
    assert [r.result for r in results] == [COMPACTED_OUTPUT, INTERRUPTED]
    assert results[1].is_complete is False
    assert [u.kind for u in session.unsent] == ["ignored text"]
    assert session.unsent[0].text == "not sent"


def test_an_errored_assistant_message_is_not_sent_unless_aborted_after_content() -> None:
    aborted = {"name": "MessageAbortedError", "data": {"message": "aborted"}}
    session = load(
        user("u1", text("go")),
        assistant("a1", text("partial"), error={"name": "APIError", "data": {"message": "rate limited"}}),
        assistant(
            "a2",
            {"type": "step-start"},
            {"type": "reasoning", "text": "hm", "time": {"start": 1}},
            error=aborted,
        ),
        assistant(
            "a3", {"type": "reasoning", "text": "hm", "time": {"start": 1}}, text("kept"), error=aborted
        ),
    )
    assert shape(session) == [("human", ["text"]), ("ai", ["thinking", "text"])]
    assert [(u.kind, u.text) for u in session.unsent] == [
        ("errored assistant message", "APIError: rate limited"),
        ("errored assistant message", "MessageAbortedError: aborted"),
    ]


def test_history_starts_at_the_last_completed_compaction() -> None:
    session = load(
        user("u1", text("old question")),
        assistant("a1", text("old answer")),
        user("u2", {"type": "compaction", "auto": True}),
        assistant("a2", text("summary of it all"), summary=True, finish="stop", parentID="u2"),
        user("u3", text("next")),
    )
    assert shape(session) == [("human", ["text"]), ("ai", ["text"]), ("human", ["text"])]
    first = session.messages[0].blocks[0]
    assert isinstance(first, TextBlock)
    assert first.text == COMPACTION_PROMPT
    assert [(u.kind, u.data["id"]) for u in session.unsent] == [("compacted", "u1"), ("compacted", "a1")]
    # with a tail_start_id, the history goes back to that message
    tail = load(
        user("u1", text("old question")),
        assistant("a1", text("old answer")),
        user("u2", {"type": "compaction", "auto": True, "tail_start_id": "a1"}),
        assistant("a2", text("summary"), summary=True, finish="stop", parentID="u2"),
    )
    assert [m.metadata.turn_id for m in tail.messages] == ["a1", "u2", "a2"]


def test_reasoning_keeps_its_signature_only_for_the_model_it_came_from() -> None:
    signed = {
        "type": "reasoning",
        "text": "why",
        "time": {"start": 1},
        "metadata": {"anthropic": {"signature": "sig"}},
    }
    same = load(user("u1", text("q")), assistant("a1", signed, text("a")), user("u2", text("more")))
    other = load(
        user("u1", text("q")),
        assistant("a1", signed, text("a")),
        user("u2", text("more"), model=("openai", "gpt-5")),
    )
    thinking = next(b for b in same.messages[1].blocks if isinstance(b, ThinkingBlock))
    assert thinking.signature == "sig"
    moved = next(b for b in other.messages[1].blocks if isinstance(b, ThinkingBlock))
    assert moved.signature is None
    assert moved.provider_data == {}


def test_the_next_model_adapts_ids_and_turns_as_opencodes_transform_does() -> None:
    call = tool("call:1|x", "completed", output="ok", title="t", metadata={}, time={"start": 1, "end": 2})
    claude = load(user("u1", text("q")), assistant("a1", call), user("u2", text("and?")))
    ids = [b.id for m in claude.messages for b in m.tool_calls()]
    assert ids == ["call_1_x"]
    assert [b.call_id for m in claude.messages for b in m.tool_responses()] == ["call_1_x"]
    mistral = load(
        user("u1", text("q"), model=("mistral", "mistral-large-latest")),
        assistant("a1", call, provider="mistral", model="mistral-large-latest"),
        user("u2", text("and?"), model=("mistral", "mistral-large-latest")),
    )
    assert [b.id for m in mistral.messages for b in m.tool_calls()] == ["call1x000"]
    assert shape(mistral)[2:] == [("tool", ["tool_response"]), ("ai", ["text"]), ("human", ["text"])]
    assert mistral.messages[3].metadata.synthetic
    assert mistral.source.notes[-1].startswith(
        "as OpenCode adapts the history to mistral/mistral-large-latest"
    )
    empty = load(
        user("u1", text("q")),
        assistant("a1", text(""), {"type": "reasoning", "text": "", "time": {"start": 1}}),
        user("u2", text("x")),
    )
    assert shape(empty) == [("human", ["text"]), ("human", ["text"])]


def test_unknown_parts_are_named_and_a_bad_field_is_one_line() -> None:
    session = load(user("u1", text("q"), {"type": "hologram"}))
    assert session.source.skipped == {"part type 'hologram'": 1}
    assert "part type 'hologram' x1" in session.source.notes[-1]
    with pytest.raises(LoadError) as caught:
        load(
            user("u1", text("q")),
            assistant("a1", {"type": "tool", "callID": "c", "tool": "bash", "state": "done"}),
        )
    assert (
        str(caught.value)
        == "<json>: at messages[1].parts[0].state: not a valid opencode session: expected an object, got string"
    )


def test_the_storage_tree_and_the_export_read_the_same_history(tmp_path: Path) -> None:
    export = json.loads((CORPUS / "opencode-export-message-v2-shapes.fixture.json").read_text())
    sid = export["info"]["id"]
    root = tmp_path / "storage"
    info = root / "session" / export["info"]["projectID"] / f"{sid}.json"
    info.parent.mkdir(parents=True)
    info.write_text(json.dumps(export["info"]))
    for message in export["messages"]:
        mid = message["info"]["id"]
        (root / "message" / sid).mkdir(parents=True, exist_ok=True)
        (root / "message" / sid / f"{mid}.json").write_text(json.dumps(message["info"]))
        for part in message["parts"]:
            (root / "part" / mid).mkdir(parents=True, exist_ok=True)
            (root / "part" / mid / f"{part['id']}.json").write_text(json.dumps(part))
    from_tree = toolhist.load(info)
    from_export = toolhist.load(CORPUS / "opencode-export-message-v2-shapes.fixture.json")
    assert from_tree.messages == from_export.messages
    assert from_tree.metadata["opencode_form"] == "storage"
    with pytest.raises(LoadError, match="open the file itself"):
        toolhist.load(export["info"])


def test_the_corpus_store_reads_its_newest_session_as_sent() -> None:
    session = toolhist.load(CORPUS / "opencode-message-v2-shapes.fixture.db")
    calls = [b for m in session.messages for b in m.tool_calls()]
    assert [(c.name, c.id) for c in calls] == [
        ("bash", "call_Qm4Zt8Lx2Vb6Nc1Pd9Rf3Ks7"),
        ("read", "call_Hp7Ws2Dk5Mq9Ty3Bf6Lv1Xn8"),
        ("bash", "call_Vr1Bq6Xm3Kd8Ns4Hc2Tp7Lw9"),
    ]
    assert isinstance(calls[0], ToolCallBlock)
    assert calls[0].parameters == {
        "command": "bun test test/orders.test.ts",
        "description": "Run the orders test",
    }
    assert session.request == {"model": "gpt-5"}
    assert [u.kind for u in session.unsent] == ["errored assistant message"]


def test_opencode_db_names_a_store_of_its_own(tmp_path: Path) -> None:
    from toolhist.agents.folders import Home
    from toolhist.agents.opencode import sessions

    data = Path("/h/.local/share/opencode")
    assert sessions.places(Home(Path("/h"), {"OPENCODE_DB": "/x/mine.db"})) == (data, Path("/x/mine.db"))
    assert sessions.places(Home(Path("/h"), {"OPENCODE_DB": "work.db"})) == (data, data / "work.db")
    assert sessions.places(Home(Path("/h"), {"OPENCODE_DB": "opencode-dev.db"})) == (data,)  # listed already
    assert sessions.places(Home(Path("/h"), {"OPENCODE_DB": ":memory:"})) == (data,)
    store = tmp_path / "mine.db"
    store.write_bytes((CORPUS / "opencode-message-v2-shapes.fixture.db").read_bytes())
    assert [str(f.path) for f in sessions.sessions(store)] == [
        f"{store}#ses_4a2e9b07dffeC3pHk5Vn8Rx1Lz",
        f"{store}#ses_4a2f0c31bffeQ1xVw9Kc2mZtRd",
    ]
