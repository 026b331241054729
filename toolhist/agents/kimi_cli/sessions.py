"""Where Kimi CLI keeps its sessions, what a context file's first bytes say, and what says where it ran.

- Places: ``$KIMI_SHARE_DIR`` else ``~/.kimi`` (the same under every OS's home), then
  ``sessions/<md5 of the work dir>/<session id>/context.jsonl``; before 0.60 (Nov 2025) the context
  file was ``sessions/<md5>/<session id>.jsonl``, which Kimi CLI still migrates on resume
  (MoonshotAI/kimi-cli @4a550eff ``src/kimi_cli/share.py`` ``get_share_dir``,
  ``src/kimi_cli/metadata.py`` ``WorkDirMeta.sessions_dir``, ``src/kimi_cli/session.py``
  ``_migrate_session_context_file``; ``docs/en/configuration/data-locations.md``). Sessions imported
  with ``kimi vis`` are under ``imported_sessions/<session id>/``. A subagent's
  ``subagents/<agent id>/context.jsonl`` is part of its session, not listed on its own. The work
  dir of each md5 is in ``kimi.json`` (``work_dirs[].path``).
- Where it ran: the session does not say; the provider is the user's ``config.toml``. Kimi's own
  API writes tool call ids as ``functions.<name>:<index>`` (the form toolhist's ``kimi`` rules
  expect, ``toolhist/providers/kimi.py``); a context whose calls all have that form ran on Kimi,
  which is inferred, not recorded.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head, small_json
from toolhist.model import Session

KIMI_ID: Final = re.compile(r"^functions\.[A-Za-z0-9_.-]+:\d+$")
_KIMI_ID_BYTES: Final = re.compile(rb'"id"\s*:\s*"functions\.[A-Za-z0-9_.-]{1,128}:\d{1,6}"')
EVIDENCE: Final = (
    "inferred: every tool call id is in Kimi's own form functions.<name>:<index> "
    "(a Kimi CLI context file names no provider)"
)


def places(home: Home) -> tuple[Path, ...]:
    """``sessions`` and ``imported_sessions`` under ``$KIMI_SHARE_DIR`` or ``~/.kimi``."""
    share = home.dir("KIMI_SHARE_DIR") or home.path / ".kimi"
    return unique([share / "sessions", share / "imported_sessions"])


def header(head: Head) -> dict[str, Any]:
    """Roles counted; Kimi's own call ids, when present, say it ran on Kimi."""
    _, problem = head.first_line()
    messages, counted = head.count("role", ("user", "assistant", "tool", "system"))
    return {
        RAN_ON: ("kimi" if _KIMI_ID_BYTES.search(head.data) else None, None),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def _work_dirs(share: Path) -> dict[str, str]:
    """md5 of each work dir → the work dir, from ``kimi.json``."""
    meta = small_json(str(share / "kimi.json"))
    entries = meta.get("work_dirs") if isinstance(meta, dict) else None
    out: dict[str, str] = {}
    for entry in entries if isinstance(entries, list) else []:
        path = entry.get("path") if isinstance(entry, dict) else None
        if isinstance(path, str):
            out[hashlib.md5(path.encode()).hexdigest()] = path
    return out


def sessions(folder: Path) -> Iterator[Found]:
    """``<md5>/<session>/context.jsonl`` and the older ``<md5>/<session>.jsonl``; imported sessions too."""
    known = _work_dirs(folder.parent)
    if folder.name == "imported_sessions":
        for session in dirs(folder):
            yield from (
                Found(p, header)
                for p in files(session, suffixes=("context.jsonl",))
                if p.name == "context.jsonl"
            )
        return
    for work_dir in dirs(folder):
        extra = {"project": known.get(work_dir.name.rpartition("_")[2])}
        for session in dirs(work_dir):
            for path in files(session, suffixes=("context.jsonl",)):
                if path.name == "context.jsonl":
                    yield Found(path, header, extra)
        for path in files(work_dir, suffixes=(".jsonl",)):
            yield Found(path, header, extra)


def session_says(session: Session) -> tuple[str, str] | None:
    """``kimi`` when every tool call id of a Kimi CLI context is in Kimi's own form."""
    if session.source.format != "kimi-cli":
        return None
    ids = [b.raw_id or b.id for m in session.messages for b in m.tool_calls()]
    if ids and all(KIMI_ID.match(i) for i in ids):
        return "kimi", EVIDENCE
    return None
