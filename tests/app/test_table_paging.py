"""The tables of a long history come a page at a time, and every page is the library's rows.

A 6,000-message generated session (``benchmarks/generate.py``) has thousands of violations across
the seven providers: the Violations page sends 500 rows to the browser at once, the home page's
message table 1,000, not all of them.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_modules import benchmark_module
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.check import check
from toolhist.compaction import compact
from toolhist.views.summary import messages_table
from toolhist.views.violations import violations_frame

ROOT = Path(__file__).parent.parent.parent
PAGE_ROWS = 500  # app_pages/2_Violations.py
HOME_ROWS = 1000  # app.py (and the Compaction page's tables)
SUMMARY_LINES = 400  # app_pages/6_Compaction.py


@pytest.fixture(scope="module")
def long_session(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path: Path = benchmark_module("generate").write(6000, tmp_path_factory.mktemp("paging") / "long.json")
    return path


def table(at: AppTest) -> object:
    return next(d.value for d in at.dataframe if "error text" in d.value.columns)


def test_pages_of_the_violations_table_are_the_library_s_rows_in_order(long_session: Path) -> None:
    expected = violations_frame(check(long_session).results)
    total = len(expected)
    pages = -(-total // PAGE_ROWS)
    assert pages > 3  # the session is long enough to page

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["path"] = str(long_session)
    at.run()
    at.switch_page("app_pages/2_Violations.py").run()
    assert not at.exception, at.exception
    assert [h.value for h in at.subheader if h.value.endswith("violations")] == [f"{total:,} violations"]
    box = at.number_input(key="vi_page")
    assert box.value == 1
    assert box.label == f"Page (of {pages}; {PAGE_ROWS} rows a page)"
    shown = table(at)
    assert len(shown) == PAGE_ROWS  # type: ignore[arg-type]
    assert list(shown["error text"]) == list(expected["error text"][:PAGE_ROWS])  # type: ignore[index]
    assert f"Violations 1 to {PAGE_ROWS} of {total:,}" in [c.value for c in at.caption]
    first = expected.iloc[0]
    selected = f"{first['provider']} · {first['rule']} · {first['severity']} · {first['path']}"
    assert selected in [t.value for t in at.text]

    box.set_value(3).run()
    assert not at.exception, at.exception
    shown = table(at)
    rows = expected.iloc[2 * PAGE_ROWS : 3 * PAGE_ROWS]
    assert list(shown["path"]) == list(rows["path"])  # type: ignore[index]
    assert list(shown["provider"]) == list(rows["provider"])  # type: ignore[index]
    assert f"Violations {2 * PAGE_ROWS + 1:,} to {3 * PAGE_ROWS:,} of {total:,}" in [
        c.value for c in at.caption
    ]
    third = rows.iloc[0]  # the first row of the page is the one opened
    assert f"{third['provider']} · {third['rule']} · {third['severity']} · {third['path']}" in [
        t.value for t in at.text
    ]

    at.number_input(key="vi_page").set_value(pages).run()
    last = table(at)
    assert len(last) == total - (pages - 1) * PAGE_ROWS  # type: ignore[arg-type]
    assert list(last["error text"]) == list(expected["error text"][(pages - 1) * PAGE_ROWS :])  # type: ignore[index]

    # another provider starts again at its first page, with its own rows
    at.selectbox(key="vi_provider").set_value("mistral").run()
    assert not at.exception, at.exception
    mistral = expected[expected["provider"] == "mistral"]
    assert [h.value for h in at.subheader if h.value.endswith("violations")] == [
        f"{len(mistral):,} violations"
    ]
    assert at.number_input(key="vi_page").value == 1
    assert list(table(at)["path"]) == list(mistral["path"][:PAGE_ROWS])  # type: ignore[index]


def test_the_home_page_lists_a_long_history_s_messages_a_page_at_a_time(long_session: Path) -> None:
    expected = messages_table(toolhist.load(long_session))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["path"] = str(long_session)
    at.run()
    assert not at.exception, at.exception
    box = at.number_input(key="home_page")
    assert (box.label, box.value) == ("Page (of 6; 1000 messages a page)", 1)
    shown = next(d.value for d in at.dataframe if "preview" in d.value.columns)
    assert list(shown["#"]) == list(range(HOME_ROWS))
    assert "Messages 0 to 999 of 6,000" in [c.value for c in at.caption]

    box.set_value(6).run()
    assert not at.exception, at.exception
    shown = next(d.value for d in at.dataframe if "preview" in d.value.columns)
    assert list(shown["#"]) == list(range(5000, 6000))
    assert list(shown["preview"]) == [row["preview"] for row in expected[5000:]]
    assert "Messages 5,000 to 5,999 of 6,000" in [c.value for c in at.caption]

    # another long session, with fewer pages than the one shown: its first page
    shorter = benchmark_module("generate").write(2500, long_session.with_name("shorter.json"))
    at.text_input(key="path").set_value(str(shorter)).run()
    assert not at.exception, at.exception
    box = at.number_input(key="home_page")
    assert (box.label, box.value) == ("Page (of 3; 1000 messages a page)", 1)

    # a short session has one table and no pager; a long one opened again starts on its first page
    at.segmented_control(key="source").set_value("Sample").run()
    assert not at.exception, at.exception
    assert not [n for n in at.number_input if n.key == "home_page"]
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").set_value(str(long_session)).run()
    assert not at.exception, at.exception
    assert at.number_input(key="home_page").value == 1


def test_compaction_shows_a_long_history_s_summaries_a_page_at_a_time(long_session: Path) -> None:
    """3,098 pairs replaced: their table a page at a time, and the summary's first lines with the CLI's command."""
    c = compact(toolhist.load(long_session), "openai-chat")
    total, lines = len(c.replacements), c.summary.split("\n")
    pages = -(-total // HOME_ROWS)
    assert pages > 3  # long enough to page
    assert len(lines) > SUMMARY_LINES  # and to cut
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=300)
    at.query_params["path"] = str(long_session)
    at.run()
    at.switch_page("app_pages/6_Compaction.py").run()
    assert not at.exception, at.exception

    def shown() -> object:
        return next(d.value for d in at.dataframe if "summary" in d.value.columns)

    box = at.number_input(key="co_rep_page")
    assert (box.label, box.value) == (f"Page (of {pages}; 1000 summaries a page)", 1)
    assert list(shown()["call id"]) == [r.call_id for r in c.replacements[:HOME_ROWS]]  # type: ignore[index]
    assert f"Rows 0 to 999 of {total:,}" in [c.value for c in at.caption]
    box.set_value(pages).run()
    assert not at.exception, at.exception
    last = c.replacements[(pages - 1) * HOME_ROWS :]
    assert list(shown()["summary"]) == [r.summary for r in last]  # type: ignore[index]
    assert f"Rows {(pages - 1) * HOME_ROWS:,} to {total - 1:,} of {total:,}" in [c.value for c in at.caption]

    code = next(b.value for b in at.code if b.value.startswith(lines[0]))
    assert code == "\n".join(lines[:SUMMARY_LINES])
    command = "toolhist compact FILE --provider openai-chat --keep 6 --threshold 10000"
    assert f"The first {SUMMARY_LINES} of {len(lines):,} lines. The whole summary: `{command}`" in [
        c.value for c in at.caption
    ]
