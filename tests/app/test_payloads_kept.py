"""The Payloads page keeps each body packed, made once: a rerun packs nothing again (issue 24, memory).

Real AppTest runs of the page; `toolhist.views.packed.pack` is counted, not replaced.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from toolhist.views import packed

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGE = "pages/4_Payloads.py"


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
    assert first.label.startswith("Message 1 · human")
