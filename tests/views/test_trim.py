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
