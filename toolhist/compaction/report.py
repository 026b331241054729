"""A Compaction as plain values: the JSON the CLI prints and the lines it shows.

Kept beside the library (not in the CLI) so the page, the CLI and the tests read the same figures.
"""

from __future__ import annotations

from typing import Any

from toolhist.compaction.core import Compaction


def to_json(c: Compaction, file: str | None = None) -> dict[str, Any]:
    """One JSON object (the structure ``toolhist compact --json`` documents)."""
    return {
        "file": file if file is not None else c.original.source.path,
        "format": c.original.source.format,
        "provider": c.provider,
        "rendering": c.rendering,
        "keep": c.keep,
        "threshold": c.threshold,
        "triggered": c.triggered,
        "reason": c.reason,
        "pairs": c.pair_count,
        "tokens": {
            "encoding": c.encoding,
            "exact": c.exact,
            "label": c.token_label,
            "tool": c.tool_tokens,
            "before": c.tokens_before,
            "after": c.tokens_after,
        },
        "tiers": [t.model_dump(mode="json") for t in c.tiers],
        "replacements": [r.model_dump(mode="json") for r in c.replacements],
        "summary": c.summary,
        "notes": list(c.notes),
        "messages": {
            "before": [
                {"index": i, "tier": t, "tokens": n}
                for i, (t, n) in enumerate(zip(c.message_tiers_before, c.message_tokens_before, strict=True))
            ],
            "after": [
                {"index": i, "tier": t, "tokens": n}
                for i, (t, n) in enumerate(zip(c.message_tiers_after, c.message_tokens_after, strict=True))
            ],
        },
        "session": {"messages": [m.model_dump(mode="json") for m in c.session.messages]},
    }


def tier_lines(c: Compaction) -> list[str]:
    """The per-tier table: messages and tokens before and after, and the totals."""
    width = max(len(t.name) for t in c.tiers) + 2
    head = f"{'tier':<{width + 2}}{'messages':>17}  {'tokens':>17}"
    sub = f"{'':<{width + 2}}{'before':>8} {'after':>8}  {'before':>8} {'after':>8}"
    lines = [head, sub]
    for t in c.tiers:
        label = f"{t.tier} {t.name}"
        counts = f"{t.messages_before:>8} {t.messages_after:>8}  {t.tokens_before:>8} {t.tokens_after:>8}"
        lines.append(f"{label:<{width + 2}}{counts}")
    before, after = len(c.original.messages), len(c.session.messages)
    lines.append(f"{'total':<{width + 2}}{before:>8} {after:>8}  {c.tokens_before:>8} {c.tokens_after:>8}")
    return lines


def replacement_lines(c: Compaction) -> list[str]:
    """One entry per replaced pair: where its call and result were, and what stands for it now."""
    lines = []
    for r in c.replacements:
        where = f"call @{r.call_at[0]}.{r.call_at[1]}, result @{r.result_at[0]}.{r.result_at[1]}"
        kept = "error kept in full" if r.is_error else ("replaced" if r.result_replaced else "result kept")
        lines.append(
            f"  {r.tool_name} ({r.call_id}) [{r.category}] {where}, {r.tokens_before} tokens, {kept}"
        )
        lines += [f"      {line}" for line in r.summary.splitlines()]
    return lines
