"""`toolhist.views.packed`: a long body is kept as compressed bytes, and every entry reads back exactly."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import orjson
import pytest
from bench_modules import benchmark_module
from hypothesis import given
from hypothesis import strategies as st

import toolhist
from toolhist._trusted import construct
from toolhist.model import Session
from toolhist.providers import PROVIDERS, Payload, render
from toolhist.views.packed import CHUNK, PACK_FROM, pack

ROOT = Path(__file__).parent.parent.parent
CODEX = ROOT / "tests" / "corpus" / "logs" / "codex" / "acidicsoil-rollout-2025-11-17-ghost-snapshot.jsonl"


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Session:
    """600 messages of ``benchmarks/generate.py`` (an agent's OpenAI Chat body): several chunks."""
    path = benchmark_module("generate").write(600, tmp_path_factory.mktemp("packed") / "long.json")
    return toolhist.load(path)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_a_packed_body_holds_its_list_as_bytes_and_gives_back_every_entry(
    provider: str, generated: Session
) -> None:
    payload = render(generated, provider)
    kept = pack(payload, pack_from=0)
    key = kept.sections.list_key
    assert key is not None
    listed = payload.body[key]
    assert isinstance(listed, list)
    assert kept.size == len(listed) > CHUNK  # more than one chunk
    assert all(isinstance(chunk, bytes) for chunk in kept.chunks)  # no dict tree is kept for the list
    assert sum(len(chunk or b"") for chunk in kept.chunks) < len(orjson.dumps(listed)) / 2  # compressed
    assert [kept.entry(n) for n in range(kept.size)] == listed
    assert kept.body() == payload.body
    assert list(kept.body()) == list(payload.body)  # the body's own key order
    assert kept.omitted == payload.omitted
    assert kept.id_map == payload.id_map
    with pytest.raises(IndexError):
        kept.entry(kept.size)


def test_a_short_body_is_kept_as_it_is() -> None:
    payload = render(toolhist.load(CODEX), "anthropic")
    kept = pack(payload)
    assert kept.size <= PACK_FROM
    assert all(isinstance(chunk, list) for chunk in kept.chunks)
    listed = payload.body["messages"]
    assert isinstance(listed, list)
    first = kept.chunks[0]
    assert isinstance(first, list)
    assert first[0] is listed[0]  # the same objects, not copies


def _json() -> st.SearchStrategy[Any]:
    leaves = st.none() | st.booleans() | st.integers() | st.floats() | st.text()
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=4)
            | st.tuples(inner, inner)
            | st.dictionaries(st.text(max_size=5), inner, max_size=4)
        ),
        max_leaves=12,
    )


def _same(a: Any, b: Any) -> bool:
    """Equal, a NaN to a NaN, and a tuple only to a tuple."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float) and math.isnan(a):
        return math.isnan(b)
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list | tuple):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


@given(st.lists(_json(), max_size=40), st.integers(1, 8))
def test_every_entry_reads_back_as_it_was(some: list[Any], times: int) -> None:
    """NaN, tuples, integers past 64 bits, lone surrogates: a chunk JSON cannot hold exactly stays as it is."""
    entries = some * times  # up to 320 entries: several chunks
    payload = construct(
        Payload, provider="anthropic", body={"model": "m", "messages": entries}, source_map={}
    )
    kept = pack(payload, pack_from=0)
    assert kept.size == len(entries)
    assert _same([kept.entry(n) for n in range(kept.size)], entries)
    assert _same(kept.body(), {"model": "m", "messages": entries})


@pytest.mark.parametrize("provider", ["openai-chat", "anthropic", "gemini"])
def test_the_first_screen_is_packed_now_and_the_rest_when_first_read(
    provider: str, generated: Session
) -> None:
    """``hot``: only the chunks of those messages' entries are packed; another entry renders the body again, once."""
    payload = render(generated, provider)
    renders: list[int] = []

    def again() -> Payload:
        renders.append(1)
        return render(generated, provider)

    kept = pack(payload, pack_from=0, hot=range(10, 20), again=again)
    key = kept.sections.list_key
    assert key is not None
    listed = payload.body[key]
    assert isinstance(listed, list)
    wanted = {e // CHUNK for m in range(10, 20) for e in kept.sections.entries.get(m, ())}
    assert wanted == {0}
    assert [at for at, chunk in enumerate(kept.chunks) if chunk is not None] == [0]
    assert isinstance(kept.chunks[0], bytes)
    assert [kept.entry(n) for n in range(CHUNK)] == listed[:CHUNK]
    assert renders == []  # the first screen reads nothing else
    assert kept.entry(kept.size - 1) == listed[-1]
    assert renders == [1]
    assert all(isinstance(chunk, bytes) for chunk in kept.chunks)  # every chunk packed, once
    assert kept.body() == payload.body
    assert renders == [1]


def test_without_a_way_to_render_again_every_chunk_is_packed(generated: Session) -> None:
    kept = pack(render(generated, "anthropic"), pack_from=0, hot=range(3))
    assert all(isinstance(chunk, bytes) for chunk in kept.chunks)
