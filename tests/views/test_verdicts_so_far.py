"""Home's verdict table while the providers are checked: every row present, counts as written, no None."""

from __future__ import annotations

from pathlib import Path

from toolhist.check import check
from toolhist.providers import PROVIDERS
from toolhist.views.summary import Row, verdict_row, verdicts_so_far

SAMPLE = Path(__file__).parents[2] / "sample_logs" / "openai_chat_request.json"


def test_rows_filled_so_far_read_as_the_final_ones_and_the_rest_wait() -> None:
    result = check(SAMPLE)
    done = {"openai-chat": verdict_row("openai-chat", result.results["openai-chat"], True)}
    table = verdicts_so_far(PROVIDERS, done, "anthropic", "checking (2 of 7)…")
    assert [row["provider"] for row in table] == list(PROVIDERS)
    assert table[0] == {
        "provider": "openai-chat",
        "verdict": "rejects (HTTP 400)",
        "errors": "1",  # as the count is written, not 1.0
        "warnings": "0",
        "rules": "oai.call_unanswered",
        "checked": "body as sent",
    }
    by_name = {row["provider"]: row for row in table}
    assert by_name["anthropic"] == {
        "provider": "anthropic",
        "verdict": "checking (2 of 7)…",
        "errors": "",
        "warnings": "",
        "rules": "",
        "checked": "",
    }
    waiting = [p for p, row in by_name.items() if row["verdict"] == "waiting"]
    assert waiting == [p for p in PROVIDERS if p not in {"openai-chat", "anthropic"}]
    assert all(isinstance(v, str) for row in table for v in row.values())


def test_rows_a_second_process_checks_say_so_and_the_rest_wait() -> None:
    """Home on a long session: some providers are checked by a second process (`toolhist.views.forked`)."""
    apart = {"gemini": "checking (second process)…", "bedrock": "checking (second process)…"}
    mistral: Row = {"provider": "mistral", "verdict": "rejects (HTTP 400)", "errors": 12904, "warnings": 930}
    table = verdicts_so_far(PROVIDERS, {"mistral": mistral}, "openai-chat", "checking (1 of 7)…", apart)
    assert {row["provider"]: row["verdict"] for row in table} == {
        "openai-chat": "checking (1 of 7)…",
        "openai-responses": "waiting",
        "anthropic": "waiting",
        "gemini": "checking (second process)…",
        "mistral": "rejects (HTTP 400)",
        "kimi": "waiting",
        "bedrock": "checking (second process)…",
    }
    assert [(r["errors"], r["warnings"]) for r in table if r["provider"] == "mistral"] == [("12,904", "930")]
