"""`toolhist.views.body`: a body cut at its message list loses no entry and marks what the whole body marks."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as hst

import toolhist
from toolhist.providers import PROVIDERS, provider_for, render, validate
from toolhist.providers.base import PathMap
from toolhist.views.body import IntPairs, Spans, flagged, jumps, omitted_by_message, sections, value_lines
from toolhist.views.payloads import lines_frame

ROOT = Path(__file__).parent.parent.parent
FILES = [
    *sorted((ROOT / "sample_logs").glob("*.json*")),
    ROOT / "tests" / "corpus" / "logs" / "codex" / "acidicsoil-rollout-2025-11-17-ghost-snapshot.jsonl",
    ROOT / "tests" / "corpus" / "logs" / "claude-code" / "drmaciver-coverage-test-fix.jsonl",
]


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_entry_shows_once_and_marks_as_the_whole_body(path: Path, provider: str) -> None:
    session = toolhist.load(path)
    payload = render(session, provider)
    cut = sections(payload)
    assert cut.list_key is not None
    entries = payload.body[cut.list_key]
    assert isinstance(entries, list)
    shown = [e for m in sorted(cut.entries) for e in cut.entries[m]]
    assert sorted(shown) == list(range(len(entries)))  # every entry, once, in body order
    assert shown == sorted(shown)
    assert set(cut.fields) == set(payload.body) - {cut.list_key}
    for message, entry in cut.carried_by.items():  # merged messages point at an entry shown elsewhere
        assert message not in cut.entries
        assert entry in shown
    found = validate(session, provider)
    fmt = provider_for(provider).path_format
    # a violation inside a message marks the lines the whole body marks for it (its value's lines) ...
    whole_paths = {fmt((cut.list_key, e)): e for e in range(len(entries))} | {cut.list_key: -1}
    inside = [v for v in found if v.path not in whole_paths]
    whole = lines_frame(payload.body, fmt, inside)
    expected = Counter(
        (p, r) for p, r in zip(whole["path"], whole["rules"], strict=True) if r and p.startswith(cut.list_key)
    )
    got: Counter[tuple[str, str]] = Counter()
    for entry in shown:
        lines = value_lines(entries[entry], (cut.list_key, entry), fmt, flagged(inside))
        got.update((p, r) for p, r in zip(lines["path"], lines["rules"], strict=True) if r)
    assert got == expected
    # ... and one about a whole message marks its first line only, the rest of the message unmarked
    for v in found:
        entry = whole_paths.get(v.path, -1)
        if entry >= 0:
            lines = value_lines(entries[entry], (cut.list_key, entry), fmt, flagged([v]))
            assert list(lines["rules"]) == [v.rule] + [""] * (len(lines) - 1)


def test_a_merged_message_says_where_it_went() -> None:
    """Bedrock's Converse sends two user turns in a row as one message: the second is carried by the first."""
    session = toolhist.load(FILES[-2])
    payload = render(session, "bedrock")
    cut = sections(payload)
    merged = [line for line in payload.omitted if "sent inside Bedrock message" in line]
    assert merged
    assert cut.carried_by
    assert all(f"message {m} sent inside" in " ".join(merged) for m in cut.carried_by)


def test_jumps_put_errors_first_and_name_each_message_once() -> None:
    path = ROOT / "sample_logs" / "openai_chat_request.json"
    session = toolhist.load(path)
    found = {p: validate(session, p) for p in ("openai-chat", "mistral")}
    got = jumps(found)
    severities = [label.rsplit("(", 1)[1].rstrip(")") for label, _ in got]
    assert severities == sorted(severities)  # "error" < "warning"
    errors = [(v.message_index, p, v.rule) for p, f in found.items() for v in f if v.severity == "error"]
    message, provider, rule = min(e for e in errors if e[0] is not None)
    assert got[0] == (f"message {message} · {provider} · {rule} (error)", message)
    assert ("message 9 · openai-chat · oai.call_unanswered (error)", 9) in got
    assert len({label for label, _ in got}) == len(got)


def test_omitted_lines_by_message() -> None:
    assert omitted_by_message(["message 2 block 0: a", "tools: none declared", "message 12 block 1: b"]) == {
        2: ["message 2 block 0: a"],
        12: ["message 12 block 1: b"],
    }


@pytest.mark.parametrize("provider", PROVIDERS)
@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_the_cut_reads_path_tuples_as_their_strings_read(path: Path, provider: str) -> None:
    """A renderer's map is cut by its path tuples, writing no string, exactly as its strings would cut it.

    The same map as a plain dict of its strings (what any other mapping is read as) gives the same
    `Sections`; the renderer's `PathMap` has written none of its strings afterwards (at 100,000
    messages that was 200,000 strings per payload, kept on the cached payload).
    """
    payload = render(session := toolhist.load(path), provider)
    source_map = payload.source_map
    assert isinstance(source_map, PathMap)
    cut = sections(payload)
    assert source_map._strings is None  # the strings it would have written
    as_strings = payload.model_copy(update={"source_map": dict(render(session, provider).source_map)})
    assert sections(as_strings) == cut


def test_a_path_under_the_list_without_an_index_is_read_as_its_string() -> None:
    """A map holding a list path with no entry number (no renderer writes one) falls back to its strings."""
    payload = render(toolhist.load(FILES[0]), "openai-chat")
    assert isinstance(payload.source_map, PathMap)
    tuples = {**payload.source_map.tuples(), ("messages", "x"): (0, None)}
    odd = payload.model_copy(update={"source_map": PathMap(provider_for("openai-chat").path_format, tuples)})
    assert sections(odd) == sections(payload)


@given(hst.dictionaries(hst.integers(0, 10**6), hst.lists(hst.integers(0, 10**6), min_size=1, max_size=4)))
def test_spans_read_as_the_dict_of_tuples_they_replace(grouped: dict[int, list[int]]) -> None:
    spans = Spans(grouped)
    as_dict = {m: tuple(e) for m, e in grouped.items()}
    assert spans == as_dict
    assert list(spans) == sorted(as_dict)
    assert len(spans) == len(as_dict)
    for probe in [*as_dict, -1, 10**6 + 1]:
        assert spans.get(probe, ()) == as_dict.get(probe, ())
        assert (probe in spans) == (probe in as_dict)
    pairs = IntPairs({m: e[0] for m, e in grouped.items()})
    assert pairs == {m: e[0] for m, e in grouped.items()}
    assert pairs.get(-1) is None


def test_a_cut_keeps_arrays_not_a_tuple_per_message() -> None:
    """At 100,000 messages a dict of tuples was 200,000 objects kept beside each packed body."""
    cut = sections(render(toolhist.load(FILES[-1]), "gemini"))
    assert isinstance(cut.entries, Spans)
    assert isinstance(cut.carried_by, IntPairs)
