"""One Chat Completions body per session for the three chat-shaped providers.

OpenAI Chat, Mistral and Kimi take the same body for a session (`toolhist.providers.chat_render`)
but where OpenAI takes a chat source's custom calls as they are. Checking every provider rendered
it three times: each render of 100,000 messages was a seventh of checking all seven providers. So
inside `sharing` (a caller that checks several providers: Home's verdicts, `toolhist.check`) the
last body rendered is kept for the other chat-shaped providers of the same session object, and
dropped once each has taken it, with the session, when anything else is rendered
(`release_shared`: a kept body must not add to the peak memory of rendering another), or when the
scope ends; such callers check the chat-shaped ones one after another. Outside it nothing is kept:
a page that renders one provider's body (Curation's repaired session, Payloads) must not leave a
body of 100,000 messages behind for providers that will never ask. The providers that share it
share the body's objects: a body is read-only once rendered (`toolhist.providers.base.new_payload`).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from pydantic import JsonValue

from toolhist.model import Session
from toolhist.providers.base import Finding, SourceMap
from toolhist.providers.chat_render import CHAT_FORMAT, Rendered, render_fresh, said

CHAT_SHAPED = ("openai-chat", "mistral", "kimi")
"""The providers whose bodies `toolhist.providers.chat_render` renders."""


@dataclass
class _Shared:
    session: weakref.ref[Session]
    rendered: Rendered
    waiting: set[str]
    """The chat-shaped providers that have not taken it yet."""


_SHARED: dict[int, _Shared] = {}
_lock = threading.RLock()
_scope = threading.local()
"""Per thread: how deep in `sharing` (a Streamlit session's script runs in a thread of its own)."""


@contextmanager
def sharing() -> Iterator[None]:
    """Within it (this thread), a chat body rendered is kept for the other chat-shaped providers."""
    depth = _depth()
    _scope.depth = depth + 1
    try:
        yield
    finally:
        _scope.depth = depth
        if not depth:
            release_shared()


def render_chat(session: Session, fmt: str) -> tuple[dict[str, JsonValue], SourceMap, list[str]]:
    """The Chat Completions body for ``session``, its source map and what could not be carried."""
    key = id(session)
    rendered: Rendered | None = None
    with _lock:
        shared = _SHARED.get(key)
        if shared is not None and shared.session() is session and fmt in shared.waiting:
            rendered = shared.rendered
            shared.waiting.discard(fmt)
            if not shared.waiting:
                del _SHARED[key]
    if rendered is None:
        release_shared()  # before rendering: never two kept bodies at once
        freeform = session.source.format == CHAT_FORMAT and fmt == CHAT_FORMAT
        rendered, custom = render_fresh(session, freeform=freeform)
        if not custom:  # the same body for every chat-shaped provider
            waiting = set(CHAT_SHAPED) - {fmt}
        else:  # OpenAI's is its own; the others share theirs
            waiting = set() if freeform else set(CHAT_SHAPED) - {fmt, CHAT_FORMAT}
        if waiting and _depth():
            with _lock:
                ref = weakref.ref(session, lambda dead: _forget(key, dead))
                _SHARED[key] = _Shared(ref, rendered, waiting)
    body, source_map, omitted = rendered
    return body, source_map, [said(entry, fmt) for entry in omitted]


_PASSES: dict[str, tuple[list[Any], list[Finding]]] = {}
"""Per check pass: the message list it last judged inside `sharing` and what it found there."""


def shared_pass(
    name: str, messages: list[Any], run: Callable[[list[Any]], Iterator[Finding]]
) -> Iterator[Finding]:
    """``run(messages)``; inside `sharing`, kept for the next chat-shaped provider judging that list.

    OpenAI Chat and Kimi run the same pairing and shape checks: on the one body they share
    (`render_chat`), or on one request body both take as sent. The findings depend on the list
    alone, which is read-only (`toolhist.providers.base.new_payload`) and held here while
    remembered, so its identity is not reused; it goes with the kept body (`release_shared`).
    """
    if not _depth():
        return run(messages)
    with _lock:
        kept = _PASSES.get(name)
    if kept is not None and kept[0] is messages:
        return iter(kept[1])
    found = list(run(messages))
    with _lock:
        _PASSES[name] = (messages, found)
    return iter(found)


def _depth() -> int:
    return int(getattr(_scope, "depth", 0))


def release_shared() -> None:
    """Drop the kept body: the caller renders another shape now, and the two would share the peak."""
    with _lock:
        _SHARED.clear()
        _PASSES.clear()


def _forget(key: int, dead: weakref.ref[Session]) -> None:
    with _lock:
        shared = _SHARED.get(key)
        if shared is not None and shared.session is dead:
            del _SHARED[key]


def _unlocked() -> None:
    """In a forked child (`toolhist.views.forked`): a lock another thread held at the fork, made anew."""
    global _lock  # noqa: PLW0603 - the module's lock, replaced in the child only
    _lock = threading.RLock()


if hasattr(os, "register_at_fork"):  # POSIX
    os.register_at_fork(after_in_child=_unlocked)
