"""A fleet scan's figures and tables, for the Fleet page and a notebook (pandas and plotly only).

Input is a scan's sessions table (`toolhist.fleet.task.SESSION_COLUMNS`): from a dataset written
by ``toolhist scan --dataset`` (`open_scan`) or from `toolhist.scan.scan` in memory (`from_result`).
The numbers come from `toolhist.fleet.summary`; this module only draws them. In Jupyter::

    from toolhist.views.fleet import open_scan
    open_scan("scan-out")          # displays: rejected share, top rules, trend, worst sessions
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd
import plotly.graph_objects as go

from toolhist.fleet.dataset import read_table
from toolhist.fleet.summary import per_provider, top_rules, trend, worst

TOP = 10
"""Rules in the top-rules chart."""
TREND_RULES = 5
"""Rules drawn in the trend chart (the provider's most frequent)."""


@dataclass(frozen=True)
class Fleet:
    """A scan result opened for viewing: its sessions table, violations and unreadable files."""

    sessions: pd.DataFrame
    violations: pd.DataFrame = field(default_factory=pd.DataFrame)
    unreadable: pd.DataFrame = field(default_factory=lambda: pd.DataFrame(columns=["file", "reason"]))
    source: str = ""

    @property
    def providers(self) -> list[str]:
        """Providers in the scan, sorted."""
        return sorted(str(p) for p in self.sessions["provider"].unique())

    def per_provider(self) -> pd.DataFrame:
        """`toolhist.fleet.summary.per_provider`."""
        return per_provider(self.sessions)

    def top_rules(self, provider: str | None = None, n: int = TOP) -> pd.DataFrame:
        """`toolhist.fleet.summary.top_rules`."""
        return top_rules(self.sessions, n, provider)

    def trend(self, provider: str, n: int = TREND_RULES) -> pd.DataFrame:
        """`toolhist.fleet.summary.trend` for ``provider``'s ``n`` most frequent error rules."""
        return trend(self.sessions, provider, list(self.top_rules(provider, n)["rule"]))

    def worst(self, n: int = 20) -> pd.DataFrame:
        """`toolhist.fleet.summary.worst`."""
        return worst(self.sessions, n)

    def first_violation(self, file: str, provider: str) -> int | None:
        """The message index of ``file``'s first error for ``provider`` (where a deep link lands)."""
        if self.violations.empty:
            return None
        mine = self.violations[
            (self.violations["file"] == file)
            & (self.violations["provider"] == provider)
            & (self.violations["severity"] == "error")
        ]
        indexes = [int(i) for i in mine["message_index"] if pd.notna(i)]
        return min(indexes) if indexes else None

    def _ipython_display_(self) -> None:
        """In Jupyter: the per-provider table, the three figures (first provider) and the worst sessions."""
        from IPython import display as ipython

        display: Callable[[object], None] = ipython.display

        table = self.per_provider()
        display(table)
        display(rejected_figure(table))
        if self.providers:
            provider = self.providers[0]
            display(rules_figure(self.top_rules(provider), provider))
            display(trend_figure(self.trend(provider), provider))
        display(self.worst())


def open_scan(path: str | os.PathLike[str]) -> Fleet:
    """The dataset ``toolhist scan --dataset PATH`` wrote."""
    return Fleet(
        sessions=read_table(path, "sessions"),
        violations=read_table(path, "violations"),
        unreadable=read_table(path, "unreadable"),
        source=str(Path(path)),
    )


def from_result(result: Any, source: str = "") -> Fleet:
    """A `toolhist.scan.ScanResult` held in memory (``scan(folder)``)."""
    unreadable = pd.DataFrame(
        [{"file": u.file, "reason": u.reason} for u in result.unreadable], columns=["file", "reason"]
    )
    return Fleet(sessions=result.sessions, violations=result.violations, unreadable=unreadable, source=source)


def rejected_figure(table: pd.DataFrame) -> go.Figure:
    """Horizontal bars: per provider, the share of sessions it would reject (count in the hover)."""
    fig = go.Figure(
        go.Bar(
            x=list(table["share"]),
            y=list(table["provider"]),
            orientation="h",
            customdata=list(zip(table["rejected"], table["sessions"], strict=True)),
            hovertemplate="%{y}: %{x:.1%} (%{customdata[0]} of %{customdata[1]} sessions)<extra></extra>",
        )
    )
    fig.update_layout(
        title="Share of sessions each provider would reject",
        xaxis={"tickformat": ".0%", "range": [0, 1]},
        yaxis={"autorange": "reversed"},
        height=120 + 28 * len(table),
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
    return fig


def rules_figure(table: pd.DataFrame, provider: str) -> go.Figure:
    """Horizontal bars: sessions ``provider`` rejects for each of its top error rules."""
    fig = go.Figure(go.Bar(x=list(table["sessions"]), y=list(table["rule"]), orientation="h", name=provider))
    fig.update_layout(
        title=f"Top error rules for {provider} (sessions rejected)",
        yaxis={"autorange": "reversed"},
        height=120 + 28 * len(table),
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
    return fig


def trend_figure(table: pd.DataFrame, provider: str) -> go.Figure:
    """One line per rule: the share of the day's sessions ``provider`` rejects for it, by session date."""
    fig = go.Figure()
    for rule, rows in table.groupby("rule", sort=True):
        fig.add_trace(
            go.Scatter(
                x=list(rows["date"]),
                y=list(rows["share"]),
                mode="lines+markers",
                name=str(rule),
                customdata=list(rows["sessions"]),
                hovertemplate="%{x}: %{y:.1%} (%{customdata} sessions)<extra>%{fullData.name}</extra>",
            )
        )
    fig.update_layout(
        title=f"{provider}: share of each day's sessions rejected, by rule",
        yaxis={"tickformat": ".0%"},
        xaxis={"type": "category"},
        margin={"l": 10, "r": 10, "t": 40, "b": 10},
    )
    return fig
