r"""Where Continue keeps its sessions, and what a session file's first bytes say.

- Places: ``$CONTINUE_GLOBAL_DIR`` (made absolute against the working directory when relative), else
  ``~/.continue`` (``%USERPROFILE%\.continue`` on Windows); sessions are
  ``sessions/<sessionId>.json`` beside the ``sessions.json`` index (continuedev/continue
  ``core/util/paths.ts`` ``CONTINUE_GLOBAL_DIR``, ``getSessionsFolderPath``, ``getSessionFilePath``,
  ``getSessionsListPath`` at d0a3c0b626b5bebc3bef4742eec05a0242be0bab). The Continue CLI (``cn``)
  saves its sessions in the same folder (``extensions/cli/src/session.ts``).
- Where it ran: each answer's ``promptLogs[].modelProvider`` is Continue's provider id
  (``underlyingProviderName``: ``anthropic``, ``openai``, ``gemini``, ``ollama``…).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlparse

from toolhist.agents.folders import RAN_ON, Found, Home, files, unique
from toolhist.agents.headers import Head

PROVIDER_NAMES: Final = {
    "anthropic": "anthropic",
    "gemini": "gemini",
    "mistral": "mistral",
    "bedrock": "bedrock",
    "ollama": "openai-chat",
    "deepseek": "openai-chat",
    "openrouter": "openai-chat",
}
"""Continue's provider ids (``llm/llms/*.ts`` ``providerName``) whose wire format is toolhist's."""


def places(home: Home) -> tuple[Path, ...]:
    """The ``sessions`` folder under ``$CONTINUE_GLOBAL_DIR`` or ``~/.continue`` (every OS)."""
    return unique([(home.dir("CONTINUE_GLOBAL_DIR") or home.path / ".continue") / "sessions"])


def _folder(uri: str | None) -> str | None:
    """A ``file://`` workspace URI as its path (other URIs as they are)."""
    if uri is None or not uri.startswith("file://"):
        return uri
    path = unquote(urlparse(uri).path)
    return path[1:] if len(path) > 2 and path[0] == "/" and path[2] == ":" else path  # /c:/x → c:/x


def header(head: Head) -> dict[str, Any]:
    """``workspaceDirectory``, the chat model's title, the first ``modelProvider``; messages counted."""
    model = head.string("chatModelTitle") or head.string("modelTitle")
    messages, counted = head.count("role", ("user", "assistant"))
    return {
        "project": _folder(head.string("workspaceDirectory")),
        "model": model,
        RAN_ON: (head.string("modelProvider"), model),
        "messages": messages,
        "counted": counted,
    }


def sessions(folder: Path) -> Iterator[Found]:
    """``sessions/<id>.json``; the ``sessions.json`` index is not a session."""
    for path in files(folder, suffixes=(".json",)):
        if path.name != "sessions.json":
            yield Found(path, header)
