"""Streamlit pieces more than one page shows: a message with its blocks and violations, page links.

Everything from the session goes through escaping elements (``st.code``, ``st.text``, tables):
a tool result holding ``<script>`` or Markdown shows as text and runs nothing.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd
import streamlit as st

from toolhist.extras import message, missing
from toolhist.model import Session
from toolhist.providers import Violation
from toolhist.views.markup import md_literal
from toolhist.views.readable import parts, raw_json
from toolhist.views.roles import role

PAGES = {
    "home": "home.py",
    "conversation": "app_pages/0_Conversation.py",
    "timeline": "app_pages/1_Timeline.py",
    "violations": "app_pages/2_Violations.py",
    "curation": "app_pages/3_Curation.py",
    "payloads": "app_pages/4_Payloads.py",
    "explain": "app_pages/5_Explain.py",
    "compaction": "app_pages/6_Compaction.py",
    "fleet": "app_pages/7_Fleet.py",
    "switch": "app_pages/8_Switch.py",
    "verify": "app_pages/9_Verify.py",
}
"""Page files, for ``st.page_link`` / ``st.switch_page``."""

SHORT_ID_LIST = 8
"""More call ids than this are a table (one id a row, searchable), not a line."""
COUNT = "%,d"
"""`st.metric`'s ``format`` for a count: 404,580 messages, 195,080,772 tokens. Unformatted, a 1 GB
session's figures read as one run of digits (user run on a 1 GB Codex rollout). The page's own
value stays the number (tests and the proto read it as written); the browser writes the commas."""

TALL_LINES = 24
"""A block of more lines than this shows in a box of `TALL_HEIGHT` pixels that scrolls."""
TALL_HEIGHT = 420
FULL_WIDTH = ".stMainBlockContainer { padding-left: 1.5rem; padding-right: 1.5rem; max-width: none; }"
"""Streamlit's wide layout still keeps 5rem either side of the page; pages that compare columns take it."""


LINK_CSS = (
    "[data-testid='stPageLink-NavLink'] { border: 1px solid rgba(11, 87, 208, 0.45); border-radius: 0.5rem; "
    "padding: 0.15rem 0.45rem; width: fit-content; max-width: 100%; box-sizing: border-box; } "
    "[data-testid='stPageLink-NavLink']:hover { background-color: rgba(11, 87, 208, 0.08); } "
    "[data-testid='stPageLink-NavLink'] p { color: #0b57d0; text-decoration: underline; white-space: normal; "
    "overflow-wrap: break-word; }"
)
"""Streamlit draws ``st.page_link`` as plain text (a new user did not see the links between pages):
outlined, blue and underlined, a link between pages looks like one."""


def style_links() -> None:
    """Draw this page's ``st.page_link`` links as links (`LINK_CSS`): a style-only ``st.html``, no element."""
    st.html(f"<style>{LINK_CSS}</style>")


def use_full_width(css: str = "") -> None:
    """Give a page that compares columns (Payloads, Curation) the window's width, plus any ``css``.

    A style-only ``st.html`` adds no element to the page (Streamlit puts it in the event container).
    """
    st.html(f"<style>{FULL_WIDTH}{css}</style>")


def needs_extra(what: str, extra: str, modules: Sequence[str] | None = None) -> bool:
    """Where a part of a page needs ``extra`` and it is not installed here, say so and which: True then.

    The one notice every page gives for a missing extra (``… needs distributed, not installed here:
    pip install 'toolhist[fleet]'``), so the rest of the page goes on. Whether a module is there is
    asked without importing it (`toolhist.extras.missing`): nothing is added to a rerun.
    """
    gone = missing(extra, modules)
    if gone:
        st.info(message(what, extra, gone))
    return bool(gone)


def show_message(session: Session, index: int, found: Sequence[Violation], *, located: bool = True) -> None:
    """Message ``index`` as a person reads it (`toolhist.views.readable`), its violations, its JSON.

    ``located=False`` for a curated session, whose source locations no longer line up with its messages.
    """
    message = session.messages[index]
    locations = session.source.locations
    at = locations[index] if located and index < len(locations) else None
    where = "" if at is None else f"line {at.line} of the file" if at.line else at.json_path
    # the Conversation page's roles (user, assistant), in Payloads' words
    st.text(f"Message {index} · {role(message.speaker)}" + (f" · {where}" if where else ""))
    mine = [v for v in found if v.message_index == index]
    if mine:
        st.markdown(f"**{len(mine)} violation{'s' if len(mine) != 1 else ''}**")
        for v in mine:
            st.text(
                f"{v.provider} · {v.rule} · {v.severity} · {v.path}"
                + (f" · block {v.block_index}" if v.block_index is not None else "")
            )
            st.code(v.error_text, language=None, wrap_lines=True)
            st.caption("Fix")
            st.text(v.fix)
    else:
        st.caption("No violation on this message for the providers chosen.")
    for heading, text in parts(message):  # as a person reads it: no field names of the model
        st.markdown(f"**{md_literal(heading)}**")
        if text:  # a long text (an agent's instructions) scrolls in its box instead of filling the page
            tall = text.count("\n") > TALL_LINES or len(text) > TALL_LINES * 80
            st.code(text, language=None, wrap_lines=True, height=TALL_HEIGHT if tall else "content")
    with st.expander("Raw JSON (as toolhist reads this message)"):
        st.code(raw_json(message), language="json", wrap_lines=True)


def sentence(text: str) -> str:
    """``text`` with its first letter upper-cased and nothing else touched (ids stay as written)."""
    return text[:1].upper() + text[1:]


def show_ids(title: str, ids: Sequence[str], key: str) -> None:
    """Call ids as written: a line for a few, a table (one id a row, searchable) for more."""
    if len(ids) <= SHORT_ID_LIST:
        st.text(f"{title}: " + ", ".join(ids))
        return
    st.text(f"{title}: {len(ids):,}")
    st.dataframe(pd.DataFrame({"call id": list(ids)}), hide_index=True, key=key, height=220)
