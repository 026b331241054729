"""The realistic session rendered for every provider (ids mapped to each provider's form), pinned as
JSON snapshots, and the exact violations each body has (none of error severity)."""

from __future__ import annotations

from typing import Any

import pytest
from realistic import REALISTIC
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

from toolhist.providers import PROVIDERS, render, validate

SEVEN = ("openai-chat", "openai-responses", "anthropic", "gemini", "mistral", "kimi", "bedrock")


@pytest.fixture
def snapshot_json(snapshot: SnapshotAssertion) -> SnapshotAssertion:
    return snapshot.use_extension(JSONSnapshotExtension)


def test_all_seven_providers_are_registered() -> None:
    assert PROVIDERS == SEVEN


@pytest.mark.parametrize("provider", SEVEN)
def test_realistic_body(provider: str, snapshot_json: SnapshotAssertion) -> None:
    assert render(REALISTIC, provider, ids="provider").body == snapshot_json


# Mistral's V3 validator wants content or tool_calls on an assistant message, not both; the hosted
# API (V5+) takes both, so it is a warning on the two assistant turns that say something and call.
EXPECTED: dict[str, list[tuple[str, str, str]]] = {
    "openai-chat": [],
    "openai-responses": [],
    "anthropic": [],
    "gemini": [],
    "mistral": [
        ("mis.content_xor_calls", "warning", "messages[2]"),
        ("mis.content_xor_calls", "warning", "messages[5]"),
    ],
    "kimi": [],
    "bedrock": [],
}


@pytest.mark.parametrize("provider", SEVEN)
def test_realistic_violations(provider: str) -> None:
    found = validate(REALISTIC, provider, ids="provider")
    assert [(v.rule, v.severity, v.path) for v in found] == EXPECTED[provider]
    assert [v.severity for v in found if v.severity == "error"] == []


SYSTEM = "You are a careful coding agent. Use tools to inspect the repository."
ERROR = "FileNotFoundError: app/auth.py"


def test_system_prompt_sits_where_each_provider_wants_it() -> None:
    bodies: dict[str, Any] = {p: render(REALISTIC, p, ids="provider").body for p in SEVEN}
    for chat in ("openai-chat", "mistral", "kimi"):
        assert bodies[chat]["messages"][0] == {"role": "system", "content": SYSTEM}
    assert bodies["openai-responses"]["input"][0] == {"role": "system", "content": SYSTEM}
    assert bodies["anthropic"]["system"] == SYSTEM
    assert bodies["anthropic"]["messages"][0]["role"] == "user"
    assert bodies["gemini"]["systemInstruction"] == {"parts": [{"text": SYSTEM}]}
    assert bodies["gemini"]["contents"][0]["role"] == "user"
    assert bodies["bedrock"]["system"] == [{"text": SYSTEM}]
    assert bodies["bedrock"]["messages"][0]["role"] == "user"


def test_parallel_calls_and_the_error_result_in_each_format() -> None:
    bodies: dict[str, Any] = {p: render(REALISTIC, p, ids="provider").body for p in SEVEN}
    for chat in ("openai-chat", "mistral", "kimi"):
        messages = bodies[chat]["messages"]
        assert len(messages[2]["tool_calls"]) == 2
        assert [m["role"] for m in messages[3:5]] == ["tool", "tool"]
        assert messages[4]["content"] == ERROR
    assert [i.get("type") for i in bodies["openai-responses"]["input"][3:7]] == [
        "function_call",
        "function_call",
        "function_call_output",
        "function_call_output",
    ]
    assert bodies["openai-responses"]["input"][6]["output"] == ERROR
    anthropic_results = bodies["anthropic"]["messages"][2]["content"]
    assert [r.get("is_error", False) for r in anthropic_results] == [False, True]
    gemini_calls = bodies["gemini"]["contents"][1]["parts"]
    assert [("functionCall" in p) for p in gemini_calls] == [False, True, True]
    gemini_results = bodies["gemini"]["contents"][2]["parts"]
    assert gemini_results[1]["functionResponse"]["response"] == {"error": ERROR}
    bedrock_results = bodies["bedrock"]["messages"][2]["content"]
    assert [r["toolResult"]["status"] for r in bedrock_results] == ["success", "error"]
    assert bedrock_results[1]["toolResult"]["content"] == [{"text": ERROR}]
