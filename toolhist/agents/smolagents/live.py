"""smolagents' live objects: an agent, its memory, memory steps or ChatMessages, dumped by smolagents.

``agent.memory`` (an ``AgentMemory``) gives its system prompt and ``get_full_steps()``; a step
gives ``dict()``; a ``ChatMessage`` gives ``dict()`` (huggingface/smolagents
``src/smolagents/memory.py``, ``models.py``).
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def dump(value: Any) -> Any:
    """The memory in ``value`` (an agent, its memory, a list of steps or of ChatMessages) as JSON."""
    memory = getattr(value, "memory", None)
    if memory is not None and callable(getattr(memory, "get_full_steps", None)):
        value = memory
    if callable(getattr(value, "get_full_steps", None)):
        system = getattr(getattr(value, "system_prompt", None), "system_prompt", None)
        return {"system_prompt": system, "steps": value.get_full_steps()}
    items = list(value) if isinstance(value, list | tuple) else [value]
    return [item.dict() if callable(getattr(item, "dict", None)) else item for item in items]


LIVE = Live(modules=("smolagents",), dump=dump, format="smolagents")
