"""The rollout of a ``codex exec --json`` stream's thread: where Codex kept what it sent.

``codex exec`` records its session like the interactive CLI: ``$CODEX_HOME`` (else ``~/.codex``)
``sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl``, the thread id being the stream's
``thread.started`` ``thread_id`` (openai/codex ``codex-rs/exec/src/event_processor_with_jsonl_output.rs``
maps ``SessionConfigured.session_id`` to ``thread_id``; ``codex-rs/rollout`` names the file after
it; see `toolhist.agents.codex.sessions`). The rollout's first line (``session_meta``) names the
provider (``model_provider``) and version; its ``turn_context`` lines name the model.

`pair` looks beside the stream first (a user who saved both), then in the sessions folder; only
file names are matched and one line read, so nothing the stream names is fetched or opened
beyond the user's own Codex folders.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import JsonValue


@dataclass(frozen=True)
class Paired:
    """The rollout found for a thread, and what its first lines say."""

    path: str
    model_provider: str | None
    cli_version: str | None
    model: str | None

    def as_json(self) -> dict[str, JsonValue]:
        """The fields for ``Session.metadata["rollout"]``."""
        return {
            "path": self.path,
            "model_provider": self.model_provider,
            "cli_version": self.cli_version,
            "model": self.model,
        }


def _sessions() -> Path:
    home = os.environ.get("CODEX_HOME", "").strip()
    return (Path(home) if home else Path.home() / ".codex") / "sessions"


def _candidates(thread: str, stream: str | None) -> list[Path]:
    name = f"-{thread}.jsonl"
    found: list[Path] = []
    if stream is not None:
        folder = Path(stream).parent
        found += sorted(p for p in folder.glob(f"rollout-*{name}") if p.is_file())
    root = _sessions()
    if root.is_dir():
        found += sorted(root.glob(f"*/*/*/rollout-*{name}"))
    return found


def _head(path: Path) -> tuple[dict[str, Any], str | None]:
    """``session_meta``'s payload and the first ``turn_context`` model, from the first lines."""
    meta: dict[str, Any] = {}
    model = None
    try:
        with path.open("rb") as fh:
            for n, raw in enumerate(fh):
                if n > 64:
                    break
                try:
                    line = json.loads(raw)
                except ValueError:
                    continue
                payload = line.get("payload") if isinstance(line, dict) else None
                if line.get("type") == "session_meta" and isinstance(payload, dict):
                    meta = payload
                elif line.get("type") == "turn_context" and isinstance(payload, dict):
                    model = payload.get("model") if isinstance(payload.get("model"), str) else model
                    break
    except OSError:
        return {}, None
    return meta, model


def pair(thread: str | None, stream: str | None) -> Paired | None:
    """The rollout of ``thread``, beside ``stream`` or in the Codex sessions folder, or None."""
    if not thread or "/" in thread or "\\" in thread:
        return None
    for path in _candidates(thread, stream):
        meta, model = _head(path)
        provider = meta.get("model_provider")
        version = meta.get("cli_version")
        return Paired(
            str(path),
            provider if isinstance(provider, str) else ("openai" if meta else None),
            version if isinstance(version, str) else None,
            model,
        )
    return None
