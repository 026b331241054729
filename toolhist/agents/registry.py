"""The one list of agents: the readers, ``--agent``, the places, the listing and "ran on" all come from it.

Adding an agent is one folder and one line in `AGENTS`:

1. ``toolhist/agents/<agent>/``: its reader(s) (a `toolhist.formats.base.Reader`, or a
   `toolhist.formats.jsonl_stream.StreamReader` for a log that streams), each citing the agent's
   own code (repo, path, commit) or saying what is inferred and from what; and a ``sessions``
   module with ``places(home)`` (its folders on Linux, macOS and Windows, from one
   `toolhist.agents.folders.Home`, citing where the agent's code puts them), ``sessions(folder)``
   (the session files there, as `toolhist.agents.folders.Found`) and the header functions that
   read a file's first bytes (`toolhist.agents.headers.Head`: project, model, message count, and
   `toolhist.agents.folders.RAN_ON`, what says where it ran).
2. ``__init__.py`` exports ``AGENT``, a `toolhist.agents.spec.Agent`: ``id`` (the ``--agent`` name),
   ``name``, ``readers`` (the first reads its listed session files), ``places`` and ``sessions``
   (None for a source with no folder, like OTel spans), and what says where it ran: ``speaks``
   (the one wire format it sends), ``provider_names`` (its own names for providers, as its headers
   write them), ``wire_names`` (names its code fixes the wire format of), ``session_says`` (a field
   of a read session that names the provider), ``provider_by_model``.
   An agent that keeps many sessions in one SQLite file (OpenCode's ``opencode.db``, Crush, Goose,
   Zed, Cursor's ``state.vscdb``) gives a `toolhist.agents.stores.StoreReader`: it says from the
   tables whether a store is its agent's (``recognise_store``), lists the sessions
   (``list_store``) and reads one by id (``read_store``); `toolhist.readers` recognises a store by
   its SQLite header before any JSON is sniffed, opens it read-only (never locking out the agent)
   and accepts the locator ``PATH#SESSION_ID`` wherever a path is taken; its ``sessions``
   yields `toolhist.agents.stores.found_in` rows, whose paths are those locators.
3. One line in `AGENTS` below. Its readers join detection after the ones in `DETECTION`.
4. Tests: its real (or marked fixture) files in ``tests/corpus/logs/<format id>/`` with a
   ``.source.json`` each and a line in that README (`tests/ground_truth/test_real_logs.py` reads
   them all); its files placed where the agent writes them in the fake home
   (``tests/fake_home.py``, listed and judged by ``tests/machine``); reader tests in
   ``tests/by_agent/test_<agent>.py``.
"""

from __future__ import annotations

from typing import Final

from toolhist.agents import (
    amp,
    atif,
    claude_code,
    cline,
    codex,
    codex_exec,
    continuedev,
    copilot_cli,
    crush,
    cursor,
    gemini_cli,
    goose,
    inspect_ai,
    kimi_cli,
    langchain,
    langgraph,
    llxprt,
    openai_agents,
    opencode,
    openhands,
    otel_genai,
    pi,
    pydantic_ai,
    qwen_code,
    smolagents,
    swe_agent,
    vscode,
    zed,
)
from toolhist.agents.spec import Agent
from toolhist.formats.base import Reader

AGENTS: Final[tuple[Agent, ...]] = (
    claude_code.AGENT,
    codex.AGENT,
    gemini_cli.AGENT,
    vscode.AGENT,
    *cline.AGENTS,
    llxprt.AGENT,
    otel_genai.AGENT,
    opencode.AGENT,
    crush.AGENT,
    goose.AGENT,
    zed.AGENT,
    copilot_cli.AGENT,
    continuedev.AGENT,
    cursor.AGENT,
    pi.AGENT,
    kimi_cli.AGENT,
    qwen_code.AGENT,
    openhands.AGENT,
    codex_exec.AGENT,
    amp.AGENT,
    pydantic_ai.AGENT,
    langchain.AGENT,
    langgraph.AGENT,
    openai_agents.AGENT,
    inspect_ai.AGENT,
    *swe_agent.AGENTS,
    atif.AGENT,
    smolagents.AGENT,
)
"""Every agent and log source, in ``--agent``, ``--where`` and listing order."""

BY_ID: Final = {agent.id: agent for agent in AGENTS}

LISTED: Final = tuple(agent.id for agent in AGENTS if agent.places is not None)
"""The agents that keep sessions in folders: the ``--agent`` names."""

DETECTION: Final = (
    "icontent",
    "kilo",
    "gemini-cli",
    "vscode",
    "otel-genai",
    "llxprt-debug",
    "llxprt-checkpoint",
    "claude-code",
    "codex",
)
"""The order agents' formats are tried in and named in (``toolhist formats``, "unknown format" and its
"Closest", where a tie goes to the earlier one), as it was when each was added. Formats not named
here follow, in `AGENTS` order."""


def _readers() -> tuple[Reader, ...]:
    by_id: dict[str, Reader] = {}
    for agent in AGENTS:
        for reader in agent.readers:
            by_id.setdefault(reader.id, reader)
    rank = {rid: i for i, rid in enumerate(DETECTION)}
    return tuple(sorted(by_id.values(), key=lambda r: rank.get(r.id, len(rank))))


READERS: Final = _readers()
"""Every agent's readers, once each (Cline, Roo and Kilo share one), in detection order."""
