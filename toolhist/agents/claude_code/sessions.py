r"""Where Claude Code keeps its sessions, and what a session file's first bytes say.

Claude Code is closed source; its layout is documented: ``~/.claude/projects/<cwd, every
non-alphanumeric character as ->/<session-uuid>.jsonl``; ``CLAUDE_CONFIG_DIR`` replaces ``~/.claude``,
and on Windows ``~/.claude`` is ``%USERPROFILE%\.claude`` (code.claude.com/docs/en/claude-directory).
Subagents live in ``<session-uuid>/subagents/`` and are parts of their session, not sessions.
"""

from __future__ import annotations

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
