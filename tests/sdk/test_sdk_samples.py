"""Every body toolhist renders from a bundled sample, for every provider and strategy, passes the SDK types.

One parametrised test, sample x provider x strategy, and no case is excused. The only findings
allowed are under ``none`` and ``toolhist`` and are pinned exactly in `FROM_SOURCE`: ``none`` sends the
history as the source had it (DESIGN §5 round trip), and three samples carry values the SDK types
refuse — the check must report exactly those, each verbatim from the source. ``toolhist`` changes only
what the provider refuses (issue 24), and the providers take those values (OpenAI ignores a tool
message's ``name``; Codex replays reasoning without ``id`` to the Responses API), so it keeps them too.
Every other curating strategy removes them (`toolhist.curation.conform`, tested below with its
Changes). A finding anywhere else is a renderer or curation bug. Bodies from sources that record no
model are checked with the placeholder model (`fill_model=True`): the model is a request field
outside the history.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist import sdk
from toolhist.curation import STRATEGIES
from toolhist.peers.strategies import LABEL as LIBRARY_RUN
from toolhist.providers import PROVIDERS, render

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
SDK_RENDERED = tuple(s for s in STRATEGIES if s not in LIBRARY_RUN)
"""Strategies whose body toolhist renders. ``litellm``, ``openai-agents``, ``pydantic-ai`` and ``langchain`` answer with the real library's
own HTTP request (issue 18), which goes out through the library's client, not the official SDKs, so the
SDKs' request types say nothing about it (LiteLLM sends Gemini a snake_case ``system_instruction``, which
the API takes and google-genai's types do not)."""

EXTRA_NAME = "Extra inputs are not permitted [type=extra_forbidden, input_value={!r}, input_type=str]"
NO_ID = (
    "Field required [type=missing, input_value={'type': 'reasoning', 'summary': [{'type': 'summary_text'..., "
    "input_type=dict]"
)
NULL_CONTENT = "Input should be a valid list [type=list_type, input_value=None, input_type=NoneType]"

# (sample, provider) -> the exact findings under strategy "none": (path, error text).
FROM_SOURCE: dict[tuple[str, str], list[tuple[str, str]]] = {
    # A tool message with `name` (the OpenAI cookbook's habit); ChatCompletionToolMessageParam has none.
    ("openai_chat_request.json", "openai-chat"): [("messages[3].name", EXTRA_NAME.format("read_file"))],
    ("openai_chat_request.json", "kimi"): [("messages[3].name", EXTRA_NAME.format("read_file"))],
    ("mistral_ids_after_openai.json", "openai-chat"): [
        ("messages[3].name", EXTRA_NAME.format("run_sql")),
        ("messages[7].name", EXTRA_NAME.format("run_sql")),
    ],
    ("mistral_ids_after_openai.json", "kimi"): [
        ("messages[3].name", EXTRA_NAME.format("run_sql")),
        ("messages[7].name", EXTRA_NAME.format("run_sql")),
    ],
    # Codex replays reasoning without `id` and with "content": null (codex-rs ResponseItem::Reasoning).
    ("codex_rollout_interrupted.jsonl", "openai-responses"): [
        ("input[2].id", NO_ID),
        ("input[2].content", NULL_CONTENT),
        ("input[5].id", NO_ID),
        ("input[5].content", NULL_CONTENT),
    ],
}


def _sessions() -> list[tuple[str, toolhist.Session]]:
    out = []
    for path in sorted(SAMPLES.iterdir()):
        if path.suffix != ".md":  # README.md and EXPECTED.md describe the samples; every other file loads
            out.append((path.name, toolhist.load(path)))
    return out


LOADED = _sessions()


def _cases() -> list[Any]:
    return [
        pytest.param(name, provider, strategy, id=f"{name}-{provider}-{strategy}")
        for name, _session in LOADED
        for provider in PROVIDERS
        for strategy in SDK_RENDERED
    ]


def test_the_matrix_is_not_empty() -> None:
    assert len(LOADED) == 23
    assert len(_cases()) == len(LOADED) * len(PROVIDERS) * len(SDK_RENDERED)
    assert len(SDK_RENDERED) == 9  # canonical joined the strategies toolhist renders (issue 24)


def test_every_pinned_finding_names_a_loaded_sample() -> None:
    names = {name for name, _ in LOADED}
    assert {name for name, _provider in FROM_SOURCE} <= names


@pytest.mark.parametrize(("name", "provider", "strategy"), _cases())
def test_rendered_body_passes_the_sdk_types(name: str, provider: str, strategy: str) -> None:
    session = dict(LOADED)[name]
    payload = render(session, provider, strategy=strategy)
    found = sdk.check(payload.body, provider, payload.source_map, fill_model=True)
    expected = FROM_SOURCE.get((name, provider), []) if strategy in ("none", "toolhist") else []
    assert [(v.path, v.error_text) for v in found] == expected


def _conform_changes(name: str, provider: str, strategy: str) -> list[tuple[str, Any, Any]]:
    curation = toolhist.curate(dict(LOADED)[name], provider, strategy=strategy)
    return [
        (c.action, c.before.message if c.before else None, c.dropped)
        for c in curation.changes
        if c.pass_ == "conform_to_sdk"
    ]


@pytest.mark.parametrize(
    "strategy", [s for s in SDK_RENDERED if s not in ("none", "toolhist", "vercel-ai-model")]
)
def test_every_curating_strategy_strips_the_tool_message_name_with_a_change(strategy: str) -> None:
    # vercel-ai-model: the model-messages route throws MissingToolResultsError on these samples (an
    # unanswered call), as the real AI SDK does, so it sends nothing and records one `keep` Change.
    for provider in ("openai-chat", "kimi"):
        assert _conform_changes("openai_chat_request.json", provider, strategy) == [
            ("strip", 3, {"name": "read_file"})
        ]
        assert _conform_changes("mistral_ids_after_openai.json", provider, strategy) == [
            ("strip", 3, {"name": "run_sql"}),
            ("strip", 7, {"name": "run_sql"}),
        ]
    # Mistral's own SDK types `name` on tool messages: nothing to remove there.
    assert _conform_changes("openai_chat_request.json", "mistral", strategy) == []


def test_toolhist_keeps_what_only_the_sdk_types_refuse() -> None:
    """Issue 24: the provider takes these, so the reference repair changes none of them."""
    for name, provider in FROM_SOURCE:
        assert _conform_changes(name, provider, "toolhist") == [], (name, provider)
    codex = dict(LOADED)["codex_rollout_interrupted.jsonl"]
    items = render(codex, "openai-responses", strategy="toolhist").body["input"]
    assert isinstance(items, list)
    assert [item.get("type") for item in items if isinstance(item, dict)].count("reasoning") == 2


def test_codex_reasoning_without_id_is_dropped_with_its_summary_and_encrypted_content() -> None:
    changes = _conform_changes("codex_rollout_interrupted.jsonl", "openai-responses", "canonical")
    assert [(action, message) for action, message, _ in changes] == [("drop", 2), ("drop", 4)]
    first = changes[0][2]
    assert isinstance(first, dict)
    assert first["text"] == "**Running the failing tests**"
    assert str(first["data"]).startswith("gAAAAABo3kQx7bN2")
    body = render(
        dict(LOADED)["codex_rollout_interrupted.jsonl"], "openai-responses", strategy="canonical"
    ).body
    items = body["input"]
    assert isinstance(items, list)
    assert [item.get("type") for item in items if isinstance(item, dict)].count("reasoning") == 0


def test_conform_changes_nothing_for_histories_the_sdk_types_already_take() -> None:
    for name, _session in LOADED:
        for provider in PROVIDERS:
            if (name, provider) not in FROM_SOURCE:
                assert _conform_changes(name, provider, "canonical") == [], (name, provider)


def test_the_none_findings_are_the_source_values_verbatim() -> None:
    """What `none` is flagged for is in the source file itself, not something toolhist wrote."""
    import json

    chat = json.loads((SAMPLES / "openai_chat_request.json").read_text())
    assert chat["messages"][3] == {**chat["messages"][3], "role": "tool", "name": "read_file"}
    codex = [
        json.loads(line) for line in (SAMPLES / "codex_rollout_interrupted.jsonl").read_text().splitlines()
    ]
    reasoning = [
        r["payload"]
        for r in codex
        if r.get("type") == "response_item" and r["payload"]["type"] == "reasoning"
    ]
    assert len(reasoning) == 2
    assert all("id" not in r and r["content"] is None for r in reasoning)
