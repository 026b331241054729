"""The app's start-up warm-up: the token encoder is built once, on its thread, and a count waits for it."""

from __future__ import annotations

import threading
import time

import pytest

from toolhist import tokens
from toolhist.views.warm import warm


def test_warm_builds_the_default_encoder_on_its_thread() -> None:
    thread = warm()
    thread.join(timeout=120)
    assert not thread.is_alive()
    assert thread.name == "toolhist-warm-encoding"
    assert "o200k_base" in tokens._ENCODINGS
    assert warm() is thread  # once per server: a rerun starts no second thread


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
