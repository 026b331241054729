"""Where the OpenHands CLI keeps its conversations, what a conversation folder says, and where it ran.

- Places: ``$OPENHANDS_CONVERSATIONS_DIR``, else ``$OPENHANDS_PERSISTENCE_DIR/conversations``, else
  ``~/.openhands/conversations`` (the same under every OS's home): OpenHands/OpenHands-CLI
  ``openhands_cli/locations.py`` ``get_persistence_dir``, ``get_conversations_dir`` (as the search
  index holds it, id 53816186054). Each conversation is a folder named by its id (hex), holding
  ``base_state.json`` and ``events/event-<index>-<event id>.json``
  (OpenHands/software-agent-sdk @611629e6 ``openhands-sdk/openhands/sdk/conversation/persistence_const.py``).
- Where it ran: ``base_state.json`` names the agent's LLM as a LiteLLM model string
  (``agent.llm.model``: ``anthropic/claude-…``, ``gpt-5``, ``litellm_proxy/…``); LiteLLM sends the
  provider's own API for a provider prefix (or a bare model of that vendor), and the SDK sends GPT-5
  and ``codex-mini-latest`` through the Responses API (``llm/utils/model_features.py``
  ``RESPONSES_API_MODELS``). A proxy (``litellm_proxy/``, OpenHands' own ``openhands/``, OpenRouter)
  or a custom ``base_url`` is named, with no toolhist provider.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, unique
from toolhist.agents.headers import small_json
from toolhist.model import Session

PREFIXES: Final = {
    "anthropic": "anthropic",
    "gemini": "gemini",
    "mistral": "mistral",
    "bedrock": "bedrock",
    "moonshot": "kimi",
    "openai": "openai-chat",
}
"""LiteLLM provider prefixes whose API is the vendor's own → toolhist provider."""
BARE: Final = (
    ("claude", "anthropic"),
    ("gemini", "gemini"),
    ("gpt", "openai-chat"),
    ("o3", "openai-chat"),
    ("o4", "openai-chat"),
)
RESPONSES: Final = ("gpt-5", "codex-mini-latest")


def provider_of(model: str, base_url: str | None = None) -> str | None:
    """The toolhist provider a LiteLLM model string sends to, or None for a proxy or custom endpoint."""
    prefix, _, name = model.partition("/") if "/" in model else ("", "", model)
    if base_url and prefix in ("", "openai"):
        return None
    if prefix and prefix not in PREFIXES:
        return None
    provider = PREFIXES.get(prefix) or next((p for start, p in BARE if name.lower().startswith(start)), None)
    if provider == "openai-chat" and any(r in name.lower() for r in RESPONSES):
        return "openai-responses"
    return provider


NAMES: Final = {"openhands:" + k: v for k, v in {**PREFIXES, "responses": "openai-responses"}.items()}
"""How `header` and `session_says` name a provider (``openhands:<litellm prefix>``) → toolhist provider."""


def _named(model: str, base_url: str | None) -> str:
    found = provider_of(model, base_url)
    if found is None:
        return model.partition("/")[0] if "/" in model else model
    if found == "openai-responses":
        return "openhands:responses"
    return "openhands:" + next(k for k, v in PREFIXES.items() if v == found)


def places(home: Home) -> tuple[Path, ...]:
    """``$OPENHANDS_CONVERSATIONS_DIR``, else ``conversations`` in the persistence dir (``~/.openhands``)."""
    named = home.dir("OPENHANDS_CONVERSATIONS_DIR")
    if named is not None:
        return unique([named])
    return unique([(home.dir("OPENHANDS_PERSISTENCE_DIR") or home.path / ".openhands") / "conversations"])


def _describe(folder: Path) -> dict[str, Any]:
    """What a conversation folder's ``base_state.json`` (model, workspace) and event file names say."""
    state = small_json(str(folder / "base_state.json"), limit=4 << 20)
    agent = state.get("agent") if isinstance(state, dict) else None
    llm = agent.get("llm") if isinstance(agent, dict) else None
    model = llm.get("model") if isinstance(llm, dict) and isinstance(llm.get("model"), str) else None
    base_url = llm.get("base_url") if isinstance(llm, dict) and isinstance(llm.get("base_url"), str) else None
    try:
        events = sum(
            1 for n in os.listdir(folder / "events") if n.startswith("event-") and n.endswith(".json")
        )
    except OSError:
        events = 0
    workspace = state.get("workspace") if isinstance(state, dict) else None
    project = workspace.get("working_dir") if isinstance(workspace, dict) else None
    return {
        "project": project if isinstance(project, str) else None,
        "model": model,
        RAN_ON: (_named(model, base_url) if model else None, None),
        "messages": events,
        "counted": "records",
    }


def sessions(folder: Path) -> Iterator[Found]:
    """``conversations/<id>/``: the folder is the session (its events counted as messages, an upper bound)."""
    for conversation in dirs(folder):
        if (conversation / "events").is_dir() or (conversation / "base_state.json").is_file():
            yield Found(conversation, None, _describe(conversation))


def session_says(session: Session) -> tuple[str, str] | None:
    """``base_state.json``'s ``agent.llm.model``, named as `header` names it."""
    if session.source.format != "openhands":
        return None
    llm = session.metadata.get("llm")
    model = llm.get("model") if isinstance(llm, dict) else None
    if not isinstance(model, str):
        return None
    url = llm.get("base_url") if isinstance(llm, dict) else None
    base_url = url if isinstance(url, str) else None
    return _named(model, base_url), f"base_state.json agent.llm.model {model!r}"
