"""`Agent`: what each agent folder's ``__init__`` exports, the whole of what toolhist knows about one agent.

`toolhist.agents.registry` lists them; from that list come the reader registry (`toolhist.readers`),
``toolhist sessions`` and the app's "This machine" (`toolhist.machine`), and what says where a
session ran (`toolhist.machine.ran_on` from a listing header, `toolhist.ran_on` from a read session).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolhist.agents.folders import Found, Home
from toolhist.formats.base import Reader
from toolhist.model import Session

SessionSays = Callable[[Session], tuple[str, str] | None]
"""From a read session: (the provider as its log names it, where the log says it), or None."""


@dataclass(frozen=True)
class Live:
    """How a framework's live objects (in the user's own process) become the form its reader reads."""

    modules: tuple[str, ...]
    """Top-level packages whose classes are the framework's (``pydantic_ai``, ``langchain_core``):
    an object is the framework's when its class's ``__module__`` is one of them or inside one. Asked
    of the object's class only, so toolhist never imports a framework to tell."""
    dump: Callable[[Any], Any]
    """The object (a message, a list of them, a run result…) as the JSON value its format reader
    reads, made with the framework's own serialiser (the framework is imported: its objects exist)."""
    format: str
    """The reader id (``--format``) that reads what `dump` returns."""


@dataclass(frozen=True)
class Agent:
    """One agent (or log source): its formats, where it keeps sessions, what says where they ran."""

    id: str
    """The ``--agent`` name and `toolhist.machine.SessionRow.agent` (``claude-code``)."""
    name: str
    """How people call it (``Claude Code``)."""
    readers: tuple[Reader, ...]
    """The formats it writes, one reader each (their ids are ``--format`` names); the first reads the
    session files `sessions` lists. Agents may share a reader (Cline, Roo and Kilo write one file)."""
    places: Callable[[Home], tuple[Path, ...]] | None = None
    """The folders it keeps sessions in on Linux, macOS and Windows, absent ones included, as its own
    code says (cite it); None for a source with no folder of its own (spans from an exporter)."""
    sessions: Callable[[Path], Iterator[Found]] | None = None
    """The sessions under one of those folders, each with the function that reads its header."""
    read_as: Callable[[Path], str | None] | None = None
    """The format to read a listed file with when it is not `session_format` (None: detect it)."""
    speaks: str | None = None
    """The toolhist provider whose wire format it sends whatever the model (Claude Code: anthropic)."""
    provider_names: Mapping[str, str] = field(default_factory=dict)
    """Provider names as its headers write them (Cline's ``providerId``…) → toolhist provider."""
    wire_names: Mapping[str, str] = field(default_factory=dict)
    """Provider names in its logs whose wire format its own code fixes (Codex's ``openai`` is the
    Responses API) → toolhist provider; read for every session of its `readers` (`toolhist.ran_on`)."""
    session_says: SessionSays | None = None
    """What in a read session says where it ran, beyond per-message metadata (Codex's
    ``session_meta``); asked after the generic evidence (`toolhist.ran_on`)."""
    live: Live | None = None
    """How its live objects are read, for a framework (`toolhist.live`); None for an agent."""
    provider_by_model: bool = False
    """Whether the model's name is the best word on the provider (VS Code: Copilot proxies every
    model), so a verdict may take it from the session read whole when the header had none."""

    @property
    def session_format(self) -> str:
        """The reader id (``--format``) of the session files it keeps."""
        return self.readers[0].id

    def read_format(self, path: Path) -> str | None:
        """The format to read listed ``path`` with (`read_as`, else `session_format`); None: detect."""
        return self.read_as(path) if self.read_as is not None else self.session_format
