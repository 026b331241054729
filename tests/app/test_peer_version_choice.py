"""The Curation page's choice of LiteLLM version: the default and the pin offered, the one picked is the one run.

Without any peers environment (an empty ``TOOLHIST_PEERS_HOME``), so each choice answers with the
install hint that names the version it would have run.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

from toolhist.peers import run
from toolhist.peers.env import env_dir

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")


def errors(at: AppTest) -> list[str]:
    """The error boxes' text, with the page's Markdown escaping (`md_literal`) taken off."""
    return [re.sub(r"\\(.)", r"\1", e.value) for e in at.error]


def test_the_version_picked_is_the_one_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TOOLHIST_PEERS_HOME", str(tmp_path))
    monkeypatch.setattr(run, "_WORKERS", {})  # no worker another test started in this process
    monkeypatch.setenv("TOOLHIST_PEER_VERSIONS", "litellm=1.110.2")
    st.cache_resource.clear()
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["sample"] = "gemini_request.json"
    at.query_params["provider"] = "gemini"
    at.query_params["strategy"] = "litellm"
    at.run()
    at.switch_page("app_pages/3_Curation.py").run()
    assert not at.exception, at.exception
    box = at.selectbox(key="peer_version_litellm")
    assert box.options == [
        "litellm 1.110.2 (from TOOLHIST_PEER_VERSIONS; the pin is 1.106.2), not installed",
        "litellm 1.106.2 (the pin), not installed",
    ]
    assert errors(at) == [
        "Strategy litellm gave no answer: the 'litellm' strategy runs litellm 1.110.2 (from "
        "TOOLHIST_PEER_VERSIONS; the pin is 1.106.2), whose environment is not installed (looked in "
        f"{env_dir('litellm', '1.110.2')}); run `toolhist peers install --peer-version litellm=1.110.2`, "
        "or run the pin with --peer-version litellm=pin"
    ]
    box.select_index(1).run()
    assert errors(at) == [
        "Strategy litellm@1.106.2 gave no answer: the 'litellm' strategy runs the real litellm 1.106.2, "
        f"which is not installed (looked in {env_dir('litellm')}); run `toolhist peers install` (it makes a "
        "cached virtual environment with the pinned versions)"
    ]
