"""A page's work done by a second process shows what the page computed alone would, and only once.

`toolhist.views.apart` sends the Payloads page's bodies and the Curation page's repaired verdict to a
forked child on a long session, and `toolhist.views.switch.made` the Switch page's return leg
(`toolhist.views.forked`). These fork for real (Linux, as the app does): every element of the page
is the same as with ``TOOLHIST_FORK=0``, a rerun forks nothing (what the first run made is cached),
and a child that fails costs time, not what the page shows.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import pytest
import streamlit as st
from bench_modules import benchmark_module
from streamlit.testing.v1 import AppTest

from toolhist.views import apart, forked
from toolhist.views import switch as switch_views

ROOT = Path(__file__).parent.parent.parent

pytestmark = pytest.mark.skipif(
    os.name != "posix", reason="fork is POSIX; the app uses one process elsewhere"
)


def test_a_child_sends_back_what_its_work_returns_and_a_failing_one_nothing() -> None:
    job = forked.launch(lambda: {"made": [1, 2, 3]})
    assert job is not None
    assert forked.outcome(job, 60) == (True, {"made": [1, 2, 3]})

    def broken() -> None:
        raise RuntimeError("the child fails")

    failing = forked.launch(broken)
    assert failing is not None
    assert forked.outcome(failing, 60) == (False, None)


@pytest.mark.parametrize(
    ("todo", "away"),
    [
        (["openai-chat", "anthropic", "gemini"], ["gemini"]),
        (["anthropic", "gemini"], ["gemini"]),
        (["openai-chat", "mistral"], []),  # one chat body: nothing to split
        (["anthropic", "gemini", "bedrock", "openai-responses"], ["bedrock", "openai-responses"]),
        (["gemini"], []),
    ],
)
def test_the_second_process_takes_no_more_bodies_than_stay_and_never_the_first(
    todo: list[str], away: list[str]
) -> None:
    assert apart.split(todo) == away


@pytest.mark.parametrize(
    ("names", "away"),
    [
        (["none", "toolhist"], ["toolhist"]),  # the page's first two on a long session
        (["toolhist", "none", "canonical"], ["toolhist", "canonical"]),
        (["none"], ["none"]),  # nothing else: the whole return goes
        (["none", "toolhist", "litellm"], []),  # a library is never started in a forked child
    ],
)
def test_the_second_process_takes_the_return_s_strategies_but_none(names: list[str], away: list[str]) -> None:
    assert switch_views._away(names) == away


def elements(at: AppTest) -> list[str]:
    """Every element of the page, as its message says it (text, tables' data, widgets' values)."""
    found: list[str] = []

    def walk(node: Any) -> None:
        children = getattr(node, "children", None)
        if children:
            for child in children.values():
                walk(child)
        elif type(node).__name__ == "Dataframe":  # its values: a styled table's id is new on every run
            found.append(f"Dataframe: {node.value.to_csv()}")
        elif getattr(node, "proto", None) is not None:
            said = "\n".join(  # a deferred download's file id is new on every run
                line for line in str(node.proto).splitlines() if not line.startswith("deferred_file_id")
            )
            found.append(f"{type(node).__name__}: {said}")

    walk(at._tree)
    return found


def opened(path: Path, page: str) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.query_params["path"] = str(path)
    at.run()
    at.switch_page(page).run()
    assert not at.exception, at.exception
    return at


@pytest.fixture
def long_session(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path: Path = benchmark_module("generate").write(forked.MIN_MESSAGES + 500, tmp_path / "long.json")
    monkeypatch.setenv("TOOLHIST_OPEN", str(tmp_path))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # a one-core runner would not fork: this one does
    return path


def counting(monkeypatch: pytest.MonkeyPatch, work: Callable[..., object]) -> list[tuple[Any, ...]]:
    """The arguments of every child launched to run ``work`` (Home's verdicts are not counted)."""
    started: list[tuple[Any, ...]] = []
    real = forked.launch

    def launch(job: Callable[[], object]) -> forked.Job | None:
        if isinstance(job, partial) and job.func is work:
            started.append(job.args)
        return real(job)

    monkeypatch.setattr(forked, "launch", launch)
    return started


@pytest.mark.parametrize(
    ("page", "work"),
    [
        ("app_pages/4_Payloads.py", apart.bodies),
        ("app_pages/3_Curation.py", apart.repaired),
        ("app_pages/8_Switch.py", switch_views._return_kept),
    ],
    ids=["payloads", "curation", "switch"],
)
def test_a_page_shows_the_same_with_a_second_process_and_forks_once(
    page: str, work: Callable[..., object], long_session: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    started = counting(monkeypatch, work)
    st.cache_resource.clear()
    at = opened(long_session, page)
    with_fork = elements(at)
    assert len(started) == 1
    if work is apart.bodies:
        assert started[0][1] == ["gemini"]  # of openai-chat, anthropic and gemini
    if work is switch_views._return_kept:  # switched to the first other provider, back to openai-chat
        assert started[0][1:4] == (forked.MIN_MESSAGES // 2 + 250, "openai-responses", ["toolhist"])
    at.run()  # a rerun: everything is cached, nothing forks
    assert not at.exception, at.exception
    assert len(started) == 1
    monkeypatch.setenv(forked.ENV, "0")
    st.cache_resource.clear()
    without = opened(long_session, page)
    assert len(started) == 1
    assert with_fork == elements(without)


@pytest.mark.parametrize(
    "page", ["app_pages/4_Payloads.py", "app_pages/3_Curation.py", "app_pages/8_Switch.py"]
)
def test_a_page_computes_it_itself_when_the_second_process_gives_no_answer(
    page: str, long_session: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lost: list[int] = []
    real = forked.outcome

    def thrown_away(job: forked.Job | forked.Child, patience: float) -> tuple[bool, Any]:
        if isinstance(job, forked.Job):
            lost.append(job.pid)
        real(job, patience)  # reaped as always, its answer dropped
        return False, None

    monkeypatch.setattr(forked, "outcome", thrown_away)
    st.cache_resource.clear()
    failed = opened(long_session, page)
    assert lost
    monkeypatch.setenv(forked.ENV, "0")
    st.cache_resource.clear()
    without = opened(long_session, page)
    assert elements(failed) == elements(without)
