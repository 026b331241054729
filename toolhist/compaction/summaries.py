"""The text that replaces an older tool call: one line per call, and the historical summary (tier 2).

One line per call, in the RFC's own example form (``[Earlier: Read /src/foo.ts lines 1-50]``): it
names what the call touched (path and lines read, file changed, command and exit code, query) so the
model still knows the facts without the text. The historical summary groups the lines by category
in first-seen order, like Kilo's ``summarizeOldCalls``, with one difference: errors are kept in full
(Kilo cut them to 200 characters), because an error is what the model must not repeat.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from pydantic import JsonValue

from toolhist.compaction.categories import Category, named_facts

SHORT: Final = 80
"""Longest argument or command text quoted in a summary line; longer is cut with ``…``."""

HEADINGS: Final[dict[Category, str]] = {
    "read": "Read",
    "write": "Changed",
    "execution": "Ran",
    "query": "Searched",
    "other": "Called",
}


def _short(text: str, limit: int = SHORT) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _size(text: str) -> str:
    lines = text.count("\n") + 1 if text else 0
    return f"{lines} line{'s' if lines != 1 else ''}, {len(text)} chars"


def call_line(
    name: str, category: Category, parameters: JsonValue, result: JsonValue, result_text: str
) -> str:
    """``[Earlier: …]``: the one line that stands for a call and its (successful) result."""
    found = named_facts(category, parameters, result)  # only what this category's line names
    if category == "read":
        what = found.path or found.query or name
        lines = f" lines {found.lines}" if found.lines else ""
        match = f" matching {_short(found.query)!r}" if found.path and found.query else ""
        body = f"Read {_short(what)}{lines}{match} with {name} ({_size(result_text)})"
    elif category == "write":
        body = f"Changed {_short(found.path)} with {name}" if found.path else f"Changed files with {name}"
    elif category == "execution":
        command = f"`{_short(found.command)}`" if found.command else name
        code = f" - exit {found.exit_code}" if found.exit_code is not None else " - ok"
        body = f"Ran {command}{code} ({_size(result_text)})"
    elif category == "query":
        query = f" {_short(found.query)!r}" if found.query else ""
        body = f"Searched{query} with {name}"
    else:
        args = json.dumps(parameters, ensure_ascii=False, separators=(",", ":")) if parameters else ""
        body = f"Called {name}({_short(args)})" if args else f"Called {name}"
    return f"[Earlier: {body}]"


@dataclass(frozen=True)
class SummaryItem:
    """One compacted call as the historical summary lists it."""

    category: Category
    line: str
    """`call_line` for a success; for an error, ``name: <error text in full>``."""
    is_error: bool


def historical_summary(items: Sequence[SummaryItem]) -> str:
    """Tier 2 as one text: the calls grouped by category (first-seen order), then every error in full."""
    if not items:
        return ""
    order: list[Category] = []
    for item in items:
        if not item.is_error and item.category not in order:
            order.append(item.category)
    lines = ["[Earlier in this session:]"]
    for category in order:
        mine = [i.line for i in items if i.category == category and not i.is_error]
        lines.append(f"- {HEADINGS[category]}: {len(mine)} call(s)")
        lines += [f"  {line}" for line in mine]
    errors = [i.line for i in items if i.is_error]
    if errors:
        lines += ["", "[Errors encountered:]"]
        lines += [f"- {line}" for line in errors]
    return "\n".join(lines)
