"""The agent-log samples: detected format, counts, and the exact rules each provider breaks.

One row per sample in ``sample_logs/``; the rule sets are what a user debugging that log sees in
``toolhist check`` (errors: the provider answers 400; warnings: accepted but wrong).
"""

from __future__ import annotations

from pathlib import Path

import pytest

import toolhist
from toolhist.formats.document import read_input
from toolhist.readers import READERS, detect

SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"

# file -> (format, messages, calls, results, {provider: (error rules, warning rules)})
CASES: dict[str, tuple[str, int, int, int, dict[str, tuple[set[str], set[str]]]]] = {
    "llxprt_debug_provider_switch.jsonl": (
        "llxprt-debug",
        9,
        3,
        4,
        {
            "openai-chat": ({"oai.tool_id_unknown"}, set()),
            "openai-responses": ({"resp.output_orphan"}, set()),
            "anthropic": ({"ant.result_orphan"}, set()),
            "gemini": ({"gem.fr_count"}, set()),
            "mistral": (
                {"mis.id_format", "mis.unexpected_result"},
                {"mis.content_xor_calls", "mis.user_after_tool"},
            ),
            "kimi": ({"oai.tool_id_unknown"}, {"kimi.id_format"}),
            "bedrock": ({"brk.result_count"}, {"brk.mixed_turn"}),
        },
    ),
    "llxprt_checkpoint_cancelled_shell.json": (
        "llxprt-checkpoint",
        7,
        2,
        2,
        {
            "openai-chat": ({"oai.call_unanswered", "oai.tool_orphan"}, set()),
            "openai-responses": (set(), set()),
            "anthropic": ({"ant.result_missing", "ant.result_orphan"}, set()),
            "gemini": ({"gem.fc_fr_mixed", "gem.fc_position", "gem.fr_count", "gem.fr_position"}, set()),
            "mistral": (
                {"mis.count", "mis.id_format", "mis.last_role", "mis.unexpected_result"},
                {"mis.content_xor_calls"},
            ),
            "kimi": ({"oai.call_unanswered", "oai.tool_orphan"}, {"kimi.id_format"}),
            "bedrock": ({"brk.result_count", "brk.result_missing"}, set()),
        },
    ),
    "claude_code_compacted_result.jsonl": (
        "claude-code",
        7,
        2,
        3,
        {
            "openai-chat": ({"oai.tool_orphan"}, set()),
            "openai-responses": ({"resp.output_orphan"}, set()),
            "anthropic": ({"ant.result_orphan"}, set()),
            "gemini": ({"gem.fr_position"}, set()),
            "mistral": ({"mis.id_format", "mis.last_role", "mis.order", "mis.unexpected_result"}, set()),
            "kimi": ({"oai.tool_orphan"}, {"kimi.id_format"}),
            "bedrock": ({"brk.prefill_tools", "brk.result_count"}, {"brk.mixed_turn"}),
        },
    ),
    # The interrupted call is answered "aborted" as Codex does before sending
    # (ensure_call_outputs_present, toolhist/agents/codex/normalize.py): no provider is refused it.
    "codex_rollout_interrupted.jsonl": (
        "codex",
        9,
        3,
        3,
        {
            "openai-chat": (set(), set()),
            "openai-responses": (set(), set()),
            "anthropic": (set(), set()),
            "gemini": (set(), set()),
            "mistral": ({"mis.id_format"}, {"mis.user_after_tool"}),
            "kimi": (set(), {"kimi.id_format"}),
            "bedrock": (set(), {"brk.mixed_turn"}),
        },
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_sample_format_counts_and_rules(name: str) -> None:
    fmt, messages, calls, results, rules = CASES[name]
    session = toolhist.load(SAMPLES / name)
    assert session.source.format == fmt
    assert len(session.messages) == messages
    assert sum(len(list(m.tool_calls())) for m in session.messages) == calls
    assert sum(len(list(m.tool_responses())) for m in session.messages) == results
    assert set(toolhist.PROVIDERS) == set(rules)
    for provider, (errors, warnings) in rules.items():
        found = toolhist.validate(session, provider)
        assert {v.rule for v in found if v.severity == "error"} == errors, provider
        assert {v.rule for v in found if v.severity != "error"} == warnings, provider


@pytest.mark.parametrize("name", sorted(CASES))
def test_sample_detected_by_exactly_one_reader(name: str) -> None:
    """Read whole (not streamed), every reader scores it and only the expected one is certain."""
    doc = read_input((SAMPLES / name).read_bytes(), name=name)
    certain = [rid for rid, reader in READERS.items() if reader.recognise(doc.value) == 2]
    assert certain == [CASES[name][0]]
    assert detect(doc).id == CASES[name][0]


@pytest.mark.parametrize("name", sorted(n for n in CASES if n.endswith(".jsonl")))
def test_streamed_and_in_memory_reads_agree(name: str) -> None:
    path = SAMPLES / name
    streamed = toolhist.load(path)
    in_memory = toolhist.load(path.read_bytes(), name=str(path))
    assert streamed.messages == in_memory.messages
    assert streamed.metadata == in_memory.metadata
    assert streamed.source.locations == in_memory.source.locations


def test_claude_code_sample_orphan_points_at_the_line_after_the_compaction() -> None:
    session = toolhist.load(SAMPLES / "claude_code_compacted_result.jsonl")
    (violation,) = toolhist.validate(session, "anthropic")
    assert violation.call_ids == ("toolu_01Bash5tY7uI9oP1aS3dF5gH",)
    assert violation.message_index == 1
    assert session.source.locations[1].line == 16
    assert session.messages[0].metadata.extra["isCompactSummary"] is True


def test_llxprt_debug_sample_lists_both_snapshots_as_incomplete_requests() -> None:
    from toolhist.agents.llxprt.debug import requests

    found = list(requests(str(SAMPLES / "llxprt_debug_provider_switch.jsonl")))
    assert [(r.line, r.provider, r.complete) for r in found] == [
        (11, "openai-chat", False),
        (17, "openai-chat", False),
    ]
    assert found[1].truncated == ("args[0].messages[1].contentPreview", "args[0].messages[2].contentPreview")
    index = toolhist.load(SAMPLES / "llxprt_debug_provider_switch.jsonl").metadata["requests"]
    assert index == [
        {
            "line": r.line,
            "provider": r.provider,
            "source": r.source,
            "messages": m,
            "complete": r.complete,
            "truncated": list(r.truncated),
        }
        for r, m in zip(found, (5, 9), strict=True)
    ]
    rules = [(v.rule, v.path) for v in toolhist.validate_payload(found[1].body, "openai-chat")]
    # messages[2] is an artefact of the cut preview (its calls were cut off); messages[7] is the real bug.
    assert rules == [
        ("oai.tool_orphan", "messages[2].role"),
        ("oai.tool_id_unknown", "messages[7].tool_call_id"),
    ]
