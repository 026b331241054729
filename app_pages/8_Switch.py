"""Switch: the session moves to another provider at message N, and maybe back at M.

Layout and state only: `toolhist.switch.switch` runs the what-if, `toolhist.views.switch` makes the
tables. Session content is shown only through escaping elements (tables, ``st.code``, ``st.text``).
Deep link: ``?sample=…&to=…&back=…``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import orjson
import streamlit as st

from toolhist.curation.strategies import STRATEGIES
from toolhist.model import Session
from toolhist.providers import PROVIDERS
from toolhist.switch import hand_over, origin_of
from toolhist.switch.text import made_words
from toolhist.views import state
from toolhist.views.on_request import BUTTON, deferred, starts_library
from toolhist.views.switch import (
    TEXT_LINES,
    Kept,
    ShownBody,
    foreign_frame,
    made,
    verdicts_frame,
    violations_frame,
)

NO_RETURN = "(stay)"
# Above LONG messages only strategies ``none`` and ``toolhist`` run until the user asks for more.
# Each strategy curates, renders and judges the whole history on every leg: on a 1 GB Codex rollout
# (404,580 messages) the page ran every built-in strategy on both legs for over half an hour with
# nothing on screen but Streamlit's "Running" mark (user run). The Curation page asks the same way
# above 2,000 messages (``COMPARE_AT_ONCE``). (Comments, not docstrings: Streamlit's magic would
# write a bare string on the page; tests/app/test_page_magic.py.)
LONG = 2000
FIRST = ("none", "toolhist")


@st.cache_resource(max_entries=32, show_spinner=False)
def what_if(  # noqa: PLR0917 - the cache key is every setting
    key: str,
    at: int,
    to: str,
    to_model: str,
    back_to: str,
    back_at: int,
    back_model: str,
    strategies: tuple[str, ...],
    _session: Session,
) -> Kept:
    """`toolhist.switch.switch`, cached per session key and settings as the page shows it (no body)."""
    legs = _legs(to_model, back_to, back_at, back_model)
    return made(_session, at, to, strategies=strategies, long=len(_session.messages) > LONG, settings=legs)


def _legs(to_model: str, back_to: str, back_at: int, back_model: str) -> dict[str, Any]:
    """`switch`'s and `hand_over`'s keyword arguments for the page's settings (a box left empty: None)."""
    back = None if back_to == NO_RETURN else back_to
    return {
        "back_to": back,
        "back_at": back_at if back else None,
        "to_model": to_model or None,
        "back_model": back_model or None,
    }


def _whole(  # noqa: PLR0917 - what_if's settings, the leg and the strategy
    session: Session,
    leg: int,
    strategy: str,
    at: int,
    to: str,
    to_model: str,
    back_to: str,
    back_at: int,
    back_model: str,
) -> Callable[[], bytes]:
    """The download of one body: made again when clicked (`toolhist.switch.hand_over`), as what_if made it."""

    def made() -> bytes:
        legs = _legs(to_model, back_to, back_at, back_model)
        result = hand_over(session, at, to, strategy, leg=leg, **legs)
        return orjson.dumps(result.body, option=orjson.OPT_INDENT_2)

    return made


KEPT = "sw_strategies_kept"  # the strategies last chosen here, kept while the user is on other pages


def _built_in(waits: list[str]) -> list[str]:
    """The strategies that start no library (and those not installed, which say so)."""
    return [n for n in STRATEGIES if n not in waits]


def _every_built_in() -> None:
    """The long-history button's callback: every strategy that starts no library."""
    st.session_state["sw_strategies"] = _built_in(deferred(STRATEGIES, asked=False, picked="none"))


def _every_strategy() -> None:
    """The button's callback: every strategy, the library ones too (before the box is drawn again)."""
    st.session_state["sw_strategies"] = list(STRATEGIES)


def _show_body(shown: ShownBody, name: str, key: str, whole: Callable[[], bytes]) -> None:
    """The body as indented JSON; a long one by its head (`toolhist.views.switch.shown_body`) and a download.

    The download is made when clicked (a callable), so a rerun does not hand the whole body to
    Streamlit's media store, and the page keeps no body for it.
    """
    if shown.lines is None:
        st.code(shown.text, language="json", wrap_lines=True)
        return
    st.caption(f"The first {shown.lines:,} lines of {shown.total:,}: the whole body is the download.")
    st.code(shown.text, language="json", wrap_lines=True)
    st.download_button("Download the body (JSON)", whole, file_name=name, key=key, mime="application/json")


st.set_page_config(page_title="toolhist · Switch", layout="wide")
st.title("Switch what-if")
opened = state.open_session(())  # the verdicts here are the what-if's, not the session's
session = opened.session
count = len(session.messages)
st.caption(
    "The session switches provider at message N: the history up to N as each strategy hands it to the new "
    "provider, and its verdict. With a return, the messages from N on were the other provider's answers: "
    "their reasoning tokens and call ids are its own, and the provider returned to judges them. A signature "
    "another provider made is named here: the body alone cannot show who made it."
)
if count < 1:
    st.info("This session has no messages to switch.")
    st.stop()

origin, evidence = origin_of(session)
others = [p for p in PROVIDERS if p != origin] or list(PROVIDERS)
cols = st.columns(4)
at = int(
    cols[0].number_input(
        "Switch at message", min_value=1, max_value=count, value=max(1, count // 2), key="sw_at"
    )
)
to = state.pick("to", "Switch to", list(PROVIDERS), others[0], key="sw_to", sidebar=False)
to_model = cols[1].text_input(
    "Model there", value="", key="sw_model", placeholder="e.g. gemini-3-pro-preview"
)
back_options = [NO_RETURN, *PROVIDERS]
back_to = state.pick("back", "Back to", back_options, origin or NO_RETURN, key="sw_back", sidebar=False)
back_at = count
back_model = ""
if back_to != NO_RETURN and at < count:
    back_at = int(
        cols[2].number_input(
            "Back at message", min_value=at + 1, max_value=count, value=count, key="sw_back_at"
        )
    )
    back_model = cols[2].text_input(
        "Model back there", value="", key="sw_back_model", placeholder="e.g. claude-opus-5-5"
    )
elif back_to != NO_RETURN:
    st.caption("The switch is at the end of the session: there is nothing after it to return with.")
    back_to = NO_RETURN
# the library strategies wait for the user (one button, or picked here); one not installed costs nothing.
# The widget's own key is dropped when another page runs: the choice is kept under a key of the page's.
waits = deferred(STRATEGIES, asked=False, picked="none")  # the installed library strategies
built_in = _built_in(waits)
first = [n for n in FIRST if n in STRATEGIES] if count > LONG else built_in
st.session_state.setdefault("sw_strategies", st.session_state.get(KEPT) or first)
chosen = cols[3].multiselect("Strategies", list(STRATEGIES), key="sw_strategies")
st.session_state[KEPT] = list(chosen)
waiting_here = [n for n in built_in if n not in chosen]
if count > LONG and waiting_here:
    st.caption(
        f"Each strategy curates, renders and judges all {count:,} messages on every leg: on a history this "
        f"long {', '.join(chosen) or 'none of them'} run first; {', '.join(waiting_here)} when picked, or:"
    )
    st.button("Run every built-in strategy", key="sw_built_in_go", on_click=_every_built_in)
later = [name for name in STRATEGIES if starts_library(name) and name not in chosen]
if later:
    st.caption(
        f"Not run yet: {', '.join(later)} (each starts a real library, whose first start takes seconds "
        "to tens of seconds). Pick them in Strategies, or:"
    )
    st.button(BUTTON, key="sw_libraries_go", on_click=_every_strategy)
if not chosen:
    st.info("Pick at least one strategy.")
    st.stop()

legs = 1 if back_to == NO_RETURN else 2
with st.spinner(f"Switching {count:,} messages: {len(chosen)} strategies on {legs} leg(s)…"):
    cached = what_if(opened.key, at, to, to_model, back_to, back_at, back_model, tuple(chosen), session)
report = cached.report
st.text(f"Before the switch the messages were made on {report.origin} ({report.origin_evidence}).")

for n, leg in enumerate(report.legs):
    head = "Switch to" if leg.kind == "switch" else "Back to"
    st.subheader(f"{head} {leg.provider} at message {leg.at}")
    st.text(made_words(leg) + (f"; + {leg.appended}" if leg.appended else ""))
    avoiding = leg.avoiding()
    st.text(f"Accepted by: {', '.join(avoiding) if avoiding else 'no strategy'}")
    st.dataframe(verdicts_frame(leg), hide_index=True, key=f"sw_verdicts_{n}")
    foreign = foreign_frame(leg)
    if not foreign.empty:
        st.caption("Reasoning tokens another provider made, found in the body by their value")
        st.dataframe(foreign, hide_index=True, key=f"sw_foreign_{n}")
    for name, result in leg.strategies.items():
        if result.rebound is not None:
            r = result.rebound
            st.text(
                f"{name}: the prefix of {r.path} changed ({r.changed}); on accounts created on or after "
                f"2026-08-31 Claude Fable 5.1 and Opus 5.5 answer: {r.error_text}"
            )
    names = [name for name in leg.strategies if (n, name) in cached.bodies]
    if names:
        shown = st.selectbox("Body of", names, key=f"sw_body_{n}")
        result = leg.strategies[shown]
        if len(result.violations) <= TEXT_LINES:
            for v in result.violations:
                st.text(f"{v.severity}  {v.rule}  {v.path}: {v.error_text}")
        else:
            st.caption(f"{len(result.violations):,} violations of this body")
            st.dataframe(violations_frame(result.violations), hide_index=True, key=f"sw_violations_{n}")
        _show_body(
            cached.bodies[n, shown],
            f"switch-{leg.provider}-{shown}.json",
            f"sw_download_{n}",
            _whole(session, n, shown, at, to, to_model, back_to, back_at, back_model),
        )
