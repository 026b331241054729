"""The numbers a fleet owner asks for, from a scan's sessions table (`SESSION_COLUMNS`).

"What share of our users' sessions would this provider reject, and why?": `per_provider`
(rejected = at least one ``error`` violation), `top_rules` (sessions rejected for each rule),
`trend` (the same by the sessions' date), `worst` (the sessions with most errors). Shared by
``toolhist scan --dataset``, the Fleet page and `toolhist.views.fleet` in a notebook.
"""

from __future__ import annotations

import pandas as pd

SHOWN_RULES = 3
"""Error rules named per provider in `per_provider`."""


def _exploded(sessions: pd.DataFrame) -> pd.DataFrame:
    """One row per (session row, error rule) for the rows with errors."""
    rejected = sessions[sessions["errors"] > 0]
    rules = rejected.assign(rule=rejected["error_rules"].astype(str).str.split(";")).explode("rule")
    return rules[rules["rule"] != ""]


def per_provider(sessions: pd.DataFrame) -> pd.DataFrame:
    """``provider, sessions, rejected, share, top_rules`` (``;``-joined, most frequent first)."""
    rows = []
    exploded = _exploded(sessions)
    for provider, group in sessions.groupby("provider", sort=True):
        rejected = int((group["errors"] > 0).sum())
        counts = exploded[exploded["provider"] == provider]["rule"].value_counts()
        ranked = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:SHOWN_RULES]
        rows.append(
            {
                "provider": str(provider),
                "sessions": len(group),
                "rejected": rejected,
                "share": rejected / len(group) if len(group) else 0.0,
                "top_rules": ";".join(str(rule) for rule, _ in ranked),
            }
        )
    return pd.DataFrame(rows, columns=["provider", "sessions", "rejected", "share", "top_rules"])


def top_rules(sessions: pd.DataFrame, n: int = 10, provider: str | None = None) -> pd.DataFrame:
    """``rule, sessions``: how many session rows each error rule rejects, most first (ties by name)."""
    exploded = _exploded(sessions if provider is None else sessions[sessions["provider"] == provider])
    counts = exploded.groupby("rule").size().reset_index(name="sessions")
    counts = counts.sort_values(["sessions", "rule"], ascending=[False, True], kind="stable")
    return counts.head(n).reset_index(drop=True)


def trend(sessions: pd.DataFrame, provider: str, rules: list[str]) -> pd.DataFrame:
    """``date, rule, sessions, share``: per day, sessions ``provider`` rejects for each of ``rules``.

    ``share`` is over that day's sessions, so a growing fleet does not look like a growing problem.
    Sessions without a date are left out.
    """
    mine = sessions[(sessions["provider"] == provider) & sessions["date"].notna()]
    per_day = mine.groupby("date").size()
    exploded = _exploded(mine)
    exploded = exploded[exploded["rule"].isin(rules)]
    counts = exploded.groupby(["date", "rule"]).size().reset_index(name="sessions")
    counts["share"] = [c / per_day[d] for d, c in zip(counts["date"], counts["sessions"], strict=True)]
    return counts.sort_values(["date", "rule"], kind="stable").reset_index(drop=True)


def worst(sessions: pd.DataFrame, n: int = 20) -> pd.DataFrame:
    """``file, format, messages, errors, providers_rejecting, error_rules``: most errors first."""
    if sessions.empty:
        return pd.DataFrame(
            columns=["file", "format", "messages", "errors", "providers_rejecting", "error_rules"]
        )
    grouped = sessions.groupby("file", sort=True).agg(
        format=("format", "first"),
        messages=("messages", "first"),
        errors=("errors", "sum"),
        providers_rejecting=("errors", lambda e: int((e > 0).sum())),
        error_rules=(
            "error_rules",
            lambda r: ";".join(sorted({x for v in r for x in str(v).split(";") if x})),
        ),
    )
    grouped = grouped.reset_index().sort_values(
        ["errors", "providers_rejecting", "file"], ascending=[False, False, True], kind="stable"
    )
    return grouped.head(n).reset_index(drop=True)
