"""Streamlit pieces more than one page shows: a message with its blocks and violations, page links.

Everything from the session goes through escaping elements (``st.code``, ``st.text``, tables):
a tool result holding ``<script>`` or Markdown shows as text and runs nothing.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

import pandas as pd
import streamlit as st

from toolhist.extras import message, missing
from toolhist.model import Session
from toolhist.providers import Violation

PAGES = {
    "home": "home.py",
    "conversation": "pages/0_Conversation.py",
    "timeline": "pages/1_Timeline.py",
    "violations": "pages/2_Violations.py",
    "curation": "pages/3_Curation.py",
    "payloads": "pages/4_Payloads.py",
    "explain": "pages/5_Explain.py",
    "compaction": "pages/6_Compaction.py",
    "fleet": "pages/7_Fleet.py",
    "switch": "pages/8_Switch.py",
    "verify": "pages/9_Verify.py",
}
"""Page files, for ``st.page_link`` / ``st.switch_page``."""

SHORT_ID_LIST = 8
"""More call ids than this are a table (one id a row, searchable), not a line."""
FULL_WIDTH = ".stMainBlockContainer { padding-left: 1.5rem; padding-right: 1.5rem; max-width: none; }"
"""Streamlit's wide layout still keeps 5rem either side of the page; pages that compare columns take it."""


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


def block_title(index: int, block: object) -> str:
    """``block 1 · tool_call read_file (call_8f…)``: what a block is, in one line."""
    kind = getattr(block, "type", type(block).__name__)
    name = getattr(block, "name", None) or getattr(block, "tool_name", None) or ""
    ident = getattr(block, "id", None) or getattr(block, "call_id", None) or ""
    extra = " ".join(x for x in (name, f"({ident})" if ident else "") if x)
    return f"block {index} · {kind}" + (f" {extra}" if extra else "")


def show_message(session: Session, index: int, found: Sequence[Violation], *, located: bool = True) -> None:
    """Message ``index``: where it came from, each block as JSON, each violation with the provider's words.

    ``located=False`` for a curated session, whose source locations no longer line up with its messages.
    """
    message = session.messages[index]
    locations = session.source.locations
    where = locations[index].json_path if located and index < len(locations) else ""
    st.text(f"Message {index} · {message.speaker}" + (f" · {where}" if where else ""))
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
    for b, block in enumerate(message.blocks):
        st.text(block_title(b, block))
        st.code(
            json.dumps(block.model_dump(mode="json", exclude_defaults=True), indent=2, ensure_ascii=False),
            language="json",
            wrap_lines=True,
        )
    meta = message.metadata.model_dump(mode="json", exclude_defaults=True)
    if meta:
        st.text("metadata")
        st.code(json.dumps(meta, indent=2, ensure_ascii=False), language="json", wrap_lines=True)


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
