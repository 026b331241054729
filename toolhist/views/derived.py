"""What pages derive from the open session, cached: curations, payloads, violations, frames, charts.

Each is cached with ``st.cache_resource`` per content key (`toolhist.views.state.Opened.key`),
provider and strategy, never by model objects or widget state, and shared between pages: a payload
of a curated history is rendered from the cached `curated`, not by curating again. Every entry is
recorded under its session (`toolhist.views.kept.record`), so it goes when that session is no
longer one of the last read. A payload is built with the collector paused and frozen once made
(`toolhist.views.kept.built`): it lives as long as its session's entries.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from toolhist.curation import Curation, curate
from toolhist.model import Session
from toolhist.providers import Payload, Violation, provider_for, render, render_curation
from toolhist.providers.base import violations as violations_of
from toolhist.views.diffs import compare_strategies
from toolhist.views.kept import built, record
from toolhist.views.svg import timeline_svg
from toolhist.views.timeline import events_frame, timeline_figure

if TYPE_CHECKING:
    from toolhist.views.state import Opened


@st.cache_resource(max_entries=16, show_spinner=False)
def curated(key: str, provider: str, strategy: str, _session: Session) -> Curation:
    """`toolhist.curate`, cached per session key, provider and strategy."""
    record(key, curated, key, provider, strategy, None)
    return curate(_session, provider, strategy=strategy)


@st.cache_resource(max_entries=32, show_spinner=False)
def payload(key: str, provider: str, strategy: str, _session: Session) -> Payload:
    """`toolhist.providers.render`, cached per session key, provider and strategy.

    A curated payload is rendered from the cached `curated` (what ``render(…, strategy=…)`` does,
    without curating again), so the Curation and Payloads pages share one curation.
    """
    record(key, payload, key, provider, strategy, None)
    if strategy == "none":
        return built(render)(_session, provider)
    return built(render_curation)(curated(key, provider, strategy, _session))


@st.cache_resource(max_entries=32, show_spinner=False)
def violations(key: str, provider: str, strategy: str, _session: Session) -> list[Violation]:
    """`toolhist.providers.validate`, cached per session key, provider and strategy (from `payload`).

    A verdict the Curation page's second process made (`toolhist.views.apart.repaired`) is taken as it is.
    """
    record(key, violations, key, provider, strategy, None)
    from toolhist.views import apart  # (imports this module's neighbours: here, not at the top)

    made = apart.take(("violations", key, provider, strategy))  # a second process checked it
    if made is not None:
        return made  # type: ignore[no-any-return]
    sent = payload(key, provider, strategy, _session)
    return violations_of(provider_for(provider), sent.body, sent.source_map)


@st.cache_resource(max_entries=16, show_spinner=False)
def events(key: str, providers: tuple[str, ...], _opened: Opened) -> pd.DataFrame:
    """The timeline's event frame with the chosen providers' violations (as checked), cached."""
    record(key, events, key, providers, None)
    found = [v for p in providers for v in _opened.found(p)]
    return events_frame(_opened.session, found)


@st.cache_resource(max_entries=8, show_spinner=False)
def figure(
    key: str,
    providers: tuple[str, ...],
    axis: str,
    selected: int | None,
    window: tuple[int, int] | None,
    _plotted: pd.DataFrame,
) -> go.Figure:
    """`toolhist.views.timeline.timeline_figure` of a window of `events`, cached per its inputs.

    Building it is most of the Timeline page's run (plotly validates every point), and a rerun that
    moves nothing (a table filter, a page revisit) draws the same chart. ``_plotted`` is
    ``events(key, providers)`` cut to ``window``, so the hashed arguments name it; the figure is
    only read (Streamlit copies it to a dict).
    """
    record(key, figure, key, providers, axis, selected, window, None)
    return timeline_figure(_plotted, axis=axis, selected=selected, window=window)


PICTURE_WIDTH = 720  # the Timeline's chart column is ~520 px at 1,400 px: text stays ~8 px or more


@st.cache_resource(max_entries=8, show_spinner=False)
def picture(
    key: str,
    providers: tuple[str, ...],
    axis: str,
    selected: int | None,
    window: tuple[int, int],
    _plotted: pd.DataFrame,
) -> str:
    """`toolhist.views.svg.timeline_svg` of a window of `events` (the Timeline's default chart), cached.

    Keyed as `figure` (``_plotted`` is ``events(key, providers)`` cut to ``window``), so moving the
    table or a filter draws the same string again without building it.
    """
    record(key, picture, key, providers, axis, selected, window, None)
    lo, hi = window
    return timeline_svg(
        _plotted,
        messages=hi - lo,
        max_events=None,
        window=window,
        selected=selected,
        axis=axis,
        width=PICTURE_WIDTH,
        tooltips=False,  # ~100 elements, not ~8,000: the browser draws a 2,500-message window at once
        title=f"messages {lo} to {hi - 1}: tool calls and results, violations ringed",
    )


@st.cache_resource(max_entries=64, show_spinner=False)
def compared(key: str, provider: str, strategy: str, _session: Session) -> pd.DataFrame:
    """One strategy's row of `toolhist.views.diffs.compare_strategies`, cached per key and provider.

    One strategy at a time, so a page can show progress and a later visit reuses every row.
    """
    record(key, compared, key, provider, strategy, None)
    return compare_strategies(_session, provider, [strategy])
