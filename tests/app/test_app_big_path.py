"""A session file opened by path is read by reference: no upload bound, no copy held, re-read when it changes.

Under AppTest, in a working folder of its own (so the file is inside the allowed folders), a Claude
Code log made by ``benchmarks/agent_logs.py`` larger than the upload bound (lowered here with
monkeypatch, as the app reads it from `toolhist.views.state`) opens from a ``?path=`` link: Home
shows the seven verdicts `toolhist.check` gives the same file, and the input the app keeps names
the file by its stamp (path, size, modification time) and holds none of its bytes. Rewritten, it is
read again. An upload keeps its bound (``home.py`` passes it to the uploader).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from app_links import held, linked, verdicts_of
from bench_modules import benchmark_module

from toolhist.check import check
from toolhist.providers import PROVIDERS
from toolhist.views import state
from toolhist.views.inputs import Input, Stamp
from toolhist.views.summary import verdict_rows

BOUND_MB = 1


@pytest.fixture
def big(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A 3 MB Claude Code log in the working folder, with the upload bound lowered to 1 MB."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TOOLHIST_OPEN", raising=False)
    monkeypatch.setenv("TOOLHIST_HOME", str(home))  # no agent folders of the machine's own
    monkeypatch.setattr(state, "MAX_UPLOAD_MB", BOUND_MB)
    log: Path = benchmark_module("agent_logs").write("claude-code", tmp_path / "big.jsonl", mb=3)
    assert log.stat().st_size > BOUND_MB * 1024 * 1024
    return log


def test_a_file_over_the_upload_bound_opens_by_reference(big: Path) -> None:
    at = linked(big)
    assert not at.exception
    assert not at.error
    expected = check(big)
    assert [r["provider"] for r in verdicts_of(at)] == list(PROVIDERS)
    assert verdicts_of(at) == verdict_rows(expected)
    assert at.metric[0].value == str(expected.messages)
    kept = held(at)
    assert kept.data is None  # the app holds no copy of the file's bytes
    assert kept.file == Stamp.of(big)
    assert (kept.name, kept.path, kept.size) == (str(big), str(big), big.stat().st_size)


def rewrite(log: Path, before: Input) -> None:
    benchmark_module("agent_logs").write("claude-code", log, mb=2, seed=8)
    later = before.file.mtime_ns + 1_000_000_000 if before.file else 0
    os.utime(log, ns=(later, later))  # a coarse clock may not have moved


def test_a_file_rewritten_since_it_was_read_is_read_again(big: Path) -> None:
    at = linked(big)
    before = held(at)
    first = at.metric[0].value
    rewrite(big, before)
    at.run()
    assert not at.error
    after = held(at)
    assert after.file == Stamp.of(big)
    assert after.digest != before.digest
    again = check(big)
    assert at.metric[0].value == str(again.messages) != first
    assert verdicts_of(at) == verdict_rows(again)


def test_another_page_rereads_the_file_it_keeps(big: Path) -> None:
    """A page other than Home reopens the input kept in the session: its stamp is looked at again."""
    at = linked(big)
    at.switch_page("app_pages/2_Violations.py").run()
    before = held(at)
    assert before.file == Stamp.of(big)
    rewrite(big, before)
    at.run()
    assert not at.exception
    assert not at.error
    assert held(at).file == Stamp.of(big) != before.file
    assert at.sidebar.text[0].value == str(big)


def test_an_input_by_reference_is_keyed_by_its_stamp(tmp_path: Path) -> None:
    """The key is the stamp, not the bytes: the same stamp, the same key; restamping follows the file."""
    f = tmp_path / "s.json"
    f.write_text('{"messages": [{"role": "user", "content": "hi"}]}')
    one = Input(name=str(f), data=None, fmt=None, path=str(f), file=Stamp.of(f))
    assert one.digest == Input(name="other", data=None, fmt=None, file=Stamp.of(f)).digest
    assert one.restamped() is one
    os.utime(f, ns=(1, 1))
    moved = one.restamped()
    assert moved.file == Stamp.of(f) != one.file
    assert moved.digest != one.digest
    assert moved.content() == f.read_bytes()
