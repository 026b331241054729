r"""Where Claude Code keeps its sessions, and what a session file's first bytes say.

Claude Code is closed source; its layout is documented: ``~/.claude/projects/<cwd, every
non-alphanumeric character as ->/<session-uuid>.jsonl``; ``CLAUDE_CONFIG_DIR`` replaces ``~/.claude``,
and on Windows ``~/.claude`` is ``%USERPROFILE%\.claude`` (code.claude.com/docs/en/claude-directory).
Subagents live in ``<session-uuid>/subagents/`` and are parts of their session, not sessions.

A subagent's file has two places, by release (`subagent_files`):

- newer releases: ``<project>/<session-uuid>/subagents/agent-<agentId>.jsonl``, as Claude Code
  2.1.39 wrote tests/corpus/logs/claude-code/marot-spotter-subagent-a2898e3.jsonl (marot/spotter,
  test/fixtures/transcripts/4d5611e5-241a-462a-8d15-5122611a9569/subagents/agent-a2898e3.jsonl at
  53a088d2335599db2a99d1099be22152d1785d6f): every line ``isSidechain: true``, ``agentId``, and the
  ``sessionId`` of its session, whose main file is ``<project>/<sessionId>.jsonl``;
- older releases: ``<project>/agent-<agentId>.jsonl`` beside the session files, "when isSidechain &&
  agentId" (jeremedia/claude-code-log-format, source-docs/JSONL_LOGGING.md at
  006ad802088ac02be02b42ec99758163934d0ff5, read from Claude Code 2.0.55's cli.js). The folder holds
  every session's subagents, so the ``sessionId`` the lines carry (as in the marot file) says whose.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head


def places(home: Home) -> tuple[Path, ...]:
    """The ``projects`` folder (the same path on every OS, under the home or ``CLAUDE_CONFIG_DIR``)."""
    return unique([(home.dir("CLAUDE_CONFIG_DIR") or home.path / ".claude") / "projects"])


def header(head: Head) -> dict[str, Any]:
    """``cwd`` and ``message.model`` on the message lines; user/assistant lines counted."""
    _, problem = head.first_line()
    messages, counted = head.count("type", ("user", "assistant"))
    model = head.string("model")
    return {
        "project": head.string("cwd"),
        "model": model,
        RAN_ON: (None, None),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def sessions(folder: Path) -> Iterator[Found]:
    """``projects/<escaped cwd>/<session>.jsonl`` (subagent files are parts of their session)."""
    for project in dirs(folder):
        for path in files(project, suffixes=(".jsonl",)):
            if not path.name.startswith("agent-"):
                yield Found(path, header)


HEAD_BYTES = 16_384
"""Bytes read from a subagent file's start to find its ``sessionId`` (the first line's fifth field)."""
_SESSION_ID = re.compile(rb'"sessionId"\s*:\s*"([^"\\]{1,200})"')


@functools.lru_cache(maxsize=1024)
def _session_id_at(path: str, mtime_ns: int, size: int) -> str | None:
    """The first ``sessionId`` in the file's head (``mtime_ns``, ``size``: a rewritten file is read again)."""
    try:
        with open(path, "rb") as f:
            found = _SESSION_ID.search(f.read(HEAD_BYTES))
    except OSError:
        return None
    return found.group(1).decode("utf-8", "replace") if found else None


def session_id_of(path: Path) -> str | None:
    """The ``sessionId`` a Claude Code file's lines carry (None when its head names none)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return _session_id_at(str(path), stat.st_mtime_ns, stat.st_size)


def subagent_files(session_file: Path, session_id: str | None) -> list[Path]:
    """The subagent files of the session in ``session_file``, in both layouts (see the module doc).

    ``<session>/subagents/*.jsonl``, then the ``agent-*.jsonl`` files beside it whose ``sessionId``
    is ``session_id`` (an older release's; each file's head is read once while it is unchanged).
    """
    found = sorted(
        p for p in session_file.with_suffix("").joinpath("subagents").glob("*.jsonl") if p.is_file()
    )
    if session_id:
        found += [
            p
            for p in sorted(session_file.parent.glob("agent-*.jsonl"))
            if p != session_file and p.is_file() and session_id_of(p) == session_id
        ]
    return found


def main_file_of(subagent_file: Path, session_id: str | None) -> Path | None:
    """The main file of the session a subagent file belongs to, in either layout, when it is there."""
    if subagent_file.parent.name == "subagents":
        candidate = subagent_file.parent.parent.with_suffix(".jsonl")
    elif session_id and subagent_file.name.startswith("agent-"):
        candidate = subagent_file.parent / f"{session_id}.jsonl"
    else:
        return None
    return candidate if candidate.is_file() and candidate != subagent_file else None
