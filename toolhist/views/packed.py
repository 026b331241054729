"""A rendered payload as the Payloads page keeps it: the message list packed, the window unpacked when shown.

At 100,000 messages a provider's body is about 100 MB of dicts and strings (90 MB Anthropic, 116 MB
Gemini, measured with tracemalloc), and the page keeps three or four of them for as long as the
session is open, to show a window of 10 to 50 messages. Packed, the message list is its JSON (orjson)
in chunks of `CHUNK` entries, each compressed (zlib level 1): about 5 MB per provider. An entry is
unpacked when the page shows it (one chunk: under a millisecond); the whole body only when asked
for (the download, the SDK check, a short session's tree).

Exact, or not packed: a chunk is kept packed only when its JSON reads back equal to it (a NaN, a
tuple, an integer past 64 bits, a lone surrogate would not: that chunk stays as it is). A list of
at most `PACK_FROM` entries is kept as it is (packing costs about 5 ms per 1,000 entries, which a
short session would pay for nothing).

The first screen first: packing a 100,000-entry list (its JSON, the read-back check, zlib) took
0.3 s of CPU per provider, three or four times on the page's first run, to show a window of 10 to
50 messages. Given ``hot`` (the source messages the first screen shows) and ``again`` (how to
render the body again), `pack` packs only the chunks those messages' entries are in; the first
entry read from any other chunk renders the body again and packs every chunk still missing, once
(the page's next window, the download). Without them, every chunk is packed at once.
"""

from __future__ import annotations

import threading
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import orjson

from toolhist.providers import Payload
from toolhist.views.body import Sections, sections
from toolhist.views.trim import trimmed

CHUNK: Final = 128
"""Entries per packed chunk: a window of 50 messages unpacks one or two."""
PACK_FROM: Final = 20_000
"""A message list longer than this is packed; a shorter one is kept as it is."""


@dataclass(frozen=True, eq=False)
class Packed:
    """What the Payloads page shows of a payload: its sections, notes and message list (packed)."""

    provider: str
    sections: Sections
    """`toolhist.views.body.sections` of the body (the fields outside the list kept as they are)."""
    omitted: Sequence[str]
    id_map: Mapping[str, str]
    size: int
    """Entries in the message list (0: none)."""
    chunks: list[bytes | list[Any] | None]
    """The message list, `CHUNK` entries each: compressed JSON, the entries as they are, or None
    for a chunk not packed yet (made from ``again`` when first read)."""
    order: tuple[str, ...]
    """The body's keys in their order (the list's among them)."""
    again: Callable[[], Payload] | None = field(default=None, repr=False)
    """Renders the same payload again, for the chunks not packed yet (None: every chunk is)."""
    _filling: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def entry(self, n: int) -> Any:
        """Entry ``n`` of the message list, as the body holds it."""
        if not 0 <= n < self.size:
            raise IndexError(n)
        return _unpacked(self._chunk(n // CHUNK))[n % CHUNK]

    def entries(self) -> list[Any]:
        """The whole message list."""
        return [entry for at in range(len(self.chunks)) for entry in _unpacked(self._chunk(at))]

    def _chunk(self, at: int) -> bytes | list[Any]:
        chunk = self.chunks[at]
        if chunk is None:
            self._fill()
            chunk = self.chunks[at]
            assert chunk is not None  # _fill packs every chunk
        return chunk

    def _fill(self) -> None:
        """Render the body again and pack every chunk not packed yet (once: the page's caches share it)."""
        with self._filling:
            missing = [at for at, chunk in enumerate(self.chunks) if chunk is None]
            if not missing or self.again is None:
                return
            listed = _listed(self.again(), self.sections.list_key)
            if len(listed) != self.size:  # a renderer is deterministic: the same history, the same body
                raise RuntimeError(f"{self.provider}: rendered again, {len(listed)} entries, not {self.size}")
            for at in missing:
                self.chunks[at] = _packed(listed[at * CHUNK : (at + 1) * CHUNK])
            del listed
        trimmed()  # the tree rendered again goes, and its heap with it (`toolhist.views.trim`)

    def body(self) -> dict[str, Any]:
        """The whole body, in its own key order (made anew: the download, the SDK check, a tree)."""
        key, fields = self.sections.list_key, self.sections.fields
        return {k: self.entries() if k == key else fields[k] for k in self.order}


def pack(
    payload: Payload,
    *,
    pack_from: int = PACK_FROM,
    hot: Iterable[int] | None = None,
    again: Callable[[], Payload] | None = None,
) -> Packed:
    """``payload`` as the Payloads page keeps it (its body's message list packed when long).

    ``hot`` and ``again`` together: only the chunks holding the entries of source messages ``hot``
    are packed now; the others when first read, from ``again()`` (the module's docstring says why).
    """
    cut = sections(payload)
    key = cut.list_key
    listed = _listed(payload, key)
    groups = [listed[i : i + CHUNK] for i in range(0, len(listed), CHUNK)]
    chunks: list[bytes | list[Any] | None] = list(groups)  # short: kept as they are
    later = None
    if len(listed) > pack_from:
        wanted = (
            None
            if hot is None or again is None
            else {e // CHUNK for m in hot for e in cut.entries.get(m, ())}
        )
        chunks = [
            _packed(group) if wanted is None or at in wanted else None for at, group in enumerate(groups)
        ]
        later = again if wanted is not None and len(wanted) < len(groups) else None
    return Packed(
        payload.provider,
        cut,
        payload.omitted,
        payload.id_map,
        len(listed),
        chunks,
        tuple(payload.body),
        later,
    )


def _listed(payload: Payload, key: str | None) -> list[Any]:
    listed: list[Any] = payload.body[key] if key is not None else []  # type: ignore[assignment]
    return listed


def _packed(group: list[Any]) -> bytes | list[Any]:
    """``group`` as compressed JSON, when its JSON reads back equal to it; else as it is."""
    try:
        raw = orjson.dumps(group)
    except (TypeError, orjson.JSONEncodeError):  # an integer past 64 bits, a lone surrogate, a non-str key
        return group
    if orjson.loads(raw) != group:  # a NaN (written null), a tuple (written as a list)
        return group
    return zlib.compress(raw, 1)


def _unpacked(chunk: bytes | list[Any]) -> list[Any]:
    if isinstance(chunk, bytes):
        found: list[Any] = orjson.loads(zlib.decompress(chunk))
        return found
    return chunk


Chunks = list[bytes | list[Any] | None]
Parts = tuple[str, Sections, Sequence[str], Mapping[str, str], int, Chunks, tuple[str, ...]]
"""A `Packed` without its lock and its ``again``: what a second process sends back (`parts`)."""


def parts(made: Packed) -> Parts:
    """``made`` as plain data that pickles: a forked child's packed body (`toolhist.views.apart`)."""
    return made.provider, made.sections, made.omitted, made.id_map, made.size, made.chunks, made.order


def from_parts(given: Parts, again: Callable[[], Payload] | None) -> Packed:
    """The `Packed` ``given`` holds, with ``again`` for its chunks not packed yet (None when every one is)."""
    provider, cut, omitted, id_map, size, chunks, order = given
    return Packed(provider, cut, omitted, id_map, size, chunks, order, again if None in chunks else None)
