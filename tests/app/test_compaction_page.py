"""The Compaction page on every sample, with its figures checked against `toolhist.compaction`."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.compaction import compact

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
PAGE = "app_pages/6_Compaction.py"
SAMPLES = sorted(p.name for p in (ROOT / "sample_logs").iterdir() if p.suffix in {".json", ".jsonl"})


def open_compaction(**params: str) -> AppTest:
    """The app with ``params`` in the URL, switched to the Compaction page."""
    at = AppTest.from_file(APP, default_timeout=90)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    at.switch_page(PAGE).run()
    assert not at.exception, at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def tier_rows(at: AppTest) -> list[list[object]]:
    frame = next(
        d.value for d in at.dataframe if "tokens before" in d.value.columns and "tier" in d.value.columns
    )
    return [[str(v) if isinstance(v, str) else int(v) for v in row] for row in frame.itertuples(index=False)]


def expected_rows(sample: str, provider: str, keep: int, threshold: int) -> list[list[object]]:
    session = toolhist.load(ROOT / "sample_logs" / sample)
    c = compact(session, provider, keep=keep, threshold=threshold)
    rows: list[list[object]] = [
        [
            f"{t.tier} · {t.name}",
            t.messages_before,
            t.messages_after,
            t.tokens_before,
            t.tokens_after,
            t.tokens_before - t.tokens_after,
        ]
        for t in c.tiers
    ]
    rows.append(
        [
            "total",
            len(session.messages),
            len(c.session.messages),
            c.tokens_before,
            c.tokens_after,
            c.tokens_before - c.tokens_after,
        ]
    )
    return rows


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_sample_shows_the_library_figures(sample: str) -> None:
    at = open_compaction(sample=sample, provider="openai-chat")
    assert not at.error, [e.value for e in at.error]
    assert at.query_params["sample"] == sample
    c = compact(toolhist.load(ROOT / "sample_logs" / sample), "openai-chat")
    got = metrics(at)
    assert got["Tokens before"] == str(c.tokens_before)
    assert got["Tokens after"] == str(c.tokens_after)
    assert got["Tool pairs"] == str(c.pair_count)
    assert got["Pairs replaced"] == str(len(c.replacements))
    assert tier_rows(at) == expected_rows(sample, "openai-chat", 6, 10_000)


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_sample_compacted_with_keep_1_threshold_0(sample: str) -> None:
    at = open_compaction(sample=sample, provider="anthropic")
    at.number_input(key="co_keep").set_value(1).run()
    at.number_input(key="co_threshold").set_value(0).run()
    assert not at.exception, at.exception
    c = compact(toolhist.load(ROOT / "sample_logs" / sample), "anthropic", keep=1, threshold=0)
    assert metrics(at)["Pairs replaced"] == str(len(c.replacements))
    assert tier_rows(at) == expected_rows(sample, "anthropic", 1, 0)
    assert "Token counts: approx (o200k)" in [t.value for t in at.text]
    if c.replacements:
        table = next(d.value for d in at.dataframe if "summary" in d.value.columns)
        assert list(table["summary"]) == [r.summary for r in c.replacements]
        assert list(table["call id"]) == [r.call_id for r in c.replacements]


def test_openai_chat_sample_exact_figures_and_summary_text() -> None:
    at = open_compaction(sample="openai_chat_request.json", provider="openai-chat")
    at.number_input(key="co_keep").set_value(1).run()
    at.number_input(key="co_threshold").set_value(0).run()
    assert "Token counts: exact (o200k_base)" in [t.value for t in at.text]
    got = metrics(at)
    assert (got["Tokens before"], got["Tokens after"], got["Pairs replaced"]) == ("362", "347", "2")
    table = next(d.value for d in at.dataframe if "summary" in d.value.columns)
    assert list(table["summary"]) == [
        "[Earlier: Read tests/test_login.py with read_file (6 lines, 89 chars)]",
        "[Earlier: Ran `git diff --stat HEAD^1 HEAD -- app` - ok (4 lines, 116 chars)]",
    ]
    assert list(table["outcome"]) == ["replaced by the summary", "replaced by the summary"]
    before = next(d.value for d in at.dataframe if "role" in d.value.columns)
    assert list(before["role"][:4]) == ["system", "user", "assistant", "tool"]  # the wire's roles


def test_text_embed_shows_the_summary_message_as_text() -> None:
    at = open_compaction(sample="xss_tool_result.json", provider="anthropic")
    at.number_input(key="co_keep").set_value(0).run()
    at.number_input(key="co_threshold").set_value(0).run()
    at.radio(key="co_rendering").set_value("text-embed").run()
    assert not at.exception, at.exception
    c = compact(
        toolhist.load(ROOT / "sample_logs" / "xss_tool_result.json"),
        "anthropic",
        keep=0,
        threshold=0,
        rendering="text-embed",
    )
    assert c.summary.startswith("[Earlier in this session:]")
    assert c.summary in [code.value for code in at.code]  # literal code block: nothing rendered as HTML
    assert metrics(at)["Tokens after"] == str(c.tokens_after)
