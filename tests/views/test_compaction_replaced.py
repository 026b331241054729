"""`toolhist.views.compaction.Replaced`: the Compaction page keeps what each summary replaced a column at a
time, and a page of it reads as the same rows of the whole table."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_modules import benchmark_module

import toolhist
from toolhist.compaction import Compaction, compact
from toolhist.views.compaction import OUTCOMES, REPLACEMENT_COLUMNS, replaced_of, replacements_frame


@pytest.fixture(scope="module")
def compacted(tmp_path_factory: pytest.TempPathFactory) -> Compaction:
    path = benchmark_module("generate").write(3000, tmp_path_factory.mktemp("replaced") / "long.json")
    made = compact(toolhist.load(path), "openai-chat", keep=2, threshold=0)
    assert len(made.replacements) > 1000  # more than one page
    return made


def test_the_whole_table_has_a_row_per_replacement(compacted: Compaction) -> None:
    frame = replacements_frame(compacted)
    assert list(frame.columns) == list(REPLACEMENT_COLUMNS)
    made = compacted.replacements
    assert list(frame["call id"]) == [r.call_id for r in made]
    assert list(frame["summary"]) == [r.summary for r in made]
    assert list(frame["tokens before"]) == [r.tokens_before for r in made]
    assert str(frame["tokens before"].dtype) == "int64"
    assert list(frame["call at"]) == [f"message {r.call_at[0]}, block {r.call_at[1]}" for r in made]
    assert list(frame["result at"]) == [f"message {r.result_at[0]}, block {r.result_at[1]}" for r in made]
    assert set(frame["outcome"]) <= set(OUTCOMES)
    assert list(frame["outcome"] == OUTCOMES[0]) == [r.is_error for r in made]


@pytest.mark.parametrize("start", [0, 1, 999, 1000, 1500])
def test_a_page_is_those_rows_of_the_whole_table(compacted: Compaction, start: int) -> None:
    whole = replacements_frame(compacted)
    page = replaced_of(compacted).page(range(start, start + 1000))
    expected = whole.iloc[start : start + 1000]
    assert page.equals(expected)
    assert page.index.equals(expected.index)
    assert len(page) == min(1000, len(whole) - start)


def test_no_replacement_is_a_table_of_no_rows_with_the_columns(tmp_path: Path) -> None:
    session = toolhist.load(benchmark_module("generate").write(40, tmp_path / "short.json"))
    made = compact(session, "openai-chat", threshold=10**9)
    assert not made.replacements
    frame = replacements_frame(made)
    assert list(frame.columns) == list(REPLACEMENT_COLUMNS)
    assert len(frame) == 0
