"""mini-SWE-agent's and SWE-agent's live objects: an agent, or what its run returns.

mini-SWE-agent's ``DefaultAgent`` keeps its history in ``messages`` (a list of dicts) and writes its
trajectory with ``serialize()`` (SWE-agent/mini-swe-agent a83fcae82d2a08f0ee0c688f9d137b3566c097f8,
``src/minisweagent/agents/default.py``); SWE-agent's ``DefaultAgent`` keeps ``history`` and
``trajectory`` and its run returns an ``AgentRunResult`` (``info``, ``trajectory``: a pydantic model,
``sweagent/types.py``). Each is dumped to what the file readers read; nothing is imported.
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def dump_mini(value: Any) -> Any:
    """``value`` (an agent, or its messages) as a trajectory: ``serialize()`` where the agent has it."""
    if callable(getattr(value, "serialize", None)):
        return value.serialize()
    messages = getattr(value, "messages", value)
    return list(messages) if isinstance(messages, list | tuple) else messages


def dump_swe(value: Any) -> Any:
    """``value`` (an agent or an ``AgentRunResult``) as ``{"history"}`` or ``{"info", "trajectory"}``."""
    history = getattr(value, "history", None)
    if isinstance(history, list):
        return {"history": history, "info": dict(getattr(value, "info", None) or {})}
    if callable(getattr(value, "model_dump", None)):
        return value.model_dump(mode="json")
    return value


MINI_LIVE = Live(modules=("minisweagent",), dump=dump_mini, format="mini-swe-agent")
SWE_LIVE = Live(modules=("sweagent",), dump=dump_swe, format="swe-agent")
