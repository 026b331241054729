"""Memory of the Codex rollout reader, held structurally (issue 26): counted objects, never timings."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import JsonValue

import toolhist
from toolhist.formats import base
from toolhist.model import ThinkingBlock, ToolCallBlock, ToolResponseBlock

N = 40


def _rec(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-10-02T09:12:00.000Z", "type": kind, "payload": payload}


def _rollout(tmp_path: Path) -> Path:
    lines = [
        _rec(
            "session_meta",
            {"id": "0199", "cwd": "/repo", "originator": "codex_cli_rs", "cli_version": "0.44.0"},
        ),
        _rec("turn_context", {"cwd": "/repo", "model": "gpt-5-codex"}),
        _rec(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
        ),
    ]
    for k in range(N):
        cid = f"call_freed_{k}"
        summary = [{"type": "summary_text", "text": f"step {k}"}]
        lines.append(
            _rec(
                "response_item", {"type": "reasoning", "summary": summary, "encrypted_content": f"freed_{k}"}
            )
        )
        lines.append(
            _rec(
                "response_item", {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": cid}
            )
        )
        lines.append(
            _rec("response_item", {"type": "function_call_output", "call_id": cid, "output": "x" * 50})
        )
    lines.append(
        _rec(
            "response_item",
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "done"}]},
        )
    )
    path = tmp_path / "rollout-2025-10-02T09-12-00-0199.jsonl"
    path.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    return path


def _parsed_items() -> int:
    """Parsed reasoning items of this test's rollout alive now.

    Reasoning items, because they hold a list: CPython's collector does not track a dict of
    strings only (a call or an output item), so `gc.get_objects` would never see those.
    """
    gc.collect()
    return sum(
        1
        for o in gc.get_objects()
        if type(o) is dict
        and o.get("type") == "reasoning"
        and isinstance(o.get("encrypted_content"), str)
        and o["encrypted_content"].startswith("freed_")
    )


def test_parsed_items_are_freed_before_the_session_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A parsed item dies once it is a Message: none is alive while the Session is built.

    The Session's construction (results named after their calls, then Codex's synthetic outputs
    marked) copies blocks; the parsed items, every block and its copy were all alive at once
    before, the load's peak on a gigabyte rollout. The strings live on in the blocks.
    """
    path = _rollout(tmp_path)
    alive: list[int] = []
    original = base.Built.session

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        alive.append(_parsed_items())
        return original(self, *args, **kwargs)

    monkeypatch.setattr(base.Built, "session", counting)
    session = toolhist.load(path)
    assert len(session.messages) == 2 * N + 2  # user, (call, output) x N alternate sides, assistant
    assert len(alive) == 1
    # of N parsed reasoning items none stays (the reading loop's last line is the assistant
    # message), where all 40 stayed before
    assert alive[0] == 0
    calls = [b for m in session.messages for b in m.blocks if isinstance(b, ToolCallBlock)]
    results = [b for m in session.messages for b in m.blocks if isinstance(b, ToolResponseBlock)]
    assert [b.id for b in calls] == [f"call_freed_{k}" for k in range(N)]
    assert [(b.call_id, b.tool_name, b.result) for b in results] == [
        (f"call_freed_{k}", "shell", "x" * 50) for k in range(N)
    ]
    thinking = [b for m in session.messages for b in m.blocks if isinstance(b, ThinkingBlock)]
    assert [(b.text, b.data) for b in thinking] == [(f"step {k}", f"freed_{k}") for k in range(N)]


def test_equal_metadata_and_field_sets_are_one_object(tmp_path: Path) -> None:
    """What is equal across messages and blocks is held once, not once per message (issue 26).

    The metadata of every grouped tool message is one object, as is every assistant group's; the
    set of field names pydantic keeps per model is shared by the blocks built with the same names.
    """
    session = toolhist.load(_rollout(tmp_path))
    ai = [m for m in session.messages if m.speaker == "ai"]
    tool = [m for m in session.messages if m.speaker == "tool"]
    assert len(ai) == N + 1
    assert len(tool) == N
    assert len({id(m.metadata) for m in tool}) == 1
    assert len({id(m.metadata) for m in ai}) == 1
    assert tool[0].metadata.source_role is None
    assert ai[0].metadata.source_role == "assistant"
    results = [m.blocks[0] for m in tool]
    assert len({id(b.__pydantic_fields_set__) for b in results}) == 1
    calls = [m.blocks[1] for m in ai[:-1]]
    assert len({id(b.__pydantic_fields_set__) for b in calls}) == 1
    assert results[0].model_fields_set == results[-1].model_fields_set


def test_violations_share_their_rules_texts_and_one_field_set(tmp_path: Path) -> None:
    """A violation holds its own values only: the rule's texts and one field-name set are shared.

    Counted, not timed: a 200 MB rollout trips Mistral's and Kimi's id rules about 100,000 times;
    each violation made by validation had a set of its ten field names of its own (about 730
    bytes, as much as the rest of it: issue 26). ``error_text`` has the call's id filled in, so it
    is the violation's own; the rule's ``source`` and ``fix`` are the rule's strings.
    """
    from toolhist.providers import provider_for

    session = toolhist.load(_rollout(tmp_path))
    for name in ("mistral", "kimi"):
        found = toolhist.validate(session, name)
        assert len(found) >= N, name  # every call id ``call_freed_k`` is out of the provider's form
        rules = {r.id: r for r in provider_for(name).rules}
        assert all(v.source is rules[v.rule].source and v.fix is rules[v.rule].fix for v in found)
        assert len({id(v.__pydantic_fields_set__) for v in found}) == 1
        assert found[0] == type(found[0]).model_validate(found[0].model_dump())  # the same as validated


def test_repeated_item_strings_are_one_string_per_value(tmp_path: Path) -> None:
    """An item's type, role and tool name are held once per value, not once per line (issue 26).

    Counted, not timed: the parser makes a string per value it reads, and the blocks keep them
    (``provider_data``, names), 5% of what a loaded rollout holds. Equal values are one object now.
    """
    session = toolhist.load(_rollout(tmp_path))
    blocks = [b for m in session.messages for b in m.blocks]
    calls = [b for b in blocks if isinstance(b, ToolCallBlock)]
    results = [b for b in blocks if isinstance(b, ToolResponseBlock)]
    thinking = [b for b in blocks if isinstance(b, ThinkingBlock)]
    assert (len(calls), len(results), len(thinking)) == (N, N, N)
    assert [b.provider_data for b in calls] == [{"type": "function_call"}] * N
    assert len({id(b.provider_data["type"]) for b in calls}) == 1
    assert len({id(b.name) for b in calls}) == 1
    assert len({id(b.provider_data["type"]) for b in results}) == 1
    assert len({id(b.provider_data["type"]) for b in thinking}) == 1
    summaries = [b.provider_data["summary"] for b in thinking]
    assert [s[0]["text"] for s in summaries] == [f"step {k}" for k in range(N)]  # type: ignore[index,call-overload]
    assert len({id(s[0]["type"]) for s in summaries}) == 1  # type: ignore[index,call-overload]


def test_check_lets_each_providers_violations_go(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``toolhist check`` prints a provider's violations and lets them go before the next provider's.

    Counted, not timed: Mistral's and Kimi's id rules flag every call of a rollout (0.4x a 200 MB
    file in Violations); held for every provider until the end, beside the next provider's rendered
    body, they took the command's peak to 3x the file (issue 26). When a provider's verdict starts,
    no earlier provider's violation is alive, and none is kept in the per-session memory.
    """
    from click.testing import CliRunner

    from toolhist import check as check_module
    from toolhist.cli import cli
    from toolhist.curation import given
    from toolhist.providers import Violation

    path = _rollout(tmp_path)
    seen: list[tuple[str, set[str], int]] = []
    original = check_module.Checking.each  # the text output takes each provider's violations from it

    # Violations earlier tests of this process leave alive (the app tests' caches) are not this
    # check's: held here, so no new one takes an old one's id, and left out of the count.
    gc.collect()
    earlier = [o for o in gc.get_objects() if type(o) is Violation]
    old = {id(o) for o in earlier}

    def counting(self: check_module.Checking, provider: str) -> Iterator[Violation]:
        gc.collect()
        alive = {o.provider for o in gc.get_objects() if type(o) is Violation and id(o) not in old}
        seen.append((provider, alive, len(given._ENTRIES)))
        return original(self, provider)

    monkeypatch.setattr(check_module.Checking, "each", counting)
    # a memo of its own: sessions earlier tests keep alive (the app tests' caches) keep their entries
    monkeypatch.setattr(given, "_ENTRIES", {})
    result = CliRunner().invoke(cli, ["check", str(path)])
    assert result.exit_code == 1, result.output
    assert [p for p, _, _ in seen] == list(toolhist.PROVIDERS)
    assert seen[4][0] == "mistral"
    assert seen[5] == ("kimi", set(), 0)  # Mistral's 2N id errors, printed, are gone
    assert all(alive == set() and memo == 0 for _, alive, memo in seen)
    lines = result.output.splitlines()
    assert f"mistral           {2 * N} error(s), 0 warning(s)" in lines
    assert f"kimi              0 error(s), {N} warning(s)" in lines
    expected = check_module.check(str(path))  # the same verdicts as `check` gives
    assert sum(line.startswith("  error   ") for line in lines) == expected.errors()


def _turns_rollout(tmp_path: Path, items: list[dict[str, Any]], name: str) -> Path:
    lines = [
        _rec("session_meta", {"id": "0199", "cwd": "/repo", "cli_version": "0.44.0"}),
        *(_rec("response_item", item) for item in items),
    ]
    path = tmp_path / name
    path.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    return path


def test_a_turns_parsed_items_go_before_a_later_turn_is_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Items become blocks a turn at a time: reading a turn, no parsed item of two turns back is alive.

    Counted, not timed: read whole, every parsed item stayed beside its blocks until the last
    one was made, a sixth of a rollout's size at the read's peak (issue 26). The turn just before
    is kept (a bad item opening the next turn joins the two), so at most two turns' items live.
    """
    from toolhist.formats.openai_responses import OpenAIResponsesReader

    turns = 6
    items: list[dict[str, Any]] = []
    for t in range(turns):
        items.append(
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": f"t{t}"}]}
        )
        for k in range(3):
            summary = [{"type": "summary_text", "text": f"{t}.{k}"}]
            items.append({"type": "reasoning", "summary": summary, "encrypted_content": f"freed_{t}_{k}"})
        items.append(
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "ok"}]}
        )
    path = _turns_rollout(tmp_path, items, "rollout-turns.jsonl")
    del items  # only the reader's parsed items are counted
    alive: list[int] = []
    original = OpenAIResponsesReader._read_items

    def counting(self: Any, part: list[Any], *args: Any, **kwargs: Any) -> None:
        alive.append(_parsed_items())
        original(self, part, *args, **kwargs)

    monkeypatch.setattr(OpenAIResponsesReader, "_read_items", counting)
    session = toolhist.load(path)
    assert len(alive) == turns  # one read per turn
    assert alive == [3 * turns] * 2 + [3 * (turns - t + 1) for t in range(2, turns)]
    thinking = [b.data for m in session.messages for b in m.blocks if isinstance(b, ThinkingBlock)]
    assert thinking == [f"freed_{t}_{k}" for t in range(turns) for k in range(3)]


_PIECES: dict[str, dict[str, Any]] = {
    "user": {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "go"}]},
    "bad user": {"type": "message", "role": 7, "content": "?"},
    "developer": {"type": "message", "role": "developer", "content": "rules"},
    "assistant": {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "a"}]},
    "reasoning": {"type": "reasoning", "summary": [], "encrypted_content": "e"},
    "bad reasoning": {"type": "reasoning", "summary": [], "encrypted_content": 5},
    "call": {"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c"},
    "output": {"type": "function_call_output", "call_id": "c", "output": "o"},
}


@given(st.lists(st.sampled_from(sorted(_PIECES)), max_size=14))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_bad_items_are_skipped_as_a_whole_read_would_skip_them(tmp_path: Path, kinds: list[str]) -> None:
    """Read a turn at a time, a rollout with bad items reads as the same rollout without them.

    A bad item that opened a turn (a message whose role is not a string) joins the turn before
    and its own into one group, as reading the list without it makes them; a bad item inside a
    turn leaves the turn's other items as they were. Groups, blocks and item indices are the
    ones of the rollout written without the bad items; each bad item is named once.
    """
    items = [_PIECES[k] for k in kinds]
    good = [item for k, item in zip(kinds, items, strict=True) if not k.startswith("bad")]
    bad = len(items) - len(good)
    if not good or bad > 20:
        return
    read = toolhist.load(_turns_rollout(tmp_path, items, "rollout-with-bad.jsonl"))
    clean = toolhist.load(_turns_rollout(tmp_path, good, "rollout-clean.jsonl"))
    assert read.messages == clean.messages
    assert [loc.block_items for loc in read.source.locations] == [
        loc.block_items for loc in clean.source.locations
    ]
    assert [loc.index for loc in read.source.locations] == [loc.index for loc in clean.source.locations]
    assert read.source.skipped.get("unreadable response_item", 0) == bad
    assert sum("skipped a record of kind `response_item`" in n for n in read.source.notes) == bad


def test_equal_provider_data_and_call_ids_are_one_object(tmp_path: Path) -> None:
    """Every call's ``{"type": "function_call"}`` is one dict, and a result's call id its call's string.

    Counted, not timed: a dict per block for the same small value, and the id string of every
    call again on its output, were 7% of a loaded rollout (issue 26).
    """
    session = toolhist.load(_rollout(tmp_path))
    blocks = [b for m in session.messages for b in m.blocks]
    calls = [b for b in blocks if isinstance(b, ToolCallBlock)]
    results = [b for b in blocks if isinstance(b, ToolResponseBlock)]
    assert len({id(b.provider_data) for b in calls}) == 1
    assert len({id(b.provider_data) for b in results}) == 1
    assert results[0].provider_data == {"type": "function_call_output"}
    assert all(r.call_id is c.id and r.raw_call_id is c.id for c, r in zip(calls, results, strict=True))


_SCALARS = st.one_of(st.none(), st.booleans(), st.integers(-2, 2), st.floats(0, 1), st.text(max_size=3))


@given(
    st.lists(
        st.dictionaries(
            st.sampled_from("abc"), _SCALARS | st.dictionaries(st.sampled_from("xy"), _SCALARS), max_size=3
        )
    )
)
@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_shared_gives_back_an_equal_value_in_the_same_order(values: list[dict[str, Any]]) -> None:
    """`Shared` hands back a dict that dumps as the one given (key order, ``1`` vs ``true`` vs ``1.0``)."""
    share = base.Shared()
    for value in values:
        got = share(value)
        assert json.dumps(got) == json.dumps(value)
        assert type(got) is dict


def test_shared_keeps_a_bounded_table() -> None:
    """Values that never repeat (an item ``id``) stop being remembered at `SHARED_MAX`, still given back."""
    share = base.Shared()
    for k in range(base.SHARED_MAX + 50):
        item: dict[str, JsonValue] = {"type": "message", "id": f"msg_{k}"}
        assert share(item) is item
    late: dict[str, JsonValue] = {"type": "message", "id": f"msg_{base.SHARED_MAX + 10}"}
    assert share(late) is late  # not remembered: a new equal dict is its own
    early: dict[str, JsonValue] = {"type": "message", "id": "msg_3"}
    again = share(early)
    assert again is not early
    assert again == early
