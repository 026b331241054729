"""`toolhist.views.trim`: glibc's ``malloc_trim`` is found and called on Linux, and nothing is called elsewhere."""

from __future__ import annotations

import sys

import pytest

from toolhist.views import trim


def test_linux_trims_the_heap() -> None:
    assert trim.trimmed() is sys.platform.startswith("linux")  # CI and this machine: Linux with glibc


def test_another_platform_does_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    trim._malloc_trim.cache_clear()
    monkeypatch.setattr(sys, "platform", "darwin")
    try:
        assert trim.trimmed() is False
    finally:
        trim._malloc_trim.cache_clear()


def test_released_collects_in_full_then_trims() -> None:
    """`released`: one full (generation 2) collection, then the trim."""
    import gc

    before = gc.get_stats()[2]["collections"]
    assert trim.released() is sys.platform.startswith("linux")
    assert gc.get_stats()[2]["collections"] == before + 1
