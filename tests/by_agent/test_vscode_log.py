"""VS Code 1.109+ chat session logs replayed as ObjectMutationLog does (toolhist/agents/vscode/log.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.errors import LoadError

SAMPLE = Path(__file__).resolve().parents[2] / "sample_logs" / "vscode_rejected_tool.json"


def jsonl(*entries: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(e).encode() + b"\n" for e in entries)


def request(rid: str, text: str, **extra: Any) -> dict[str, Any]:
    return {"requestId": rid, "message": {"text": text, "parts": []}, "response": [], **extra}


def test_set_push_truncate_and_delete_are_applied_in_order() -> None:
    log = jsonl(
        {
            "kind": 0,
            "v": {"version": 3, "sessionId": "s", "requests": [request("r1", "one"), request("r2", "two")]},
        },
        {"kind": 2, "k": ["requests", 0, "response"], "v": [{"value": "first answer"}]},
        {"kind": 2, "k": ["requests"], "i": 1},  # cut to one request
        {"kind": 2, "k": ["requests"], "v": [request("r3", "three")]},
        {"kind": 1, "k": ["requests", 1, "response"], "v": [{"value": "third answer"}]},
        {"kind": 3, "k": ["requests", 1, "modelId"]},
    )
    session = toolhist.load(log)
    assert session.source.format == "vscode-jsonl"
    texts = [(m.speaker, m.blocks[0].text) for m in session.messages]  # type: ignore[union-attr]
    assert texts == [("human", "one"), ("ai", "first answer"), ("human", "three"), ("ai", "third answer")]
    assert [loc.line for loc in session.source.locations] == [1, 1, 4, 4]


def test_version_3_cancels_through_model_state() -> None:
    cancelled = request("r1", "go", modelState={"value": 2}, response=[{"value": "partial"}])
    session = toolhist.load(
        jsonl({"kind": 0, "v": {"version": 3, "sessionId": "s", "requests": [cancelled]}})
    )
    assert session.messages[0].metadata.extra == {"isCanceled": True}


def test_an_unknown_entry_kind_is_skipped_and_named() -> None:
    session = toolhist.load(
        jsonl(
            {"kind": 0, "v": {"version": 3, "sessionId": "s", "requests": []}},
            {"kind": 9, "k": ["x"], "v": 1},
        )
    )
    assert session.source.skipped == {"log entry kind 9": 1}
    assert session.source.notes[-1].startswith(
        "skipped 1 record(s) this reader does not know: log entry kind 9 x1"
    )


@pytest.mark.parametrize(
    ("second", "message"),
    [
        (
            {"kind": 1, "k": ["requests", 4, "x"], "v": 1},
            ":2: at [1].k[1]: not a valid vscode-jsonl session: the path ['requests', 4] does not exist in the session",
        ),
        (
            {"kind": 1, "k": "requests"},
            ":2: at [1].k: not a valid vscode-jsonl session: expected the path as an array",
        ),
        (
            {"kind": 1, "k": ["requests", 0, "message"], "v": {"text": 7}},
            ":2: at requests[0].message.text: not a valid vscode-jsonl session: expected a string, got number",
        ),
    ],
)
def test_a_bad_entry_is_one_error_naming_its_line(
    tmp_path: Path, second: dict[str, Any], message: str
) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        jsonl({"kind": 0, "v": {"version": 3, "sessionId": "s", "requests": [request("r", "q")]}}, second)
    )
    with pytest.raises(LoadError) as caught:
        toolhist.load(path)
    assert str(caught.value).startswith(f"{path}{message}")


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3), st.integers(0, 3))
def test_a_log_reads_as_the_json_session_it_describes(initial: int, cut: int) -> None:
    """However the requests were written (some in the Initial, the rest pushed, with a cut and a
    re-push), the replayed log reads exactly as the flat ``.json`` of the same session."""
    flat = json.loads(SAMPLE.read_text())
    requests = flat["requests"]
    first = min(initial, len(requests))
    entries: list[dict[str, Any]] = [{"kind": 0, "v": {**flat, "requests": requests[:first]}}]
    if requests[first:]:
        entries.append({"kind": 2, "k": ["requests"], "v": requests[first:]})
    keep = min(cut, len(requests))
    entries.append({"kind": 2, "k": ["requests"], "i": keep})
    if requests[keep:]:
        entries.append({"kind": 2, "k": ["requests"], "v": requests[keep:]})
    from_log = toolhist.load(jsonl(*entries))
    from_json = toolhist.load(SAMPLE)
    assert from_log.messages == from_json.messages
    assert from_log.unsent == from_json.unsent
