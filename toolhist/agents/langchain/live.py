"""LangChain's live objects: ``BaseMessage`` lists (or a LangGraph state's), dumped by LangChain itself.

``messages_to_dict`` (langchain-core) gives the ``{"type", "data"}`` form its reader reads, so a
live list and a file written with ``messages_to_dict`` are read by one path.
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def dump(value: Any) -> Any:
    """The messages in ``value`` (a message or a list of them) as ``messages_to_dict`` writes them."""
    from langchain_core.messages import BaseMessage, messages_to_dict  # imported already: ``value`` is its

    messages = list(value) if isinstance(value, list | tuple) else [value]
    return [
        messages_to_dict([m])[0]
        if isinstance(m, BaseMessage)
        else m  # a dict left in the list stays as given
        for m in messages
    ]


LIVE = Live(modules=("langchain_core", "langchain", "langgraph"), dump=dump, format="langchain")
