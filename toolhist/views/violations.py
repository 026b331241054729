"""The violations table: one row per violation, with the provider's exact words and where it points.

Also the per-message index the timeline and the message detail use. Pure: plain data in, a
DataFrame out; every cell is text or a number, so whatever shows it escapes it.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence

import pandas as pd

from toolhist.providers import Violation

COLUMNS = (
    "provider",
    "rule",
    "severity",
    "message",
    "block",
    "path",
    "call ids",
    "error text",
    "fix",
    "source",
)


def violations_frame(results: Mapping[str, Sequence[Violation]]) -> pd.DataFrame:
    """Every violation of every provider, in provider order then as found.

    ``message`` and ``block`` are canonical indices (nullable ints: a raw body path may map to no
    message); ``path`` is the payload path in the provider's own convention.
    """
    records = [
        {
            "provider": v.provider,
            "rule": v.rule,
            "severity": v.severity,
            "message": v.message_index,
            "block": v.block_index,
            "path": v.path,
            "call ids": ", ".join(v.call_ids),
            "error text": v.error_text,
            "fix": v.fix,
            "source": v.source,
        }
        for found in results.values()
        for v in found
    ]
    frame = pd.DataFrame.from_records(records, columns=list(COLUMNS))
    for column in ("message", "block"):
        frame[column] = frame[column].astype("Int64")
    return frame


def opening_row(frame: pd.DataFrame) -> int:
    """The row the page shows before one is picked: the first error, else the first row.

    A request is rejected for its errors: a warning listed first (Mistral's, in provider order) is not
    the 400 the user opened the page for.
    """
    errors = (frame["severity"] == "error").to_numpy().nonzero()[0]
    return int(errors[0]) if len(errors) else 0


def by_message(violations: Iterable[Violation]) -> dict[int, list[Violation]]:
    """Violations grouped by canonical message index (those located nowhere are left out)."""
    grouped: defaultdict[int, list[Violation]] = defaultdict(list)
    for v in violations:
        if v.message_index is not None:
            grouped[v.message_index].append(v)
    return dict(grouped)


def rule_counts(results: Mapping[str, Sequence[Violation]]) -> pd.DataFrame:
    """One row per (provider, rule): severity, count, and the first error text as an example."""
    counts: Counter[tuple[str, str]] = Counter()
    first: dict[tuple[str, str], Violation] = {}
    for provider, found in results.items():
        for v in found:
            counts[(provider, v.rule)] += 1
            first.setdefault((provider, v.rule), v)
    records = [
        {"provider": p, "rule": r, "severity": v.severity, "count": counts[(p, r)], "example": v.error_text}
        for (p, r), v in first.items()
    ]
    return pd.DataFrame.from_records(records, columns=["provider", "rule", "severity", "count", "example"])
