r"""Where the Copilot CLI keeps its sessions, what an events file's first bytes say, and where it ran.

- Places: ``$COPILOT_HOME``, else ``~/.copilot`` (``%USERPROFILE%\.copilot`` on Windows); sessions are
  ``session-state/<sessionId>/events.jsonl`` ("The runtime stores session state under the configured
  COPILOT_HOME, including session-state/{sessionId}", github/copilot-sdk
  ``docs/setup/multi-tenancy.md``; "When empty, the runtime defaults to ~/.copilot",
  ``go/README.md``; ``docs/features/agent-loop.md`` names the file; all at
  cc0438d66e3e68c333537cb935d9425d4e4ed8d5). A flat ``session-state/<id>.jsonl`` of earlier builds
  is read the same way. The pre-1.0 ``history-session-state/*.json`` dumps are listed, not read
  (one JSON object with a ``timeline``; viewers note that the CLI itself dropped them).
- Where it ran: the CLI talks to GitHub's Copilot API, which serves each model in its family's wire
  format: its recorded endpoints are ``/chat/completions``, ``/v1/messages`` (Anthropic Messages)
  and ``/responses`` (session-events.ts ``AssistantUsageApiEndpoint``). A ``model.call_failure``
  names the endpoint; otherwise the model's family says (Claude → Anthropic Messages, inferred from
  those endpoints), so the listing judges by model as for VS Code's Copilot Chat.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head
from toolhist.model import Session

LEGACY: Final = "history-session-state"
ENDPOINTS: Final = {
    "/v1/messages": "anthropic",
    "/responses": "openai-responses",
    "ws:/responses": "openai-responses",
    "/chat/completions": "openai-chat",
}
"""The CLI's model endpoints (session-events.ts ``AssistantUsageApiEndpoint``) → toolhist provider."""
FAMILIES: Final = (
    ("claude", "anthropic"),
    ("gemini", "gemini"),
    ("gpt", "openai-chat"),
    ("o", "openai-chat"),
)
WIRE: Final = {p: p for p in ("anthropic", "gemini", "openai-chat", "openai-responses")}
"""The names `session_says` gives (already toolhist's providers)."""


def home(place: Home) -> Path:
    """``$COPILOT_HOME`` or ``~/.copilot``."""
    return place.dir("COPILOT_HOME") or place.path / ".copilot"


def places(place: Home) -> tuple[Path, ...]:
    """``session-state`` and the legacy ``history-session-state`` (the same on every OS)."""
    root = home(place)
    return unique([root / "session-state", root / LEGACY])


def header(head: Head) -> dict[str, Any]:
    """Line 1 is ``session.start`` (``context.cwd``, ``selectedModel``); message events counted."""
    first, problem = head.first_line()
    if problem is None and not (isinstance(first, dict) and first.get("type") == "session.start"):
        problem = "line 1 is not a session.start event"
    model = head.string("selectedModel") or head.string("newModel") or head.string("model")
    messages, counted = head.count("type", ("user.message", "assistant.message"))
    return {
        "project": head.string("cwd"),
        "model": model,
        RAN_ON: (None, model),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def sessions(folder: Path) -> Iterator[Found]:
    """``session-state/<id>/events.jsonl`` and ``session-state/<id>.jsonl``; legacy dumps listed unread."""
    if folder.name == LEGACY:
        for path in files(folder, suffixes=(".json",)):
            problem = "a pre-1.0 Copilot CLI history (history-session-state); toolhist reads events.jsonl"
            yield Found(path, None, problem=problem)
        return
    for session in dirs(folder):
        yield from (Found(path, header) for path in files(session, prefix="events", suffixes=(".jsonl",)))
    yield from (Found(path, header) for path in files(folder, suffixes=(".jsonl",)))


def session_says(session: Session) -> tuple[str, str] | None:
    """The endpoint a failed call named, else the last model's family (see the module notes)."""
    if session.source.format != "copilot-cli":
        return None
    endpoints = session.metadata.get("api_endpoints")
    if isinstance(endpoints, list):
        for endpoint in reversed(endpoints):
            if isinstance(endpoint, str) and endpoint in ENDPOINTS:
                return ENDPOINTS[endpoint], f"model.call_failure apiEndpoint {endpoint}"
    model = session.request.get("model")
    if not isinstance(model, str):
        return None
    name = model.rsplit("/", 1)[-1].lower()
    for prefix, provider in FAMILIES:
        if name.startswith(prefix) and (prefix != "o" or name[1:2].isdigit()):
            return provider, "the model's family, through GitHub's Copilot API"
    return None
