"""Verdicts from a forked child are the verdicts computed here, and a child that fails costs no verdict.

`toolhist.views.forked` runs some of Home's providers in a second process on long sessions. These
tests fork for real (Linux, as the app does): the answer equals `toolhist.check.verdict` field by
field, in order, for real agent logs and every provider; a child that raises, or does not answer in
time, gives None (the page then computes those verdicts itself) and is reaped, not left running.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest
import streamlit as st
from bench_modules import benchmark_module
from streamlit.testing.v1 import AppTest

from toolhist import _gc
from toolhist.check import verdict
from toolhist.providers import PROVIDERS, Violation, chat_shared
from toolhist.readers import load_document
from toolhist.views import forked

ROOT = Path(__file__).parent.parent.parent
LOGS = ROOT / "tests" / "corpus" / "logs"
REAL = [
    LOGS / "codex" / "simonw-sample-codex-session.jsonl",
    LOGS / "claude-code" / "claude-code-log-sidechain-integrated.fixture.jsonl",
    ROOT / "sample_logs" / "openai_chat_request.json",
]

pytestmark = pytest.mark.skipif(
    os.name != "posix", reason="fork is POSIX; the app uses one process elsewhere"
)


def gone(pid: int) -> bool:
    """Whether ``pid`` is reaped (no zombie left: waitpid knows no such child)."""
    try:
        os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return False


@pytest.mark.parametrize("path", REAL, ids=lambda p: p.name)
def test_a_childs_verdicts_are_the_verdicts_computed_here(path: Path) -> None:
    doc, session = load_document(path)
    child = forked.start(doc, session, PROVIDERS)
    assert child is not None
    found = forked.answers(child, patience=120)
    assert found is not None
    assert list(found) == list(PROVIDERS)
    for provider in PROVIDERS:
        here = verdict(doc, session, provider, remember=False)
        assert found[provider] == here, provider
        assert [v.model_dump_json() for v in found[provider]] == [v.model_dump_json() for v in here]
        assert all(list(v.__dict__) == list(Violation.model_fields) for v in found[provider])
    assert gone(child.pid)


def test_a_lock_another_thread_holds_at_the_fork_does_not_stop_the_child() -> None:
    """The server's other sessions pause the collector and share chat bodies under locks: made anew in a child."""
    doc, session = load_document(REAL[0])
    held, release = threading.Event(), threading.Event()

    def hold() -> None:
        with _gc._lock, chat_shared._lock:
            held.set()
            release.wait()

    other = threading.Thread(target=hold)
    other.start()
    held.wait()
    try:
        child = forked.start(doc, session, ["openai-chat", "mistral"])  # forked with both locks held
    finally:
        release.set()  # here they are free again (this process pauses too while it takes the answer)
        other.join()
    assert child is not None
    found = forked.answers(child, patience=60)  # without new locks the child waits for ever
    assert found == {p: verdict(doc, session, p, remember=False) for p in ("openai-chat", "mistral")}


def test_a_child_that_raises_gives_no_answer_and_is_reaped(monkeypatch: pytest.MonkeyPatch) -> None:
    doc, session = load_document(REAL[0])

    def broken(*args: object, **kwargs: object) -> list[Violation]:
        raise RuntimeError("a bug in a rule")

    monkeypatch.setattr(forked, "verdict", broken)  # the child is a copy of this process: it raises too
    child = forked.start(doc, session, ["anthropic", "gemini"])
    assert child is not None
    assert forked.answers(child, patience=120) is None
    assert gone(child.pid)


def test_a_child_that_does_not_answer_in_time_is_killed(monkeypatch: pytest.MonkeyPatch) -> None:
    doc, session = load_document(REAL[0])

    def stuck(*args: object, **kwargs: object) -> list[Violation]:
        time.sleep(3600)
        return []

    monkeypatch.setattr(forked, "verdict", stuck)
    child = forked.start(doc, session, ["anthropic", "gemini"])
    assert child is not None
    assert forked.answers(child, patience=0.5) is None  # killed, not waited for an hour
    assert gone(child.pid)


def test_a_child_is_stopped_when_the_page_is_left(monkeypatch: pytest.MonkeyPatch) -> None:
    doc, session = load_document(REAL[0])
    monkeypatch.setattr(forked, "verdict", lambda *a, **k: time.sleep(3600))
    child = forked.start(doc, session, ["anthropic", "gemini"])
    assert child is not None
    forked.stop(child)
    assert gone(child.pid)


def test_a_second_process_only_where_it_pays_and_is_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    _, short = load_document(ROOT / "sample_logs" / "openai_chat_request.json")
    long = short.model_copy(
        update={"messages": short.messages * (forked.MIN_MESSAGES // len(short.messages) + 1)}
    )
    assert not forked.usable(short)  # ten messages: the fork costs more than it saves
    assert forked.usable(long) == (os.uname().sysname == "Linux" and (os.cpu_count() or 1) >= 2)
    monkeypatch.setenv(forked.ENV, "0")
    assert not forked.usable(long)
    huge = short.model_copy(
        update={"messages": short.messages * (forked.MAX_MESSAGES // len(short.messages) + 1)}
    )
    monkeypatch.delenv(forked.ENV)
    assert not forked.usable(huge)  # a child's copies could add gigabytes


def home(path: Path) -> AppTest:
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.query_params["path"] = str(path)
    at.run()
    assert not at.exception, at.exception
    return at


def test_home_shows_the_same_verdicts_with_a_second_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A long session's Home page, forked and not: the same tables and text, and a child did run."""
    path = benchmark_module("generate").write(forked.MIN_MESSAGES + 500, tmp_path / "long.json")
    monkeypatch.setenv("TOOLHIST_OPEN", str(tmp_path))
    started: list[tuple[str, ...]] = []
    real_start = forked.start

    def counted(*args: object) -> forked.Child | None:
        child = real_start(*args)  # type: ignore[arg-type]
        if child is not None:
            started.append(child.providers)
        return child

    monkeypatch.setattr(forked, "start", counted)
    monkeypatch.setattr(os, "cpu_count", lambda: 2)  # a one-core runner would not fork: this one does
    st.cache_resource.clear()  # nothing of this session checked before
    with_fork = home(path)
    # openai-chat first (as sent), with the other two chat-shaped providers and openai-responses (the
    # cheapest of the four, home.APART_COST): three go apart
    assert started == [("anthropic", "gemini", "bedrock")]
    monkeypatch.setenv(forked.ENV, "0")
    st.cache_resource.clear()
    without = home(path)
    assert len(started) == 1
    assert [d.value.to_csv() for d in with_fork.dataframe] == [d.value.to_csv() for d in without.dataframe]
    assert [t.value for t in with_fork.text] == [t.value for t in without.text]


def test_home_checks_them_itself_when_the_second_process_gives_no_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A child that fails (here: its answer thrown away) costs time, not a verdict: Home computes them."""
    path = benchmark_module("generate").write(forked.MIN_MESSAGES + 500, tmp_path / "long.json")
    monkeypatch.setenv("TOOLHIST_OPEN", str(tmp_path))
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    real_answers = forked.answers
    asked: list[int] = []

    def lost(child: forked.Child, patience: float) -> None:
        asked.append(child.pid)
        real_answers(child, patience)  # reaped as always, its answer dropped

    monkeypatch.setattr(forked, "answers", lost)
    st.cache_resource.clear()
    failed = home(path)
    assert len(asked) == 1
    monkeypatch.setenv(forked.ENV, "0")
    st.cache_resource.clear()
    without = home(path)
    assert [d.value.to_csv() for d in failed.dataframe] == [d.value.to_csv() for d in without.dataframe]
    assert [t.value for t in failed.text] == [t.value for t in without.text]
