"""The verdict as given (`toolhist.curation.given`) is the check of the body toolhist renders.

`toolhist.check.verdict` checks a captured body in the provider's own format as it was sent; when
toolhist renders that very body, that verdict is the one strategy ``toolhist`` repairs, and it is
remembered so a curation right after does not check the history again. A body toolhist renders
otherwise leaves nothing remembered: the curation checks its own rendering.
"""

from __future__ import annotations

import gc
from pathlib import Path

import orjson

from toolhist.check import Checking, verdict
from toolhist.curation import curate
from toolhist.curation.given import _ENTRIES, as_given
from toolhist.providers import checked
from toolhist.readers import load_document

SAMPLE = Path(__file__).parents[2] / "sample_logs" / "openai_chat_request.json"


def test_a_body_toolhist_renders_as_sent_is_remembered_as_the_verdict_as_given() -> None:
    doc, session = load_document(SAMPLE, None)
    found = verdict(doc, session, "openai-chat")
    assert found  # the sample breaks openai-chat's rules: there is something to remember
    remembered = as_given(session, "openai-chat")
    assert list(remembered) == found
    assert all(a is b for a, b in zip(remembered, found, strict=True))  # not checked a second time
    assert found == checked(session.model_copy(), "openai-chat")  # what checking its rendering finds
    fresh = curate(session.model_copy(), "openai-chat", strategy="toolhist")
    assert curate(session, "openai-chat", strategy="toolhist").to_json() == fresh.to_json()


def test_a_body_toolhist_renders_otherwise_is_not_remembered(tmp_path: Path) -> None:
    body = orjson.loads(SAMPLE.read_bytes())
    del body["messages"][2]["tool_calls"][0]["type"]  # sent without it: toolhist writes "function"
    changed = tmp_path / "body.json"
    changed.write_bytes(orjson.dumps(body))
    doc, session = load_document(changed, None)
    verdict(doc, session, "openai-chat")
    assert not any(entry.provider == "openai-chat" for entry in _ENTRIES.get(id(session), []))
    assert list(as_given(session, "openai-chat")) == checked(session.model_copy(), "openai-chat")


def test_the_cli_check_keeps_nothing() -> None:
    doc, session = load_document(SAMPLE, None)
    Checking(doc, session, None, ("openai-chat",)).verdict("openai-chat")  # type: ignore[arg-type]
    assert not _ENTRIES.get(id(session))
    del session
    gc.collect()
