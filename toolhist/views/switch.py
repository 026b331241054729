"""Tables of the switch what-if (`toolhist.switch`) for the Switch page and Jupyter.

pandas is imported inside each function: the core library never imports it at module import.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from toolhist.providers.base import Violation
from toolhist.switch import Leg
from toolhist.switch.text import verdict_words

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas as pd


def verdicts_frame(leg: Leg) -> pd.DataFrame:
    """One row per strategy: its verdict, the rules, changes, foreign tokens, a thinking block off its prefix.

    A strategy that gave no answer (a library not installed) says why in ``rules``, as Curation does.

    ``prefix changed`` names the first Anthropic thinking block whose prefix the strategy edited:
    Claude Fable 5.1 and Opus 5.5 reject it on accounts created on or after 2026-08-31.
    """
    import pandas as pd

    rows = [
        {
            "strategy": name,
            "verdict": "no answer" if s.error else ("accepted" if s.accepted else "400"),
            "rules": f"not run: {s.error}" if s.error else ("" if s.accepted else verdict_words(s)),
            "changes": s.changes,
            "foreign tokens": len(s.foreign),
            "prefix changed": "" if s.rebound is None else f"{s.rebound.path} ({s.rebound.changed})",
        }
        for name, s in leg.strategies.items()
    ]
    columns = ["strategy", "verdict", "rules", "changes", "foreign tokens", "prefix changed"]
    return pd.DataFrame(rows, columns=columns)


def foreign_frame(leg: Leg) -> pd.DataFrame:
    """Every reasoning token another provider made, per strategy, with what the provider answers."""
    import pandas as pd

    rows = [
        {
            "strategy": name,
            "path": f.path,
            "token": f.kind,
            "made by": f.made_by,
            "message": f.message,
            "verdict": f.verdict,
            "provider's text": f.error_text or "not documented",
        }
        for name, s in leg.strategies.items()
        for f in s.foreign
    ]
    columns = ["strategy", "path", "token", "made by", "message", "verdict", "provider's text"]
    return pd.DataFrame(rows, columns=columns)


TEXT_LINES = 10
"""Up to this many violations of a shown body are lines of text; more are one table.

A long session's body for a provider that rejects it has a violation per message or so (241 at
10,000 messages, thousands at 100,000): a text element each made the page slow to draw and long
to scroll, while a table holds them all in one scrolling, searchable grid."""


def violations_frame(violations: Sequence[Violation]) -> pd.DataFrame:
    """One row per violation of a body: where, which rule, and the provider's own words."""
    import pandas as pd

    rows = [
        {
            "severity": v.severity,
            "rule": v.rule,
            "message": v.message_index,
            "path": v.path,
            "provider's text": v.error_text,
        }
        for v in violations
    ]
    return pd.DataFrame(rows, columns=["severity", "rule", "message", "path", "provider's text"])
