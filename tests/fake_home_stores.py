"""A home laid out as OpenCode, Crush, Goose and Zed lay theirs out: their SQLite stores and older files.

The stores are the corpus fixtures (``tests/corpus/logs/<agent>/``, built by each agent's own schema),
copied where each agent keeps its store and switched to WAL as the agents run them; beside them
the files from before each store (an OpenCode ``storage/`` session, a Goose ``.jsonl``), a store
that is SQLite but not the agent's, and Crush's ``projects.json`` naming its project's store.
Every file outside a store gets a fixed modification time, so listings are exact.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "corpus" / "logs"
BASE = datetime(2026, 1, 8, tzinfo=UTC).timestamp()

OPENCODE_DB = ".local/share/opencode/opencode.db"
OPENCODE_OTHER = ".local/share/opencode/opencode-dev.db"
OPENCODE_STORAGE = ".local/share/opencode/storage"
OPENCODE_OLD = "ses_3b9e1d2c4ffeLegacyTreeSessA"
CRUSH_DATA = ".local/share/crush"
CRUSH_PROJECT = "work/api"
GOOSE_DB = ".local/share/goose/sessions/sessions.db"
GOOSE_OLD = ".local/share/goose/sessions/count-migrations.jsonl"
ZED_DB = ".local/share/zed/threads/threads.db"


def _store(source: Path, target: Path) -> None:
    """Copy a corpus store and put it in WAL mode, as the agent's own connection leaves it."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    conn = sqlite3.connect(target)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.close()


def _storage(home: Path) -> None:
    """The export fixture's session written as OpenCode's ``storage/`` tree, under another id."""
    export = json.loads((CORPUS / "opencode" / "opencode-export-message-v2-shapes.fixture.json").read_text())
    old = export["info"]["id"]
    root = home / OPENCODE_STORAGE

    def write(rel: str, value: dict[str, Any]) -> None:
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(value).replace(old, OPENCODE_OLD), encoding="utf-8")
        os.utime(path, (BASE, BASE))

    info = export["info"]
    write(f"session/{info['projectID']}/{OPENCODE_OLD}.json", info)
    for message in export["messages"]:
        mid = message["info"]["id"]
        write(f"message/{OPENCODE_OLD}/{mid}.json", message["info"])
        for part in message["parts"]:
            write(f"part/{mid}/{part['id']}.json", part)


def make_store_home(home: Path) -> Path:
    """Lay the stores' home out under ``home`` (created) and return it."""
    _store(CORPUS / "opencode" / "opencode-message-v2-shapes.fixture.db", home / OPENCODE_DB)
    other = sqlite3.connect(home / OPENCODE_OTHER)
    other.execute("CREATE TABLE notes (id TEXT)")
    other.close()
    os.utime(home / OPENCODE_OTHER, (BASE, BASE))
    _storage(home)
    project = home / CRUSH_PROJECT
    _store(CORPUS / "crush" / "crush-migrations.fixture.db", project / ".crush" / "crush.db")
    projects = {
        "projects": [
            {
                "path": str(project),
                "data_dir": str(project / ".crush"),
                "last_accessed": "2026-01-09T15:46:00Z",
            },
            {
                "path": "/gone/project",
                "data_dir": "/gone/project/.crush",
                "last_accessed": "2025-06-01T00:00:00Z",
            },
        ]
    }
    (home / CRUSH_DATA).mkdir(parents=True, exist_ok=True)
    (home / CRUSH_DATA / "projects.json").write_text(json.dumps(projects), encoding="utf-8")
    _store(CORPUS / "goose" / "goose-session-manager-v9.fixture.db", home / GOOSE_DB)
    shutil.copyfile(CORPUS / "goose" / "goose-legacy-message-tests.fixture.jsonl", home / GOOSE_OLD)
    os.utime(home / GOOSE_OLD, (BASE, BASE))
    _store(CORPUS / "zed" / "zed-threads-db.fixture.db", home / ZED_DB)
    return home
