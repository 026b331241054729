"""Tables of the switch what-if (`toolhist.switch`) for the Switch page and Jupyter.

pandas is imported inside each function: the core library never imports it at module import.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from toolhist.switch import Leg
from toolhist.switch.text import verdict_words

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas as pd


def verdicts_frame(leg: Leg) -> pd.DataFrame:
    """One row per strategy: its verdict, the rules, changes, foreign tokens in the body."""
    import pandas as pd

    rows = [
        {
            "strategy": name,
            "verdict": "no answer" if s.error else ("accepted" if s.accepted else "400"),
            "rules": verdict_words(s) if s.error is None and not s.accepted else "",
            "changes": s.changes,
            "foreign tokens": len(s.foreign),
        }
        for name, s in leg.strategies.items()
    ]
    return pd.DataFrame(rows, columns=["strategy", "verdict", "rules", "changes", "foreign tokens"])


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
