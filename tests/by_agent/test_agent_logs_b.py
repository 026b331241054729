"""Per sample (Kilo, Gemini CLI, VS Code, OTel, failure modes): format, counts and error rules per provider.

The rule sets were computed, then checked against what each failure mode should break:

- the Kilo XML era has no tool structure, so nothing to reject;
- Kilo's user turn holds the tool_result *and* the environment details: Mistral wants only tool
  messages after a tool message (``mis.order``);
- seed 000 B (a result copy before its call, another after interim text) breaks every
  adjacency rule, except the Responses API's, which pairs by call_id alone;
- Kimi ids fail Anthropic's id pattern (Bedrock's current pattern, ``[a-zA-Z0-9_.:-]+``, takes them)
  but are Kimi's own form;
- a log that ends on the final answer right after tool results, validated as it stands, is an
  assistant prefill with tools for Bedrock (``brk.prefill_tools``; judged as the next request it is not);
- a Gemini call turn answered over two turns breaks ``gem.fr_count``;
- a Responses function call without its reasoning item breaks ``resp.fc_needs_reasoning``;
- every sample with ids not made of 9 alphanumerics fails ``mis.id_format``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import toolhist
from toolhist.providers import PROVIDERS, validate

SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"
NONE: dict[str, set[str]] = {p: set() for p in PROVIDERS}

# file: (format, messages, calls, results, {provider: error rule ids})
CASES: dict[str, tuple[str, int, int, int, dict[str, set[str]]]] = {
    "kilo_xml_era.json": ("kilo", 7, 0, 0, NONE),
    "kilo_native_session.json": (
        "kilo",
        8,
        3,
        3,
        {
            **NONE,
            "mistral": {"mis.id_format", "mis.last_role"},
            "bedrock": {"brk.prefill_tools"},
        },
    ),
    "kilo_flattened_resumed.json": ("kilo", 9, 1, 1, {**NONE, "mistral": {"mis.id_format"}}),
    "gemini_cli_session.jsonl": (
        "gemini-cli",
        9,
        4,
        4,
        {
            **NONE,
            "mistral": {"mis.id_format", "mis.last_role"},
            "bedrock": {"brk.prefill_tools"},
        },
    ),
    "gemini_parallel_split.json": (
        "gemini",
        9,
        2,
        2,
        {**NONE, "gemini": {"gem.fr_count", "gem.fr_position"}, "mistral": {"mis.id_format"}},
    ),
    "vscode_rejected_tool.json": (
        "vscode",
        9,
        2,
        2,
        {**NONE, "mistral": {"mis.id_format", "mis.last_role"}, "bedrock": {"brk.prefill_tools"}},
    ),
    "otel_genai_support_agent.json": (
        "otel-genai",
        7,
        2,
        2,
        {**NONE, "mistral": {"mis.id_format", "mis.last_role"}},
    ),
    "provider_switch_duplicate_results.json": (
        "openai-chat",
        8,
        2,
        3,
        {
            "openai-chat": {"oai.tool_orphan", "oai.call_unanswered"},
            "openai-responses": set(),
            "anthropic": {"ant.result_orphan", "ant.result_missing"},
            "gemini": {"gem.fr_position", "gem.fr_count"},
            "mistral": {"mis.id_format", "mis.count", "mis.order", "mis.unexpected_result"},
            "kimi": {"oai.tool_orphan", "oai.call_unanswered"},
            "bedrock": {"brk.result_missing", "brk.result_count"},
        },
    ),
    "kimi_ids_to_anthropic.json": (
        "anthropic",
        8,
        2,
        2,
        {
            **NONE,
            "anthropic": {"ant.id_pattern"},
            "mistral": {"mis.id_format"},
        },
    ),
    "mistral_ids_after_openai.json": ("openai-chat", 10, 2, 2, {**NONE, "mistral": {"mis.id_format"}}),
    "responses_missing_reasoning.json": (
        "openai-responses",
        6,
        2,
        2,
        {**NONE, "mistral": {"mis.id_format"}},  # resp.fc_needs_reasoning is a warning (recorded traffic)
    ),
}


def test_all_seven_providers_are_pinned() -> None:
    assert len(PROVIDERS) == 7
    assert all(set(rules) == set(PROVIDERS) for *_, rules in CASES.values())


@pytest.mark.parametrize("name", sorted(CASES))
def test_sample_format_counts_and_error_rules(name: str) -> None:
    fmt, messages, calls, results, rules = CASES[name]
    session = toolhist.load(SAMPLES / name)
    assert session.source.format == fmt
    assert len(session.messages) == messages
    assert sum(len(list(m.tool_calls())) for m in session.messages) == calls
    assert sum(len(list(m.tool_responses())) for m in session.messages) == results
    found = {p: {v.rule for v in validate(session, p) if v.severity == "error"} for p in PROVIDERS}
    assert found == rules


def test_kimi_ids_are_only_a_warning_for_kimi() -> None:
    session = toolhist.load(SAMPLES / "kimi_ids_to_anthropic.json")
    assert {(v.rule, v.severity) for v in validate(session, "kimi")} <= {("kimi.id_format", "warning")}


def test_vscode_rejected_call_is_not_in_the_history_but_is_said() -> None:
    session = toolhist.load(SAMPLES / "vscode_rejected_tool.json")
    rejected = session.messages[4]
    assert rejected.speaker == "human"
    assert session.messages[5].speaker == "human"  # no assistant turn in between: what the model sees
    invocations = rejected.metadata.extra["unsent_tool_invocations"]
    assert isinstance(invocations, list)
    assert [i["toolCallId"] for i in invocations if isinstance(i, dict)] == [
        "7f3a9c1e-5b2d-4e8f-a0c6-1d3e5f7a9b2c"
    ]
    assert all("7f3a9c1e" not in b.id for m in session.messages for b in m.tool_calls())
    assert any("7f3a9c1e-5b2d-4e8f-a0c6-1d3e5f7a9b2c" in n for n in session.source.notes)
