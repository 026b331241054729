"""The agent registry: one list drives the readers, ``--agent``, the places and "ran on"; imports point down."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from toolhist.agents.folders import Home
from toolhist.agents.openhands.sessions import NAMES as OPENHANDS_WIRE
from toolhist.agents.pi.sessions import WIRE as PI_WIRE
from toolhist.agents.qwen_code.sessions import AUTH_WIRE as QWEN_WIRE
from toolhist.agents.registry import AGENTS, BY_ID, DETECTION, LISTED, READERS
from toolhist.formats.registry import CANONICAL, WIRE
from toolhist.machine import AGENTS as MACHINE_AGENTS
from toolhist.machine import places
from toolhist.machine.ran_on import NAMED
from toolhist.ran_on import FORMAT_WIRE
from toolhist.readers import FORMATS

HOME = Path("/h")


def test_the_formats_are_the_wire_formats_then_the_agents_then_canonical() -> None:
    later = tuple(r.id for a in AGENTS for r in a.readers if r.id not in DETECTION)
    assert (
        *(r.id for r in WIRE),
        *DETECTION,
        *dict.fromkeys(later),
        CANONICAL.id,
    ) == FORMATS
    assert FORMATS == (
        "openai-chat",
        "openai-responses",
        "anthropic",
        "gemini",
        "bedrock",
        "icontent",
        "kilo",
        "gemini-cli",
        "vscode",
        "otel-genai",
        "llxprt-debug",
        "llxprt-checkpoint",
        "claude-code",
        "codex",
        "vscode-jsonl",
        "opencode",
        "crush",
        "goose",
        "zed",
        "copilot-cli",
        "continue",
        "cursor",
        "cursor-transcript",
        "pi",
        "kimi-cli",
        "qwen-code",
        "openhands",
        "codex-exec",
        "amp",
        "pydantic-ai",
        "langchain",
        "langgraph",
        "openai-agents",
        "inspect-ai",
        "swe-agent",
        "mini-swe-agent",
        "atif",
        "smolagents",
        "toolhist",
    )
    # every agent reader is registered once, and each is some agent's
    assert sorted(r.id for r in READERS) == sorted({r.id for a in AGENTS for r in a.readers})


def test_the_listed_agents_are_those_with_places_in_registry_order() -> None:
    assert (
        LISTED
        == MACHINE_AGENTS
        == (
            "claude-code",
            "codex",
            "gemini-cli",
            "vscode",
            "cline",
            "roo",
            "kilo",
            "llxprt",
            "opencode",
            "crush",
            "goose",
            "zed",
            "copilot-cli",
            "continue",
            "cursor",
            "pi",
            "kimi-cli",
            "qwen-code",
            "openhands",
            "amp",
        )
    )
    # an exporter's spans and a framework's histories live wherever the user's application keeps them
    assert [a.id for a in AGENTS if a.places is None] == [
        "otel-genai",
        "codex-exec",
        "pydantic-ai",
        "langchain",
        "langgraph",
        "openai-agents",
        "inspect-ai",
        "swe-agent",
        "mini-swe-agent",
        "atif",
        "smolagents",
    ]
    assert all(BY_ID[a].sessions is not None for a in LISTED)
    assert [agent for agent, _ in places(HOME).where()] == sorted(
        (agent for agent, _ in places(HOME).where()), key=LISTED.index
    )


def test_each_agent_reads_its_sessions_with_one_of_its_readers() -> None:
    assert {a.id: a.session_format for a in AGENTS if a.places} == {
        "claude-code": "claude-code",
        "codex": "codex",
        "gemini-cli": "gemini-cli",
        "vscode": "vscode",
        "cline": "kilo",
        "roo": "kilo",
        "kilo": "kilo",
        "llxprt": "llxprt-checkpoint",
        "opencode": "opencode",
        "crush": "crush",
        "goose": "goose",
        "zed": "zed",
        "copilot-cli": "copilot-cli",
        "continue": "continue",
        "cursor": "cursor",
        "pi": "pi",
        "kimi-cli": "kimi-cli",
        "qwen-code": "qwen-code",
        "openhands": "openhands",
        "amp": "amp",
    }
    cursor = BY_ID["cursor"]
    assert [cursor.read_format(Path(p)) for p in ("g/state.vscdb#c1", "t/a/a.jsonl")] == [
        "cursor",
        "cursor-transcript",
    ]
    assert [BY_ID["vscode"].read_format(Path(p)) for p in ("s/a.json", "s/b.jsonl")] == [
        "vscode",
        "vscode-jsonl",
    ]
    llxprt = BY_ID["llxprt"]
    assert [llxprt.read_format(Path(p)) for p in ("s/checkpoint-a.json", "s/chats/session-1.jsonl")] == [
        None,
        "llxprt-checkpoint",
    ]
    assert BY_ID["codex"].read_format(Path("rollout-1.jsonl")) == "codex"


def test_agents_agree_on_the_provider_names_they_share() -> None:
    for agent in AGENTS:
        for name, provider in agent.provider_names.items():
            assert NAMED[name] == provider, (agent.id, name)
        for reader in agent.readers:
            if agent.wire_names:
                assert FORMAT_WIRE[reader.id] == agent.wire_names, (agent.id, reader.id)
    assert FORMAT_WIRE == {
        "codex": {"openai": "openai-responses"},
        "kilo": {"openai": "openai-chat"},
        "llxprt-checkpoint": {"openai": "openai-chat", "openai-responses": "openai-responses"},
        "llxprt-debug": {"openai": "openai-chat", "openai-responses": "openai-responses"},
        "icontent": {"openai": "openai-chat", "openai-responses": "openai-responses"},
        "opencode": {
            "anthropic": "anthropic",
            "openai": "openai-responses",
            "google": "gemini",
            "amazon-bedrock": "bedrock",
            "mistral": "mistral",
            "moonshotai": "kimi",
            "moonshotai-cn": "kimi",
        },
        "crush": {"openai": "openai-responses", "anthropic": "anthropic", "gemini": "gemini"},
        "goose": {"anthropic": "anthropic", "google": "gemini"},
        "zed": {"anthropic": "anthropic", "google": "gemini", "mistral": "mistral", "bedrock": "bedrock"},
        "copilot-cli": {
            "anthropic": "anthropic",
            "gemini": "gemini",
            "openai-chat": "openai-chat",
            "openai-responses": "openai-responses",
        },
        "cursor": {"anthropic": "anthropic", "gemini": "gemini", "openai-chat": "openai-chat"},
        "cursor-transcript": {"anthropic": "anthropic", "gemini": "gemini", "openai-chat": "openai-chat"},
        "pi": PI_WIRE,
        "qwen-code": QWEN_WIRE,
        "openhands": OPENHANDS_WIRE,
        "codex-exec": {"openai": "openai-responses"},
    }


_segment = st.text(st.characters(codec="ascii", categories=["L", "N"]), min_size=1, max_size=8)


@given(st.lists(_segment, min_size=1, max_size=3), st.sampled_from(LISTED))
def test_under_an_explicit_home_every_place_is_inside_it(parts: list[str], agent: str) -> None:
    home = Path("/", *parts)
    found = places(home)
    assert found.of(agent), agent
    for folder in found.of(agent):
        assert folder.is_relative_to(home), (agent, folder)
    # the agents' own places, asked directly, agree with the composed table
    spec_places = BY_ID[agent].places
    assert spec_places is not None
    assert spec_places(Home(home)) == found.of(agent)


PACKAGE = Path(__file__).resolve().parents[2] / "toolhist"
ABOVE = {
    "formats": ("toolhist.agents", "toolhist.readers", "toolhist.machine", "toolhist.ran_on"),
    "agents": ("toolhist.agents.registry", "toolhist.readers", "toolhist.machine", "toolhist.ran_on"),
}
"""What each layer must not import: the registries and everything composed from them sit above it."""


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    return found | {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    }


@pytest.mark.parametrize("layer", sorted(ABOVE))
def test_arrows_point_down(layer: str) -> None:
    modules = sorted((PACKAGE / layer).rglob("*.py"))
    assert len(modules) > 10
    wrong = [
        (str(path.relative_to(PACKAGE)), name)
        for path in modules
        for name in sorted(_imports(path))
        if name.startswith(ABOVE[layer])
    ]
    assert wrong == []
