"""Confirm a verdict by sending it: the request toolhist judged, to the provider, at the least cost.

A verdict is a prediction; the provider's answer is the fact. ``toolhist verify FILE --provider P``
(and the app's Verify page) sends the request ``check`` judged, with the user's own key from the
provider's usual environment variable, and records the prediction beside the answer in a local
ledger. It is opt-in every time: nothing is sent without ``--yes`` or a yes to the question (the
app: a switch that is off until turned on), and nothing else in toolhist reaches the network.

- `plan` (`toolhist.verify.plan`): what would be sent (URL, bytes, estimated tokens, the key's
  variable, what was changed for the least cost) and toolhist's prediction for it;
- `send` (`toolhist.verify.send`): one request, the answer (status, the provider's error text);
- `confirm`: send a plan and append the ledger row (`toolhist.verify.ledger`), which says whether the
  answer confirms the prediction (`toolhist.verify.ledger.Outcome`);
- `toolhist.verify.ledger.export`: the ledger as structure only, for a bug report.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from toolhist.verify.ledger import MEANING, Outcome, append, export, ledger_path, outcome, read
from toolhist.verify.plan import Plan, plan
from toolhist.verify.send import TIMEOUT, Answer, VerifyFailed, send


def confirm(
    chosen: Plan,
    *,
    environ: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT,
    ledger: Path | None = None,
    now: dt.datetime | None = None,
) -> tuple[dict[str, Any], Path]:
    """Send ``chosen`` and record the answer: (the ledger row, the ledger file).

    `VerifyFailed` (nothing recorded) when no answer came back.
    """
    from toolhist.verify.ledger import row

    answer = send(chosen, environ=environ, timeout=timeout)
    entry = row(chosen, answer, now=now)
    return entry, append(entry, ledger or ledger_path(environ))


__all__ = [
    "MEANING",
    "TIMEOUT",
    "Answer",
    "Outcome",
    "Plan",
    "VerifyFailed",
    "append",
    "confirm",
    "export",
    "ledger_path",
    "outcome",
    "plan",
    "read",
    "send",
]
