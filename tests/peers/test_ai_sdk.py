"""The ``vercel-ai`` and ``vercel-ai-model`` ports against the real AI SDK (``tests/js``), both routes.

Route 1 (``vercel-ai``): the history as UI messages through ``convertToModelMessages(…,
{ignoreIncompleteToolCalls: true})``; route 2 (``vercel-ai-model``): model messages straight into
``generateText``. On 300 generated histories and every bundled sample, for OpenAI Chat, OpenAI
Responses and Anthropic, the port's answer must equal the SDK's: the same blocks in the same order
with the same ids and roles (`ai_sdk.flat`), or the same error with the same text. Disagreements
would be listed here with the AI SDK source line explaining each; there are none at these pins.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ai_sdk import flat, model_messages, run_js, ui_messages
from histories import generated

from toolhist.curation import curate
from toolhist.formats import load
from toolhist.model import Session
from toolhist.providers import render

# Seed 000's failure modes live beside the curation tests (tests/curation is not on pytest's path).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "curation"))
from library_cases import SEEDS

PROVIDERS = ("openai-chat", "openai-responses", "anthropic")
ROUTES: dict[str, tuple[str, Callable[[Session], list[dict[str, Any]]]]] = {
    "ui": ("vercel-ai", ui_messages),
    "model": ("vercel-ai-model", model_messages),
}
SAMPLES = sorted(
    p
    for p in (Path(__file__).resolve().parents[2] / "sample_logs").iterdir()
    if p.suffix in (".json", ".jsonl")
)


def port_answer(session: Session, provider: str, strategy: str) -> Any:
    curation = curate(session, provider, strategy=strategy)
    thrown = [c for c in curation.changes if c.action == "keep" and c.detail.get("error")]
    if thrown:
        return (thrown[0].detail["error"], thrown[0].detail["error_text"])
    return flat(render(session, provider, strategy=strategy).body)


def sdk_answer(answer: dict[str, Any]) -> Any:
    return (answer["raised"], answer["message"]) if "raised" in answer else flat(answer["body"])


def disagreements(sessions: list[Session], route: str) -> dict[str, list[int]]:
    strategy, convert = ROUTES[route]
    jobs = [{"route": route, "provider": p, "messages": convert(s)} for p in PROVIDERS for s in sessions]
    versions, answers = run_js(jobs)
    assert versions == {"ai": "6.0.325", "@ai-sdk/openai": "3.0.141", "@ai-sdk/anthropic": "3.0.140"}
    out: dict[str, list[int]] = {p: [] for p in PROVIDERS}
    for k, answer in enumerate(answers):
        provider, n = PROVIDERS[k // len(sessions)], k % len(sessions)
        if sdk_answer(answer) != port_answer(sessions[n], provider, strategy):
            out[provider].append(n)
    return out


@pytest.mark.parametrize("route", list(ROUTES))
def test_the_port_is_the_ai_sdk_on_generated_histories(route: str) -> None:
    assert disagreements(list(generated(300)), route) == {p: [] for p in PROVIDERS}


@pytest.mark.parametrize("route", list(ROUTES))
def test_the_port_is_the_ai_sdk_on_every_sample(route: str) -> None:
    """Every bundled sample, and seed 000's failure modes (the histories test_libraries pins)."""
    sessions = [load(path) for path in SAMPLES] + [make() for make in SEEDS.values()]
    assert len(sessions) >= 24
    assert disagreements(sessions, route) == {p: [] for p in PROVIDERS}
