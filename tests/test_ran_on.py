"""The provider a session ran on accepted it (DESIGN §2): `ran_on` names it, and no 400 is predicted there.

Every bundled agent log that names its provider is checked on that provider, judged as the next
request the agent would send. The logs that still get an error there are listed with the evidence
for it; none may be added without some.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import toolhist
from toolhist.check import check
from toolhist.model import Message, MessageMetadata, Session, SessionSource
from toolhist.ran_on import RanOn, ran_on

SAMPLES = Path(__file__).parent.parent / "sample_logs"

RAN_ON: dict[str, RanOn | None] = {
    "claude_code_compacted_result.jsonl": RanOn(
        "anthropic", "anthropic", "claude-sonnet-4-5-20250929", "message 6 metadata"
    ),
    # its session_meta has no model_provider (older rollouts): Codex's default provider, said as such
    "codex_rollout_interrupted.jsonl": RanOn(
        "openai", "openai-responses", "gpt-5-codex", "session_meta without model_provider: Codex's default"
    ),
    "gemini_cli_session.jsonl": RanOn("gemini", "gemini", "gemini-2.5-pro", "message 8 metadata"),
    "llxprt_icontent.json": RanOn("openai", "openai-chat", "gpt-4.1", "message 6 metadata"),
    # OpenTelemetry's "openai" does not say Chat Completions or Responses: no rules to pick.
    "otel_genai_support_agent.json": RanOn("openai", None, "gpt-4.1-mini", "gen_ai.provider.name"),
    "kilo_flattened_resumed.json": None,
    "kilo_native_session.json": None,
    "kilo_xml_era.json": None,
    "llxprt_checkpoint_cancelled_shell.json": None,
    "llxprt_debug_provider_switch.jsonl": None,
    "vscode_rejected_tool.json": None,
}
"""Every bundled agent log (request bodies name no provider they ran on: they are what was sent)."""

KNOWN_400: dict[str, tuple[list[str], str]] = {
    "claude_code_compacted_result.jsonl": (
        ["ant.result_orphan"],
        "hand-made sample of the compaction failure: its README says the next request fails with "
        "'unexpected tool_use_id found in tool_result blocks'; the log records no 400 itself",
    ),
    "llxprt_icontent.json": (
        ["oai.call_unanswered"],
        "seed 000 failure mode A (llxprt-code issue #864): the cancelled call stored with its response "
        "in one tool message comes out unanswered on OpenAI Chat, the 400 the issue reports",
    ),
}
"""Logs whose own provider gets an error-level violation, with the evidence that it did reject."""


def test_every_agent_log_sample_is_listed() -> None:
    logs = sorted(
        p.name
        for p in SAMPLES.iterdir()
        if p.suffix in (".json", ".jsonl") and check(str(p), ["anthropic"]).judged == "next-request"
    )
    assert logs == sorted(RAN_ON)


@pytest.mark.parametrize("name", sorted(RAN_ON))
def test_ran_on_names_the_provider_the_log_names(name: str) -> None:
    assert ran_on(toolhist.load(SAMPLES / name)) == RAN_ON[name]


@pytest.mark.parametrize(
    "name", sorted(n for n, r in RAN_ON.items() if r is not None and r.provider is not None)
)
def test_no_400_on_the_provider_it_ran_on(name: str) -> None:
    ran = RAN_ON[name]
    assert ran is not None
    assert ran.provider is not None
    result = check(str(SAMPLES / name), [ran.provider])
    assert result.judged == "next-request"
    errors = [v.rule for v in result.results[ran.provider] if v.severity == "error"]
    assert errors == KNOWN_400.get(name, ([], ""))[0]


def test_request_bodies_name_no_provider() -> None:
    assert ran_on(toolhist.load(SAMPLES / "anthropic_request.json")) is None


def test_the_last_message_that_names_a_provider_wins() -> None:
    """A session switched mid-way ran last (and sends next) on the later provider."""
    first = Message(speaker="ai", metadata=MessageMetadata(provider="gemini", model="gemini-2.5-pro"))
    later = Message(speaker="ai", metadata=MessageMetadata(provider="openai", model="gpt-4.1"))
    session = Session(
        messages=(first, later, Message(speaker="human")), source=SessionSource(format="icontent")
    )
    assert ran_on(session) == RanOn("openai", "openai-chat", "gpt-4.1", "message 1 metadata")
    unmapped = session.model_copy(update={"source": SessionSource(format="vscode")})
    assert ran_on(unmapped) == RanOn("openai", None, "gpt-4.1", "message 1 metadata")
