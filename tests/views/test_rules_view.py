"""The rules table shared by ``toolhist rules`` and the Violations page: applicability and evidence per rule."""

from __future__ import annotations

from dataclasses import replace

from toolhist.providers import all_rules, provider_for
from toolhist.views.rules import COLUMNS, condition, dates, models, rule_record, rules_frame


def test_one_row_per_rule_with_its_applicability() -> None:
    frame = rules_frame()
    assert tuple(frame.columns) == COLUMNS
    assert list(zip(frame["provider"], frame["rule"], strict=True)) == [
        (r.provider, r.id) for r in all_rules()
    ]
    row = frame[frame["rule"] == "ant.prefill_unsupported"].iloc[0]
    assert row["severity"] == "error"
    assert (
        row["models"]
        == r"claude-(opus|sonnet|haiku)-4[-.][6-9] | claude-(opus|sonnet|haiku)-([5-9]|[1-9]\d) | claude-fable"
    )
    assert (row["since"], row["observed"]) == ("2026-02", "2026-09")
    assert row["evidence"].splitlines()[:2] == [
        "docs: platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-6#prefill-removal ('Prefilling "
        "assistant messages returns a 400 error on Claude 4.6 models')",
        "issue: strands-agents/sdk-python#1694 (us.anthropic.claude-opus-4-6-v1 on Bedrock; Sonnet 4.5 works)",
    ]
    assert list(rules_frame("gemini")["provider"].unique()) == ["gemini"]


def test_phrases_for_models_dates_and_conditions() -> None:
    gem = provider_for("gemini")
    assert models(gem.rule("gem.fc_position")) == "every model"
    assert dates(gem.rule("gem.fc_position")) == "2025-10..2026-05"
    assert dates(provider_for("kimi").rule("kimi.id_format")) == "?..2025-10"
    assert dates(replace(gem.rule("gem.fc_position"), since="", observed="")) == "-"
    assert dates(gem.rule("gem.fc_fr_mixed")) == "2025-04..2025-04"
    assert condition(gem.rule("gem.thought_sig")) == (
        "Gemini 3 and later validate thought signatures; Gemini 3 Pro Image does not (Vertex docs)"
    )
    store = provider_for("openai-responses").rule("resp.item_not_persisted")
    assert condition(store) == "store is false"
    record = rule_record(store)
    assert (record["severity"], record["model_dependent"], record["models"]) == ("warning", True, [])
    assert record["evidence"][0] == {
        "kind": "issue",
        "ref": "vercel/ai#7543 (a reasoning item with its id and encrypted_content null, o3, 2025-07)",
    }
