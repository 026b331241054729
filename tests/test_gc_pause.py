"""The collector pause around load/curate/render is scoped: it never outlives the call."""

from __future__ import annotations

import gc
from collections.abc import Callable
from pathlib import Path
from types import GeneratorType

import pytest
from bench_modules import benchmark_module

import toolhist
from toolhist._gc import paused
from toolhist.check import check, verdict
from toolhist.curation.compare import compare
from toolhist.providers import provider_for
from toolhist.providers.base import violations
from toolhist.readers import load_document
from toolhist.report import report


def test_pause_restores_the_collector_even_on_error() -> None:
    seen: list[bool] = []

    @paused
    def inner() -> None:
        seen.append(gc.isenabled())
        raise ValueError("boom")

    @paused
    def outer() -> None:
        seen.append(gc.isenabled())
        with pytest.raises(ValueError, match="boom"):
            inner()
        seen.append(gc.isenabled())  # still paused: the outer call owns the pause

    assert gc.isenabled()
    outer()
    assert seen == [False, False, False]
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled() -> None:
    gc.disable()
    try:
        toolhist.load("sample_logs/anthropic_request.json")
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_public_calls_leave_the_collector_on() -> None:
    session = toolhist.load("sample_logs/llxprt_icontent.json")
    toolhist.curate(session, "anthropic")
    toolhist.render(session, "gemini", strategy="toolhist")
    assert gc.isenabled()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = benchmark_module("generate").write(2000, tmp_path_factory.mktemp("gc") / "s.json")
    return path


def collections_during(fn: Callable[[], object]) -> int:
    """How many times the cyclic collector ran while ``fn`` ran."""
    runs: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(count)
    try:
        fn()
    finally:
        gc.callbacks.remove(count)
    return len(runs)


def test_the_collector_runs_during_ordinary_allocation() -> None:
    """The control: the same count is not zero for code that allocates without the pause."""
    assert collections_during(lambda: [{"i": i} for i in range(100_000)]) > 0


def test_long_calls_run_with_the_collector_paused(generated: Path) -> None:
    """Each call that walks a whole history pauses the collector for all of its work.

    With it on, a long history's calls spent up to half their time in generation-2 collections
    re-scanning the loaded session (``check`` at 100k messages: 23 s with it, 14 s without).
    """
    session = toolhist.load(generated)
    curation = toolhist.curate(session, "anthropic")
    doc, _ = load_document(generated)
    payload = toolhist.render(session, "mistral")
    calls: dict[str, Callable[[], object]] = {
        "load": lambda: toolhist.load(generated),
        "check": lambda: check(generated),
        "verdict": lambda: verdict(doc, session, "mistral"),
        "curate": lambda: toolhist.curate(session, "gemini"),
        "render": lambda: toolhist.render(session, "bedrock", strategy="toolhist"),
        "validate": lambda: toolhist.validate(session, "kimi"),
        "diff": lambda: toolhist.diff(curation.original, curation.session, curation.changes),
        "compare": lambda: compare(session, "openai-chat"),
        "report": lambda: report(session, ["anthropic"]),
        "violations": lambda: violations(provider_for("mistral"), payload.body, payload.source_map),
    }
    assert {name: collections_during(fn) for name, fn in calls.items()} == dict.fromkeys(calls, 0)


def test_a_check_holds_one_pause_over_every_provider_and_the_caller_between(generated: Path) -> None:
    """`Checking.verdicts` keeps the collector paused from its first provider to its last.

    Between two paused calls the collector used to run and re-scan what the last one left (in
    Home's seven verdicts at 100k messages, about 2 s of 8): the caller's work between providers
    (printing one, drawing a row) now runs inside the same pause, and the pause ends with the loop.
    """
    from toolhist.check import start

    run = start(generated)
    between: list[tuple[bool, int]] = []
    runs: list[int] = []

    def count(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            runs.append(info["generation"])

    gc.callbacks.append(count)
    try:
        for _provider, found in run.verdicts():
            [{"i": i} for i in range(100_000)]  # what a caller allocates between providers
            between.append((gc.isenabled(), len(runs)))
            del found
    finally:
        gc.callbacks.remove(count)
    assert between == [(False, 0)] * len(run.providers)  # no collection from the first to the last
    assert gc.isenabled()
    first = run.verdicts()
    assert isinstance(first, GeneratorType)
    next(first)
    assert not gc.isenabled()
    first.close()  # a caller that stops early ends the pause too
    assert gc.isenabled()
