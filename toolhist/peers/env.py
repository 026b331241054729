"""The peers environment: a cached virtual environment holding a real library at one version.

Like pre-commit's hook environments: one directory per library and version (the pin unless one
is named: `toolhist.peers.versions`; `toolhist.peers.pins.env_key`) under
``$XDG_CACHE_HOME/toolhist/peers/`` (``~/.cache`` when unset; ``TOOLHIST_PEERS_HOME`` overrides the
parent), made by ``toolhist peers install`` and used
read-only afterwards. An environment counts as installed only once ``installed.json`` is written,
after pip succeeded and the installed versions were read back, so a half-made one is never run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from toolhist.errors import UsageError
from toolhist.peers.pins import PINS, alone, env_key

if TYPE_CHECKING:
    from toolhist.peers.versions import Selected

MARKER = "installed.json"
INSTALL_HINT = "run `toolhist peers install` (it makes a cached virtual environment with the pinned versions)"


class PeersMissing(UsageError):
    """A strategy that runs a real library was asked for, but the peers environment is not installed."""


def peers_home() -> Path:
    """The parent directory of every peers environment."""
    override = os.environ.get("TOOLHIST_PEERS_HOME")
    if override:
        return Path(override)
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "toolhist" / "peers"


@dataclass(frozen=True)
class PeersEnv:
    """An installed peers environment."""

    library: str
    """The pinned library it holds (a PyPI name in `toolhist.peers.pins.PINS`)."""
    path: Path
    """Its directory."""
    versions: dict[str, str]
    """Distribution → the version pip installed (read back from the environment)."""

    @property
    def python(self) -> Path:
        """The environment's interpreter."""
        return self.path / "bin" / "python"


def env_dir(library: str, version: str | None = None) -> Path:
    """Where the environment for ``library`` at ``version`` (default: the pin) lives, made or not."""
    return peers_home() / env_key(library, version)


def find(library: str, version: str | None = None) -> PeersEnv | None:
    """The installed environment for ``library`` at ``version`` (default: the pin), or ``None``."""
    path = env_dir(library, version)
    try:
        versions = json.loads((path / MARKER).read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(versions, dict) or not (path / "bin" / "python").exists():
        return None
    return PeersEnv(library=library, path=path, versions={str(k): str(v) for k, v in versions.items()})


def require(library: str, chosen: Selected | None = None) -> PeersEnv:
    """The environment of ``chosen`` (default: the pin), or a PeersMissing saying how to install it."""
    version = chosen.version if chosen is not None else PINS[library]  # strategies only
    found = find(library, version)
    if found is not None:
        return found
    if chosen is None or chosen.is_pin:
        raise PeersMissing(
            f"the {library!r} strategy runs the real {library} {version}, which is not installed "
            f"(looked in {env_dir(library, version)}); {INSTALL_HINT}"
        )
    from toolhist.peers.versions import describe

    raise PeersMissing(
        f"the {library!r} strategy runs {describe(chosen)}, whose environment is not installed "
        f"(looked in {env_dir(library, version)}); run `toolhist peers install --peer-version "
        f"{library}={version}`, or run the pin with --peer-version {library}=pin"
    )


_READ_VERSIONS = (
    "import json, sys\n"
    "from importlib.metadata import PackageNotFoundError, version\n"
    "def v(name):\n"
    "    try:\n"
    "        return version(name)\n"
    "    except PackageNotFoundError:\n"
    "        return None\n"
    "print(json.dumps({n: v(n) for n in sys.argv[1:] if v(n) is not None}))\n"
)
"""The installed versions of the names given (the library and ``openai``; a sampler has no openai)."""


def install(library: str, version: str | None = None, *, log: bool = False) -> PeersEnv:
    """Make ``library``'s environment at ``version`` (default: its pin; a no-op when it is already there).

    Uses this interpreter's ``venv`` and ``pip`` (so pip's own configuration, index and cache
    apply). A failed install leaves no marker, and the next call starts the directory afresh.
    """
    found = find(library, version)
    if found is not None:
        return found
    path = env_dir(library, version)
    with _locked(path):
        found = find(library, version)  # made by another process while this one waited
        if found is not None:
            return found
        return _make(library, version, path, log=log)


@contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path``'s install (a ``.<name>.lock`` file beside it) while inside.

    Two processes installing the same environment (the suite's parallel workers, two terminals) would
    otherwise each delete the other's half-made directory (a directory without ``installed.json`` is
    started afresh). The lock file is a dotfile, so `installed_versions` never lists it. Where
    ``fcntl`` is missing (Windows) there is no lock: one install at a time there.
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # pragma: no cover - Windows
        yield
        return
    with open(path.parent / f".{path.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield  # closing the file releases the lock


def _make(library: str, version: str | None, path: Path, *, log: bool) -> PeersEnv:
    """Make the environment in ``path`` (started afresh), the caller holding its lock."""
    if path.exists():
        shutil.rmtree(path)
    out = None if log else subprocess.DEVNULL
    try:
        subprocess.run([sys.executable, "-m", "venv", str(path)], check=True, stdout=out)
        pip = [str(path / "bin" / "python"), "-m", "pip", "install", "--disable-pip-version-check"]
        together, apart = alone(library, version)
        subprocess.run([*pip, "--quiet", *together], check=True, stdout=out)
        if apart:
            subprocess.run([*pip, "--quiet", *apart], check=True, stdout=out)
        read = subprocess.run(
            [str(path / "bin" / "python"), "-c", _READ_VERSIONS, library, "openai"],
            check=True,
            capture_output=True,
            text=True,
        )
    except (OSError, subprocess.CalledProcessError) as exc:
        raise UsageError(f"could not install the peers environment in {path}: {exc}") from None
    versions = json.loads(read.stdout)
    (path / MARKER).write_text(json.dumps(versions, indent=2) + "\n")
    return PeersEnv(library=library, path=path, versions=versions)


def install_all(*, log: bool = False) -> list[PeersEnv]:
    """Every pinned library's environment at its pin."""
    return [install(library, log=log) for library in PINS]


def installed_versions(library: str) -> list[PeersEnv]:
    """Every installed environment of ``library`` under `peers_home`, whatever its version."""
    found: list[PeersEnv] = []
    home = peers_home()
    if not home.is_dir():
        return found
    for path in sorted(home.glob(f"{library}-*")):
        version = path.name.removeprefix(f"{library}-").rsplit("-", 1)[0]
        env = find(library, version)
        if env is not None and env.path == path:
            found.append(env)
    return found
