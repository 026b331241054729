"""The app's shared state: which session is open, the cached work on it, and the deep-link parameters.

Every page calls `open_session` first. The open input is kept in ``st.session_state`` (bytes, name,
format), so it survives moving between pages; parsing, checking, curating and rendering are cached
with ``st.cache_resource`` keyed by the content digest (never by model objects or widget state), so
a page switch costs nothing. The objects returned are shared between reruns: treat them as
immutable (the model is frozen anyway).

A deep link names everything a reviewer needs to see the same view (a full page load is a new
Streamlit session, so nothing can come from session state): ``?sample=…`` (a bundled sample) or
``?path=…`` (a file on this machine), and the choices `toolhist.views.prefs` keeps (``provider=…``,
``strategy=…``, ``msg=…``).

Large sessions (100,000 messages) stay usable because nothing is computed before a page needs it:
`read` parses once (the document and the session together) and shows a progress bar while it reads
and checks each provider the page asked for; every other provider's verdict is computed (and cached)
the first time a page asks for it (`Opened.found`). Curations, diffs and payloads
(`toolhist.views.derived`, re-exported here for the pages) are cached per content key, provider and
strategy, and shared between pages.

Memory: only the `SESSIONS_KEPT` sessions read last keep their cached parse and results
(`toolhist.views.kept`): `read` marks the session it opens as the newest. The parse keeps no text
too long to locate an error in, and a parse or a verdict made returns its transient heap to the
system (`toolhist.views.trim`).

This module knows the open input's ``session_state`` keys; `toolhist.views.prefs` knows its own.
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from pathlib import Path

import streamlit as st

from toolhist._gc import paused
from toolhist.agents import stores
from toolhist.agents.openhands.reader import is_conversation
from toolhist.check import CheckResult, result_of, verdict
from toolhist.errors import ToolhistError
from toolhist.formats.document import MAX_MAPPED_CHARS, Document
from toolhist.formats.jsonl_stream import Progress
from toolhist.judgement import judge
from toolhist.model import Session
from toolhist.providers import PROVIDERS, Violation
from toolhist.readers import load_document
from toolhist.redact import redact_session, redact_text
from toolhist.views import copies, failure
from toolhist.views.derived import compared, curated, events, figure, payload, picture, violations
from toolhist.views.failure import alert
from toolhist.views.inputs import Input, Stamp, by_reference
from toolhist.views.kept import SESSIONS_KEPT, keep_recent, record, recorded
from toolhist.views.paths import openable, scannable
from toolhist.views.prefs import message_param, pick, remember, switch
from toolhist.views.read_progress import Ticker
from toolhist.views.summary import list_samples
from toolhist.views.trim import trimmed

__all__ = [  # what pages use through ``state.``: the derived caches and deep-link choices live beside
    "SESSIONS_KEPT",
    "Input",
    "Opened",
    "checked",
    "compared",
    "curated",
    "current_input",
    "events",
    "figure",
    "message_param",
    "open_session",
    "path_input",
    "payload",
    "pick",
    "picture",
    "read",
    "remember",
    "sample_input",
    "sample_names",
    "switch",
    "violations",
]

ROOT = Path(__file__).resolve().parent.parent.parent
SAMPLES_DIR = ROOT / "sample_logs"
DEFAULT_SAMPLE = "openai_chat_request.json"
MAX_UPLOAD_MB = 50
_INPUT = "toolhist.input"
_REDACT = "toolhist.redact"


@dataclass(frozen=True)
class Opened:
    """An input read; each provider's verdict is computed when first asked for, then cached."""

    input: Input
    key: str
    """Cache key for everything derived from this session (digest and format)."""
    document: Document
    """The parsed input (a captured body is checked exactly as it was sent)."""
    session: Session

    def found(self, provider: str) -> list[Violation]:
        """``provider``'s violations, as `toolhist.check` finds them (cached per content key)."""
        return _verdict(self.key, provider, self.document, self.session)

    @cached_property
    def result(self) -> CheckResult:
        """Every provider's verdict: `toolhist.check`'s result (computes the providers not yet checked)."""
        return _result(self.key, self)


@st.cache_resource(max_entries=4, show_spinner=False)
def _result(key: str, _opened: Opened) -> CheckResult:
    """`Opened.result`, cached per content key: a rerun does not judge and gather it again."""
    record(key, _result, key, None)
    results = {p: _opened.found(p) for p in PROVIDERS}
    return result_of(_opened.document.name, _opened.session, results, judge(_opened.session))


@st.cache_resource(max_entries=4, show_spinner=False)
def _load(
    digest: str,
    fmt: str | None,
    name: str,
    _data: bytes | Path,
    session: str | None,
    redact: bool,
    _progress: Progress | None = None,
) -> tuple[Document, Session]:
    """Parse once per content digest and format (the bytes themselves are not hashed again).

    ``_data`` is the bytes, or the path of a file read by reference (`toolhist.views.inputs`).

    Few entries: a 100,000-message session holds about 1.1 GB once parsed. ``session`` picks one
    session of an agent's store (the digest covers it too); ``redact`` redacts the session read
    (an input whose bytes are not text, `Input.redacted`). They have no default: Streamlit keys an
    entry by the arguments as passed, so a call that left one out could not be cleared by
    `keep_recent`, which names all six. ``_progress`` (not hashed) hears the bytes read of a file
    read as it streams (`toolhist.views.read_progress`).
    """
    record(f"{digest}:{fmt or ''}", _load, digest, fmt, name, None, session, redact)
    # paused as `toolhist.load` is (`load_document` is not): at 100,000 messages the collector's
    # full passes over the growing parse took 63 s of Home's 229 s under AppTest
    if isinstance(_data, Path) and copies.is_copy(_data):  # a file redacted into a copy (`_redacted`)
        document, read_session = paused(copies.load_copy)(_data, fmt, name, session)
    else:
        document, read_session = paused(load_document)(
            _data, fmt, name=name, session=session, progress=_progress
        )
    if document.text is not None and len(document.text) > MAX_MAPPED_CHARS:
        # read now; a text this long locates no error (`Document.line_of`): 37 MB at 100,000 messages
        document = replace(document, text=None)
    made = document, redact_session(read_session)[0] if redact else read_session
    trimmed()  # the parse's transient heap (`toolhist.views.trim`)
    return made


@st.cache_resource(max_entries=2, show_spinner="Redacting secrets…")
def _redacted(digest: str, _source: Input) -> Input:
    """``_source`` with its secrets replaced (`toolhist.redact`), once per content digest.

    Text is redacted as bytes, so every page, the document and a Claude Code sidechain read from
    them show the same redacted text; bytes that are not text (an agent's SQLite store, an
    archive) are kept, and the session read from them is redacted (`_load`).

    A file opened by path stays read by reference: its redacted text goes to a private copy, written
    piece by piece (`toolhist.views.copies`), which is read in its place; neither is held in memory.
    The copy goes when the session leaves the recent ones (`keep_recent`), and this entry with it.
    """
    if _source.file is not None and stores.is_store(str(_source.file.path)):
        return replace(_source, redacted="session")  # still read by reference: the session read is redacted
    if _source.file is not None and not _source.file.path.is_dir():
        copy = copies.redacted_copy(_source.file.path)
        if copy is None:  # not text: still read by reference, and the session read is redacted
            return replace(_source, redacted="session")
        made = replace(_source, file=Stamp.of(copy), redacted="bytes")
        key = f"{made.digest}:{made.fmt or ''}"  # `read` opens it under this key
        record(key, copies, str(copy))
        record(key, _redacted, digest, None)
        return made
    data = _source.content()  # bytes held anyway, or a conversation folder gathered into one document
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return replace(_source, data=data, file=None, redacted="session")
    return replace(_source, data=redact_text(text)[0].encode("utf-8"), file=None, redacted="bytes")


def _chosen() -> None:
    st.session_state[_REDACT] = bool(st.session_state[f"{_REDACT}.widget"])


def redacting() -> bool:
    """The sidebar switch "Redact secrets" (off unless ``?redact=1``), remembered across pages.

    Off, every page shows the session exactly as it was sent; on, the open input's secrets are
    replaced (the fifteen kinds of `toolhist.redact`) before it is read, so what every page shows
    and every download holds is redacted, e.g. for a screen share. The choice is in the URL.
    """
    widget = f"{_REDACT}.widget"
    # Each page has its own widget: the choice lives under its own key (set by the callback, which
    # runs before the page), and every page's switch starts from it.
    if _REDACT not in st.session_state:
        st.session_state[_REDACT] = st.query_params.get("redact") == "1"
    st.session_state[widget] = st.session_state[_REDACT]
    on = bool(
        st.sidebar.toggle(
            "Redact secrets",
            key=widget,
            on_change=_chosen,
            help="Replace API keys, tokens, passwords and private keys in everything shown and downloaded.",
        )
    )
    if on:
        st.query_params["redact"] = "1"
    elif "redact" in st.query_params:
        del st.query_params["redact"]
    return on


_MADE: dict[tuple[str, str], list[Violation]] = {}
"""Verdicts computed outside this process (`toolhist.views.forked`), waiting for `_verdict` to keep them."""


@st.cache_resource(max_entries=64, show_spinner=False)
def _verdict(key: str, provider: str, _document: Document, _session: Session) -> list[Violation]:
    """One provider's part of `toolhist.check`, cached per file: a page pays only for what it shows.

    A verdict a second process made for this session (`made_elsewhere`) is taken as it is.
    """
    record(key, _verdict, key, provider, None, None)
    found = _MADE.pop((key, provider), None)
    if found is None:
        found = verdict(_document, _session, provider)
        trimmed()  # the rendered body's heap (`toolhist.views.trim`)
    return found


def made_elsewhere(opened: Opened, found: dict[str, list[Violation]]) -> None:
    """Keep ``found`` (verdicts of ``opened`` a forked child computed) as `Opened.found`'s answers."""
    for provider, violations_found in found.items():
        _MADE[(opened.key, provider)] = violations_found
        opened.found(provider)  # cached now, from the entry above unless another run cached it first
        _MADE.pop((opened.key, provider), None)


def _size(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 1_000_000 else f"{n / 1e3:.0f} kB" if n >= 1000 else f"{n} bytes"


def _reading(done: int, total: int) -> str:
    """The read's progress label: the bytes read, then the reader's work after the last line."""
    if done < total:
        return f"Reading the session: {_size(done)} of {_size(total)}…"
    return f"Read {_size(total)}; putting the session together…"


def read(source: Input, providers: Sequence[str] = PROVIDERS) -> Opened:
    """Read ``source`` (cached), check ``providers`` with a progress bar, and make it the open session.

    Raises `ToolhistError` for input that is not a session; the caller shows it. With the
    "Redact secrets" switch on (`redacting`) the input is redacted first: ``Opened.input`` is the
    redacted one, while the one kept for the next page is as given (the switch can go off again).
    """
    given = source = source.restamped()  # a file changed since it was read is read again
    if redacting():
        source = _redacted(source.digest, source)
    digest = source.digest
    bar = st.empty()
    # progress text is Markdown: no user-derived text (a file name) goes in it
    bar.progress(0.0, text=f"Reading the session ({_size(source.size)})…")
    try:
        with Ticker(bar, _reading) as ticker:
            document, session = _load(
                digest,
                source.fmt,
                source.name,
                source.source(),
                source.session,
                source.redacted == "session",
                _progress=ticker,
            )
    finally:  # a file that fails to read leaves its error, not a progress bar that never ends
        bar.empty()
    settle()
    failure.clear()
    opened = Opened(input=source, key=f"{digest}:{source.fmt or ''}", document=document, session=session)
    keep_recent(opened.key)
    checked(opened, providers, first=1)
    st.session_state[_INPUT] = given
    return opened


def checked(opened: Opened, providers: Sequence[str], *, first: int = 0) -> dict[str, list[Violation]]:
    """``providers``' verdicts on the open session, with a progress bar while they are computed.

    The bar names the message count and the provider being checked ("100,000 messages read
    (openai-chat); checking anthropic (3 of 7)…"); it is gone once all are ready (at once when
    cached). ``first`` counts steps already done (the read), so the bar does not start over.
    """
    session = opened.session
    steps = first + len(providers)
    read_text = f"{len(session.messages):,} messages read ({session.source.format})"
    bar = st.empty()
    found: dict[str, list[Violation]] = {}
    try:
        for done, provider in enumerate(providers):
            if verdict_ready(opened.key, provider):
                found[provider] = opened.found(provider)
                continue
            bar.progress(
                (first + done) / steps,
                text=f"{read_text}; checking {provider} ({done + 1} of {len(providers)})…",
            )
            found[provider] = opened.found(provider)
    finally:
        bar.empty()
    settle()
    return found


def settle() -> None:
    """Put what is alive now (a parsed session, its verdicts) out of the cyclic collector's reach.

    A 100,000-message session is tens of millions of objects; every full collection the pages'
    later work triggers re-scanned all of them (a third of Home's time at 100,000 messages: 63 s of
    gen-2 collections in 229 s, measured under AppTest). ``gc.freeze`` moves the objects tracked
    now to a permanent generation: reference counting still frees them, and `keep_recent`
    unfreezes (and collects once) when it drops a session's entries, so cycles among them are
    not kept for good. Cheap: it splices the collector's lists.
    """
    gc.freeze()


def verdict_ready(key: str, provider: str) -> bool:
    """Whether ``provider``'s verdict on the session ``key`` is already computed (no bar to draw)."""
    return recorded(key, _verdict, key, provider, None, None)


def sample_names() -> list[str]:
    """The bundled samples' file names."""
    return [p.name for p in list_samples(SAMPLES_DIR)]


def sample_input(name: str, fmt: str | None = None) -> Input:
    """A bundled sample as an Input."""
    return Input(name=name, data=(SAMPLES_DIR / name).read_bytes(), fmt=fmt, sample=name)


def path_input(raw: str, fmt: str | None = None) -> Input:
    """A file on this machine as an Input, when the app may open it (`toolhist.views.paths`).

    Raises OSError (``PermissionError`` for a path outside the allowed folders), ValueError (a folder
    that holds no session) or `LoadError` (a FIFO, a device, a link loop: refused before anything is
    opened).

    A session is read by reference, with no size bound (`toolhist.views.inputs.by_reference`): the
    app holds no copy of it and `toolhist.load_document` reads it from the path as the CLI does. That
    holds for a session file, a session locator ``FILE#SESSION_ID`` (an agent's SQLite store, read
    read-only with its WAL pages by `toolhist.agents.stores.open_store`; a log of many such as an
    Inspect AI ``.eval``) and a folder an agent keeps one session in (an OpenHands conversation,
    gathered by its reader when read: `toolhist.readers.gather_folder`). Only what the user
    uploads or pastes is held as bytes, under the upload's bound.
    """
    loc = stores.parse_locator(str(Path(raw.strip()).expanduser()))
    if loc.session is None and Path(loc.path).is_dir():
        folder = scannable(loc.path)
        if not is_conversation(str(folder)):
            raise ValueError(
                f"{folder}: a folder, not a session file (an OpenHands conversation folder is read whole)"
            )
        return by_reference(folder, raw, fmt)
    path = openable(loc.path)
    if loc.session is None:
        return by_reference(path, raw, fmt)
    return by_reference(path, raw, fmt, name=stores.locator(path, loc.session), session=loc.session)


def current_input() -> Input | None:
    """The input opened earlier in this browser session, if any."""
    found = st.session_state.get(_INPUT)
    return found if isinstance(found, Input) else None


def open_session(providers: Sequence[str] = PROVIDERS) -> Opened:
    """The session every page other than the home page shows (stops the page when there is none).

    A ``?sample=`` or ``?path=`` deep link wins; then what the home page (or an earlier page) opened;
    then the default sample, so a page opened directly still shows something. ``providers`` are
    checked now (with progress); a page that shows fewer asks `checked` or `Opened.found` later.
    """
    wanted = st.query_params.get("sample")
    raw_path = st.query_params.get("path")
    held = current_input()
    if wanted is None and not raw_path:
        failure.stop_if_failed()
    try:
        if wanted is not None and wanted in sample_names():
            source = held if held is not None and held.sample == wanted else sample_input(wanted)
        elif raw_path:
            source = held if held is not None and held.path == raw_path else path_input(raw_path)
        elif held is not None:
            source = held
        else:
            source = sample_input(DEFAULT_SAMPLE)
        if wanted is not None and wanted not in sample_names():
            alert("warning", f"There is no bundled sample by that name; showing {source.name}.", wanted)
        opened = read(source, providers)
    except (OSError, ValueError) as exc:
        alert("error", "Cannot read that path.", f"{raw_path}: {exc}")
        st.stop()
    except ToolhistError as exc:
        alert("error", "This input cannot be read as a session.", failure.load_error(exc, None))
        st.stop()
    except Exception as exc:  # a bug must still be one clear line, never a traceback in the page
        alert("error", "Internal error (please report it).", f"{type(exc).__name__}: {exc}")
        st.stop()
    if opened.input.sample is not None:
        st.query_params["sample"] = opened.input.sample
    elif opened.input.path is not None:
        st.query_params["path"] = opened.input.path
    st.sidebar.caption("Session")
    st.sidebar.text(opened.input.name)
    return opened
