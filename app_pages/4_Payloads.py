"""Payloads: the exact request bodies two to four providers would receive, message by message, side by side.

As sent by default (the repaired history is the sidebar's switch, and the page says which it shows).
Each provider's verdict is Home's. What a format cannot carry is grouped by kind, with counts and an
example. The bodies are cut at their message list (`toolhist.views.body`): a window of source
messages, each an expander holding every provider's entries for it side by side (what Anthropic gets
for message N beside what Gemini gets), lines numbered, the lines a violation points at marked; a
jump list reaches the message of each violation, and a long session pages through windows. Under
each message, what differs between two providers' entries (picked in the sidebar) is a line diff
(`toolhist.views.body_diff`), shown escaped by ``st.code``. A repaired view's rows are numbered by
the repaired history and each names the message as sent it came from. The
fields outside the message list (model, tools, system…) have their own part. Each whole body
downloads as JSON. The code is shown with ``st.html``: every piece of the body in it is escaped by
`toolhist.views.markup.esc` (and Streamlit sanitises the HTML again), so a ``<script>`` in a tool
result is text; expander labels hold no session content. Deep link:
``?sample=…&provider=…&repair=…&msg=…`` (``repair`` names the strategy of a repaired view).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

import streamlit as st

from toolhist._gc import paused
from toolhist.errors import ToolhistError
from toolhist.model import Session
from toolhist.providers import PROVIDERS, Payload, Violation, provider_for, render
from toolhist.redact import shareable_json
from toolhist.views import apart, curation_rows, forked, state
from toolhist.views.body import (
    field_marks,
    flagged,
    jumps,
    omitted_by_message,
    omitted_groups,
    value_lines,
)
from toolhist.views.body_diff import line_diff, message_lines, source_label, source_numbers
from toolhist.views.kept import built, record, recorded
from toolhist.views.markup import CSS, json_code, md_literal
from toolhist.views.packed import Packed, from_parts, pack
from toolhist.views.payloads import id_map_frame
from toolhist.views.roles import role
from toolhist.views.sdk import SdkRequestView, sdk_missing, sdk_request
from toolhist.views.sent import default_provider, ran_on_of, repaired_view, showing, verdict_line
from toolhist.views.trim import trimmed
from toolhist.views.widgets import use_full_width

LAZY_DOWNLOAD_MESSAGES = 2000  # above this many messages the download is built when clicked
WINDOWS = (10, 25, 50)  # source messages shown at once
WHOLE_TREE_MESSAGES = 60  # a body this short also shows as a JSON tree
CONTEXT = 2  # messages shown before the one jumped to
PATIENCE = 60.0  # seconds the page waits for a second process beyond 3x its own bodies' time (`forked`)
DIFF_AT_ONCE = 3000  # above this many lines for one message, the two bodies are diffed when asked
NARROW_EXPANDERS = "[data-testid='stExpanderDetails'] { padding-left: 0.4rem; padding-right: 0.4rem; }"


def rendered(key: str, provider: str, strategy: str, session: Session) -> Payload:
    """The payload, not kept by this call.

    As sent, rendered for the caller; repaired, `state.payload`'s (which `state.violations` keeps
    for the repaired verdict anyway).
    """
    if strategy == "none":
        return paused(render)(session, provider)
    return state.payload(key, provider, strategy, session)


@st.cache_resource(max_entries=64, show_spinner=False)
def sdk_view(key: str, provider: str, strategy: str, _session: Session) -> SdkRequestView:
    """The payload through the provider's official SDK (`toolhist.views.sdk`), cached per session key.

    Rendered again for it (the page keeps bodies packed, `toolhist.views.packed`), once: the view is kept.
    """
    record(key, sdk_view, key, provider, strategy, None)  # dropped with the session (`toolhist.views.kept`)
    made = rendered(key, provider, strategy, _session)
    return sdk_request(made.body, provider, made.source_map)


@st.cache_resource(max_entries=16, show_spinner=False)
def packed(key: str, provider: str, strategy: str, _session: Session, _hot: range | None = None) -> Packed:
    """The payload as this page keeps it (`toolhist.views.packed`), per session key, provider and strategy.

    Not the dict tree: three 100,000-message bodies kept as trees were about 290 MB of the server's
    memory for as long as the session was open, to show a window of 50 messages. ``_hot``: the
    source messages the first screen can show; only their entries are packed now, the rest when
    first read (rendered again: `again`). Not part of the cache key: another window reads the same.
    A body a second process packed (`toolhist.views.apart`) is taken as it is.
    """
    record(key, packed, key, provider, strategy, None, None)
    record(key, apart.BODIES, key, provider, strategy)  # the same object every run: `todo` below
    again = partial(rendered_again, key, provider, strategy, _session)
    sent = apart.take((packed, key, provider, strategy))  # packed by a second process (`apart.bodies`)
    if sent is not None:
        return built(from_parts)(sent, again)
    # the tree goes before the freeze (`built`) and its heap after (`toolhist.views.trim`)
    made = built(lambda: pack(rendered(key, provider, strategy, _session), hot=_hot, again=again))()
    trimmed()
    return made


def rendered_again(key: str, provider: str, strategy: str, session: Session) -> Payload:
    """`rendered`, for a packed body's chunks not packed yet; its heap goes back once they are."""
    trimmed()  # what the last render left
    return rendered(key, provider, strategy, session)


def first_screen(count: int, found: dict[str, list[Violation]]) -> range:
    """The messages the first window can show: from where this run opens it, as wide as a window gets.

    As the window's start is chosen below (``pl_from``: kept, or from the link or the first error).
    """
    linked_msg = state.message_param(count)
    held = st.session_state.get("pl_from")
    if isinstance(held, int) and st.session_state.get("pl_from_link") == linked_msg:
        start = held
    else:
        targets = jumps(found)
        focus = linked_msg if linked_msg is not None else targets[0][1] if targets else 0
        start = max(0, min(focus - CONTEXT, max(count - 1, 0)))
    return range(start, start + max(WINDOWS))


@st.cache_resource(max_entries=16, show_spinner=False)
def sources(key: str, provider: str, strategy: str, _session: Session) -> dict[int, int | None]:
    """A repaired history's message → the message as sent (`source_numbers`), cached per strategy."""
    record(key, sources, key, provider, strategy, None)
    curation = state.curated(key, provider, strategy, _session)
    return source_numbers(curation_rows.diffed(key, provider, strategy, curation)[1].rows)


@st.cache_resource(max_entries=256, show_spinner="Marking what differs…")
def differs(
    key: str, strategy: str, a: str, b: str, message: int, _ours: list[str], _theirs: list[str]
) -> str | None:
    """`line_diff` of two providers' lines for one message, cached (a rerun does not diff again)."""
    record(key, differs, key, strategy, a, b, message, None, None)
    return line_diff(_ours, _theirs, a, b)


@st.cache_resource(max_entries=512, show_spinner=False)
def code(
    key: str,
    provider: str,
    strategy: str,
    where: tuple[Any, ...],
    _value: Callable[[], Any],
    _marks: dict[str, list[str]],
) -> str:
    """One piece of a body (a field, ``where=(name,)``; an entry, ``(list key, n)``) as marked code.

    Cached per session key, provider and strategy (its marks are that verdict's): a rerun that
    moves nothing (a toggle, another expander opened) does not number, mark and highlight the
    window again, which was most of this page's rerun (about 1 s of 3, profiled, at 10,000 messages).
    """
    record(key, code, key, provider, strategy, where, None, None)
    lines = value_lines(_value(), where, provider_for(provider).path_format, _marks)
    return json_code(lines, anchor="-".join(map(str, ("pl", provider, *where))))


def whole_json(kept: Packed) -> str:
    """The whole body as the download holds it (`toolhist.redact.shareable_json`), made from ``kept``."""
    return shareable_json(kept.body())


def diff_pair(shown: list[str]) -> tuple[str, str] | None:
    """The two providers whose bodies each message marks the differences of (sidebar; none: off).

    The widgets belong to the providers shown: another choice of providers starts again from its
    first two (a selectbox whose options change would fall back to its first option twice).
    """
    if len(shown) < 2:
        return None
    of = "|".join(shown)
    a = str(st.sidebar.selectbox("Mark what differs between", shown, index=0, key=f"pl_diff_a:{of}"))
    b = str(st.sidebar.selectbox("and", shown, index=1, key=f"pl_diff_b:{of}"))
    return None if a == b else (a, b)


def block_kinds(session: Session, index: int) -> str:
    """``text, tool_call x2``: a message's block kinds (toolhist's words only: no session content)."""
    kinds: dict[str, int] = {}
    for block in session.messages[index].blocks:
        kind = str(getattr(block, "type", type(block).__name__))
        kinds[kind] = kinds.get(kind, 0) + 1
    return ", ".join(f"{k} x{n}" if n > 1 else k for k, n in kinds.items()) or "no blocks"


st.set_page_config(page_title="toolhist · Payloads", layout="wide")
use_full_width(CSS + NARROW_EXPANDERS)  # four bodies side by side need the width
st.title("Payloads")
opened = state.open_session(())  # only the providers shown are checked (below)
strategy = repaired_view("pl")
showing(strategy)
session = opened.session  # the as-sent session; a repair's entries trace to its own message numbers

linked = st.query_params.get("provider")
if "pl_providers" not in st.session_state or (
    linked in PROVIDERS and st.session_state.get("pl_linked") != linked
):
    first = linked if linked in PROVIDERS else default_provider(opened.key, session, opened.found)
    others = [p for p in ("openai-chat", "anthropic", "gemini") if p != first]
    st.session_state["pl_providers"] = ([first] if first in PROVIDERS else []) + others[
        : 3 - (first in PROVIDERS)
    ]
    st.session_state["pl_linked"] = linked
chosen: list[str] = st.sidebar.multiselect(
    "Providers (two to four)", PROVIDERS, key="pl_providers", max_selections=4
)
if len(chosen) < 2:
    st.info("Choose at least two providers to compare.")
if not chosen:
    st.stop()
if len(chosen) == 1:
    state.remember("provider", chosen[0])

as_is = state.checked(opened, chosen) if strategy == "none" else {}
hot = first_screen(len(session.messages), as_is) if strategy == "none" else None
payloads: dict[str, Packed] = {}
found: dict[str, list[Violation]] = {}
failed: dict[str, str] = {}
# Bodies as sent not made yet: on a long session some are made by a second process meanwhile
# (`toolhist.views.apart`), on the machine's other core; without its answer they are made here.
todo = [p for p in chosen if not recorded(opened.key, apart.BODIES, opened.key, p, strategy)]
away = apart.split(todo) if strategy == "none" and forked.usable(session) else []
job = forked.launch(partial(apart.bodies, session, away, hot)) if away else None
began = time.monotonic()
try:
    for provider in sorted(chosen, key=lambda p: job is not None and p in away):  # its bodies last
        if job is not None and provider in away:
            answer, job = forked.outcome(job, PATIENCE + 3 * (time.monotonic() - began)), None
            for name, made in (answer[1] if answer[0] and isinstance(answer[1], dict) else {}).items():
                apart.hand((packed, opened.key, name, strategy), made)
        try:
            with st.spinner(f"Rendering {provider}…"):
                payloads[provider] = packed(opened.key, provider, strategy, session, hot)
                found[provider] = (
                    as_is[provider]
                    if strategy == "none"
                    else state.violations(opened.key, provider, strategy, session)
                )
        except ToolhistError as exc:  # a peer library not installed, or without this provider's route
            failed[provider] = f"Strategy {strategy} gave no answer: {exc}"
finally:
    if job is not None:  # the run was stopped (the user left the page): no child computes on
        forked.stop(job)
    for name in away:  # an answer no cached function took (another run cached it first)
        apart.drop((packed, opened.key, name, strategy))
payloads = {p: payloads[p] for p in chosen if p in payloads}  # the order chosen
shown = [p for p in chosen if p in payloads]
cuts = {p: payloads[p].sections for p in shown}
ran = ran_on_of(opened.key, session)

# --- verdicts: Home's words, for the history this page shows -------------------------------------
st.subheader("Verdicts")
which = "as sent" if strategy == "none" else f"repaired by {strategy}"
heads = st.columns(len(chosen))
for column, provider in zip(heads, chosen, strict=True):
    with column:
        st.subheader(provider)
        if provider in failed:
            st.error(md_literal(failed[provider]))
            continue
        st.text(f"{which}: {verdict_line(found[provider])}")
        omitted = payloads[provider].omitted
        st.caption(
            f"{len(cuts[provider].entries):,} source messages sent; "
            f"{len(omitted):,} thing(s) this format cannot carry"
        )
        if payloads[provider].id_map:
            with st.expander(f"Id map ({len(payloads[provider].id_map):,} ids rewritten)"):
                st.dataframe(
                    id_map_frame(payloads[provider].id_map), hide_index=True, key=f"pl_ids_{provider}"
                )
        # a download leaves the machine: redacted; the body is made again from the packed one
        dump = partial(whole_json, payloads[provider])
        st.download_button(
            "Download JSON",
            # A long history's body is tens of MB of JSON: made on click (in its own thread) only then.
            dump if len(session.messages) > LAZY_DOWNLOAD_MESSAGES else dump(),
            file_name=f"{provider}-{strategy}.json",
            mime="application/json",
            key=f"pl_dl_{provider}",
        )
if not shown:
    st.stop()

# --- what each format cannot carry, grouped ---------------------------------------------------------
carried = {p: omitted_groups(payloads[p].omitted, ran.model if ran else None) for p in shown}
if any(len(frame) for frame in carried.values()):
    st.subheader("What each format cannot carry")
    tabs = st.tabs([f"{p} ({int(carried[p]['count'].sum()):,})" for p in shown])
    for tab, provider in zip(tabs, shown, strict=True):
        with tab:
            if len(carried[provider]):
                st.dataframe(carried[provider], hide_index=True, key=f"pl_omitted_{provider}")
            else:
                st.caption(f"{provider}'s format carries all of it.")

# --- the fields outside the message list ----------------------------------------------------------
marks = {p: flagged(found[p]) for p in shown}
with st.expander("Request fields (everything outside the message list: model, tools, system…)"):
    columns = st.columns(len(shown))
    for column, provider in zip(columns, shown, strict=True):
        with column:
            st.markdown(f"**{provider}**")
            for path, rules in field_marks(marks[provider], cuts[provider].list_key):
                st.caption(md_literal(f"{path}: {rules}"))  # a body's own keys: literal
            fields = cuts[provider].fields
            for name in fields:
                piece = partial(fields.__getitem__, name)
                st.html(code(opened.key, provider, strategy, (name,), piece, marks[provider]))

# --- messages, side by side ------------------------------------------------------------------------
count = (
    len(session.messages)
    if strategy == "none"
    else max((m + 1 for p in shown for m in cuts[p].entries), default=0)
)
st.subheader("Messages, side by side")
st.caption(
    "Each source message with what every provider gets for it; marked lines name the rules that flag "
    "them. "
    + (
        ""
        if strategy == "none"
        else "Repaired: rows are numbered by each repaired history; each names the message as sent it "
        "came from (the number Home and the Timeline use)."
    )
)
targets = jumps({p: found[p] for p in shown})
controls = st.columns([3, 1, 1])
size = int(controls[2].selectbox("Messages at once", WINDOWS, key="pl_window"))
linked_msg = state.message_param(count)
if "pl_from" not in st.session_state or st.session_state.get("pl_from_link") != linked_msg:
    first_error = targets[0][1] if targets else 0
    focus = linked_msg if linked_msg is not None else first_error
    st.session_state["pl_focus"] = focus
    st.session_state["pl_from"] = max(0, min(focus - CONTEXT, max(count - 1, 0)))
    st.session_state["pl_from_link"] = linked_msg
labels = [label for label, _ in targets]
if targets:
    jumped = controls[0].selectbox(
        f"Jump to a violation ({len(targets):,}, errors first)",
        labels,
        index=None,
        placeholder="Choose a violation",
        key="pl_jump",
    )
    if jumped is not None and st.session_state.get("pl_jumped") != jumped:
        focus = st.session_state["pl_focus"] = dict(targets)[jumped]
        st.session_state["pl_from"] = max(0, focus - CONTEXT)
        st.session_state["pl_jumped"] = jumped
else:
    controls[0].caption("No violation points at a message for these providers.")
start = int(
    controls[1].number_input(
        "From message", 0, max(count - 1, 0), key="pl_from", help="Window's first message"
    )
)
if strategy == "none":
    held = st.session_state.get("pl_focus")
    linked_now = held if isinstance(held, int) and start <= held < start + size else start
    state.remember("msg", str(linked_now))
    st.session_state["pl_from_link"] = linked_now  # the URL now says this: not a new link next run
end = min(count, start + size)
st.caption(f"Messages {start:,} to {max(end - 1, start):,} of {count:,}")
numbers = {} if strategy == "none" else {p: sources(opened.key, p, strategy, session) for p in shown}
pair = diff_pair(shown)
marked_at: dict[int, set[str]] = {}  # window message -> the rules marking it (one pass over the verdicts)
for provider in shown:
    for v in found[provider]:
        if (m := v.message_index) is not None and start <= m < end:
            marked_at.setdefault(m, set()).add(v.rule)
hit = set(marked_at)
dropped = {p: omitted_by_message(payloads[p].omitted) for p in shown}
open_all = st.toggle("Open every message of the window", key="pl_open_all")
for m in range(start, end):
    broken = sorted(marked_at.get(m, ()))
    what = block_kinds(session, m) if strategy == "none" and m < len(session.messages) else "repaired"
    title = (
        f"Message {m} · {role(session.messages[m].speaker)} · {what}"
        if strategy == "none"
        else f"Repaired message {m} · {source_label(m, numbers)}"
    )
    if broken:
        title += " · :red[marked: " + ", ".join(f"`{r}`" for r in broken) + "]"
    losing = [p for p in shown if m in dropped[p]]
    if losing:
        title += " · :orange[not carried by " + ", ".join(losing) + "]"
    with st.expander(title, expanded=open_all or m in hit or m == st.session_state.get("pl_focus")):
        columns = st.columns(len(shown), gap="xsmall")  # four bodies: every pixel to the JSON
        for column, provider in zip(columns, shown, strict=True):
            with column:
                st.caption(provider)
                sect = cuts[provider]
                entries = sect.entries.get(m, ())
                for entry in entries:
                    # unpacked for the window only, and only when its code is not cached yet
                    piece = partial(payloads[provider].entry, entry)
                    where = (sect.list_key, entry)
                    st.html(code(opened.key, provider, strategy, where, piece, marks[provider]))
                if not entries:
                    merged = sect.carried_by.get(m)
                    st.caption(
                        f"sent inside {sect.list_key}[{merged}] (under an earlier message)"
                        if merged is not None
                        else "nothing sent for this message"
                    )
                if m in dropped[provider]:
                    st.caption(md_literal("not carried: " + "; ".join(dropped[provider][m])))
        if pair is not None:
            a, b = pair
            ours, theirs = (message_lines(payloads[p].entry, cuts[p], m) for p in pair)
            long = len(ours) + len(theirs) > DIFF_AT_ONCE
            if long and not st.toggle(
                f"Mark what differs ({len(ours) + len(theirs):,} lines)", key=f"pl_dl{m}"
            ):
                continue
            marked = differs(opened.key, strategy, a, b, m, ours, theirs)
            if marked is None:
                st.caption(f"{a} and {b} get the same lines for this message.")
            else:
                st.caption(f"What differs: lines only {a} gets (-), only {b} gets (+)")
                st.code(marked, language="diff")  # escaped: session content inside

# --- small bodies whole, and the SDK's view ---------------------------------------------------------
if len(session.messages) <= WHOLE_TREE_MESSAGES:
    with st.expander("Whole bodies as JSON trees"):
        trees = st.columns(len(shown))
        for column, provider in zip(trees, shown, strict=True):
            column.caption(provider)
            column.json(payloads[provider].body(), expanded=1)
long = len(session.messages) > LAZY_DOWNLOAD_MESSAGES
lacking_sdks = sdk_missing(shown)
if lacking_sdks:  # said before the toggle: a user on the base install learns which extra it needs
    st.caption(md_literal(lacking_sdks))
checking = st.toggle(
    "Check with the official SDKs",
    key="pl_sdk",
    help="Builds each body's request with its provider's SDK: importing the SDKs takes seconds the first "
    "time" + (", and the SDK checks every message" if long else ""),
)
if checking:
    for column, provider in zip(st.columns(len(shown)), shown, strict=True):
        with column, st.expander("As the SDK sends it", expanded=True):
            st.caption(provider)
            sent = sdk_view(opened.key, provider, strategy, session)
            st.caption(md_literal(f"{sent.label}: {sent.status}"))
            if sent.status == "unavailable":
                st.info(md_literal(sent.text))
            else:
                st.code(sent.text, language="http", wrap_lines=True)  # escaped: session content inside
            for note in sent.notes:
                st.caption(md_literal(note))
            if sent.violations:
                st.text("\n".join(f"{v.rule} {v.path}: {v.error_text}" for v in sent.violations))
