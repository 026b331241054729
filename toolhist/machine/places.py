r"""Where each agent keeps its sessions, on Linux, macOS and Windows, as the agent's own code says.

Every folder is derived from one home folder (``--home``, ``TOOLHIST_HOME``, else the user's), so a
test or a copied home from another machine is read exactly like the real one. Under the user's own
home the agents' variables are honoured as the agents honour them; under an explicit home they are
not, so nothing outside that folder is read. Every platform's layout is looked for (a macOS home
copied to Linux still lists its VS Code sessions); a folder that is absent costs one ``stat``.

Sources (each agent's code, the commit read):

- Claude Code (closed source; documented): ``~/.claude/projects/<cwd, every non-alphanumeric
  character as ->/<session-uuid>.jsonl``; ``CLAUDE_CONFIG_DIR`` replaces ``~/.claude``, and on
  Windows ``~/.claude`` is ``%USERPROFILE%\.claude`` (code.claude.com/docs/en/claude-directory).
  Subagents live in ``<session-uuid>/subagents/`` and are parts of their session, not sessions.
- Codex: ``$CODEX_HOME`` else ``~/.codex``; ``sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl``
  (openai/codex ``codex-rs/rollout/src/lib.rs`` ``SESSIONS_SUBDIR = "sessions"``, @04d96e64;
  ``list.rs`` filters on ``rollout-`` + ``.jsonl``). Newer builds may compress old rollouts to
  ``.jsonl.zst`` (``rollout/src/compression.rs``): listed, with the reason they are not read.
- Gemini CLI: ``$GEMINI_CLI_HOME`` (a home folder) else the home; ``.gemini/tmp/<project>/``, where
  ``<project>`` is a slug (``.project_root`` inside names the folder) or a legacy SHA-256 of the
  path; sessions in ``chats/session-<time>-<id8>.jsonl`` (older ``.json``), ``/chat save``
  checkpoints as ``checkpoint-<tag>.json`` (google-gemini/gemini-cli @5411f113
  ``packages/core/src/utils/paths.ts`` 13-27, ``config/storage.ts`` 154-185,
  ``config/projectRegistry.ts`` 24, ``services/chatRecordingService.ts`` 510-517).
- VS Code (and Insiders, VSCodium, Code - OSS): user data is ``$VSCODE_PORTABLE/user-data``, else
  ``$VSCODE_APPDATA/<product>``, else ``%APPDATA%`` (``~/AppData/Roaming``) on Windows,
  ``~/Library/Application Support`` on macOS, ``$XDG_CONFIG_HOME`` or ``~/.config`` on Linux
  (microsoft/vscode ``src/vs/platform/environment/node/userDataPath.ts`` ``doGetUserDataPath``,
  @05528c78). Chat sessions: ``User/workspaceStorage/<id>/chatSessions/<session>.json``, or
  ``User/globalStorage/emptyWindowChatSessions/`` for a window with no folder
  (``contrib/chat/common/chatSessionStore.ts`` constructor, @0392c00f); ``workspace.json`` beside
  ``chatSessions`` names the folder.
- Cline: ``$CLINE_DATA_DIR``, else ``$CLINE_DIR/data``, else ``~/.cline/data``; tasks in
  ``tasks/<id>/api_conversation_history.json``, the task list in ``state/taskHistory.json``
  (cline/cline @21cb8d25 ``apps/vscode/src/shared/storage/storage-context.ts`` 93-100,
  ``sdk/legacy-state-reader.ts`` 20-60). Older releases kept the same ``tasks/`` folder in VS Code's
  ``globalStorage/saoudrizwan.claude-dev``.
- Roo Code and Kilo Code: ``globalStorage/<extension id>/tasks/<id>/api_conversation_history.json``
  (RooCodeInc/Roo-Code @cb836567 ``src/utils/storage.ts`` 53-58; Kilo-Org/kilocode
  ``src/shared/globalFileNames.ts`` @74d6e483). A custom storage path set in Roo's settings is not
  followed.
- llxprt-code: HEAD keeps chats under the log folder: ``$LLXPRT_LOG_HOME``, else
  ``$LLXPRT_CONFIG_HOME``, else env-paths' log folder (``~/.local/state/llxprt-code`` or
  ``$XDG_STATE_HOME/llxprt-code``, ``~/Library/Logs/llxprt-code``,
  ``%LOCALAPPDATA%\llxprt-code\Log``), then ``tmp/<sha256 of the project path>/chats/
  session-<time>-<id12>.jsonl`` (vybestack/llxprt-code @f80a695f
  ``packages/storage/src/config/path-resolver.ts`` 139-145, ``storage.ts`` 379-391,
  ``core/src/recording/SessionRecordingService.ts`` 258-263). Before that, ``~/.llxprt/tmp/<sha256>/``
  held ``checkpoint-<tag>.json`` (research/llxprt.md §7.6); both are looked at.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Final

HOME_ENV: Final = "TOOLHIST_HOME"
"""An explicit home folder for ``toolhist sessions`` and the app's "This machine" source."""

VSCODE_PRODUCTS: Final = ("Code", "Code - Insiders", "VSCodium", "Code - OSS")
"""VS Code builds whose user data folder is named after the product."""

EXTENSIONS: Final = {
    "cline": "saoudrizwan.claude-dev",
    "roo": "rooveterinaryinc.roo-cline",
    "kilo": "kilocode.kilo-code",
}
"""VS Code extension ids whose ``globalStorage`` folder holds the agent's ``tasks/``."""


@dataclass(frozen=True)
class Places:
    """The folders to look in, per agent (absent folders included: `where` reports them)."""

    home: Path
    claude: tuple[Path, ...]
    """Claude Code ``projects`` folders."""
    codex: tuple[Path, ...]
    """Codex ``sessions`` folders."""
    gemini: tuple[Path, ...]
    """Gemini CLI ``tmp`` folders (one sub-folder per project)."""
    vscode: tuple[Path, ...]
    """VS Code ``User`` folders (``workspaceStorage`` and ``globalStorage`` inside)."""
    tasks: tuple[tuple[str, Path], ...]
    """(agent, ``tasks`` folder) for Cline, Roo and Kilo."""
    llxprt: tuple[Path, ...]
    """llxprt ``tmp`` folders (one sub-folder per project hash)."""

    def where(self) -> list[tuple[str, Path]]:
        """(agent, folder) for every folder looked in, in listing order."""
        found = [("claude-code", p) for p in self.claude] + [("codex", p) for p in self.codex]
        found += [("gemini-cli", p) for p in self.gemini] + [("vscode", p) for p in self.vscode]
        return found + list(self.tasks) + [("llxprt", p) for p in self.llxprt]


def _unique(paths: list[Path]) -> tuple[Path, ...]:
    seen: dict[str, Path] = {}
    for path in paths:
        seen.setdefault(os.path.normcase(os.path.abspath(path)), path)
    return tuple(seen.values())


def _env_dir(env: Mapping[str, str], name: str) -> Path | None:
    value = env.get(name, "").strip()
    return Path(value) if value else None


def places(home: Path | None = None, env: Mapping[str, str] | None = None) -> Places:
    """Where to look: under ``home`` alone when given, else under the user's home and the agents' variables.

    ``env`` defaults to ``os.environ`` for the user's home and to nothing for an explicit home.
    """
    if home is None:
        given: Mapping[str, str] = os.environ if env is None else env
        explicit = _env_dir(given, HOME_ENV)
        home, env = (explicit, {}) if explicit is not None else (Path.home(), given)
    elif env is None:
        env = {}
    roaming = _env_dir(env, "APPDATA") or home / "AppData" / "Roaming"
    local = _env_dir(env, "LOCALAPPDATA") or home / "AppData" / "Local"

    claude = [(_env_dir(env, "CLAUDE_CONFIG_DIR") or home / ".claude") / "projects"]
    codex = [(_env_dir(env, "CODEX_HOME") or home / ".codex") / "sessions"]
    gemini = [(_env_dir(env, "GEMINI_CLI_HOME") or home) / ".gemini" / "tmp"]

    portable = _env_dir(env, "VSCODE_PORTABLE")
    appdata = _env_dir(env, "VSCODE_APPDATA")
    xdg_config = _env_dir(env, "XDG_CONFIG_HOME") or home / ".config"
    bases = [appdata] if appdata else [xdg_config, home / "Library" / "Application Support", roaming]
    user = [portable / "user-data" / "User"] if portable else []
    user += [base / product / "User" for base in bases for product in VSCODE_PRODUCTS]

    cline_data = _env_dir(env, "CLINE_DATA_DIR") or (_env_dir(env, "CLINE_DIR") or home / ".cline") / "data"
    tasks = [("cline", cline_data / "tasks")]
    tasks += [(agent, u / "globalStorage" / ext / "tasks") for agent, ext in EXTENSIONS.items() for u in user]

    log_home = _env_dir(env, "LLXPRT_LOG_HOME") or _env_dir(env, "LLXPRT_CONFIG_HOME")
    xdg_state = _env_dir(env, "XDG_STATE_HOME") or home / ".local" / "state"
    logs = (
        [log_home]
        if log_home
        else [
            xdg_state / "llxprt-code",
            home / "Library" / "Logs" / "llxprt-code",
            local / "llxprt-code" / "Log",
        ]
    )
    llxprt = [log / "tmp" for log in logs] + [home / ".llxprt" / "tmp"]
    return Places(
        home=home,
        claude=_unique(claude),
        codex=_unique(codex),
        gemini=_unique(gemini),
        vscode=_unique(user),
        tasks=tuple(dict.fromkeys(tasks)),
        llxprt=_unique(llxprt),
    )
