"""Where OpenCode keeps its sessions, and what says where one ran.

- Places: OpenCode's data folder is ``$XDG_DATA_HOME/opencode``, else ``~/.local/share/opencode``,
  on every OS (``xdg-basedir``'s ``xdgData``, which has no Windows or macOS case;
  anomalyco/opencode ``packages/opencode/src/global/index.ts`` at
  0259f2c1393f945b12cb8b5dcce9e1f9c39cdb82). The database there is ``opencode.db``, or
  ``opencode-<channel>.db`` for a build of another channel; ``$OPENCODE_DB`` names another file, a
  relative name inside the data folder (``packages/opencode/src/storage/db.ts``, ``Database.path``,
  quoted in the search index's copies of it). Sessions from before the database are JSON files
  under ``storage/session/<project>/``; one already copied into a database there is listed once.
- Where it ran: each assistant message names its ``providerID`` (OpenCode's provider ids, from
  models.dev). Each provider's SDK package fixes the wire format: ``anthropic`` is
  ``@ai-sdk/anthropic``, ``openai`` the Responses API (``CUSTOM_LOADERS.openai`` returns
  ``sdk.responses(modelID)``, ``packages/opencode/src/provider/provider.ts``), ``google`` the
  Gemini API, ``amazon-bedrock`` Converse, ``mistral`` Mistral's, ``moonshotai`` Kimi's
  Chat Completions. Routers and compatible endpoints (``openrouter``, ``opencode`` Zen,
  ``github-copilot``, ``google-vertex``…) are reported by name with no toolhist provider: which
  format they speak depends on the model (inferred from the same loaders; not read from models.dev).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents import stores
from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head, small_json
from toolhist.agents.opencode.reader import ID_PREFIX, OpenCodeReader

READER: Final = OpenCodeReader()

WIRE: Final = {
    "anthropic": "anthropic",
    "openai": "openai-responses",
    "google": "gemini",
    "amazon-bedrock": "bedrock",
    "mistral": "mistral",
    "moonshotai": "kimi",
    "moonshotai-cn": "kimi",
}
"""OpenCode provider ids whose wire format OpenCode's own code fixes → toolhist provider."""


def places(home: Home) -> tuple[Path, ...]:
    """The data folder (``$XDG_DATA_HOME`` or ``~/.local/share``), and the store ``$OPENCODE_DB`` names.

    ``$OPENCODE_DB`` is a file: an absolute path, or a name inside the data folder (``:memory:``
    keeps nothing). It is listed as a place of its own, read by `sessions` as one store.
    """
    data = (home.dir("XDG_DATA_HOME") or home.path / ".local" / "share") / "opencode"
    named = home.env.get("OPENCODE_DB", "").strip()
    store = None if named in ("", ":memory:") else Path(named) if Path(named).is_absolute() else data / named
    listed = store is not None and store.parent == data and store.name.startswith("opencode")
    return unique([data] if store is None or listed else [data, store])


def sessions(folder: Path) -> Iterator[Found]:
    """Every session of each ``opencode*.db`` in ``folder``, then ``storage/`` sessions not in one.

    A place that is a file (``$OPENCODE_DB``) is read as that one store.
    """
    if folder.is_file():
        if stores.is_store(str(folder)):
            yield from stores.found_in(READER, folder)
        return
    listed: set[str] = set()
    for path in files(folder, prefix="opencode", suffixes=(".db",)):
        if not stores.is_store(str(path)):
            continue
        for found in stores.found_in(READER, path):
            session = found.extra.get("session")
            if isinstance(session, str):
                listed.add(session)
            yield found
    storage = folder / "storage"
    for project in dirs(storage / "session"):
        for path in files(project, prefix=ID_PREFIX, suffixes=(".json",)):
            if path.stem not in listed:
                yield Found(path, storage_header, extra=_storage_extra(storage, path.stem))


def storage_header(head: Head) -> dict[str, Any]:
    """A storage session's info file: its ``directory`` (the messages are counted beside it)."""
    try:
        info = json.loads(head.data)
    except ValueError as exc:
        return {"problem": f"not valid JSON: {exc}"}
    if not isinstance(info, dict):
        return {"problem": "not an OpenCode session info object"}
    folder = info.get("directory")
    return {"project": folder if isinstance(folder, str) else None}


def _storage_extra(storage: Path, session: str) -> dict[str, Any]:
    """Messages counted by file, and the newest assistant message's provider and model."""
    found = sorted((storage / "message" / session).glob("*.json"))
    provider = model = None
    for path in reversed(found):
        message = small_json(str(path))
        if isinstance(message, dict) and message.get("role") == "assistant":
            provider, model = message.get("providerID"), message.get("modelID")
            break
    return {
        "messages": len(found),
        "counted": "records",
        "model": model if isinstance(model, str) else None,
        RAN_ON: (provider if isinstance(provider, str) else None, model if isinstance(model, str) else None),
    }
