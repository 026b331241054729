r"""Where Amp keeps its threads, what a thread file's first bytes say, and what says where it ran.

- Places: ``$XDG_DATA_HOME/amp/threads`` else ``~/.local/share/amp/threads`` (the same under the
  home on macOS and Windows, where Amp's CLI keeps the XDG layout), one ``T-<uuid>.json`` per
  thread; and the editor extension's older folder ``<editor user folder>/globalStorage/
  sourcegraph.amp/threads3/`` (VS Code and its builds, Cursor, Windsurf; ``~/.config``,
  ``~/Library/Application Support``, ``%APPDATA%``), which newer versions migrate into the first.
  Amp is closed: these come from readers of real installs that agree on them
  (jonathan-kellerai/cross_agent_session_resumer ``src/providers/amp.rs`` at
  ec0eab964866394f77bbd157e773656a109e7ab3: "Match Amp's own centralized storage behavior:
  XDG_DATA_HOME or ~/.local/share", and the legacy ``threads3`` folder; Adityakk9031/txcript
  ``docs/formats/amp.md`` at 3f71bbd558384d08059a1e72f77e4808583bc900).
  Variables those tools add of their own (``AMP_HOME``, ``AMP_DATA_HOME``, ``AMP_THREADS_DIR``,
  ``AMP_DATA_DIR``) are not Amp's and are not followed.
- Where it ran: inferred from the model. Each answer's ``usage.model`` names it
  (``claude-opus-4-5-20251101``) and a ``thinking`` block names its ``provider``; a Claude model
  means Anthropic's Messages API, which Amp's Anthropic-shaped threads mirror (`provider_of`).
  Amp's request path is not public, so a model of another family names no provider (the listing
  does not guess one from the model's name either: ``provider_by_model`` is off).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final
from urllib.parse import unquote, urlparse

from toolhist.agents.folders import RAN_ON, Found, Home, files, unique
from toolhist.agents.headers import Head
from toolhist.agents.vscode.sessions import user_folders
from toolhist.model import Session

EXTENSION: Final = "sourcegraph.amp"
"""The editor extension's id: its ``globalStorage`` folder holds the older ``threads3``."""

PROVIDER_NAMES: Final = {"anthropic": "anthropic"}
"""Amp's ``thinking.provider`` names whose wire format is toolhist's."""


FORKS: Final = ("Cursor", "Windsurf")
"""VS Code forks the extension also runs in (cross_agent_session_resumer probes them too)."""


def places(home: Home) -> tuple[Path, ...]:
    """``amp/threads`` under ``$XDG_DATA_HOME`` or ``~/.local/share``; each editor's ``threads3``."""
    data = home.dir("XDG_DATA_HOME") or home.path / ".local" / "share"
    config = home.dir("XDG_CONFIG_HOME") or home.path / ".config"
    bases = (config, home.path / "Library" / "Application Support", home.roaming)
    users = [*user_folders(home), *(base / fork / "User" for base in bases for fork in FORKS)]
    legacy = [user / "globalStorage" / EXTENSION / "threads3" for user in users]
    return unique([data / "amp" / "threads", *legacy])


def _folder(uri: str | None) -> str | None:
    """A ``file://`` tree URI as its path (percent-decoded)."""
    if uri is None or not uri.startswith("file://"):
        return uri
    return unquote(urlparse(uri).path)


def provider_of(model: str | None) -> str | None:
    """The provider a Claude model ran on in Amp (Anthropic), else None (see the module notes)."""
    return "anthropic" if model and model.rsplit("/", 1)[-1].lower().startswith("claude") else None


def header(head: Head) -> dict[str, Any]:
    """The first tree's folder, the first answer's model; user and assistant messages counted."""
    model = head.string("model")
    messages, counted = head.count("role", ("user", "assistant"))
    named = head.string("provider")
    return {
        "project": head.string("cwd") or _folder(head.string("uri")),
        "model": model,
        RAN_ON: (named if named in PROVIDER_NAMES else provider_of(model), None),
        "messages": messages,
        "counted": counted,
    }


def sessions(folder: Path) -> Iterator[Found]:
    """``T-<uuid>.json``: one thread each."""
    for path in files(folder, prefix="T-", suffixes=(".json",)):
        yield Found(path, header)


def session_says(session: Session) -> tuple[str, str] | None:
    """An Amp thread whose answers ran on a Claude model ran on Anthropic (inferred: Amp is closed)."""
    if session.source.format != "amp":
        return None
    model = session.request.get("model")
    named = provider_of(model if isinstance(model, str) else None)
    return (named, f"the thread's model {model} (Amp on Claude: inferred)") if named else None
