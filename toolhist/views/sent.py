"""As sent first: what every page says about which history it shows, and which provider it opens on.

Every page opens on the session as sent (the bytes the agent sent or logged, judged as `toolhist.check`
judges them) and says so in one line (`as_sent`). A repaired history is an explicit switch in the
sidebar (`repaired_view`), off until the user turns it on or a link names a strategy, and a page that
shows it says so above everything else. A provider's verdict is the one Home shows: `verdict_line`
words a list of violations the way Home's table does.

`default_provider` is the provider a page opens on when the user named none: the provider the log
says it ran on (`toolhist.ran_on`), else the first that rejects the session (an error, not a
warning), else the session's own format.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from toolhist.curation import STRATEGIES
from toolhist.model import Session
from toolhist.providers import PROVIDERS, Violation
from toolhist.ran_on import RanOn, ran_on

AS_SENT = "**As sent**: the session exactly as the file has it; no repair applied."
REPAIRED_LABEL = "Repaired view"


def as_sent(extra: str = "") -> None:
    """The one line that says a page shows the session as sent."""
    st.caption(AS_SENT + (f" {extra}" if extra else ""))


def verdict_line(found: Sequence[Violation]) -> str:
    """``rejects (HTTP 400): 3 errors`` / ``accepts, with 2 warnings`` / ``accepts``: Home's words."""
    errors = sum(v.severity == "error" for v in found)
    if errors:
        return f"rejects (HTTP 400): {errors:,} error{'s' if errors != 1 else ''}"
    return f"accepts, with {len(found):,} warning{'s' if len(found) != 1 else ''}" if found else "accepts"


def repaired_view(key: str) -> str:
    """The sidebar switch between the session as sent (``none``) and a repair; returns the strategy.

    Off unless the user turns it on or the URL says ``?repair=STRATEGY`` (a link to a repaired view
    reopens it). Its own parameter, not ``strategy``: the Curation page writes that one, and a page
    reached after it must still open as sent. The URL follows the switch.
    """
    repairs = [s for s in STRATEGIES if s != "none"]
    linked = st.query_params.get("repair")
    toggle, seen, chosen = f"{key}_repaired", f"{key}_repaired__link", f"{key}_strategy"
    if toggle not in st.session_state or (linked is not None and st.session_state.get(seen) != linked):
        st.session_state[toggle] = linked in repairs
        if linked in repairs:
            st.session_state[chosen] = linked
        st.session_state[seen] = linked
    on = st.sidebar.toggle(
        REPAIRED_LABEL,
        key=toggle,
        help="Off: the session as sent. On: the history a curation strategy repairs for each provider.",
    )
    if not on:
        if "repair" in st.query_params:
            del st.query_params["repair"]
        st.session_state[seen] = None
        return "none"
    if st.session_state.get(chosen) not in repairs:
        st.session_state[chosen] = "toolhist" if "toolhist" in repairs else repairs[0]
    strategy = str(st.sidebar.selectbox("Repair strategy", repairs, key=chosen))
    st.query_params["repair"] = strategy
    st.session_state[seen] = strategy
    return strategy


def showing(strategy: str) -> None:
    """The banner above a page that can show either: as sent, or which repair (and how to leave it)."""
    if strategy == "none":
        as_sent(f"Turn on **{REPAIRED_LABEL}** in the sidebar to see a repair.")
    else:
        st.warning(
            f"**{REPAIRED_LABEL}**: the history as strategy `{strategy}` repairs it for each provider, "
            f"not as sent. Turn off **{REPAIRED_LABEL}** in the sidebar for the session as sent.",
            icon=":material/build:",
        )


@st.cache_resource(max_entries=8, show_spinner=False)
def ran_on_of(key: str, _session: Session) -> RanOn | None:
    """`toolhist.ran_on.ran_on`, cached per content key (it walks every message)."""
    return ran_on(_session)


def default_provider(key: str, session: Session, found: Callable[[str], Sequence[Violation]]) -> str:
    """The provider it ran on, else the first that rejects it (``found``: a provider's verdict)."""
    ran = ran_on_of(key, session)
    if ran is not None and ran.provider in PROVIDERS:
        return ran.provider
    for provider in PROVIDERS:
        if any(v.severity == "error" for v in found(provider)):
            return provider
    own = session.source.format
    return own if own in PROVIDERS else PROVIDERS[0]
