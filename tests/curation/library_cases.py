"""Histories for tests/curation/test_libraries.py: seed 000's failure modes and small library cases.

Seed 000 (llxprt-code issue #864) names two failure modes: A, a cancelled call stored as one tool
message holding the call and its response (the bundled sample ``llxprt_icontent.json``); B,
duplicate and out-of-order tool results seen after switching providers. B is written out here as
three histories, with the unanswered call before a new user message that the same issue closes.
"""

from __future__ import annotations

from pathlib import Path

from builders import ai, call, human, result, tool

import toolhist
from toolhist.model import Message, Session, SessionSource, ToolSpec

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"

TOOLS = (
    ToolSpec(name="read_file", parameters={"type": "object", "properties": {"path": {"type": "string"}}}),
    ToolSpec(name="grep", parameters={"type": "object", "properties": {"pattern": {"type": "string"}}}),
)


def declared(*messages: Message, fmt: str = "toolhist") -> Session:
    """A session that declares its tools, so no library has to invent one."""
    return Session(messages=tuple(messages), tools=TOOLS, source=SessionSource(format=fmt))


def seed_a() -> Session:
    """Failure mode A: the bundled llxprt IContent sample."""
    return toolhist.load(SAMPLES / "llxprt_icontent.json")


def seed_b_duplicate() -> Session:
    """Failure mode B: a late duplicate result for call_A, interleaved after the next turn's result."""
    return declared(
        human("Read the config."),
        ai("Reading it.", call("call_A", path="config.toml")),
        tool(result("call_A", "[server]\nport = 8080")),
        ai("Port 8080. Anything else?"),
        human("Where is the port used?"),
        ai(call("call_B", "grep", pattern="port")),
        tool(result("call_B", "src/app.py:12", name="grep")),
        tool(result("call_A", "[server]\nport = 8080")),
        human("Thanks."),
    )


def seed_b_out_of_order() -> Session:
    """Failure mode B: call_D's result arrives after a later assistant message, away from its call."""
    return declared(
        human("Compare the two configs."),
        ai(call("call_C", path="a.toml"), call("call_D", path="b.toml")),
        tool(result("call_C", "a = 1")),
        ai("The first says a = 1; waiting for the second."),
        tool(result("call_D", "a = 2")),
        human("And?"),
    )


def seed_b_unanswered() -> Session:
    """The unanswered call issue #864 closes: a call the user interrupted with a new message."""
    return declared(
        human("Search for TODOs."),
        ai("Searching.", call("call_E", "grep", pattern="TODO")),
        human("Stop, just list the files instead."),
    )


SEEDS = {
    "A": seed_a,
    "B-duplicate": seed_b_duplicate,
    "B-out-of-order": seed_b_out_of_order,
    "B-unanswered": seed_b_unanswered,
}
