r"""Undo what terminals, chat UIs and issue trackers do to a pasted error before it is matched.

A provider's 400 text rarely reaches `toolhist.explain` as the provider wrote it. Measured on the pasted
texts in ``tests/corpus/pastes`` (real issue threads), the text has been:

- **wrapped** at the terminal's width, at any column: between words (Claude Code indents the next
  line by four or five spaces, rich logs by nine), and inside words, backticked names and ids
  (``invalid_request_er\nror``, ``res\nponses``);
- **boxed**: Ink and rich draw ``│`` borders padded with spaces to the box width, ``╭─╮`` rules above
  and below, ``⎿`` gutters (Claude Code), ``> `` quote marks (GitHub markdown);
- **escaped**: the error JSON sits inside another JSON or Python string, so quotes come as ``\"`` or
  ``\'`` and line breaks as a literal ``\n``; markdown escapes backticks as ``\```;
- **folded**: an input method turns brackets and colons into their fullwidth forms (U+FF3B for ``[``),
  editors turn quotes curly, and a joined line keeps a run of spaces where the break was.

Each function here undoes one of these and keeps the rest of the text, so the explainer can match its
patterns on the result. `compact_pattern` turns a pattern into one that ignores whitespace, for the
text whose wrap fell inside a word: only there is no place left where the break was.
"""

from __future__ import annotations

import re
import unicodedata

_BOX_RULE = re.compile(r"^[\s\u2500-\u257f\u2580-\u259f]+$")
"""A line drawn only of box-drawing and block characters (``╭──╮``, ``╰──╯``, ``├──┤``)."""
_LEFT_BORDER = re.compile(r"^\s*(?:[│┃║|⎿>]\s*)+")
"""Borders and gutters at a line's start: box sides, Claude Code's ``⎿``, markdown quote marks."""
_BOX_SIDE = re.compile(r"[│┃║]")
"""A box side anywhere (a box re-wrapped narrower puts its right side mid-line); no provider text has one.
A plain ``|`` is only a border at a line's start: elsewhere it is too often the text's own."""
_ESCAPE = re.compile(r"(?<!\\)\\++([\"'`nrt])")
"""A backslash run before a quote, backtick or n/r/t: one layer (or more) of string escaping."""
_SPACES = re.compile(r"[ \t\u00a0]{2,}")
_WHITESPACE = re.compile(r"\s+")
_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u2018": "'", "\u2019": "'"})
"""Curly quotes (editors, chat UIs) back to the straight ones the providers send."""
_QUANTIFIER = re.compile(r"(?:[?*+]|\{\d*,?\d*\})[?+]?")


def reflow(text: str) -> str:
    """The text on one line, as the provider sent it: borders, gutters and wrapping taken out.

    Every line break becomes one space, since most wraps fall between words; a wrap inside a word
    leaves a stray space that `compact` removes later. Runs of spaces (box padding, hanging indents,
    a joined line) become one.
    """
    lines = []
    for raw in text.splitlines():
        if _BOX_RULE.match(raw):
            continue
        line = _BOX_SIDE.sub(" ", _LEFT_BORDER.sub("", raw)).strip()
        if line:
            lines.append(line)
    folded = unicodedata.normalize("NFKC", " ".join(lines)).translate(_QUOTES)
    return _SPACES.sub(" ", folded)


def unescape(text: str) -> str:
    r"""String escaping taken off, however many layers: ``\\\"`` and ``\"`` become ``"``; ``\n`` a space."""

    def one(match: re.Match[str]) -> str:
        char = match.group(1)
        return " " if char in "nrt" else char

    return _SPACES.sub(" ", _ESCAPE.sub(one, text))


def compact(text: str) -> str:
    """The text without any whitespace, to be matched by `compact_pattern` patterns."""
    return _WHITESPACE.sub("", text)


def compact_pattern(source: str) -> str:
    r"""A regex source that matches `compact` text: its spaces and ``\s`` (with their quantifiers) dropped.

    Character classes are kept as they are (a class that excludes whitespace still stops where it did).
    """
    out: list[str] = []
    i, in_class = 0, False
    while i < len(source):
        char = source[i]
        if char == "\\":
            pair = source[i : i + 2]
            if not in_class and pair == "\\s":
                i = _skip_quantifier(source, i + 2)
                continue
            out.append(pair)
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
            if source[i + 1 : i + 2] == "]" or source[i + 1 : i + 3] == "^]":
                out.append(source[i : i + 2 + (source[i + 1] == "^")])
                i += 2 + (source[i + 1] == "^")
                continue
        elif char == " ":
            i = _skip_quantifier(source, i + 1)
            continue
        out.append(char)
        i += 1
    return "".join(out)


def _skip_quantifier(source: str, i: int) -> int:
    match = _QUANTIFIER.match(source, i)
    return match.end() if match else i


_LITERAL_END = re.compile(r"[\[\](){}|^$.*+?\\]")
QUOTES = "'\"`\u2018\u2019\u201c\u201d"
"""Quote characters: senders and relays quote names differently, so a cut paste is compared without them."""
_QUOTE_CLASS = re.compile(r"\[[" + QUOTES + r"]+\]\??")
"""A character class of quote characters only (``%q`` in the patterns), optional or not."""


def literal_head(source: str) -> tuple[str, dict[int, str]]:
    r"""The literal text a compact regex source starts with, and where its letter case is checked.

    The text is lower-cased and unquoted; the positions are those the pattern checks the case of
    (``(?-i:a)``: Kimi's lower-case first letter, DeepSeek's capital). ``\.`` counts as ``.``; a class of quote characters is skipped like the quotes themselves; a
    leading lookbehind is skipped. It stops at the first other construct, and leaves out a character
    a quantifier makes optional. Empty when the pattern starts with a group or another class.
    """
    start = _group_end(source, 0) if source.startswith(("(?<!", "(?<=")) else 0
    head, cased, _ = _literal(source, start)
    return head, cased


def literal_after_variable(source: str) -> tuple[str, dict[int, str], str]:
    r"""The literal opening words, their checked cases, and the literal words after one variable part.

    The variable part is what follows the opening words: an id group, a class with its quantifier, an
    optional letter. ``Toolcallidwas(?P<id>…)butmustbea-z,…`` gives ``toolcallidwas`` and ``butmustbea-z,…``: a title
    cut after Mistral's id still ends in known words. The words after are empty when the pattern
    ends, or goes on with a second variable part straight away.
    """
    start = _group_end(source, 0) if source.startswith(("(?<!", "(?<=")) else 0
    head, cased, end = _literal(source, start)
    after = _variable_end(source, end)
    if after is None:
        return head, cased, ""
    rest, _, _ = _literal(source, after)
    return head, cased, rest


def _variable_end(source: str, i: int) -> int | None:
    """Where the variable part that starts at ``i`` (a group, a class, or one quantified character) ends."""
    if i >= len(source):
        return None
    if source[i] == "(":
        j = _group_end(source, i)
    elif source[i] == "[":
        j = _class_end(source, i)
    elif source[i] == "\\":
        j = i + 2
    elif _LITERAL_END.match(source[i]):
        return None
    else:
        j = i + 1
    quantifier = _QUANTIFIER.match(source, j)
    return quantifier.end() if quantifier else j


def _class_end(source: str, start: int) -> int:
    """The index after the character class that opens at ``start``."""
    i = start + 1 + (source[start + 1 : start + 2] == "^")
    i += source[i : i + 1] == "]"  # a leading ] is a member
    while i < len(source) and source[i] != "]":
        i += 2 if source[i] == "\\" else 1
    return min(i + 1, len(source))


def _literal(source: str, i: int) -> tuple[str, dict[int, str], int]:
    """The literal text from ``i`` (lower-cased, unquoted), the cases it checks, and where it stopped."""
    out: list[str] = []
    cased: dict[int, str] = {}
    while i < len(source):
        if (quote := _QUOTE_CLASS.match(source, i)) is not None:
            i = quote.end()
            continue
        if source.startswith("(?-i:", i):
            end = source.find(")", i)
            if end < 0 or not source[i + 5 : end].isalpha():
                break
            for char in source[i + 5 : end]:
                cased[len(out)] = char
                out.append(char.lower())
            i = end + 1
            continue
        char = source[i]
        if char == "\\" and i + 1 < len(source) and not source[i + 1].isalnum():
            char, step = source[i + 1], 2
        elif _LITERAL_END.match(char):
            break
        else:
            step = 1
        if source[i + step : i + step + 1] in ("?", "*", "{"):
            break
        if char not in QUOTES:
            out.append(char.lower())
        i += step
    return "".join(out), cased, i


def _group_end(source: str, start: int) -> int:
    """The index after the group that opens at ``start`` (escapes and classes taken into account)."""
    depth, i, in_class = 0, start, False
    while i < len(source):
        char = source[i]
        if char == "\\":
            i += 2
            continue
        if in_class:
            in_class = char != "]"
        elif char == "[":
            in_class = True
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(source)
