"""Pass ``map_ids``'s sent ids (`toolhist.curation.sent_ids`) rewrites nothing when every id goes out as given.

Most providers take most histories' ids: the pass then decides every id, finds each one sent as the
history has it (or as a pass made it, for a block the history did not have), and hands back the
very messages it was given without walking them again to rebuild them. Counted, not timed: how
many times the rebuilding step runs, and whether the output is the input object.
"""

from __future__ import annotations

import pytest
from builders import ai, call, human, result, session, tool

from toolhist.curation import sent_ids as module
from toolhist.curation.base import Trace
from toolhist.curation.sent_ids import sent_ids
from toolhist.model import Message, ToolResponseBlock


@pytest.fixture
def rebuilds(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the pass rebuilt the messages (one entry per `_rewrite` run)."""
    runs: list[int] = []
    real = module._rewrite

    def counted(*args, **kwargs):  # type: ignore[no-untyped-def]
        runs.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "_rewrite", counted)
    return runs


def history() -> tuple[Message, ...]:
    """Two calls, each answered."""
    return session(
        human("read both"),
        ai(call("call_a"), call("call_b")),
        tool(result("call_a")),
        tool(result("call_b")),
        ai("done"),
    ).messages


def test_ids_the_target_takes_go_out_as_the_same_messages(rebuilds: list[int]) -> None:
    messages = history()
    out, changes = sent_ids("openai-chat", "openai-chat")(messages, Trace.of(messages))
    assert out is messages
    assert changes == []
    assert rebuilds == []


def test_ids_the_target_refuses_are_rewritten_once(rebuilds: list[int]) -> None:
    messages = history()
    out, changes = sent_ids("mistral", "openai-chat")(messages, Trace.of(messages))
    assert rebuilds == [1]
    assert [(c.call_id, c.detail["rule"]) for c in changes] == [
        ("call_a", "mis.id_format"),
        ("call_b", "mis.id_format"),
        ("call_a", "mis.id_format"),
        ("call_b", "mis.id_format"),
    ]
    sent = [b.id for m in out for b in m.tool_calls()]
    assert [r.call_id for m in out for r in m.tool_responses()] == sent
    assert all(len(i) == 9 and i.isalnum() for i in sent)
    assert out[0] is messages[0]  # messages without tool blocks are kept
    assert out[4] is messages[4]


def test_a_result_whose_own_id_differs_from_its_pairing_is_rewritten(rebuilds: list[int]) -> None:
    """A result the history wrote as ``other`` that `pairing.map_ids` paired with ``call_a``."""
    source = session(human("go"), ai(call("call_a")), tool(result("other"))).messages
    trace = Trace.of(source)
    paired = source[2].blocks[0].model_copy(update={"call_id": "call_a"})
    trace.derive(paired, source[2].blocks[0])
    moved = (*source[:2], source[2].model_copy(update={"blocks": (paired,)}))
    out, changes = sent_ids("openai-chat", "openai-chat")(moved, trace)
    assert rebuilds == [1]
    assert [(c.call_id, c.detail["new_id"]) for c in changes] == [("other", "call_a")]
    assert [r.call_id for r in out[2].tool_responses()] == ["call_a"]


def test_a_result_a_pass_made_keeps_its_call_id_without_a_rebuild(rebuilds: list[int]) -> None:
    source = session(human("go"), ai(call("call_a"))).messages
    closed = ToolResponseBlock(call_id="call_a", tool_name="read_file", result="interrupted")
    messages = (*source, tool(closed))  # as close_orphans leaves it: a block the history did not have
    out, changes = sent_ids("anthropic", "openai-chat")(messages, Trace.of(source))
    assert out is messages
    assert changes == []
    assert rebuilds == []


def test_rewritten_ids_come_located_where_the_curated_session_has_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The pass, last of strategy ``toolhist``, makes each Change for a block it rewrote already located.

    Counted: `toolhist.curation.base.locate` copies no ``rewrite_id`` Change to fill its ``after``,
    and every ``after`` is where the curated session holds the Change's subject (the lookup
    `locate` would have made).
    """
    import toolhist
    from toolhist.curation import base

    located: list[str] = []
    real = base._located

    def counted(change, hit, books):  # type: ignore[no-untyped-def]
        located.append(change.action)
        return real(change, hit, books)

    monkeypatch.setattr(base, "_located", counted)
    given = session(
        human("read both"),
        ai(call("call_a"), call("call_b")),
        tool(result("call_a")),
        tool(result("call_b")),
        ai("done"),
    )
    curation = toolhist.curate(given, "mistral", strategy="toolhist")
    rewrites = [c for c in curation.changes if c.action == "rewrite_id"]
    assert len(rewrites) == 4
    assert "rewrite_id" not in located
    for change in rewrites:
        assert change.after is not None
        assert change.after.block is not None
        assert curation.session.messages[change.after.message].blocks[change.after.block] is change.subject()
    assert [(c.before, c.after) for c in rewrites] == [
        (base.Position(message=1, block=0), base.Position(message=1, block=0)),
        (base.Position(message=1, block=1), base.Position(message=1, block=1)),
        (base.Position(message=2, block=0), base.Position(message=2, block=0)),
        (base.Position(message=3, block=0), base.Position(message=3, block=0)),
    ]


def test_each_rewrite_is_the_change_the_validating_constructor_makes() -> None:
    """`sent_ids._change` writes each Change's state whole: the object ``Change(...)`` would be."""
    from toolhist.curation.base import Change

    messages = history()
    _out, changes = sent_ids("mistral", "openai-chat")(messages, Trace.of(messages))
    assert changes
    for change in changes:
        values = {name: getattr(change, name) for name in change.model_fields_set}
        made = Change(**values).with_subject(change.subject())  # type: ignore[arg-type]
        assert change == made
        assert list(change.__dict__.items()) == list(made.__dict__.items())
        assert change.model_fields_set == made.model_fields_set
        assert change.__pydantic_private__ == made.__pydantic_private__
        assert change.to_json() == made.to_json()
