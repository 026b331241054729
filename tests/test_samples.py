"""Every bundled sample: detected format and exact counts via ``toolhist summary``, and round trips."""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

import pytest
from test_cli import run

import toolhist

SAMPLES = Path(__file__).parent.parent / "sample_logs"

# (file, format, messages, by speaker (system, human, ai, tool), calls, results, unanswered, unmatched, tools)
EXPECTED: list[tuple[Any, ...]] = [
    (
        "openai_chat_request.json",
        "openai-chat",
        10,
        (1, 2, 4, 3),
        4,
        3,
        ["call_Rk2Vb7nXc4LzA9qWe6tYu1Io"],
        [],
        2,
    ),
    ("anthropic_request.json", "anthropic", 8, (1, 2, 3, 2), 3, 3, [], [], 2),
    ("gemini_request.json", "gemini", 8, (1, 2, 3, 2), 3, 3, [], [], 2),
    ("bedrock_converse.json", "bedrock", 8, (1, 2, 3, 2), 3, 3, [], [], 3),
    ("openai_responses_input.json", "openai-responses", 8, (1, 2, 3, 2), 3, 3, [], [], 2),
    ("llxprt_icontent.json", "icontent", 7, (0, 2, 3, 2), 4, 3, [], [], None),
    ("xss_tool_result.json", "anthropic", 5, (1, 1, 2, 1), 1, 1, [], [], 1),
]


def _more_expectations() -> list[tuple[Any, ...]]:
    """Expectations for samples added with the agent-log readers: ``tests/samples/expect_*.py``.

    Each such module exports ``EXPECTED`` in the same shape as above, so the samples of one reader
    are pinned next to that reader's work without everyone editing this list.
    """
    out: list[tuple[Any, ...]] = []
    for path in sorted((Path(__file__).parent / "samples").glob("expect_*.py")):
        out.extend(importlib.import_module(f"samples.{path.stem}").EXPECTED)
    return out


ALL_EXPECTED = EXPECTED + _more_expectations()


def test_every_sample_is_listed() -> None:
    files = sorted(
        p.name for p in SAMPLES.iterdir() if p.is_file() and p.name not in ("README.md", "EXPECTED.md")
    )
    assert files == sorted(e[0] for e in ALL_EXPECTED)
    readme = (SAMPLES / "README.md").read_text()
    for name, fmt, *_ in ALL_EXPECTED:
        assert f"| `{name}` | `{fmt}` |" in readme


@pytest.mark.parametrize("expected", ALL_EXPECTED, ids=[e[0] for e in ALL_EXPECTED])
def test_summary_counts(expected: tuple[object, ...]) -> None:
    name, fmt, messages, speakers, calls, results, unanswered, unmatched, tools = expected
    out = run("summary", str(SAMPLES / str(name)), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert data["format"] == fmt
    assert data["messages"] == messages
    assert tuple(data["by_speaker"][k] for k in ("system", "human", "ai", "tool")) == speakers
    assert (data["tool_calls"], data["tool_results"]) == (calls, results)
    assert (data["unanswered_calls"], data["unmatched_results"], data["duplicate_results"]) == (
        unanswered,
        unmatched,
        [],
    )
    assert data["tools_declared"] == tools


@pytest.mark.parametrize("name", [e[0] for e in ALL_EXPECTED])
def test_canonical_round_trip(name: str) -> None:
    session = toolhist.load(SAMPLES / name)
    again = toolhist.load(session.to_json())
    assert again == session
    assert again.source.format == session.source.format  # the dump remembers its origin
