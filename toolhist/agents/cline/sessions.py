r"""Where Cline, Roo Code and Kilo Code keep their tasks, and what a task's files say.

- Cline: ``$CLINE_DATA_DIR``, else ``$CLINE_DIR/data``, else ``~/.cline/data``; tasks in
  ``tasks/<id>/api_conversation_history.json``, the task list in ``state/taskHistory.json``
  (cline/cline @21cb8d25 ``apps/vscode/src/shared/storage/storage-context.ts`` 93-100,
  ``sdk/legacy-state-reader.ts`` 20-60). Older releases kept the same ``tasks/`` folder in VS Code's
  ``globalStorage/saoudrizwan.claude-dev``.
- Roo Code and Kilo Code: ``globalStorage/<extension id>/tasks/<id>/api_conversation_history.json``
  (RooCodeInc/Roo-Code @cb836567 ``src/utils/storage.ts`` 53-58; Kilo-Org/kilocode
  ``src/shared/globalFileNames.ts`` @74d6e483). A custom storage path set in Roo's settings is not
  followed.

Where a task ran: Cline records ``modelInfo.providerId`` on each assistant message (cline/cline
``apps/vscode/src/shared/messages/metrics.ts``, ``ClineMessageModelInfo``); most of its providers
are OpenAI-compatible. Roo and Kilo record the API protocol of each request in ``ui_messages.json``
(``api_req_started`` text ``apiProtocol``: ``anthropic`` | ``openai``; RooCodeInc/Roo-Code
``packages/types/src/message.ts`` 272, ``src/core/task/Task.ts`` 2572-2591).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found, Header, Home, dirs
from toolhist.agents.headers import Head, small_json
from toolhist.agents.vscode.sessions import user_folders

EXTENSIONS: Final = {
    "cline": "saoudrizwan.claude-dev",
    "roo": "rooveterinaryinc.roo-cline",
    "kilo": "kilocode.kilo-code",
}
"""VS Code extension ids whose ``globalStorage`` folder holds the agent's ``tasks/``."""

CLINE_PROVIDERS: Final = {
    "anthropic": "anthropic",
    "gemini": "gemini",
    "openai": "openai-chat",
    "openai-native": "openai-chat",
    "openrouter": "openai-chat",
    "deepseek": "openai-chat",
    "ollama": "openai-chat",
    "lmstudio": "openai-chat",
    "xai": "openai-chat",
    "together": "openai-chat",
    "fireworks": "openai-chat",
    "vertex": "anthropic",
    "bedrock": "bedrock",
    "mistral": "mistral",
    "moonshot": "kimi",
    "kimi": "kimi",
}
"""Cline ``providerId`` values (its api providers) → toolhist provider."""

API_PROTOCOLS: Final = {"anthropic": "anthropic", "openai": "openai-chat"}
"""Roo and Kilo ``apiProtocol`` values → toolhist provider."""

OPENAI_IS_CHAT: Final = {"openai": "openai-chat"}
"""Cline's ``openai`` (OpenAI Compatible) is ``OpenAiHandler``, ``client.chat.completions.create``
(cline/cline ``src/core/api/providers/openai.ts`` at 9ee618111d58630fea30b27439216448225458e0)."""

ENV_DIR = re.compile(rb"Current Workspace Directory \((.{1,1024}?)\) Files")
"""Roo and Kilo's environment details in the first user message (Roo ``getEnvironmentDetails.ts`` 230)."""
API_PROTOCOL = re.compile(rb'apiProtocol\\?"\s*:\s*\\?"(\w+)')
"""``apiProtocol`` in an ``api_req_started`` record of ``ui_messages.json`` (a JSON string inside JSON)."""


def places(agent: str, home: Home) -> tuple[Path, ...]:
    """``agent``'s ``tasks`` folders: Cline's own data folder first, then each VS Code ``globalStorage``."""
    tasks = []
    if agent == "cline":
        data = home.dir("CLINE_DATA_DIR") or (home.dir("CLINE_DIR") or home.path / ".cline") / "data"
        tasks.append(data / "tasks")
    tasks += [u / "globalStorage" / EXTENSIONS[agent] / "tasks" for u in user_folders(home)]
    return tuple(dict.fromkeys(tasks))


def _header(agent: str, history: dict[str, Any]) -> Header:
    """``api_conversation_history.json``, one JSON array of role messages."""

    def header(head: Head) -> dict[str, Any]:
        messages, counted = head.count("role", ("user", "assistant"))
        fields: dict[str, Any] = {"messages": messages, "counted": counted}
        if agent == "cline":  # modelInfo {modelId, providerId} on assistant messages, else the task list
            model = head.string("modelId") or history.get("modelId")
            fields.update(model=model, **{RAN_ON: (head.string("providerId"), model)})
        elif fields.get("project") is None and (found := ENV_DIR.search(head.data)) is not None:
            fields["project"] = found.group(1).decode("utf-8", "replace").replace("\\\\", "\\")
        return fields

    return header


def _roo_extra(task: Path) -> dict[str, Any]:
    """Roo / Kilo side files: ``history_item.json`` (workspace), ``ui_messages.json`` (apiProtocol)."""
    extra: dict[str, Any] = {}
    item = small_json(str(task / "history_item.json"))
    if isinstance(item, dict) and isinstance(item.get("workspace"), str):
        extra["project"] = item["workspace"]
    try:
        with open(task / "ui_messages.json", "rb") as f:
            found = API_PROTOCOL.search(f.read(64 * 1024))
    except OSError:
        found = None
    if found is not None:
        extra[RAN_ON] = (found.group(1).decode(), None)
    return extra


def _task_history(tasks: Path) -> dict[str, dict[str, Any]]:
    """Cline's task list (``state/taskHistory.json`` beside ``tasks``) by task id."""
    data = small_json(str(tasks.parent / "state" / "taskHistory.json"), limit=64 << 20)
    items = data if isinstance(data, list) else []
    return {str(i["id"]): i for i in items if isinstance(i, dict) and "id" in i}


def sessions(agent: str, folder: Path) -> Iterator[Found]:
    """``tasks/<id>/api_conversation_history.json``; a task folder without one is listed, saying so."""
    history = _task_history(folder) if agent == "cline" else {}
    for task in dirs(folder):
        path = task / "api_conversation_history.json"
        item = history.get(task.name, {})
        extra = {"project": item.get("cwdOnTaskInitialization")} if agent == "cline" else _roo_extra(task)
        if not path.is_file():
            yield Found(task, None, extra, "no api_conversation_history.json in this task folder")
        else:
            yield Found(path, _header(agent, item), extra)
