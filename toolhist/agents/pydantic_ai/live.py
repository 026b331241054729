"""pydantic-ai's live objects: ``ModelMessage`` lists and run results, dumped by pydantic-ai itself.

``ModelMessagesTypeAdapter.dump_python(messages, mode="json")`` is the JSON its reader reads (the
same value ``result.all_messages_json()`` writes), so a live history and a dumped file are read by
one path. A run result (``AgentRunResult``, ``StreamedRunResult``) gives ``all_messages()``.
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def dump(value: Any) -> Any:
    """The history in ``value`` (a message, a list of them, or a run result) as pydantic-ai's JSON."""
    from pydantic_ai.messages import ModelMessagesTypeAdapter  # imported already: ``value`` is one of its

    if callable(getattr(value, "all_messages", None)):
        value = value.all_messages()
    messages = list(value) if isinstance(value, list | tuple) else [value]
    return ModelMessagesTypeAdapter.dump_python(messages, mode="json")


LIVE = Live(modules=("pydantic_ai",), dump=dump, format="pydantic-ai")
