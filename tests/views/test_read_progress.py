"""The read's progress bar moves while a file streams (`toolhist.views.read_progress`), in a real script run."""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolhist.views import state
from toolhist.views.read_progress import Ticker


def _ticking() -> None:
    # an AppTest script: the bar is left as the thread last moved it (the page empties it; this does not)
    import time

    import streamlit as st

    from toolhist.views.read_progress import EVERY, Ticker

    bar = st.empty()
    bar.progress(0.0, text="Reading the session (4 kB)…")
    with Ticker(bar, lambda done, total: f"{done} of {total} bytes") as ticker:
        ticker(1024, 4096)
        time.sleep(EVERY * 4)


def test_the_thread_moves_a_bar_made_outside_while_the_script_waits() -> None:
    at = AppTest.from_function(_ticking, default_timeout=60).run()
    assert not at.exception
    [bar] = at.get("progress")
    assert (bar.proto.value, bar.proto.text) == (25, "1024 of 4096 bytes")


def test_outside_a_script_run_nothing_is_drawn_and_nothing_waits() -> None:
    drawn: list[tuple[float, str]] = []

    class Bar:  # no script run: Ticker starts no thread, so this is never called
        def progress(self, value: float, text: str) -> None:
            drawn.append((value, text))

    with Ticker(Bar(), lambda done, total: f"{done}/{total}") as ticker:
        ticker(1, 2)
    assert drawn == []


def test_a_streamed_read_reports_its_bytes_to_the_bar(tmp_path: Path) -> None:
    # the page's read passes the Ticker to the reader through the cached parse (`state._load`)
    lines = [
        {"type": "session_meta", "payload": {"id": "s", "cwd": "/w", "model_provider": "openai"}},
        *(
            {
                "type": "response_item",
                "payload": {
                    "type": "message",
                    "role": "user",
                    "content": [{"type": "input_text", "text": f"line {i}"}],
                },
            }
            for i in range(50)
        ),
    ]
    log = tmp_path / "rollout-2025-01-01T00-00-00-x.jsonl"
    log.write_text("".join(json.dumps(line) + "\n" for line in lines))
    heard: list[tuple[int, int]] = []
    size = log.stat().st_size
    _, session = state._load(
        f"progress-test:{size}",
        "codex",
        log.name,
        log,
        None,
        False,
        _progress=lambda d, t: heard.append((d, t)),
    )
    assert len(session.messages) == 50
    assert heard[0] == (0, size)
    assert heard[-1] == (size, size)
