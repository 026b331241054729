"""The app's start-up warm-up: the pages' imports once per server, and no token encoder built then.

A count during a build (Compaction's first visit, two sessions at once) waits for it rather than
building a second encoder (`toolhist.tokens._encoding` builds under a lock).
"""

from __future__ import annotations

import sys
import threading
import time

import pytest

from toolhist import tokens
from toolhist.views.warm import warm


def test_warm_imports_the_pages_modules_and_builds_no_encoder(monkeypatch: pytest.MonkeyPatch) -> None:
    """The encoder's 1.3 s of CPU on a thread slowed the server's first read (bench_app: 6.0 vs 4.0 s at 100k)."""
    monkeypatch.setattr(tokens, "_ENCODINGS", {})
    warm.clear()
    threads = threading.active_count()
    assert warm() is True
    assert warm() is True  # once per server: cached
    assert "pandas.io.formats.style" in sys.modules
    assert "toolhist.compaction" in sys.modules
    assert tokens._ENCODINGS == {}
    assert threading.active_count() == threads


def test_a_count_during_the_build_waits_for_it_rather_than_building_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    built: list[str] = []
    encoder = tokens._encoding("o200k_base")

    def slow(name: str) -> object:
        built.append(name)
        time.sleep(0.2)  # the build still under way when the second caller asks
        return encoder

    monkeypatch.setattr(tokens, "tiktoken_encoding", slow)
    monkeypatch.setattr(tokens, "_ENCODINGS", {})
    got: list[object] = []
    callers = [threading.Thread(target=lambda: got.append(tokens._encoding("o200k_base"))) for _ in range(2)]
    for caller in callers:
        caller.start()
    for caller in callers:
        caller.join()
    assert built == ["o200k_base"]
    assert got == [encoder, encoder]
