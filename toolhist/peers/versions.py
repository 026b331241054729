"""Which version of a peer library the ``litellm`` and ``openai-agents`` strategies run, and why.

The pin (`toolhist.peers.pins.PINS`) is what the differential tests hold the strategies to, but a
user asks "what would *my* LiteLLM send?": LiteLLM changes its history handling between releases
(1.110.2 finds a Gemini result's call by the id before LiteLLM's ``__thought__`` suffix, where 1.106.2
raises "Missing corresponding tool call for tool response message" and sends nothing;
``tests/peers/test_peer_versions.py``). So the version is chosen, first that applies:

1. named for this call: ``--peer-version litellm=1.110.2`` (repeatable), the strategy spelled
   ``litellm@1.110.2``, or the app's choice (`using`);
2. named in ``TOOLHIST_PEER_VERSIONS`` (``litellm=1.110.2,openai-agents=0.24.0``);
3. installed in the Python environment toolhist runs in (read from its metadata, nothing imported),
   when that is not the pin itself (toolhist's test extra installs the Agents SDK at its pin);
4. the pin.

A value may be a version, ``installed`` (the one installed here; an error when there is none) or
``pin``. Each version runs in a cached environment of its own (`toolhist.peers.env`), made by
``toolhist peers install`` (with ``--peer-version`` for a named one); the Curation's ``library``
(``litellm 1.110.2``) says which ran, and `describe` why.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Literal

from toolhist.errors import UsageError
from toolhist.peers.pins import PINS

ENV = "TOOLHIST_PEER_VERSIONS"
"""The environment variable naming versions (``litellm=1.110.2,openai-agents=0.24.0``)."""

_VERSION = re.compile(r"^[0-9]+(\.[0-9]+)*([._+-]?[A-Za-z0-9.+-]+)?$")

Why = Literal["named", "environment", "installed here", "pin"]

_NAMED: ContextVar[Mapping[str, str]] = ContextVar("toolhist_peer_versions", default={})  # noqa: B039


@dataclass(frozen=True)
class Selected:
    """The version of one library a strategy runs now."""

    library: str
    version: str
    why: Why
    """``named`` (this call), ``environment`` (`ENV`), ``installed here``, or ``pin``."""

    @property
    def is_pin(self) -> bool:
        """Whether it is the pinned version (the one ``toolhist peers install`` always makes)."""
        return self.version == PINS[self.library]


def installed(library: str) -> str | None:
    """The version of ``library`` installed in this Python environment, or None."""
    try:
        return version(library)
    except PackageNotFoundError:
        return None


def resolve(library: str, value: str) -> str:
    """The version ``value`` means for ``library`` (``pin``, ``installed`` or a version)."""
    if library not in PINS:
        raise UsageError(f"no strategy runs {library!r}; name one of: {', '.join(PINS)}")
    if value == "pin":
        return PINS[library]
    if value == "installed":
        found = installed(library)
        if found is None:
            raise UsageError(
                f"{library} is not installed in this Python environment; name a version "
                f"(--peer-version {library}={PINS[library]})"
            )
        return found
    if not _VERSION.match(value):
        raise UsageError(f"{value!r} is not a version of {library} (e.g. {library}={PINS[library]})")
    return value


def parse(specs: Iterable[str], *, source: str = "--peer-version") -> dict[str, str]:
    """``["litellm=1.110.2", …]`` → ``{"litellm": "1.110.2"}`` (each value resolved by `resolve`)."""
    out: dict[str, str] = {}
    for spec in specs:
        library, sep, value = spec.strip().partition("=")
        if not sep or not library or not value:
            raise UsageError(f"{source}: {spec!r} is not LIBRARY=VERSION (e.g. litellm={PINS['litellm']})")
        out[library.strip()] = resolve(library.strip(), value.strip())
    return out


def _from_env() -> dict[str, str]:
    raw = os.environ.get(ENV, "")
    specs = [s for s in raw.split(",") if s.strip()]
    return parse(specs, source=ENV) if specs else {}


def selected(library: str) -> Selected:
    """The version of ``library`` strategies run now, and why (see the module docstring)."""
    named = _NAMED.get().get(library)
    if named is not None:
        return Selected(library, named, "named")
    from_env = _from_env().get(library)
    if from_env is not None:
        return Selected(library, from_env, "environment")
    here = installed(library)
    if here is not None and here != PINS[library]:  # the pin installed here is still the pin
        return Selected(library, here, "installed here")
    return Selected(library, PINS[library], "pin")


@contextmanager
def using(versions: Mapping[str, str]) -> Iterator[None]:
    """Run the block with ``versions`` (library → version, already resolved) named for this call."""
    token = _NAMED.set({**_NAMED.get(), **versions})
    try:
        yield
    finally:
        _NAMED.reset(token)


def describe(chosen: Selected) -> str:
    """``litellm 1.110.2 (named; the pin is 1.106.2)``, for the CLI and the app."""
    if chosen.why == "pin":
        return f"{chosen.library} {chosen.version} (the pin)"
    why = {"named": "named", "environment": f"from {ENV}", "installed here": "installed here"}[chosen.why]
    pin = "" if chosen.is_pin else f"; the pin is {PINS[chosen.library]}"
    return f"{chosen.library} {chosen.version} ({why}{pin})"


def split_strategy(name: str) -> tuple[str, str | None]:
    """``litellm@1.110.2`` → (``litellm``, ``1.110.2``); a name without ``@`` → (name, None)."""
    base, sep, wanted = name.partition("@")
    return (base, wanted) if sep else (name, None)
