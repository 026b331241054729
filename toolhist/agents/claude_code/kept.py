"""What a Claude Code message keeps of its line's ``toolUseResult``: the small fields the views read."""

from __future__ import annotations

from typing import Any

from pydantic import JsonValue

RESULT_KEPT_CHARS = 256
"""Longest string of a line's ``toolUseResult`` kept on its message (`kept_result`)."""


def _small(value: Any) -> bool:
    return (
        value is None
        or isinstance(value, bool | int | float)
        or (isinstance(value, str) and len(value) <= RESULT_KEPT_CHARS)
    )


def kept_result(value: Any) -> tuple[bool, JsonValue]:
    """What a message keeps of its line's ``toolUseResult`` (whether, and what): scalars and short strings.

    Claude Code writes there the tool's whole output again, for its own UI: a Bash call's
    ``stdout``/``stderr``, a Read's ``file.content``, an Edit's ``originalFile`` (the whole file before
    the edit) and ``structuredPatch``; kept whole it doubled the content of a log in memory (issue 26:
    a 1 GB Claude Code log peaked at 2.46x its size). No rule reads it and no provider is sent it;
    the views read ``agentId`` (`toolhist.views.transcript.subagent_of`, the subagent a Task result
    names). So an object keeps its top-level scalars and short strings, a scalar or short string
    is kept as it is, and a long string or a list is not kept. The rest stays in the file:
    ``extra["lines"]`` says which line holds it.
    """
    if isinstance(value, dict):
        return True, {k: v for k, v in value.items() if _small(v)}
    return _small(value), value if _small(value) else None
