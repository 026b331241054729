"""Every body toolhist renders from a bundled sample, for every provider and strategy, passes the SDK types.

A case the SDK types refuse is either a renderer bug (fixed in toolhist/providers/*_render.py) or listed
in `KNOWN` with the reason it is not one — strict xfail, so a case that starts passing must leave the list.
Bodies from sources that record no model are checked with the placeholder model (`fill_model=True`):
the model is a request field outside the history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist import sdk
from toolhist.curation import STRATEGIES
from toolhist.errors import LoadError
from toolhist.providers import PROVIDERS, render

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
ALL = frozenset(STRATEGIES)

# The openai SDK's ChatCompletionToolMessageParam has no 'name'; these sources send one on tool messages
# (as LangChain and Kimi's own docs do) and the renderer keeps source keys (round trip, DESIGN §5) under
# the strategies that do not rebuild tool messages.
TOOL_NAME = (
    "messages[3].name: the source sends 'name' on tool messages and the renderer keeps it (round trip, "
    "DESIGN §5); the openai SDK's ChatCompletionToolMessageParam has no 'name'"
)
BAD_SIGNATURE = (
    "thoughtSignature: the sample's signature is not valid base64 ('=' inside); Gemini types it as bytes, "
    "so the sample itself needs fixing (google-genai refuses to build the request)"
)

KNOWN: dict[tuple[str, str], tuple[frozenset[str], str]] = {
    ("openai_chat_request.json", "openai-chat"): (
        frozenset({"none", "toolhist", "litellm", "openai-agents"}),
        TOOL_NAME,
    ),
    ("openai_chat_request.json", "kimi"): (
        frozenset({"none", "toolhist", "litellm", "openai-agents"}),
        TOOL_NAME,
    ),
    ("mistral_ids_after_openai.json", "openai-chat"): (ALL - {"llxprt-v864", "llxprt-head"}, TOOL_NAME),
    ("mistral_ids_after_openai.json", "kimi"): (ALL - {"llxprt-v864", "llxprt-head"}, TOOL_NAME),
    ("codex_rollout_interrupted.jsonl", "openai-responses"): (
        ALL,
        "input[2]: a reasoning item without 'id' and with \"content\": null, which is what Codex sends "
        "(codex-rs protocol models.rs ResponseItem::Reasoning: id skip_serializing, content None kept); "
        "the SDK's ResponseReasoningItemParam requires id and a list content",
    ),
    ("kilo_flattened_resumed.json", "openai-responses"): (
        ALL,
        "input[1]: an assistant message with two output_text parts and no id/status; the SDK types only "
        "allow output_text parts in ResponseOutputMessageParam (id, status, type required), while the "
        "API refuses input_text for assistant content",
    ),
}


def _sessions() -> list[tuple[str, toolhist.Session]]:
    out = []
    for path in sorted(SAMPLES.iterdir()):
        try:
            out.append((path.name, toolhist.load(path)))
        except LoadError:
            continue
    return out


LOADED = _sessions()


def _cases() -> list[Any]:
    cases: list[Any] = []
    for name, _session in LOADED:
        for provider in PROVIDERS:
            for strategy in STRATEGIES:
                strategies, reason = KNOWN.get((name, provider), (frozenset(), ""))
                marks = [pytest.mark.xfail(reason=reason, strict=True)] if strategy in strategies else []
                cases.append(
                    pytest.param(name, provider, strategy, marks=marks, id=f"{name}-{provider}-{strategy}")
                )
    return cases


def test_the_matrix_is_not_empty() -> None:
    assert len(LOADED) >= 7
    assert len(_cases()) == len(LOADED) * len(PROVIDERS) * len(STRATEGIES)


def test_every_known_failure_names_a_loaded_sample() -> None:
    names = {name for name, _ in LOADED}
    assert {name for name, _provider in KNOWN} <= names


@pytest.mark.parametrize(("name", "provider", "strategy"), _cases())
def test_rendered_body_passes_the_sdk_types(name: str, provider: str, strategy: str) -> None:
    session = dict(LOADED)[name]
    payload = render(session, provider, strategy=strategy)
    found = sdk.check(payload.body, provider, payload.source_map, fill_model=True)
    assert [(v.path, v.error_text) for v in found] == []
