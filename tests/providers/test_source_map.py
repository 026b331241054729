"""The lazy source map (`toolhist.providers.base.PathMap`) reads exactly as the string map it replaced.

Renderers record payload paths as tuples and the strings are written only when the map is read;
violations are located from the tuples. Both views must agree: no renderer may record two tuples
that read as one string, and locating a finding by tuple must give what the string lookup gives.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from builders import ai, call, human, result, tool
from builders import session as build
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings

import toolhist
from toolhist.model import Session, TextBlock
from toolhist.providers import PROVIDERS, provider_for, render
from toolhist.providers.base import PathMap, SourceMap, _locate, dotted

SAMPLES = sorted(
    p for p in (Path(__file__).parents[2] / "sample_logs").iterdir() if p.suffix in (".json", ".jsonl")
)


def _agree(session: Session, provider: str) -> None:
    payload = render(session, provider)
    smap = payload.source_map
    assert isinstance(smap, PathMap)
    fmt = provider_for(provider).path_format
    entries = list(smap.entries())
    paths = dict(entries)
    assert len(paths) == len(entries) == len(smap)  # no path recorded twice
    written = {fmt(path): at for path, at in entries}
    assert len(written) == len(paths)  # no two tuples read as one string
    assert dict(smap) == written
    assert list(smap) == list(written)  # in the order recorded
    assert dict(smap.tuples().items()) == paths
    assert all(smap.tuples()[path] == at for path, at in entries)
    plain = dict(smap)
    for found in provider_for(provider).check(payload.body):
        assert _locate(found.path, fmt, smap) == _locate(found.path, fmt, plain)
    for path in paths:  # every recorded path, and a path below it, located alike
        for probe in (path, (*path, "content", 0)):
            assert _locate(probe, fmt, smap) == _locate(probe, fmt, plain)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_samples_read_alike(sample: Path) -> None:
    session = toolhist.load(str(sample))
    for provider in PROVIDERS:
        _agree(session, provider)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions())
def test_generated_histories_read_alike(session: Session) -> None:
    for provider in PROVIDERS:
        _agree(session, provider)


def test_mapping_behaviour() -> None:
    """Equality with a plain dict, length, iteration order, serialisation as a plain object."""
    smap = PathMap(
        lambda p: ".".join(map(str, p)), {("messages", 0): (0, None), ("messages", 0, "content", 0): (0, 0)}
    )
    assert smap == {"messages.0": (0, None), "messages.0.content.0": (0, 0)}
    assert list(smap) == ["messages.0", "messages.0.content.0"]
    assert len(smap) == 2
    assert smap.locate(("messages", 0, "content", 0, "text")) == (0, 0)
    assert smap.locate(("tools", 0)) is None
    payload = render(toolhist.load(str(SAMPLES[0])), "anthropic")
    assert payload.model_dump()["source_map"] == dict(payload.source_map)
    assert type(payload.model_dump()["source_map"]) is dict


def test_validating_writes_no_path_strings() -> None:
    """Structural: locating violations reads the tuples; no payload path is written as a string."""
    from toolhist.providers.base import violations

    session = toolhist.load(str(next(p for p in SAMPLES if p.name == "mistral_ids_after_openai.json")))
    payload = render(session, "mistral")
    smap = payload.source_map
    assert isinstance(smap, PathMap)
    found = violations(provider_for("mistral"), payload.body, smap)
    assert any(v.message_index is not None for v in found)
    assert smap._strings is None


def _resolves(body: object, path: tuple[object, ...]) -> bool:
    """Whether ``path`` names a value of ``body``; a content string stands for its one part (index 0)."""
    node: Any = body
    for n, part in enumerate(path):
        if isinstance(part, int):
            if isinstance(node, str) and part == 0 and n == len(path) - 1:
                return True  # one text part sent as a plain string: its part 0 is the string
            if not isinstance(node, list) or not 0 <= part < len(node):
                return False
        elif not isinstance(node, dict) or part not in node:
            return False
        node = node[part]
    return True


def _every_path_is_in_the_body(session: Session) -> None:
    for provider in PROVIDERS:
        payload = render(session, provider)
        smap = payload.source_map
        assert isinstance(smap, PathMap)
        missing = [path for path in smap.tuples() if not _resolves(payload.body, path)]
        assert not missing, (provider, missing[:3])


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_every_recorded_path_is_in_the_body(sample: Path) -> None:
    """A recorded path names a value the body holds (a chat tool message's text parts once pointed at
    the message before the one they are in)."""
    _every_path_is_in_the_body(toolhist.load(str(sample)))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions())
def test_every_recorded_path_is_in_generated_bodies(session: Session) -> None:
    _every_path_is_in_the_body(session)


@pytest.mark.parametrize("provider", ["openai-chat", "mistral", "kimi"])
def test_a_tool_messages_text_is_mapped_under_the_message_it_is_sent_in(provider: str) -> None:
    """Chat formats send a tool message's text as a user message after its results (`chat_render`)."""
    history = build(human("hi"), ai(call("c1")), tool(result("c1"), TextBlock(text="note")))
    payload = render(history, provider)
    messages: Any = payload.body["messages"]
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "user"]
    smap = payload.source_map
    assert isinstance(smap, PathMap)
    paths = smap.tuples()
    assert paths[("messages", 3)] == (2, None)
    assert paths[("messages", 3, "content", 0)] == (2, 1)  # the text block, in the message it is in
    assert ("messages", 2, "content", 0) not in paths  # not under the tool result before it


def _long_history(turns: int) -> Session:
    messages = [human("go")]
    for k in range(turns):
        messages += [ai("step", call(f"c{k}a"), call(f"c{k}b")), tool(result(f"c{k}a"), result(f"c{k}b"))]
    return build(*messages)


@pytest.mark.parametrize("provider", PROVIDERS)
def test_the_map_holds_no_object_per_entry(provider: str) -> None:
    """Structural (issue 26): an entry is a few machine ints in columns, not a key tuple, a value
    tuple and ints (~200 bytes; ~170 MB per body of a 1 GB Codex rollout). What the map alone
    holds, as tracemalloc counts it, stays within 24 bytes an entry plus a fixed part."""
    import gc
    import tracemalloc

    session = _long_history(1000)
    tracemalloc.start()
    try:
        payload = render(session, provider)
        smap = payload.source_map
        assert isinstance(smap, PathMap)
        entries = len(smap)
        assert entries > 4000
        gc.collect()
        before = tracemalloc.get_traced_memory()[0]
        del smap
        payload.__dict__["source_map"] = {}
        gc.collect()
        held = before - tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    assert held < 24 * entries + 16_384, (held, entries)


def test_a_path_recorded_twice_reads_as_a_dict_would() -> None:
    """The first place, the last value; lookups and order agree with the dict the map replaced."""
    recorded = SourceMap(dotted)
    put = recorded.column("messages", None)
    put(0, 0, None)
    put(1, 1, None)
    recorded.add(("system",), 0)
    put(1, 2, 0)  # again: the value changes, the place does not
    put(0, 3, None)
    smap = PathMap(dotted, recorded)
    assert list(smap.items()) == [("messages.0", (3, None)), ("messages.1", (2, 0)), ("system", (0, None))]
    assert smap.locate(("messages", 1, "content", 0)) == (2, 0)
    assert smap.tuples()[("messages", 0)] == (3, None)
    assert len(smap) == 3
