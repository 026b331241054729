"""Where VS Code keeps chat sessions (and its extensions' data), and what a session file's first bytes say.

VS Code (and Insiders, VSCodium, Code - OSS): user data is ``$VSCODE_PORTABLE/user-data``, else
``$VSCODE_APPDATA/<product>``, else ``%APPDATA%`` (``~/AppData/Roaming``) on Windows,
``~/Library/Application Support`` on macOS, ``$XDG_CONFIG_HOME`` or ``~/.config`` on Linux
(microsoft/vscode ``src/vs/platform/environment/node/userDataPath.ts`` ``doGetUserDataPath``,
@05528c78). Chat sessions: ``User/workspaceStorage/<id>/chatSessions/<session>.json``, or
``User/globalStorage/emptyWindowChatSessions/`` for a window with no folder
(``contrib/chat/common/chatSessionStore.ts`` constructor, @0392c00f); ``workspace.json`` beside
``chatSessions`` names the folder. From 1.109 a session is an append log ``<session>.jsonl``
(``getStorageLocation``, ``model/chatSessionStore.ts``; read by `toolhist.agents.vscode.log`).
Newer builds keep history per profile: ``<profile globalStorage>/chatSessions/<workspace id>/``
(``getProfileStorageRoot`` in ``chatSessionStore.ts`` as the search index's newest copy has it, with
``getChatSessionStorageResource`` of ``model/chatUri.ts`` at 5f0dc7820caa3432c3ac3c1722286fe2d7882bfa);
the default profile's globalStorage is ``User/globalStorage``, another profile's
``User/profiles/<id>/globalStorage``. Extensions keep their data in ``User/globalStorage/<extension
id>/`` (`user_folders`, read by Cline, Roo and Kilo too).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlparse

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head, small_json

PRODUCTS: Final = ("Code", "Code - Insiders", "VSCodium", "Code - OSS")
"""VS Code builds whose user data folder is named after the product."""


def user_folders(home: Home) -> list[Path]:
    """Every ``User`` folder VS Code may use under ``home``, in order (repeats kept)."""
    portable = home.dir("VSCODE_PORTABLE")
    appdata = home.dir("VSCODE_APPDATA")
    xdg_config = home.dir("XDG_CONFIG_HOME") or home.path / ".config"
    bases = (
        [appdata] if appdata else [xdg_config, home.path / "Library" / "Application Support", home.roaming]
    )
    user = [portable / "user-data" / "User"] if portable else []
    return user + [base / product / "User" for base in bases for product in PRODUCTS]


def places(home: Home) -> tuple[Path, ...]:
    """The ``User`` folders (``workspaceStorage`` and ``globalStorage`` inside)."""
    return unique(user_folders(home))


def header(head: Head) -> dict[str, Any]:
    """One JSON document; two messages per request (the prompt and its answer)."""
    requests, counted = head.count_keys("requestId")
    model = head.string("modelId")
    return {
        "model": model,
        RAN_ON: (None, model),
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


def _profiles(user: Path) -> list[Path]:
    """The default profile's ``globalStorage`` and every other profile's."""
    return [user / "globalStorage", *(p / "globalStorage" for p in dirs(user / "profiles"))]


def sessions(user: Path) -> Iterator[Found]:
    """Every chat session file under ``user``.

    ``workspaceStorage/<id>/chatSessions/*.json[l]``, ``globalStorage/emptyWindowChatSessions/`` and
    the per-profile ``<globalStorage>/chatSessions/<workspace id>/``.
    """
    folders = [(ws / "chatSessions", _workspace(ws)) for ws in dirs(user / "workspaceStorage")]
    folders.append((user / "globalStorage" / "emptyWindowChatSessions", "(no folder)"))
    for storage in _profiles(user):
        for ws in dirs(storage / "chatSessions"):
            folders.append((ws, _workspace(user / "workspaceStorage" / ws.name)))
    for chats, project in folders:
        for path in files(chats, suffixes=(".json", ".jsonl")):
            yield Found(path, header, {"project": project})


def read_as(path: Path) -> str:
    """``vscode-jsonl`` for the append log, ``vscode`` for the flat JSON file."""
    return "vscode-jsonl" if path.suffix == ".jsonl" else "vscode"
