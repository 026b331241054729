"""The provider-by-rule matrix of violations (home page and notebooks).

One row per rule that some provider broke, one column per provider, the cell the number of
violations; a provider that breaks nothing still has its column (all zeros), so the matrix always
shows every provider that was checked.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

import pandas as pd

from toolhist.providers import Violation


def violation_matrix(results: Mapping[str, Sequence[Violation]]) -> pd.DataFrame:
    """Counts per (rule, provider): index ``rule``, one int column per provider in ``results`` order.

    The rows are sorted by provider (the order of ``results``), then rule slug; a last column
    ``severity`` says whether the rule makes the provider answer 400 (``error``) or not (``warning``).
    """
    counts: Counter[tuple[str, str]] = Counter()
    severity: dict[str, str] = {}
    first_seen: dict[str, int] = {}
    for p, (provider, found) in enumerate(results.items()):
        for v in found:
            counts[(v.rule, provider)] += 1
            severity[v.rule] = v.severity
            first_seen.setdefault(v.rule, p)
    rules = sorted(severity, key=lambda r: (first_seen[r], r))
    providers = list(results)
    frame = pd.DataFrame(
        [[counts[(rule, provider)] for provider in providers] for rule in rules],
        index=pd.Index(rules, name="rule"),
        columns=providers,
        dtype="int64",
    )
    frame["severity"] = [severity[r] for r in rules]
    return frame


def provider_totals(results: Mapping[str, Sequence[Violation]]) -> dict[str, tuple[int, int]]:
    """Provider → (errors, warnings)."""
    return {
        provider: (
            sum(v.severity == "error" for v in found),
            sum(v.severity == "warning" for v in found),
        )
        for provider, found in results.items()
    }
