"""Inspect AI's live objects: an ``EvalLog``, an ``EvalSample``, a ``TaskState`` or ``ChatMessage`` list.

Each is a pydantic model of Inspect's own; ``model_dump(mode="json")`` is the JSON its log
writer writes (``src/inspect_ai/log/_file.py`` writes ``EvalLog`` the same way), so the live object
and the log are read by one reader.
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def _plain(value: Any) -> Any:
    return (
        value.model_dump(mode="json", exclude_none=True)
        if callable(getattr(value, "model_dump", None))
        else value
    )


def dump(value: Any) -> Any:
    """``value`` as the JSON Inspect writes for it (a TaskState gives its messages)."""
    if not callable(getattr(value, "model_dump", None)) and isinstance(
        getattr(value, "messages", None), list
    ):
        value = value.messages  # a solver's TaskState
    if isinstance(value, list | tuple):
        return [_plain(m) for m in value]
    return _plain(value)


LIVE = Live(modules=("inspect_ai",), dump=dump, format="inspect-ai")
