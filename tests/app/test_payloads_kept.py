"""The Payloads page keeps each body packed, made once: a rerun packs nothing again (issue 24, memory).

Real AppTest runs of the page; `toolhist.views.packed.pack` is counted, not replaced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from bench_modules import benchmark_module
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.check import check
from toolhist.providers import provider_for, render
from toolhist.views import packed
from toolhist.views.body import flagged, sections, value_lines
from toolhist.views.markup import json_code

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGE = "app_pages/4_Payloads.py"


def test_each_body_is_packed_once_and_a_rerun_packs_none(monkeypatch: pytest.MonkeyPatch) -> None:
    made: list[str] = []
    real = packed.pack

    def counted(payload: Any, **options: Any) -> packed.Packed:
        made.append(payload.provider)
        return real(payload, **options)

    monkeypatch.setattr(packed, "pack", counted)
    st.cache_resource.clear()  # entries another test made would hide the first packing
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["sample"] = "openai_chat_request.json"
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    shown = list(at.sidebar.multiselect(key="pl_providers").value)
    assert len(shown) == 3
    assert sorted(made) == sorted(shown)  # one packing per provider shown
    at.run()  # a rerun with the same inputs
    at.number_input(key="pl_from").set_value(1).run()  # another window of the same bodies
    assert not at.exception, at.exception
    assert sorted(made) == sorted(shown)  # nothing packed again
    first = next(e for e in at.expander if e.label.startswith("Message 1"))
    assert first.label.startswith("Message 1 · user")


def test_a_long_body_packs_its_first_screen_and_the_rest_when_another_window_shows(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Packed from any length here (``pack_from=0``): the first window's chunks only, then the rest,
    rendered again once, when a jump shows a message outside them; the entries shown are the body's."""
    kept: dict[str, packed.Packed] = {}
    real = packed.pack

    def packing(payload: Any, **options: Any) -> packed.Packed:
        made = kept[payload.provider] = real(payload, **{**options, "pack_from": 0})
        return made

    monkeypatch.setattr(packed, "pack", packing)
    st.cache_resource.clear()
    path = benchmark_module("generate").write(2500, tmp_path / "long.json")
    at = AppTest.from_file(str(ROOT / "app_pages" / "4_Payloads.py"), default_timeout=300)
    at.query_params["path"] = str(path)
    at.run()
    assert not at.exception, at.exception
    shown = list(at.multiselect(key="pl_providers").value)
    assert sorted(kept) == sorted(shown)
    assert all(None in k.chunks for k in kept.values())  # not every chunk packed for the first screen
    start = at.number_input(key="pl_from").value
    assert isinstance(start, int)
    first = [e for e in at.expander if e.label.startswith("Message ")]
    assert first[0].label.startswith(f"Message {start} · ")
    # a jump to the last violation: a window outside the packed chunks
    label, message = at.selectbox(key="pl_jump").options[-1], None
    at.selectbox(key="pl_jump").set_value(label).run()
    assert not at.exception, at.exception
    message = int(label.split(" ", 2)[1])
    assert at.number_input(key="pl_from").value == max(0, message - 2)
    assert all(None not in k.chunks for k in kept.values())  # the rest packed, once, when read
    session = toolhist.load(path)
    result = check(path)
    seen = 0
    html = "".join(h.proto.body for h in at.get("html"))
    for provider in shown:
        body = render(session, provider)
        cut = sections(body)
        assert cut.list_key is not None
        listed = body.body[cut.list_key]
        assert isinstance(listed, list)
        assert [kept[provider].entry(n) for n in range(len(listed))] == listed
        marks = flagged(result.results[provider])
        fmt = provider_for(provider).path_format
        for entry in cut.entries.get(message, ()):  # the entry as the page shows it, from the packed body
            lines = value_lines(listed[entry], (cut.list_key, entry), fmt, marks)
            assert json_code(lines, anchor=f"pl-{provider}-{cut.list_key}-{entry}") in html
            seen += 1
    assert seen  # some provider sends that message as an entry of its own
