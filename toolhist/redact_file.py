r"""Redact a file piece by piece, with exactly the result of `toolhist.redact.redact_text` on all of it.

The app's "Redact secrets" switch on a file opened by path (a 1 GB Claude Code log) must not hold
the file, nor its redacted text, in memory: the file is redacted into a private copy in pieces of
about `CHUNK` bytes, and the copy is read by reference as the file itself would be.

Pieces are cut only where `redact_text` gives the same result on the two sides as on the whole
(`safe_cut`). Each kind's pattern reads past a line end only through what can match ``\n``: the
blanks around a ``name: value`` separator (``password``, ``credential``, ``aws-secret-key``), the
blanks after ``Basic`` and ``Bearer``, and a ``private-key`` block (``[^<]{0,20000}?`` up to its END
line, or its run of base64 and blanks). A cut is made right after a newline whose line ends (before
its trailing blanks) in ``{ } [ ] ,``: none of those can stand before such blanks (a name, a quote,
``:``/``=``, ``Basic``/``Bearer``) nor inside a key's base64 run, and no ``-----BEGIN`` is within
`PEM_REACH` bytes before the cut, so no lazy block scan can cross it. Every attempt to match
starting before the cut then ends before it, having never looked at it (a lookahead or ``\b`` at
the cut would need the newline consumed first); the byte before the cut is a newline, so ``\b`` and
the lookbehind of `toolhist.redact` see the same at the start of the next piece as in the whole.
No fragment where a secret can start holds a newline, so none straddles the cut.

That fits JSON Lines (every line ends in ``}``) and pretty-printed JSON (most lines end in ``,``,
``{``, ``[`` or ``}``), and a line end after a ``-----BEGIN`` too, once `PEM_REACH` bytes past it.
A plain text file with no such line end is one piece: redacted whole, as before.

Bytes that are not UTF-8 are found piece by piece too (a cut after a newline never splits a
character): the file is then not text (an archive, a store) and no copy is made.
"""

from __future__ import annotations

import re
from typing import BinaryIO

from toolhist.redact import redact_utf8

CHUNK = 8 * 1024 * 1024
"""How much is read before a cut is looked for (the pieces are about this size)."""
PEM_REACH = 20_200
"""How far a ``private-key`` block scan can read past its ``-----BEGIN``: 20,000 bytes of
``[^<]`` between header and END line, plus both header lines (at most about 70 bytes each)."""

_BLANKS = b" \t\n\r\f\v"
"""What ``\\s`` matches in a bytes pattern."""
_CLOSERS = b"{}[],"
_BEGIN = re.compile(rb"(?i)-----begin")


def safe_cut(buf: bytes | bytearray, lo: int = 0) -> int | None:
    """The last offset after ``lo`` where ``buf`` may be cut (just after a newline), or None.

    ``buf`` starts at a safe cut (or at the start of the file); only newlines at or after ``lo``
    are considered (those before it were, when less of the file was read).
    """
    end = len(buf)
    while True:
        newline = buf.rfind(b"\n", lo, end)
        if newline < 0:
            return None
        end = newline
        last = newline
        while last > 0 and buf[last - 1] in _BLANKS:
            last -= 1
        if last == 0 or buf[last - 1] not in _CLOSERS:
            continue
        cut = newline + 1
        if _BEGIN.search(buf, max(0, cut - PEM_REACH), cut) is None:
            return cut


def redact_stream(source: BinaryIO, target: BinaryIO, chunk: int | None = None) -> bool:
    """Write ``source``'s UTF-8 text to ``target`` with secrets replaced; False if it is not UTF-8.

    The same bytes as ``redact_text(text)`` on the whole text encoded, holding about ``chunk``
    bytes (`CHUNK` unless given) at a time; more only where no line end is a safe cut (all of a
    file that has none).
    """
    chunk = chunk or CHUNK
    buf = bytearray()
    searched = 0  # newlines before this offset are no safe cut (they stay none once a piece is cut)
    while True:
        block = source.read(chunk)
        if not block:
            return _write(target, bytes(buf))
        buf += block
        if len(buf) < chunk:
            continue
        cut = safe_cut(buf, searched)
        if cut is not None:
            if not _write(target, bytes(buf[:cut])):
                return False
            del buf[:cut]
        searched = len(buf)


def _write(target: BinaryIO, piece: bytes) -> bool:
    try:
        piece.decode("utf-8")
    except UnicodeDecodeError:
        return False
    target.write(redact_utf8(piece)[0])
    return True
