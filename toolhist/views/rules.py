"""Every provider rule with its applicability and evidence, for ``toolhist rules`` and the app.

A rule applies to the models and dates it was observed for (DESIGN §2, Evidence): ``models`` are the
regexes of the models it holds for (empty: every model of the provider), ``since``/``observed`` the first
and latest evidence, ``condition`` what else the request must do, and ``evidence`` the rule's ``source``
split into documentation, issue threads, recorded traffic and notes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from toolhist.providers import all_rules
from toolhist.providers.base import Rule

if TYPE_CHECKING:  # pandas is the app's (`rules_frame`); ``toolhist rules`` uses the rest on the core
    import pandas as pd

COLUMNS = ("provider", "rule", "severity", "models", "since", "observed", "condition", "evidence", "summary")


def models(rule: Rule) -> str:
    """The models a rule holds for (``every model`` when it is not restricted to some)."""
    if not rule.models:
        return "every model"
    named = " | ".join(rule.models)
    return f"{named} (or no model named)" if rule.unknown_model else named


def condition(rule: Rule) -> str:
    """What else the request must do for the rule to apply, in words.

    ``condition``, or the first line of the ``applies`` predicate's docstring for rules that predate it.
    """
    if rule.condition:
        return rule.condition
    doc = rule.applies.__doc__ if rule.applies is not None else None
    if doc:
        return doc.strip().splitlines()[0].rstrip(".")
    return "a condition on the request (see the source)" if rule.applies is not None else ""


def dates(rule: Rule) -> str:
    """``since..observed`` (``-`` where the evidence gives no date)."""
    if not (rule.since or rule.observed):
        return "-"
    return f"{rule.since or '?'}..{rule.observed or '?'}"


def rule_record(rule: Rule) -> dict[str, Any]:
    """A rule as the JSON object ``toolhist rules --json`` prints."""
    return {
        "provider": rule.provider,
        "rule": rule.id,
        "severity": rule.severity,
        "summary": rule.summary,
        "error_text": rule.template,
        "source": rule.source,
        "fix": rule.fix,
        "model_dependent": rule.model_dependent,
        "models": list(rule.models),
        "unknown_model": rule.unknown_model,
        "condition": condition(rule),
        "since": rule.since or None,
        "observed": rule.observed or None,
        "evidence": [{"kind": e.kind, "ref": e.ref} for e in rule.evidence],
    }


def rules_frame(provider: str | None = None) -> pd.DataFrame:
    """One row per rule: severity, models, dates, condition, evidence (kind: reference, one per line)."""
    import pandas as pd

    records = [
        {
            "provider": r.provider,
            "rule": r.id,
            "severity": r.severity,
            "models": models(r),
            "since": r.since or "",
            "observed": r.observed or "",
            "condition": condition(r),
            "evidence": "\n".join(f"{e.kind}: {e.ref}" for e in r.evidence),
            "summary": r.summary,
        }
        for r in all_rules(provider)
    ]
    return pd.DataFrame.from_records(records, columns=list(COLUMNS))
