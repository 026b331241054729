"""`toolhist.diff`: rows aligned by content, statuses, Changes tied to rows."""

from __future__ import annotations

import sys
from typing import Any

import pandas as pd
from builders import ai, call, human, result, session, tool
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.curation.base import Change, Position
from toolhist.diff import Diff, content_classes, diff, message_hash, summarize_message
from toolhist.model import Message, MessageMetadata, Session


def rows(d: Diff) -> list[tuple[int | None, int | None, str, tuple[int, ...]]]:
    return [(r.before, r.after, r.status, r.changes) for r in d.rows]


def change(action: Any, before: Position | None, after: Position | None, call_id: str = "c1") -> Change:
    return Change.model_validate(
        {
            "pass": "test",
            "action": action,
            "reason": "because",
            "call_id": call_id,
            "before": before,
            "after": after,
        }
    )


def synthetic(message: Message) -> Message:
    return message.model_copy(update={"metadata": MessageMetadata(synthetic=True, reason="closes c1")})


BASE = session(human("read it"), ai(call("c1")), tool(result("c1")), ai("done"))


def test_identical_sessions_are_all_same() -> None:
    d = diff(BASE, BASE)
    assert rows(d) == [(i, i, "same", ()) for i in range(4)]
    assert d.counts() == {"same": 4, "changed": 0, "inserted": 0, "deleted": 0, "moved": 0}


def test_metadata_is_ignored() -> None:
    after = session(*BASE.messages[:2], synthetic(BASE.messages[2]), BASE.messages[3])
    assert message_hash(after.messages[2]) == message_hash(BASE.messages[2])
    assert [r.status for r in diff(BASE, after).rows] == ["same"] * 4


def test_inserted_synthetic_result() -> None:
    before = session(human("read it"), ai(call("c1")), human("next"))
    after = session(
        human("read it"), ai(call("c1")), synthetic(tool(result("c1", "cancelled"))), human("next")
    )
    closed = change("close", None, Position(message=2, block=0))
    d = diff(before, after, [closed])
    assert rows(d) == [
        (0, 0, "same", ()),
        (1, 1, "same", ()),
        (None, 2, "inserted", (0,)),
        (2, 3, "same", ()),
    ]


def test_dropped_duplicate_result() -> None:
    before = session(*BASE.messages[:3], tool(result("c1")), BASE.messages[3])
    dropped = change("dedupe", Position(message=3), None)
    d = diff(before, BASE, [dropped])
    assert rows(d) == [
        (0, 0, "same", ()),
        (1, 1, "same", ()),
        (2, 2, "same", ()),
        (3, None, "deleted", (0,)),
        (4, 3, "same", ()),
    ]
    assert d.counts()["deleted"] == 1


def test_moved_result() -> None:
    before = session(human("read it"), ai(call("c1")), human("wait"), tool(result("c1")))
    after = session(human("read it"), ai(call("c1")), tool(result("c1")), human("wait"))
    moved = change("move", Position(message=3, block=0), Position(message=2, block=0))
    d = diff(before, after, [moved])
    assert rows(d) == [(0, 0, "same", ()), (1, 1, "same", ()), (3, 2, "moved", (0,)), (2, 3, "same", ())]


def test_id_rewrite_is_changed_not_delete_insert() -> None:
    after = session(human("read it"), ai(call("hist_tool_1")), tool(result("hist_tool_1")), ai("done"))
    rewrites = [
        change("rewrite_id", Position(message=1, block=0), Position(message=1, block=0)),
        change("rewrite_id", Position(message=2, block=0), Position(message=2, block=0)),
    ]
    d = diff(BASE, after, rewrites)
    assert rows(d) == [
        (0, 0, "same", ()),
        (1, 1, "changed", (0,)),
        (2, 2, "changed", (1,)),
        (3, 3, "same", ()),
    ]


def test_result_removed_from_a_message_is_changed() -> None:
    before = session(human("go"), ai(call("c1"), call("c2")), tool(result("c1"), result("c2"), result("c9")))
    after = session(human("go"), ai(call("c1"), call("c2")), tool(result("c1"), result("c2")))
    d = diff(before, after, [change("drop", Position(message=2, block=2), None, "c9")])
    assert rows(d) == [(0, 0, "same", ()), (1, 1, "same", ()), (2, 2, "changed", (0,))]


def test_text_edit_pairs_by_speaker_and_text() -> None:
    before = session(human("go"), ai("thinking aloud", call("c1")), tool(result("c1")))
    after = session(human("go"), ai("thinking aloud"), tool(result("c1")))
    assert [r.status for r in diff(before, after).rows] == ["same", "changed", "same"]


def test_ids_translated_through_rewrite_changes() -> None:
    # the result's id is rewritten and its content changed: only the rewrite Change ties the two
    before = session(human("go"), ai(call("c1")), tool(result("c1", "v1")), human("bye"))
    after = session(human("go"), ai(call("n1")), tool(result("n1", "v2")), human("bye"))
    rewrite = Change.model_validate(
        {
            "pass": "map_ids",
            "action": "rewrite_id",
            "reason": "canonical",
            "call_id": "c1",
            "before": {"message": 1, "block": 0},
            "after": {"message": 1, "block": 0},
            "detail": {"old_id": "c1", "new_id": "n1"},
        }
    )
    assert [r.status for r in diff(before, after, [rewrite]).rows] == ["same", "changed", "changed", "same"]


def test_unrelated_messages_are_deleted_and_inserted() -> None:
    before = session(human("go"), tool(result("c7", "orphan")), human("bye"))
    after = session(human("go"), ai("a note"), human("bye"))
    assert rows(diff(before, after)) == [
        (0, 0, "same", ()),
        (1, None, "deleted", ()),
        (None, 1, "inserted", ()),
        (2, 2, "same", ()),
    ]


def test_whole_message_change_pairs_rewritten_content() -> None:
    before = session(human("go"), ai("a long answer"), human("bye"))
    after = session(human("go"), ai("[summarised]"), human("bye"))
    assert [r.status for r in diff(before, after).rows] == ["same", "deleted", "inserted", "same"]
    summarised = change("merge", Position(message=1), Position(message=1), call_id="")
    assert rows(diff(before, after, [summarised])) == [
        (0, 0, "same", ()),
        (1, 1, "changed", (0,)),
        (2, 2, "same", ()),
    ]


def test_repetitive_history_without_unique_anchors() -> None:
    # 700 x 700 repeated messages: past difflib's budget, the greedy in-order fallback aligns them
    turns = [human("continue"), ai("ok")] * 350
    before = session(*turns)
    after = session(*turns[:101], *turns[102:600], ai("new"), *turns[600:])
    d = diff(before, after)
    assert d.counts() == {"same": 699, "changed": 0, "inserted": 1, "deleted": 1, "moved": 0}
    assert sorted(r.before for r in d.rows if r.before is not None) == list(range(700))
    assert sorted(r.after for r in d.rows if r.after is not None) == list(range(700))


def test_change_ties_on_either_side() -> None:
    before = session(human("a"), human("b"))
    after = session(human("a"), human("b"))
    changes = [change("keep", Position(message=1), None), change("keep", None, Position(message=0))]
    assert rows(diff(before, after, changes)) == [(0, 0, "same", (1,)), (1, 1, "same", (0,))]


def test_frame_and_json() -> None:
    after = session(human("read it"), ai(call("c1")), tool(result("c1")))
    d = diff(BASE, after)
    frame = d.to_frame()
    assert isinstance(frame, pd.DataFrame)
    assert list(frame.columns) == ["before", "after", "status", "speaker", "summary", "changes"]
    assert frame["status"].tolist() == ["same", "same", "same", "deleted"]
    assert frame["summary"].tolist() == ["read it", "call read_file(c1)", "result c1: ok", "done"]
    assert frame["after"].isna().tolist() == [False, False, False, True]
    data = d.to_json()
    assert data["counts"] == {"same": 3, "changed": 0, "inserted": 0, "deleted": 1, "moved": 0}
    assert data["rows"][3] == {
        "before": 3,
        "after": None,
        "status": "deleted",
        "changes": [],
        "speaker": "ai",
        "summary": "done",
    }


def test_exported_from_the_package() -> None:
    assert toolhist.diff is diff
    for name in ("curate", "Curation", "Change", "STRATEGIES", "render", "validate", "validate_payload"):
        assert name in toolhist.__all__
    assert {"PROVIDERS", "explain"} <= set(toolhist.__all__)


def test_curation_diff_ties_every_change() -> None:
    stuck = toolhist.load("sample_logs/openai_chat_request.json")
    for strategy in toolhist.STRATEGIES:
        curation = toolhist.curate(stuck, "anthropic", strategy=strategy)
        d = diff(curation.original, curation.session, curation.changes)
        tied = {n for r in d.rows for n in r.changes}
        located = {n for n, c in enumerate(curation.changes) if c.before is not None or c.after is not None}
        assert tied == located, strategy


# --- property: every index exactly once, statuses consistent -------------------------------------------------

MESSAGES = [
    human("go"),
    human("again"),
    ai("ok"),
    ai(call("c1")),
    ai(call("c2"), call("c3")),
    tool(result("c1")),
    tool(result("c2"), result("c3")),
    tool(result("c2")),
    ai(call("n1")),
    tool(result("n1")),
]


@st.composite
def edited(draw: st.DrawFn) -> tuple[Session, Session]:
    before = draw(st.lists(st.sampled_from(MESSAGES), max_size=25))
    after = list(before)
    for _ in range(draw(st.integers(0, 6))):
        op = draw(st.sampled_from(["insert", "delete", "move", "replace"]))
        if op == "insert" or not after:
            after.insert(draw(st.integers(0, len(after))), draw(st.sampled_from(MESSAGES)))
        elif op == "delete":
            after.pop(draw(st.integers(0, len(after) - 1)))
        elif op == "move":
            message = after.pop(draw(st.integers(0, len(after) - 1)))
            after.insert(draw(st.integers(0, len(after))), message)
        else:
            after[draw(st.integers(0, len(after) - 1))] = draw(st.sampled_from(MESSAGES))
    return session(*before), session(*after)


@settings(max_examples=300, deadline=None)
@given(edited())
def test_every_index_once_and_statuses_consistent(pair: tuple[Session, Session]) -> None:
    before, after = pair
    d = diff(before, after)
    befores = [r.before for r in d.rows if r.before is not None]
    afters = [r.after for r in d.rows if r.after is not None]
    assert sorted(befores) == list(range(len(before.messages)))
    assert sorted(afters) == list(range(len(after.messages)))
    assert afters == sorted(afters)  # rows read in after order
    in_order = [r.before for r in d.rows if r.before is not None and r.status in ("same", "changed")]
    assert in_order == sorted(in_order)  # only moved rows go back
    for r in d.rows:
        if r.status == "inserted":
            assert r.before is None
            assert r.after is not None
        elif r.status == "deleted":
            assert r.before is not None
            assert r.after is None
        else:
            assert r.before is not None
            assert r.after is not None
            same = message_hash(before.messages[r.before]) == message_hash(after.messages[r.after])
            assert same == (r.status == "same") or r.status == "moved"
    if before == after:
        assert all(r.status == "same" for r in d.rows)
    assert sum(d.counts().values()) == len(d.rows)


def test_only_messages_that_share_a_rough_key_are_hashed(monkeypatch: Any) -> None:
    """A curation keeps every untouched message object: diff hashes only objects whose cheap key another has.

    The rebuilt message and the one it was rebuilt from share speaker, block types and ids, so
    both are hashed in full (once each); the three messages both sessions share, with a key of
    their own, are not hashed at all.
    """
    module = sys.modules[diff.__module__]  # `toolhist.diff` the name is the function, not the module
    hashed: list[int] = []

    def counting(message: Message) -> bytes:
        hashed.append(id(message))
        return message_hash(message)

    monkeypatch.setattr(module, "message_hash", counting)
    after = session(*BASE.messages[:2], synthetic(BASE.messages[2]), BASE.messages[3])
    d = diff(BASE, after)
    assert [r.status for r in d.rows] == ["same"] * 4
    assert sorted(hashed) == sorted([id(BASE.messages[2]), id(after.messages[2])])


pool = st.sampled_from(
    [
        human("a"),
        human("a"),  # equal content, another object
        Message(speaker="ai", blocks=human("a").blocks),  # same blocks, another speaker
        ai(call("c1")),
        ai(call("c1", path="x")),  # same id and name, other parameters
        ai(call("c1"), "a"),
        tool(result("c1")),
        tool(result("c1", "other")),  # same call id, other result
        synthetic(tool(result("c1"))),  # metadata only: equal content
        tool(result("c2")),
        ai("a", "b"),
        ai("a b"),
    ]
)


@given(st.lists(pool, max_size=8), st.lists(pool, max_size=8))
def test_content_classes_are_equal_exactly_when_hashes_are(a: list[Message], b: list[Message]) -> None:
    """The cheap classes partition messages as `message_hash` does: same class, same hash, and back."""
    ka, kb = content_classes(a, b)
    both = [*zip(a, ka, strict=True), *zip(b, kb, strict=True)]
    for m, k in both:
        for n, j in both:
            assert (k == j) == (message_hash(m) == message_hash(n))


def test_aligned_frame_summarises_a_shared_message_once(monkeypatch: Any) -> None:
    import toolhist.views.diffs as views

    summarised: list[int] = []
    real = summarize_message

    def counting(message: Message, width: int = 100) -> str:
        summarised.append(id(message))
        return real(message, width)

    monkeypatch.setattr(views, "summarize_message", counting)
    after = session(*BASE.messages[:2], synthetic(BASE.messages[2]), BASE.messages[3])
    frame = views.aligned_frame(diff(BASE, after))
    assert list(frame["before"]) == list(frame["after"])
    assert len(summarised) == len(set(summarised)) == 5


@settings(max_examples=60)
@given(edited())
def test_changed_rows_only_is_the_whole_frame_filtered(pair: tuple[Session, Session]) -> None:
    """``changed_only`` builds what filtering the whole frame on ``status`` gives: rows, index, dtypes."""
    from toolhist.views.diffs import aligned_frame

    d = diff(*pair)
    whole = aligned_frame(d)
    filtered = whole[whole["status"] != "same"]
    changed = aligned_frame(d, changed_only=True)
    assert changed.equals(filtered)
    assert list(changed.index) == list(filtered.index)
    assert list(changed.dtypes) == list(filtered.dtypes)
