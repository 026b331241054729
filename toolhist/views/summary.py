"""Rows for the home page (and notebooks): the sample gallery, the summary, the message table.

Pure functions over the canonical model, so the page stays layout only and the same tables can be
shown in Jupyter. Every cell is plain text or a number: whatever shows them escapes it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path

from toolhist.check import CheckResult
from toolhist.model import (
    Message,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers.base import Violation
from toolhist.summary import Summary
from toolhist.views.roles import role

PREVIEW = 120
"""Characters of text shown per message in the table."""

Row = dict[str, str | int | None]


def list_samples(directory: Path) -> list[Path]:
    """The bundled sample sessions (JSON and JSON Lines), sorted by name."""
    return sorted(p for pattern in ("*.json", "*.jsonl") for p in directory.glob(pattern) if p.is_file())


def summary_rows(summary: Summary) -> list[Row]:
    """The summary as label/value rows."""
    rows: list[Row] = [{"": "format", "value": summary.format}, {"": "messages", "value": summary.messages}]
    rows += [{"": f"  {role(speaker)}", "value": count} for speaker, count in summary.by_speaker.items()]
    rows += [
        {"": "tool calls", "value": summary.tool_calls},
        {"": "tool results", "value": summary.tool_results},
        {"": "unanswered calls", "value": len(summary.unanswered_calls)},
        {"": "unmatched results", "value": len(summary.unmatched_results)},
        {"": "duplicate results", "value": len(summary.duplicate_results)},
        {"": "tools declared", "value": "none" if summary.tools_declared is None else summary.tools_declared},
    ]
    return rows


def _clip(text: str) -> str:
    one_line = " ".join(text.split())
    return one_line if len(one_line) <= PREVIEW else one_line[: PREVIEW - 1] + "…"


def preview(message: Message) -> str:
    """A one-line preview: the first text, else the calls or results it carries."""
    parts: list[str] = []
    for block in message.blocks:
        if isinstance(block, TextBlock) and block.text.strip():
            parts.append(block.text)
        elif isinstance(block, ToolCallBlock):
            parts.append(f"call {block.name}({block.id})")
        elif isinstance(block, ToolResponseBlock):
            parts.append(
                f"result for {block.tool_name or '?'}({block.call_id})" + (" [error]" if block.error else "")
            )
        elif isinstance(block, ThinkingBlock):
            parts.append("[thinking]")
        elif isinstance(block, OpaqueBlock):
            parts.append(f"[{block.source_format} block]")
    return _clip(" · ".join(parts)) if parts else "(empty)"


def messages_table(session: Session, start: int = 0, stop: int | None = None) -> list[Row]:
    """One row per message: position, role, where it came from, a preview, call/result counts.

    ``start``/``stop`` make the rows of those messages only (Home's page of a long history: the
    100,000 rows of a long session were a second of Home's first run, for the 1,000 it shows).
    """
    rows: list[Row] = []
    messages, locations = session.messages, session.source.locations
    for i in range(start, len(messages) if stop is None else min(stop, len(messages))):
        message = messages[i]
        location = locations[i] if i < len(locations) else None
        rows.append(
            {
                "#": i,
                "role": role(message.speaker),
                "source": location.json_path if location else None,
                "preview": preview(message),
                "calls": sum(1 for _ in message.tool_calls()),
                "results": sum(1 for _ in message.tool_responses()),
            }
        )
    return rows


def unsent_table(session: Session) -> list[Row]:
    """One row per record the agent kept but does not send: where it stood, what it is, its text."""
    return [
        {
            "before message": u.before,
            "kind": u.kind,
            "line": u.line,
            "source": u.json_path,
            "text": u.text if len(u.text) <= PREVIEW else u.text[: PREVIEW - 1] + "…",
            "why not sent": u.reason,
        }
        for u in session.unsent
    ]


def verdict_row(provider: str, found: Sequence[Violation], as_sent: bool) -> Row:
    """One provider's row: errors, warnings, the rules broken, whether the body was checked as sent."""
    errors = sum(v.severity == "error" for v in found)
    return {
        "provider": provider,
        "verdict": "rejects (HTTP 400)" if errors else ("accepts, with warnings" if found else "accepts"),
        "errors": errors,
        "warnings": len(found) - errors,
        "rules": ", ".join(sorted({v.rule for v in found})),
        "checked": "body as sent" if as_sent else "rendered by toolhist",
    }


def pending_row(provider: str, step: str) -> Row:
    """The row of a provider whose verdict is not computed yet (Home fills the table as they come)."""
    return {
        "provider": provider,
        "verdict": step,
        "errors": None,
        "warnings": None,
        "rules": "",
        "checked": "",
    }


def verdicts_so_far(
    providers: Sequence[str],
    done: dict[str, Row],
    current: str,
    step: str,
    elsewhere: Mapping[str, str] | None = None,
) -> list[dict[str, str]]:
    """Home's verdict table while the providers are checked: a row per provider, as text.

    ``done`` holds the rows computed so far (`verdict_row`); ``current`` is being checked (its verdict
    reads ``step``), ``elsewhere`` names what the others being checked at the same time read, the
    rest are "waiting". Every cell is text, a pending count blank: a column
    of counts with gaps would otherwise show ``None``, or ``2838.0`` once pandas makes it float. A
    count is written as the final table writes it ("12,904").
    """
    also = elsewhere or {}
    rows = [
        done.get(p) or pending_row(p, step if p == current else also.get(p, "waiting")) for p in providers
    ]
    return [
        {k: "" if v is None else f"{v:,}" if isinstance(v, int) else str(v) for k, v in row.items()}
        for row in rows
    ]


def verdict_rows(result: CheckResult) -> list[Row]:
    """One row per provider (`verdict_row`), in the result's order."""
    return [verdict_row(p, found, p in result.as_sent) for p, found in result.results.items()]


def violation_rows(result: CheckResult) -> list[Row]:
    """Every violation: provider, rule, severity, payload path, canonical message, the error text."""
    return [
        {
            "provider": v.provider,
            "rule": v.rule,
            "severity": v.severity,
            "path": v.path,
            "message": v.message_index,
            "error text": v.error_text,
        }
        for found in result.results.values()
        for v in found
    ]
