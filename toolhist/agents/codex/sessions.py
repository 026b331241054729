"""Where Codex keeps its rollouts, what a rollout's first bytes say, and what says where it ran.

- Places: ``$CODEX_HOME`` else ``~/.codex``; ``sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``
  (openai/codex ``codex-rs/rollout/src/lib.rs`` ``SESSIONS_SUBDIR = "sessions"``, @04d96e64;
  ``list.rs`` filters on ``rollout-`` + ``.jsonl``). Newer builds may compress old rollouts to
  ``.jsonl.zst`` (``rollout/src/compression.rs``): listed, with the reason they are not read.
- Where it ran: Codex sends the Responses API whatever the model; ``model_provider`` in
  ``session_meta`` names the endpoint, not the shape. Its built-in ``openai`` provider is
  ``WireApi::Responses`` (openai/codex ``codex-rs/core/src/model_provider_info.rs``); a rollout
  older than the field only ever spoke to OpenAI.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head
from toolhist.model import Session


def places(home: Home) -> tuple[Path, ...]:
    """The ``sessions`` folder under ``$CODEX_HOME`` or ``~/.codex`` (the same on every OS)."""
    return unique([(home.dir("CODEX_HOME") or home.path / ".codex") / "sessions"])


def header(head: Head) -> dict[str, Any]:
    """Line 1 is ``session_meta`` (``cwd``, ``model_provider``); the model is in ``turn_context``."""
    first, problem = head.first_line()
    meta = first.get("payload") if isinstance(first, dict) and first.get("type") == "session_meta" else None
    if problem is None and not isinstance(meta, dict):
        problem = "line 1 is not a session_meta record"
    messages, counted = head.count("type", ("response_item",))
    return {
        "project": meta.get("cwd") if isinstance(meta, dict) else None,
        "model": head.string("model"),
        RAN_ON: (None, None),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def sessions(folder: Path) -> Iterator[Found]:
    """``sessions/YYYY/MM/DD/rollout-*.jsonl``; compressed ``.jsonl.zst`` rollouts are listed, unread."""
    for year in dirs(folder):
        for month in dirs(year):
            for day in dirs(month):
                for path in files(day, prefix="rollout-", suffixes=(".jsonl", ".jsonl.zst")):
                    if path.name.endswith(".zst"):
                        problem = "a zstd-compressed rollout; toolhist reads plain .jsonl only"
                        yield Found(path, None, problem=problem)
                    else:
                        yield Found(path, header)


def session_says(session: Session) -> tuple[str, str] | None:
    """The rollout's ``session_meta.model_provider``; ``openai`` for a Codex rollout without the field."""
    meta_line = session.metadata.get("session_meta")
    if not isinstance(meta_line, dict):
        return None
    said_it = "model_provider" in meta_line
    named = meta_line.get("model_provider", "openai" if session.source.format == "codex" else None)
    if not isinstance(named, str):
        return None
    # a rollout older than the field: Codex then only spoke to OpenAI (model_provider_info.rs)
    return named, (
        "session_meta.model_provider" if said_it else "session_meta without model_provider: Codex's default"
    )
