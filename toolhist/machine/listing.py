"""The sessions each agent keeps on this machine, newest first, from headers only.

`list_sessions` walks the folders `places` names, one agent at a time, and makes one `SessionRow`
per session file from its first bytes (`toolhist.agents.headers`). A file that cannot be read, or
whose first record is not what the agent writes, is still a row, with its ``problem``. Verdicts
need the whole file and are computed on demand (`toolhist.machine.judge`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlparse

from toolhist.agents.headers import Counted, Head, read_head, small_json
from toolhist.machine.places import Places, places
from toolhist.machine.ran_on import ran_on

AGENTS: Final = ("claude-code", "codex", "gemini-cli", "vscode", "cline", "roo", "kilo", "llxprt")
"""Agent names for ``--agent`` (Cline, Roo and Kilo apart: same file, different homes)."""

FORMATS: Final = {
    "claude-code": "claude-code",
    "codex": "codex",
    "gemini-cli": "gemini-cli",
    "vscode": "vscode",
    "cline": "kilo",
    "roo": "kilo",
    "kilo": "kilo",
    "llxprt": "llxprt-checkpoint",
}
"""The reader (``--format``) for each agent's session files."""


@dataclass(frozen=True)
class SessionRow:
    """One session an agent keeps on this machine."""

    agent: str
    """One of `AGENTS`."""
    path: Path
    modified: float
    """Last modified (the file's mtime, seconds since the epoch)."""
    project: str | None
    """The folder the session worked in (its header's cwd, the workspace, the task's folder)."""
    messages: int | None
    """Messages, counted as ``counted`` says."""
    counted: Counted | None
    model: str | None
    """The model the header names first."""
    provider: str | None
    """The toolhist provider it ran on (`toolhist.machine.ran_on`), None when the header does not say."""
    problem: str | None = None
    """Why the file cannot be listed or read; the other fields are then partly empty."""
    verdict: str | None = None
    """``provider``'s verdict on the next request (`toolhist.machine.judge`); None until computed."""
    rules: tuple[str, ...] = ()
    """The rules broken there (with the verdict)."""

    @property
    def format(self) -> str:
        """The reader id for this file."""
        return FORMATS[self.agent]

    @property
    def read_format(self) -> str | None:
        """The format to read the file with: `format`, but None (detect) for an llxprt ``.json`` checkpoint.

        Named, the llxprt-checkpoint format streams a file on disk as JSON Lines (recordings), and a
        pretty-printed checkpoint then fails on its first line; detection reads it right.
        """
        return None if self.format == "llxprt-checkpoint" and self.path.suffix == ".json" else self.format

    def when(self) -> str:
        """``modified`` as ``YYYY-MM-DD HH:MM`` UTC."""
        return datetime.fromtimestamp(self.modified, UTC).strftime("%Y-%m-%d %H:%M")

    def to_json(self) -> dict[str, Any]:
        """The ``toolhist sessions --json`` object."""
        return {
            "agent": self.agent,
            "path": str(self.path),
            "modified": datetime.fromtimestamp(self.modified, UTC).isoformat().replace("+00:00", "Z"),
            "project": self.project,
            "messages": self.messages,
            "counted": self.counted,
            "model": self.model,
            "provider": self.provider,
            "format": self.format,
            "verdict": self.verdict,
            "rules": list(self.rules),
            "problem": self.problem,
        }


Maker = Callable[[Head], dict[str, Any]]


def _row(agent: str, path: Path, make: Maker, extra: dict[str, Any] | None = None) -> SessionRow:
    """A row from the file's head; ``make`` returns the fields it found (and ``problem``)."""
    try:
        stat = path.stat()
    except OSError as exc:
        return SessionRow(agent, path, 0.0, None, None, None, None, None, problem=exc.strerror or str(exc))
    base = SessionRow(agent, path, stat.st_mtime, None, None, None, None, None)
    try:
        fields = make(read_head(str(path), stat.st_size))
    except OSError as exc:
        return replace(base, problem=exc.strerror or str(exc), **(extra or {}))
    return replace(base, **{**(extra or {}), **fields})


def _unread(agent: str, path: Path, problem: str, extra: dict[str, Any] | None = None) -> SessionRow:
    """A row for a file toolhist lists but does not read (its mtime, and why)."""
    try:
        modified = path.stat().st_mtime
    except OSError:
        modified = 0.0
    row = SessionRow(agent, path, modified, None, None, None, None, None, problem=problem)
    return replace(row, **(extra or {}))


def _files(folder: Path, *, prefix: str = "", suffixes: tuple[str, ...]) -> Iterator[Path]:
    """Regular files directly in ``folder`` named ``prefix…suffix``, sorted."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.name.startswith(prefix) and entry.name.endswith(suffixes) and entry.is_file():
            yield Path(entry.path)


def _dirs(folder: Path) -> Iterator[Path]:
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        return
    for entry in entries:
        if entry.is_dir() and not entry.name.startswith("."):
            yield Path(entry.path)


def _claude(head: Head) -> dict[str, Any]:
    """Claude Code: ``cwd`` and ``message.model`` on the message lines; user/assistant lines counted."""
    _, problem = head.first_line()
    messages, counted = head.count("type", ("user", "assistant"))
    model = head.string("model")
    return {
        "project": head.string("cwd"),
        "model": model,
        "provider": ran_on("claude-code"),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def claude_code(folder: Path) -> Iterator[SessionRow]:
    """``projects/<escaped cwd>/<session>.jsonl`` (subagent files are parts of their session)."""
    for project in _dirs(folder):
        for path in _files(project, suffixes=(".jsonl",)):
            if not path.name.startswith("agent-"):
                yield _row("claude-code", path, _claude)


def _codex(head: Head) -> dict[str, Any]:
    """Codex: line 1 is ``session_meta`` (``cwd``, ``model_provider``); the model is in ``turn_context``."""
    first, problem = head.first_line()
    meta = first.get("payload") if isinstance(first, dict) and first.get("type") == "session_meta" else None
    if problem is None and not isinstance(meta, dict):
        problem = "line 1 is not a session_meta record"
    messages, counted = head.count("type", ("response_item",))
    return {
        "project": meta.get("cwd") if isinstance(meta, dict) else None,
        "model": head.string("model"),
        "provider": ran_on("codex"),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def codex(folder: Path) -> Iterator[SessionRow]:
    """``sessions/YYYY/MM/DD/rollout-*.jsonl``; compressed ``.jsonl.zst`` rollouts are listed, unread."""
    for year in _dirs(folder):
        for month in _dirs(year):
            for day in _dirs(month):
                for path in _files(day, prefix="rollout-", suffixes=(".jsonl", ".jsonl.zst")):
                    if path.name.endswith(".zst"):
                        problem = "a zstd-compressed rollout; toolhist reads plain .jsonl only"
                        yield _unread("codex", path, problem)
                    else:
                        yield _row("codex", path, _codex)


def _gemini(head: Head, *, lines: bool, checkpoint: bool) -> dict[str, Any]:
    """Gemini CLI: a metadata line then records ``user`` / ``gemini`` (``model`` on the latter).

    A legacy ``.json`` session and a checkpoint are one JSON document: their first line is not checked.
    """
    _, problem = head.first_line() if lines else (None, None)
    if checkpoint:
        messages, counted = head.count("role", ("user", "model"))
    else:
        messages, counted = head.count("type", ("user", "gemini"))
    return {
        "model": head.string("model"),
        "provider": ran_on("gemini-cli"),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def _project_root(folder: Path) -> str | None:
    """The project a Gemini CLI temp folder belongs to (its ``.project_root`` marker), if it says."""
    try:
        return (folder / ".project_root").read_text(encoding="utf-8").strip() or None
    except (OSError, UnicodeDecodeError):
        return None


def gemini_cli(folder: Path) -> Iterator[SessionRow]:
    """``tmp/<project>/chats/session-*.json[l]`` and ``tmp/<project>/checkpoint-*.json``."""
    for project in _dirs(folder):
        extra = {"project": _project_root(project)}
        for path in _files(project / "chats", prefix="session-", suffixes=(".jsonl", ".json")):
            lines = path.suffix == ".jsonl"
            yield _row("gemini-cli", path, partial(_gemini, lines=lines, checkpoint=False), extra)
        for path in _files(project, prefix="checkpoint-", suffixes=(".json",)):
            yield _row("gemini-cli", path, partial(_gemini, lines=False, checkpoint=True), extra)


def _vscode(head: Head) -> dict[str, Any]:
    """VS Code: one JSON document; two messages per request (the prompt and its answer)."""
    requests, counted = head.count_keys("requestId")
    model = head.string("modelId")
    return {
        "model": model,
        "provider": ran_on("vscode", model=model),
        "messages": 2 * requests,
        "counted": counted,
    }


def _workspace(folder: Path) -> str | None:
    """The folder (or ``.code-workspace``) a ``workspaceStorage/<id>`` belongs to, from ``workspace.json``."""
    data = small_json(str(folder / "workspace.json"))
    uri = data.get("folder") or data.get("workspace") if isinstance(data, dict) else None
    if not isinstance(uri, str):
        return None
    parsed = urlparse(uri)
    if parsed.scheme != "file":
        return uri
    path = unquote(parsed.path)
    return path[1:] if len(path) > 2 and path[0] == "/" and path[2] == ":" else path  # /c:/x → c:/x


def vscode(user: Path) -> Iterator[SessionRow]:
    """``workspaceStorage/<id>/chatSessions/*.json`` and ``globalStorage/emptyWindowChatSessions/*.json``."""
    folders = [(ws / "chatSessions", _workspace(ws)) for ws in _dirs(user / "workspaceStorage")]
    folders.append((user / "globalStorage" / "emptyWindowChatSessions", "(no folder)"))
    for chats, project in folders:
        for path in _files(chats, suffixes=(".json", ".jsonl")):
            if path.suffix == ".jsonl":
                problem = "a VS Code 1.109+ append-only session log (.jsonl); toolhist reads the .json form"
                yield _unread("vscode", path, problem, {"project": project})
            else:
                yield _row("vscode", path, _vscode, {"project": project})


ENV_DIR = re.compile(rb"Current Workspace Directory \((.{1,1024}?)\) Files")
"""Roo and Kilo's environment details in the first user message (Roo ``getEnvironmentDetails.ts`` 230)."""
API_PROTOCOL = re.compile(rb'apiProtocol\\?"\s*:\s*\\?"(\w+)')
"""``apiProtocol`` in an ``api_req_started`` record of ``ui_messages.json`` (a JSON string inside JSON)."""


def _task(agent: str, history: dict[str, Any]) -> Maker:
    """Cline, Roo, Kilo: ``api_conversation_history.json``, one JSON array of role messages."""

    def make(head: Head) -> dict[str, Any]:
        messages, counted = head.count("role", ("user", "assistant"))
        fields: dict[str, Any] = {"messages": messages, "counted": counted}
        if agent == "cline":  # modelInfo {modelId, providerId} on assistant messages, else the task list
            model = head.string("modelId") or history.get("modelId")
            fields.update(model=model, provider=ran_on("cline", head.string("providerId"), model))
        elif fields.get("project") is None and (found := ENV_DIR.search(head.data)) is not None:
            fields["project"] = found.group(1).decode("utf-8", "replace").replace("\\\\", "\\")
        return fields

    return make


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
        extra["provider"] = ran_on("roo", found.group(1).decode())
    return extra


def _task_history(tasks: Path) -> dict[str, dict[str, Any]]:
    """Cline's task list (``state/taskHistory.json`` beside ``tasks``) by task id."""
    data = small_json(str(tasks.parent / "state" / "taskHistory.json"), limit=64 << 20)
    items = data if isinstance(data, list) else []
    return {str(i["id"]): i for i in items if isinstance(i, dict) and "id" in i}


def tasks(agent: str, folder: Path) -> Iterator[SessionRow]:
    """``tasks/<id>/api_conversation_history.json``; a task folder without one is a row saying so."""
    history = _task_history(folder) if agent == "cline" else {}
    for task in _dirs(folder):
        path = task / "api_conversation_history.json"
        item = history.get(task.name, {})
        extra = {"project": item.get("cwdOnTaskInitialization")} if agent == "cline" else _roo_extra(task)
        if not path.is_file():
            problem = "no api_conversation_history.json in this task folder"
            yield _unread(agent, task, problem, extra)
        else:
            yield _row(agent, path, _task(agent, item), extra)


def _llxprt(head: Head) -> dict[str, Any]:
    """An llxprt recording: line 1 is ``session_start`` (provider, model, cwd / workspaceDirs)."""
    first, problem = head.first_line()
    start = first.get("payload") if isinstance(first, dict) and first.get("type") == "session_start" else None
    if problem is None and not isinstance(start, dict):
        problem = "line 1 is not a session_start record"
    start = start if isinstance(start, dict) else {}
    dirs = start.get("workspaceDirs")
    project = start.get("cwd") or (dirs[0] if isinstance(dirs, list) and dirs else None)
    messages, counted = head.count("type", ("content",))
    provider = start.get("provider")
    model = start.get("model")
    return {
        "project": project if isinstance(project, str) else None,
        "model": model if isinstance(model, str) else None,
        "provider": ran_on("llxprt", provider if isinstance(provider, str) else None),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def _llxprt_checkpoint(head: Head) -> dict[str, Any]:
    messages, counted = head.count("role", ("user", "model"))
    return {"messages": messages, "counted": counted}


def llxprt(folder: Path) -> Iterator[SessionRow]:
    """``tmp/<sha256>/chats/session-*.jsonl`` (recordings) and ``tmp/<sha256>/checkpoint-*.json``."""
    for project in _dirs(folder):
        for path in _files(project / "chats", prefix="session-", suffixes=(".jsonl",)):
            yield _row("llxprt", path, _llxprt)
        for path in _files(project, prefix="checkpoint-", suffixes=(".json",)):
            yield _row("llxprt", path, _llxprt_checkpoint)


def walk(where: Places, agents: tuple[str, ...] = AGENTS) -> Iterator[SessionRow]:
    """Every session of ``agents`` in ``where``, in folder order."""
    wanted = set(agents)
    if "claude-code" in wanted:
        for folder in where.claude:
            yield from claude_code(folder)
    if "codex" in wanted:
        for folder in where.codex:
            yield from codex(folder)
    if "gemini-cli" in wanted:
        for folder in where.gemini:
            yield from gemini_cli(folder)
    if "vscode" in wanted:
        for user in where.vscode:
            yield from vscode(user)
    for agent, folder in where.tasks:
        if agent in wanted:
            yield from tasks(agent, folder)
    if "llxprt" in wanted:
        for folder in where.llxprt:
            yield from llxprt(folder)


def list_sessions(home: Path | str | None = None, agents: tuple[str, ...] | None = None) -> list[SessionRow]:
    """Every session the agents keep under ``home`` (see `places`), newest first.

    ``agents`` limits the listing to those agents (`AGENTS`); headers only, no verdicts.
    """
    where = places(Path(home) if home is not None else None)
    rows = list(walk(where, agents or AGENTS))
    return sorted(rows, key=lambda r: (-r.modified, str(r.path)))
