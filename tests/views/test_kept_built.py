"""`toolhist.views.kept.built`: a page's cached work runs with the collector paused and is frozen once made."""

from __future__ import annotations

import gc

import pytest

from toolhist.views.kept import built


def test_built_pauses_the_collector_and_freezes_what_it_made() -> None:
    seen: list[bool] = []

    class Node:
        """A tracked object: the collector sees it until it is frozen."""

    def make() -> list[Node]:
        seen.append(gc.isenabled())
        return [Node() for _ in range(10)]

    assert gc.isenabled()
    before = gc.get_freeze_count()
    made = built(make)()
    try:
        assert seen == [False]  # paused while it ran
        assert gc.isenabled()  # and on again after
        assert gc.get_freeze_count() >= before + len(made)  # what it made is out of every later pass
        assert not any(gc.is_tracked(n) and n in gc.get_objects() for n in made)
    finally:
        gc.unfreeze()


def test_built_freezes_and_turns_the_collector_back_on_when_it_raises() -> None:
    def fails() -> None:
        raise ValueError("bad input")

    with pytest.raises(ValueError, match=r"^bad input$"):
        built(fails)()
    assert gc.isenabled()
    gc.unfreeze()
