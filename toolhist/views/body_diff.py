"""Two providers' bodies for one message, what differs; and a repaired row's message as sent.

The Payloads page sets every provider's entries for message N side by side (`toolhist.views.body`);
beside them, `line_diff` marks what differs between two of them: a unified line diff (`difflib`) of
the entries' JSON lines as the page numbers them (`toolhist.views.payloads.json_lines`), returned as
plain text for ``st.code(…, language="diff")``, which shows it escaped (session content never
becomes HTML or Markdown). Only the messages of the page's window are diffed, so a long session
costs what the window costs. A line longer than `WIDTH` is cut for display only: lines are compared
whole.

A repaired view numbers its rows by the repaired history; `source_numbers` maps each repaired message
back to the message of the session as sent (the number Home and the Timeline use), from the rows of
the diff the Curation page shows (`toolhist.views.curation_rows.diffed`).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, Final

from toolhist.diff import DiffRow
from toolhist.views.body import Sections
from toolhist.views.payloads import json_lines

CONTEXT: Final = 3
"""Unchanged lines shown around each difference."""
WIDTH: Final = 400
"""Characters of a diff line shown (a tool result can be one line of megabytes)."""


def message_lines(entry: Callable[[int], Any], sect: Sections, message: int) -> list[str]:
    """The JSON lines of every entry a body holds for source ``message`` (none: an empty list).

    ``entry`` gives entry N of the body's message list (`toolhist.views.packed.Packed.entry`).
    """
    if sect.list_key is None:
        return []
    return [text for n in sect.entries.get(message, ()) for text, _ in json_lines(entry(n))]


def line_diff(before: Sequence[str], after: Sequence[str], before_name: str, after_name: str) -> str | None:
    """A unified diff of two providers' lines for one message; None when they are the same."""
    if list(before) == list(after):
        return None
    lines = difflib.unified_diff(before, after, before_name, after_name, n=CONTEXT, lineterm="")
    return "\n".join(line if len(line) <= WIDTH else line[:WIDTH] + "…" for line in lines)


def source_numbers(rows: Iterable[DiffRow]) -> dict[int, int | None]:
    """Repaired message → the message it came from as sent (None: inserted by the strategy).

    ``rows`` are the diff's (`toolhist.diff.Diff.rows`), the same pairs the Curation page's table shows.
    """
    return {row.after: row.before for row in rows if row.after is not None}


def source_label(message: int, sources: Mapping[str, Mapping[int, int | None]]) -> str:
    """``source message 3`` (every provider agrees), ``source: anthropic 3, gemini 4``, or ``inserted…``.

    A provider whose repaired history is shorter than ``message`` says nothing.
    """
    each = {provider: numbers[message] for provider, numbers in sources.items() if message in numbers}
    spoken = {"inserted by the strategy" if n is None else f"source message {n}" for n in each.values()}
    if len(spoken) == 1:
        return spoken.pop()
    return "source: " + ", ".join(f"{p} {'inserted' if n is None else n}" for p, n in each.items())
