"""Which files the app may open by path: agents' session folders, the working folder, folders named.

A ``?path=`` link is made by whoever sends it, and the app opens it with the rights of the user who
clicks: without a bound, a link could show (and a page could hand on) any file the user can read.
So the app opens a path only when, with every symbolic link resolved, it lies under:

- a folder where an agent keeps its sessions on this machine (`toolhist.machine.places`: Claude
  Code, Codex, Gemini CLI, VS Code, Cline, Roo, Kilo, llxprt; ``$TOOLHIST_HOME`` honoured);
- the working folder the app was started in (its ``bundles/`` and samples included), and the guard's
  bundle folder (``$TOOLHIST_BUNDLES``);
- a folder the user names in ``$TOOLHIST_OPEN`` (several, separated by ``os.pathsep``);
- or it is the file named on the app's command line (``./dev app FILE``).

Anything else is refused with one line that says how to allow it. Only a regular file is opened:
a FIFO, a device or a socket would block the page or stream forever (`toolhist.files`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from toolhist.files import regular_file

OPEN_ENV = "TOOLHIST_OPEN"
"""Folders (``os.pathsep``-separated) the user allows the app to open files under."""


def roots(extra: tuple[str, ...] = ()) -> list[Path]:
    """The folders the app may open files under, resolved (see the module doc)."""
    from toolhist.machine.places import places

    found = [folder for _, folder in places().where()]
    found.append(Path.cwd())
    bundles = os.environ.get("TOOLHIST_BUNDLES")
    if bundles:
        found.append(Path(bundles))
    found += [Path(p) for p in os.environ.get(OPEN_ENV, "").split(os.pathsep) if p.strip()]
    found += [Path(p) for p in extra]
    return [Path(os.path.realpath(p.expanduser())) for p in found]


def command_line_files() -> tuple[str, ...]:
    """The files named on the app's command line (``streamlit run app.py -- FILE``, ``./dev app FILE``)."""
    if Path(sys.argv[0]).name != "app.py":  # streamlit run puts the entry script first; AppTest does not
        return ()
    return tuple(arg for arg in sys.argv[1:] if not arg.startswith("-"))


def _refuse_outside(path: Path, what: str) -> Path:
    real = Path(os.path.realpath(path))
    allowed = {Path(os.path.realpath(Path(n).expanduser())) for n in command_line_files()}
    if real not in allowed and not any(real.is_relative_to(root) for root in roots()):
        raise PermissionError(
            f"{path}: {what} not under an agent's session folder, the working folder or ${OPEN_ENV}; "
            f"to open it, start the app with {OPEN_ENV}={real if what == 'a folder' else real.parent}"
        )
    return path


def scannable(raw: str) -> Path:
    """The folder at ``raw`` when the app may scan it (the Fleet page's ``?scan=``); else PermissionError."""
    return _refuse_outside(Path(raw.strip()).expanduser(), "a folder")


def openable(raw: str) -> Path:
    """The file at ``raw`` when the app may open it; else ``PermissionError`` (or `LoadError`) saying why."""
    path = _refuse_outside(Path(raw.strip()).expanduser(), "a file")
    regular_file(str(path))
    return path
