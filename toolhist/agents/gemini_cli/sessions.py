"""Where Gemini CLI keeps its sessions and checkpoints, and what a file's first bytes say.

``$GEMINI_CLI_HOME`` (a home folder) else the home; ``.gemini/tmp/<project>/``, where ``<project>``
is a slug (``.project_root`` inside names the folder) or a legacy SHA-256 of the path; sessions in
``chats/session-<time>-<id8>.jsonl`` (older ``.json``), ``/chat save`` checkpoints as
``checkpoint-<tag>.json`` (google-gemini/gemini-cli @5411f113 ``packages/core/src/utils/paths.ts``
13-27, ``config/storage.ts`` 154-185, ``config/projectRegistry.ts`` 24,
``services/chatRecordingService.ts`` 510-517).
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import partial
from pathlib import Path
from typing import Any

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head


def places(home: Home) -> tuple[Path, ...]:
    """The ``.gemini/tmp`` folder under ``$GEMINI_CLI_HOME`` or the home (the same on every OS)."""
    return unique([(home.dir("GEMINI_CLI_HOME") or home.path) / ".gemini" / "tmp"])


def header(head: Head, *, lines: bool, checkpoint: bool) -> dict[str, Any]:
    """A metadata line then records ``user`` / ``gemini`` (``model`` on the latter).

    A legacy ``.json`` session and a checkpoint are one JSON document: their first line is not checked.
    """
    _, problem = head.first_line() if lines else (None, None)
    if checkpoint:
        messages, counted = head.count("role", ("user", "model"))
    else:
        messages, counted = head.count("type", ("user", "gemini"))
    return {
        "model": head.string("model"),
        RAN_ON: (None, None),
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


def sessions(folder: Path) -> Iterator[Found]:
    """``tmp/<project>/chats/session-*.json[l]`` and ``tmp/<project>/checkpoint-*.json``."""
    for project in dirs(folder):
        extra = {"project": _project_root(project)}
        for path in files(project / "chats", prefix="session-", suffixes=(".jsonl", ".json")):
            lines = path.suffix == ".jsonl"
            yield Found(path, partial(header, lines=lines, checkpoint=False), extra)
        for path in files(project, prefix="checkpoint-", suffixes=(".json",)):
            yield Found(path, partial(header, lines=False, checkpoint=True), extra)
