"""The collector pause around load/curate/render is scoped: it never outlives the call."""

from __future__ import annotations

import gc

import pytest

import toolhist
from toolhist._gc import paused


def test_pause_restores_the_collector_even_on_error() -> None:
    seen: list[bool] = []

    @paused
    def inner() -> None:
        seen.append(gc.isenabled())
        raise ValueError("boom")

    @paused
    def outer() -> None:
        seen.append(gc.isenabled())
        with pytest.raises(ValueError, match="boom"):
            inner()
        seen.append(gc.isenabled())  # still paused: the outer call owns the pause

    assert gc.isenabled()
    outer()
    assert seen == [False, False, False]
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        toolhist.load("sample_logs/anthropic_request.json")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_public_calls_leave_the_collector_on() -> None:
    session = toolhist.load("sample_logs/llxprt_icontent.json")
    toolhist.curate(session, "anthropic")
    toolhist.render(session, "gemini", strategy="toolhist")
    assert gc.isenabled()
