"""The chat-shaped providers share one rendered body per session (`toolhist.providers.chat_shared`).

Whatever order OpenAI Chat, Mistral and Kimi are rendered in, each gets exactly the body, source
map and omissions a render of its own gives; a chat source's custom calls keep OpenAI's body its own.
Only inside `sharing` is a body kept; outside it (a page rendering one provider) nothing is.
"""

from __future__ import annotations

import gc
from itertools import permutations
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.check import check
from toolhist.model import Session
from toolhist.providers import chat_render, chat_shared, render

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
CHAT = ("openai-chat", "mistral", "kimi")

CUSTOM_BODY: dict[str, Any] = {
    "model": "gpt-5",
    "messages": [
        {"role": "user", "content": "Patch a.py"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_P", "type": "custom", "custom": {"name": "apply_patch", "input": "*** Begin\n"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_P", "content": "Done"},
    ],
}


def _alone(session: Session, provider: str) -> tuple[Any, dict[str, Any], tuple[str, ...]]:
    """The provider's payload with nothing shared: the memory emptied before and after."""
    chat_shared._SHARED.clear()
    payload = render(session, provider)
    chat_shared._SHARED.clear()
    return payload.body, dict(payload.source_map), payload.omitted


def _sessions() -> list[Session]:
    return [
        toolhist.load(CUSTOM_BODY),
        toolhist.load(str(SAMPLES / "codex_rollout_interrupted.jsonl")),  # thinking it cannot carry
        toolhist.load(str(SAMPLES / "openai_chat_request.json")),
        toolhist.load(str(SAMPLES / "switch_back_thinking.json")),
    ]


@pytest.mark.parametrize("order", list(permutations(CHAT)))
def test_every_order_gives_each_provider_its_own_payload(order: tuple[str, ...]) -> None:
    for session in _sessions():
        expected = {p: _alone(session, p) for p in CHAT}
        got = {}
        with chat_shared.sharing():
            for provider in order:
                payload = render(session, provider)
                got[provider] = (payload.body, dict(payload.source_map), payload.omitted)
        assert got == expected
        assert chat_shared._SHARED == {}  # the scope's end drops what no provider took


def test_a_chat_source_with_custom_calls_keeps_openais_body_its_own() -> None:
    session = toolhist.load(CUSTOM_BODY)
    chat_shared._SHARED.clear()
    with chat_shared.sharing():
        openai = render(session, "openai-chat").body
        mistral = render(session, "mistral").body
        kimi = render(session, "kimi").body
    assert openai == CUSTOM_BODY
    assert mistral is not openai
    assert kimi is mistral  # the two without custom tools share one
    assert chat_shared._SHARED == {}  # each has taken it: nothing kept


def test_a_body_is_shared_once_per_provider_and_dropped_with_the_session() -> None:
    session = toolhist.load(str(SAMPLES / "openai_chat_request.json"))
    chat_shared._SHARED.clear()
    with chat_shared.sharing():
        first = render(session, "mistral").body
        assert list(chat_shared._SHARED) == [id(session)]
        assert render(session, "mistral").body is not first  # mistral took its share already
        assert render(session, "openai-chat").body is not None
        del session, first
        gc.collect()
        assert chat_shared._SHARED == {}


def test_rendering_another_shape_drops_the_kept_body() -> None:
    """A kept body never adds to the peak memory of rendering another provider's body."""
    session = toolhist.load(str(SAMPLES / "openai_chat_request.json"))
    chat_shared._SHARED.clear()
    with chat_shared.sharing():
        first = render(session, "openai-chat").body
        assert list(chat_shared._SHARED) == [id(session)]
        render(session, "anthropic")
        assert chat_shared._SHARED == {}
        assert render(session, "mistral").body is not first
        assert render(session, "mistral").body == first


def test_outside_sharing_nothing_is_kept() -> None:
    """One provider's render (a page showing one body) leaves no body behind for the others."""
    session = toolhist.load(str(SAMPLES / "openai_chat_request.json"))
    chat_shared._SHARED.clear()
    first = render(session, "openai-chat").body
    assert chat_shared._SHARED == {}
    assert render(session, "mistral").body is not first


def _counting_renders(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The sessions `chat_render.render_fresh` really renders, from now on."""
    seen: list[int] = []
    original = chat_render.render_fresh

    def counting(session: Session, freeform: bool) -> Any:
        seen.append(id(session))
        return original(session, freeform=freeform)

    chat_shared._SHARED.clear()
    monkeypatch.setattr("toolhist.providers.chat_shared.render_fresh", counting)  # counts the real renders
    return seen


def test_check_renders_one_chat_body_and_keeps_nothing_after(monkeypatch: pytest.MonkeyPatch) -> None:
    """`toolhist.check.check` checks the chat trio first: one body for all three; results in registry order."""
    seen = _counting_renders(monkeypatch)
    result = check(SAMPLES / "openai_chat_request.json")
    assert tuple(result.results) == toolhist.PROVIDERS
    assert len(seen) == 1
    assert chat_shared._SHARED == {}
    assert chat_shared._PASSES == {}


def test_streamed_verdicts_keep_registry_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Checking.verdicts` (the CLI prints each as it comes) keeps the registry order and holds no body
    across the others: OpenAI Chat renders its own, Mistral's is Kimi's, nothing is left once done."""
    from toolhist.check import start

    seen = _counting_renders(monkeypatch)
    run = start(SAMPLES / "openai_chat_request.json")
    names = [name for name, _ in run.verdicts()]
    assert tuple(names) == toolhist.PROVIDERS
    assert len(seen) == 2
    assert chat_shared._SHARED == {}
    assert chat_shared._PASSES == {}


def test_chat_first_finds_what_registry_order_finds() -> None:
    """The order of the providers changes no verdict: every field of every violation is the same."""
    from toolhist.check import start

    for sample in (
        "openai_chat_request.json",
        "claude_code_compacted_result.jsonl",
        "kilo_flattened_resumed.json",
    ):
        run = start(SAMPLES / sample)
        streamed = {name: [v.model_dump() for v in found] for name, found in run.verdicts()}
        kept = {name: [v.model_dump() for v in found] for name, found in run.verdicts(chat_first=True)}
        assert list(kept) == sorted(toolhist.PROVIDERS, key=lambda p: p not in CHAT)
        assert kept == streamed, sample


LONG_IDS: dict[str, Any] = {  # an id past OpenAI's 40 characters: oai.id_len for OpenAI, not for Kimi
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "Run it"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_" + "x" * 40,
                    "type": "function",
                    "function": {"name": "run", "arguments": "{}"},
                },
                {"id": "functions.run:1", "type": "function", "function": {"name": "", "arguments": "{}"}},
            ],
        },
        {"role": "tool", "tool_call_id": "call_" + "x" * 40, "content": "ok"},
        {"role": "tool", "tool_call_id": "call_other", "content": "orphan"},
    ],
}


@pytest.mark.parametrize("order", list(permutations(CHAT)))
def test_kimi_takes_openais_pairing_and_shape_findings_less_the_id_length(order: tuple[str, ...]) -> None:
    """Inside `sharing` the passes OpenAI Chat and Kimi both run are run once per message list."""
    from toolhist.providers import validate_payload

    alone = {p: validate_payload(LONG_IDS, p) for p in CHAT}
    assert "oai.id_len" in {v.rule for v in alone["openai-chat"]}
    assert "oai.id_len" not in {v.rule for v in alone["kimi"]}
    assert {"oai.tool_id_unknown", "oai.empty_fn_name"} <= {v.rule for v in alone["kimi"]}
    with chat_shared.sharing():
        shared = {p: validate_payload(LONG_IDS, p) for p in order}
        assert set(chat_shared._PASSES) == {"pairing", "shapes"}
    assert shared == alone
    assert chat_shared._PASSES == {}
