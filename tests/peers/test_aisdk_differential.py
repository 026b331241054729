"""The ``vercel-ai`` and ``vercel-ai-model`` ports against the real AI SDK (``tests/js``), both routes.

Route ``ui`` (strategy ``vercel-ai``, what ``useChat`` apps do): the history as UI messages through
``convertToModelMessages(…, {ignoreIncompleteToolCalls: true})``; route ``model`` (strategy
``vercel-ai-model``): model messages straight into ``generateText``. On 300 generated histories
(``tests/history_gen.py``) and every bundled sample (with seed 000's failure modes), for OpenAI Chat, OpenAI Responses and
Anthropic, the port's answer must equal the SDK's captured request body (`ai_sdk.structure`: roles
and order, texts, call and result ids, arguments, result contents, reasoning, declared tools), or
the SDK's error with its exact text where it throws.

Agreement is printed per route and provider. Every disagreement at the pins is listed in
`EXPECTED` with the AI SDK source line that explains it (none at ai 6.0.325, @ai-sdk/openai
3.0.141, @ai-sdk/anthropic 3.0.140), and at least 99% must agree.

node missing: in CI (``CI`` or ``TOOLHIST_REQUIRE_BROWSER`` set) the tests fail, elsewhere they
skip with the reason (``./dev test`` installs Debian's nodejs as root, and runs ``npm ci``).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from ai_sdk import model_messages, run_js, structure, tools_of, ui_messages
from histories import generated

from toolhist.curation import curate
from toolhist.curation.libraries_vercel import AI_SDK_PINS
from toolhist.model import Session
from toolhist.providers import render
from toolhist.readers import load

# Seed 000's failure modes live beside the curation tests (tests/curation is not on pytest's path).
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "curation"))
from library_cases import SEEDS

PINS = AI_SDK_PINS
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
EXPECTED: dict[tuple[str, str, str], dict[int, str]] = {}
"""(corpus, route, provider) → {history index: the AI SDK source line explaining the difference}."""


def test_the_pins_are_the_lockfile_s() -> None:
    """The versions the strategies name are the ones tests/js installs (package.json and its lockfile)."""
    js = Path(__file__).resolve().parents[1] / "js"
    package = json.loads((js / "package.json").read_text())
    lock = json.loads((js / "package-lock.json").read_text())
    assert package["dependencies"] == PINS
    assert {name: lock["packages"][f"node_modules/{name}"]["version"] for name in PINS} == PINS


def require_node() -> None:
    """Fail in CI, skip elsewhere, when node or npm is missing."""
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        reason = f"{' and '.join(missing)} not installed (Debian: apt-get install -y nodejs npm)"
        if os.environ.get("CI") or os.environ.get("TOOLHIST_REQUIRE_BROWSER"):
            pytest.fail(reason)
        pytest.skip(reason)


def port_answer(session: Session, provider: str, strategy: str) -> Any:
    curation = curate(session, provider, strategy=strategy)
    thrown = [c for c in curation.changes if c.action == "keep" and c.detail.get("error")]
    if thrown:
        return (thrown[0].detail["error"], thrown[0].detail["error_text"])
    return structure(render(session, provider, strategy=strategy).body)


def sdk_answer(answer: dict[str, Any]) -> Any:
    return (answer["raised"], answer["message"]) if "raised" in answer else structure(answer["body"])


def compare(sessions: list[Session], route: str) -> tuple[dict[str, list[int]], dict[str, int]]:
    """Per provider: the histories where the port and the SDK differ, and how many the SDK threw on."""
    require_node()
    strategy, convert = ROUTES[route]
    jobs = [
        {"route": route, "provider": p, "messages": convert(s), "tools": tools_of(s)}
        for p in PROVIDERS
        for s in sessions
    ]
    versions, answers = run_js(jobs)
    assert versions == PINS
    assert len(answers) == len(jobs)
    differ: dict[str, list[int]] = {p: [] for p in PROVIDERS}
    threw = dict.fromkeys(PROVIDERS, 0)
    for k, answer in enumerate(answers):
        provider, n = PROVIDERS[k // len(sessions)], k % len(sessions)
        threw[provider] += "raised" in answer
        if sdk_answer(answer) != port_answer(sessions[n], provider, strategy):
            differ[provider].append(n)
    return differ, threw


def check(corpus: str, sessions: list[Session], route: str) -> dict[str, int]:
    differ, threw = compare(sessions, route)
    for provider in PROVIDERS:
        agreed = len(sessions) - len(differ[provider])
        print(
            f"AI SDK {corpus} route={route} ({ROUTES[route][0]}) {provider}: {agreed}/{len(sessions)} exact "
            f"({threw[provider]} thrown by both)"
        )
    for provider in PROVIDERS:
        assert differ[provider] == sorted(EXPECTED.get((corpus, route, provider), {}))
        # the listed differences aside, at least 99% exact
        explained = len(EXPECTED.get((corpus, route, provider), {}))
        assert len(sessions) - len(differ[provider]) + explained >= 0.99 * len(sessions)
    return threw


@pytest.mark.parametrize("route", list(ROUTES))
def test_the_port_is_the_ai_sdk_on_generated_histories(route: str) -> None:
    threw = check("generated", list(generated(300)), route)
    # UI messages can hold no orphan and put each result after its call: the SDK never throws there.
    # Model messages keep a call without its result, and the SDK throws MissingToolResultsError.
    if route == "ui":
        assert threw == dict.fromkeys(PROVIDERS, 0)
    else:
        assert all(n > 0 for n in threw.values())


@pytest.mark.parametrize("route", list(ROUTES))
def test_the_port_is_the_ai_sdk_on_every_sample(route: str) -> None:
    """Every bundled sample, and seed 000's failure modes (the histories test_libraries pins)."""
    sessions = [load(path) for path in SAMPLES] + [make() for make in SEEDS.values()]
    assert len(sessions) >= 24
    check("samples", sessions, route)


@pytest.mark.parametrize("ci", [True, False])
def test_missing_node_fails_in_ci_and_skips_elsewhere(ci: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shutil, "which", lambda name: None)
    for name in ("CI", "TOOLHIST_REQUIRE_BROWSER"):
        monkeypatch.delenv(name, raising=False)
    if ci:
        monkeypatch.setenv("CI", "1")
    outcome = pytest.fail.Exception if ci else pytest.skip.Exception
    with pytest.raises(
        outcome, match=r"^node and npm not installed \(Debian: apt-get install -y nodejs npm\)$"
    ):
        require_node()
