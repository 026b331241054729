"""Frameworks' live objects, handed to `toolhist.load` in the user's own process.

``toolhist.load(result.all_messages())`` (pydantic-ai), ``toolhist.load(messages)`` (LangChain
``BaseMessage`` objects), ``toolhist.load(state)`` (a LangGraph state whose ``messages`` are
those): an object is a framework's when its class's module is inside one of the packages its
`toolhist.agents.spec.Live` names. Nothing is imported to tell (a framework that is not installed
cannot have made the object); the framework's own serialiser then turns it into the JSON its
reader reads, so a live history and its dumped file are read by the same reader.
"""

from __future__ import annotations

import os
from typing import Any

from toolhist.agents.registry import AGENTS
from toolhist.agents.spec import Live

_JSON = (str, int, float, bool, type(None), dict, list, bytes, bytearray, memoryview, os.PathLike)


def _sample(source: Any) -> Any:
    """The first object of ``source`` that is not plain JSON (or a path), or None."""
    if isinstance(source, list | tuple):
        return next((x for x in source if not isinstance(x, _JSON)), None)
    if isinstance(source, dict):
        inner = source.get("messages")
        return _sample(inner) if isinstance(inner, list | tuple) else None
    return None if isinstance(source, _JSON) else source


def framework_of(source: Any) -> Live | None:
    """The framework whose live object ``source`` is (or holds), or None for plain input."""
    sample = _sample(source)
    if sample is None:
        return None
    module = type(sample).__module__ or ""
    for agent in AGENTS:
        live = agent.live
        if live is not None and any(module == m or module.startswith(m + ".") for m in live.modules):
            return live
    return None


def as_json(source: Any) -> tuple[Any, str] | None:
    """``source`` as (the JSON its framework's reader reads, that reader's id), or None for plain input."""
    live = framework_of(source)
    if live is None:
        return None
    inner = source.get("messages") if isinstance(source, dict) else source
    return live.dump(inner), live.format


def name_of(source: Any, fmt: str) -> str:
    """What errors call a live object: ``<pydantic-ai objects: list of 4>``."""
    size = f": list of {len(source)}" if isinstance(source, list | tuple) else ""
    return f"<{fmt} objects{size}>"
