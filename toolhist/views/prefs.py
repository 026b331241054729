"""The choices a deep link names (``provider=…``, ``strategy=…``, ``msg=…``), kept across pages.

A full page load is a new Streamlit session, so a link must carry every choice; pages write the
current choice back to the URL, so the address bar is always a link to what is on screen, and
remember it (under one ``st.session_state`` key, known only here) for the next page opened.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

_PREFS = "toolhist.prefs"


def pick(
    param: str,
    label: str,
    options: Sequence[str],
    default: str,
    *,
    key: str,
    sidebar: bool = True,
) -> str:
    """A select box whose choice comes from ``?param=`` (a deep link), else the last choice on any page.

    The choice is written back to the URL and remembered for the other pages.
    """
    prefs: dict[str, str] = st.session_state.setdefault(_PREFS, {})
    wanted = st.query_params.get(param)
    if wanted in options:
        initial = wanted
    elif prefs.get(param) in options:
        initial = prefs[param]
    else:
        initial = default if default in options else options[0]
    link = f"{key}__link"  # the URL value last applied: only a new link overrides the widget
    if key in st.session_state and st.session_state[key] not in options:
        del st.session_state[key]
    if key not in st.session_state or (wanted in options and wanted != st.session_state.get(link)):
        st.session_state[key] = initial
    where = st.sidebar if sidebar else st
    chosen = str(where.selectbox(label, options, key=key))
    prefs[param] = chosen
    st.query_params[param] = chosen
    st.session_state[link] = chosen
    return chosen


def switch(param: str, on: str, label: str, *, key: str, help: str | None = None) -> bool:
    """A toggle that is on when ``?param=on`` (a link), else as it was last left on any page.

    On, it writes ``?param=on`` to the URL; off, it removes the parameter (so the default keeps
    links short). Only a new link overrides the widget; the state is remembered for the other pages
    (Streamlit drops a widget's own state when its page is left).
    """
    prefs: dict[str, str] = st.session_state.setdefault(_PREFS, {})
    wanted = st.query_params.get(param)
    link = f"{key}__link"
    if key not in st.session_state:
        st.session_state[key] = (wanted if wanted is not None else prefs.get(param)) == on
    elif wanted is not None and wanted != st.session_state.get(link):
        st.session_state[key] = wanted == on
    state = bool(st.toggle(label, key=key, help=help))
    remember(param, on if state else None)
    st.session_state[link] = on if state else None
    return state


def remember(param: str, value: str | None) -> None:
    """Write a choice to the URL (``None`` removes it) and remember it for the other pages."""
    prefs: dict[str, str] = st.session_state.setdefault(_PREFS, {})
    if value is None:
        prefs.pop(param, None)
        if param in st.query_params:
            del st.query_params[param]
    else:
        prefs[param] = value
        st.query_params[param] = value


def message_param(count: int) -> int | None:
    """``?msg=`` as a valid message index, else the last one picked on any page, else None."""
    prefs: dict[str, str] = st.session_state.setdefault(_PREFS, {})
    for raw in (st.query_params.get("msg"), prefs.get("msg")):
        if raw is not None and raw.isdigit() and int(raw) < count:
            return int(raw)
    return None
