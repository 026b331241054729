"""The Payloads page's "As the SDK sends it" expander, under AppTest."""

from __future__ import annotations

import sys
from importlib.metadata import version
from pathlib import Path

import pytest
import streamlit as st
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.providers import render
from toolhist.views.markup import md_literal
from toolhist.views.sdk import sdk_request

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")


def payloads(sample: str, strategy: str, providers: list[str]) -> AppTest:
    st.cache_resource.clear()  # the page caches SDK views per session key: start from nothing
    at = AppTest.from_file(APP, default_timeout=90)
    at.query_params["sample"] = sample
    if strategy != "none":  # the page opens as sent; a repaired view is its own link parameter
        at.query_params["repair"] = strategy
    at.run()
    at.switch_page("app_pages/4_Payloads.py").run()
    at.multiselect(key="pl_providers").set_value(providers).run()
    assert not [e for e in at.expander if e.label == "As the SDK sends it"]  # the SDKs wait for the toggle
    at.toggle(key="pl_sdk").set_value(True).run()
    assert not at.exception, at.exception
    return at


def sdk_codes(at: AppTest) -> list[str]:
    """The code blocks of the SDK expanders (the page's other code blocks are the bodies' diffs)."""
    return [c.value for c in at.code if c.language != "diff"]


def test_the_expander_shows_the_captured_request_per_provider() -> None:
    at = payloads("anthropic_request.json", "toolhist", ["anthropic", "gemini", "bedrock"])
    session = toolhist.load(ROOT / "sample_logs" / "anthropic_request.json")
    expected = [
        sdk_request(render(session, p, strategy="toolhist").body, p).text
        for p in ("anthropic", "gemini", "bedrock")
    ]
    assert sdk_codes(at) == expected
    assert expected[0].startswith("POST /v1/messages\n")
    assert expected[1].startswith("POST /v1/models/claude-sonnet-4-5:generateContent\n")
    assert expected[2].startswith("POST /model/claude-sonnet-4-5/converse\n")
    captions = [c.value for c in at.caption]
    # the installed versions (constraints.txt pins them; a test never names a resolved version)
    # captions carry session-derived text, so they are written as literal markdown (escaped)
    assert md_literal(f"anthropic {version('anthropic')}: captured") in captions
    assert md_literal(f"google-genai {version('google-genai')}: captured") in captions
    assert md_literal(f"botocore {version('botocore')}: captured") in captions
    assert (
        md_literal("google-genai sends the model in the URL (/v1/models/{model}:generateContent)") in captions
    )
    assert md_literal("botocore sends modelId in the URL (/model/{modelId}/converse)") in captions
    assert [e.label for e in at.expander].count("As the SDK sends it") == 3


def test_the_expander_lists_the_sdk_type_violations() -> None:
    at = payloads("openai_chat_request.json", "none", ["openai-chat", "anthropic"])
    lines = [t.value for t in at.text if t.value.startswith("sdk.")]
    assert lines == [
        "sdk.openai_chat.type messages[3].name: Extra inputs are not permitted [type=extra_forbidden, "
        "input_value='read_file', input_type=str]"
    ]


def test_a_missing_sdk_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "anthropic", None)  # `import anthropic` now fails as if not installed
    monkeypatch.delitem(sys.modules, "toolhist.sdk.anthropic_sdk", raising=False)
    at = payloads("anthropic_request.json", "none", ["anthropic", "openai-chat"])
    infos = [i.value for i in at.info]
    assert infos == [
        md_literal(
            "anthropic: the anthropic SDK is not installed (module 'anthropic' missing); install it with "
            "pip install 'toolhist[sdk]' (tested range anthropic>=2.12.0,<3)"
        )
    ]
    assert [c.split("\n")[0] for c in sdk_codes(at)] == ["POST /v1/chat/completions"]
