"""The Agents SDK's live objects: a run result or its items, as the input item list the SDK replays.

``RunResult.to_input_list()`` is the history the SDK sends on the next run (openai/openai-agents-python
``src/agents/result.py``); a ``RunItem`` gives ``to_input_item()``; an openai ``BaseModel`` item
(``ResponseFunctionToolCall``…) is dumped with the fields that were set. A list of plain dicts
(what ``to_input_list()`` returns) is JSON already and is read as ``openai-responses`` without this.

The SDK's raw model output (``result.raw_responses[i].output``, ``ModelResponse.output``) is the
openai package's own Responses items (``openai.types.responses``: ``ResponseFunctionToolCall``,
``ResponseOutputMessage``…), which the SDK replays by dumping them the same way
(``ModelResponse.to_input_items`` in ``src/agents/items.py``), so those are taken here too.
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def _item(value: Any) -> Any:
    if callable(getattr(value, "to_input_item", None)):
        value = value.to_input_item()
    if callable(getattr(value, "model_dump", None)):
        return value.model_dump(mode="json", exclude_unset=True)
    return value


def dump(value: Any) -> Any:
    """The input items of ``value`` (a run result, a list of items or run items)."""
    if callable(getattr(value, "to_input_list", None)):
        value = value.to_input_list()
    items = list(value) if isinstance(value, list | tuple) else [value]
    return [_item(item) for item in items]


LIVE = Live(modules=("agents", "openai.types.responses"), dump=dump, format="openai-responses")
