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
"""

from __future__ import annotations

import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

import orjson

from toolhist.providers import Payload
from toolhist.views.body import Sections, sections

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
    chunks: tuple[bytes | list[Any], ...]
    """The message list, `CHUNK` entries each: compressed JSON, or the entries as they are."""
    order: tuple[str, ...]
    """The body's keys in their order (the list's among them)."""

    def entry(self, n: int) -> Any:
        """Entry ``n`` of the message list, as the body holds it."""
        if not 0 <= n < self.size:
            raise IndexError(n)
        return _unpacked(self.chunks[n // CHUNK])[n % CHUNK]

    def entries(self) -> list[Any]:
        """The whole message list."""
        return [entry for chunk in self.chunks for entry in _unpacked(chunk)]

    def body(self) -> dict[str, Any]:
        """The whole body, in its own key order (made anew: the download, the SDK check, a tree)."""
        key, fields = self.sections.list_key, self.sections.fields
        return {k: self.entries() if k == key else fields[k] for k in self.order}


def pack(payload: Payload, *, pack_from: int = PACK_FROM) -> Packed:
    """``payload`` as the Payloads page keeps it (its body's message list packed when long)."""
    cut = sections(payload)
    body = payload.body
    key = cut.list_key
    listed: list[Any] = body[key] if key is not None else []  # type: ignore[assignment]
    groups = [listed[i : i + CHUNK] for i in range(0, len(listed), CHUNK)]
    chunks = tuple(_packed(group) for group in groups) if len(listed) > pack_from else tuple(groups)
    return Packed(payload.provider, cut, payload.omitted, payload.id_map, len(listed), chunks, tuple(body))


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
