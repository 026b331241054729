"""What the Claude Code reader and ``toolhist check`` keep and copy (issue 26), held structurally.

No timings: the tests count and compare objects. The reader makes each message once from its lines
(`toolhist.agents.claude_code.merged`) without validating what it already holds, so a line's
``extra`` is the reader's own dict, never a copy; the models it makes are the ones the validating
constructors make, fields set included.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
import orjson
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

import toolhist
from toolhist.agents.claude_code import reader as claude_reader
from toolhist.cli import ECHO_BATCH, _echo_violations
from toolhist.errors import LoadError
from toolhist.formats import jsonl_stream
from toolhist.model import ToolCallBlock, ToolResponseBlock
from toolhist.providers import Violation


def line(kind: str, uuid: str, parent: str | None, content: Any, **extra: Any) -> dict[str, Any]:
    """A Claude Code message line (as ``tests/by_agent/test_claude_code.py`` writes them)."""
    message: dict[str, Any] = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": extra.pop("mid", f"msg_{uuid}"), "model": "claude-sonnet-4-5", **message}
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "sessionId": "s-1",
        "type": kind,
        "message": message,
        "uuid": uuid,
        "timestamp": "2025-11-18T14:10:00.000Z",
        **extra,
    }


def use(tid: str, name: str = "Bash") -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": {"command": "ls"}}


def res(tid: str, text: str = "ok") -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tid, "content": text}


def write(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    return path


def _split_log(tmp_path: Path) -> Path:
    """One response split over three lines (text, two calls), its two results on two lines, twice."""
    lines: list[dict[str, Any]] = [line("user", "u0", None, "go")]
    parent = "u0"
    for turn in range(2):
        mid = f"msg_{turn}"
        a, b = f"toolu_{turn}a", f"toolu_{turn}b"
        lines += [
            line("assistant", f"a{turn}1", parent, [{"type": "text", "text": "looking"}], mid=mid),
            line("assistant", f"a{turn}2", f"a{turn}1", [use(a)], mid=mid),
            line("assistant", f"a{turn}3", f"a{turn}2", [use(b, "Read")], mid=mid),
            line("user", f"r{turn}1", f"a{turn}3", [res(a)], toolUseResult={"stdout": "ok", "code": 0}),
            line("user", f"r{turn}2", f"r{turn}1", [res(b)], toolUseResult={"stdout": "x" * 300}),
        ]
        parent = f"r{turn}2"
    return write(tmp_path, *lines)


def _validated(model: BaseModel) -> BaseModel:
    """The model the validating constructor makes from ``model``'s set fields."""
    return type(model)(**{name: getattr(model, name) for name in model.model_fields_set})


def test_merged_messages_are_the_ones_validation_makes(tmp_path: Path) -> None:
    session = toolhist.load(str(_split_log(tmp_path)))
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai", "tool"]
    assert [m.metadata.extra["lines"] for m in session.messages] == [
        [1],
        [2, 3, 4],
        [5, 6],
        [7, 8, 9],
        [10, 11],
    ]
    for message in session.messages:
        assert _validated(message) == message
        assert _validated(message).model_fields_set == message.model_fields_set
        assert _validated(message.metadata).model_fields_set == message.metadata.model_fields_set
        for block in message.blocks:
            assert _validated(block) == block
            assert _validated(block).model_fields_set == block.model_fields_set
    results = [b for m in session.messages for b in m.blocks if isinstance(b, ToolResponseBlock)]
    calls = {b.id: b.name for m in session.messages for b in m.blocks if isinstance(b, ToolCallBlock)}
    assert [(b.call_id, b.tool_name) for b in results] == [(c, calls[c]) for c in calls]
    # the first line of a merged message gives its metadata; the later lines' own fields are not kept
    assert session.messages[2].metadata.extra["uuid"] == "r01"
    assert session.messages[2].metadata.extra["toolUseResult"] == {"stdout": "ok", "code": 0}


def test_a_lines_extra_is_the_readers_own_dict_not_a_copy(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    kept: list[dict[str, Any]] = []

    def keep(value: Any) -> tuple[bool, Any]:
        kept.append({"marker": len(kept)})
        return True, kept[-1]

    monkeypatch.setattr(claude_reader, "kept_result", keep)
    session = toolhist.load(str(_split_log(tmp_path)))
    on_messages = [m.metadata.extra["toolUseResult"] for m in session.messages if m.speaker == "tool"]
    assert len(on_messages) == 2
    # the first result line of each merged tool message: the very object the reader kept
    assert on_messages[0] is kept[0]
    assert on_messages[1] is kept[2]


def _decoded_first(raw: bytes) -> Any:
    """What `_parse_line` gave before it parsed bytes: decode, refuse a NUL, parse the text."""
    text = raw.decode("utf-8")
    if "\x00" in text:
        raise ValueError("NUL")
    return orjson.loads(text)


@settings(max_examples=400, deadline=None)
@given(
    st.one_of(
        st.binary(max_size=40),
        st.lists(
            st.sampled_from(
                [
                    b"{",
                    b"}",
                    b'"',
                    b"a",
                    b":",
                    b"1",
                    b",",
                    b"[",
                    b"]",
                    b"\x00",
                    b"\xff",
                    b"\xc3",
                    b"\xa9",
                    b"\xed",
                    b"\xa0",
                    b"\x80",
                    b"\\",
                    b"u",
                    b"d",
                    b"8",
                    b" ",
                    b"\n",
                ]
            ),
            max_size=14,
        ).map(b"".join),
    )
)
def test_a_line_parses_from_its_bytes_as_from_its_text(raw: bytes) -> None:
    """Bytes orjson accepts are exactly the lines decoding and parsing the text accepts, same value."""
    try:
        expected: Any = ("ok", _decoded_first(raw))
    except (UnicodeDecodeError, ValueError):
        expected = ("refused",)
    try:
        got: Any = ("ok", jsonl_stream._parse_line(raw, "f.jsonl", 3))
    except LoadError as exc:
        got = ("refused", exc.line)
    assert got == (expected if expected[0] == "ok" else ("refused", 3))


def test_violations_are_written_in_batches_with_the_same_bytes() -> None:
    found = [
        Violation(
            provider="mistral",
            rule="mis.id_format",
            severity="error" if k % 3 else "warning",
            message_index=k if k % 5 else None,
            path=f"messages[{k}].tool_calls[0].id",
            error_text=f"Tool call id was toolu_{k} but must be a-z, A-Z, 0-9, with a length of 9.",
            source="https://docs.mistral.ai/",
            fix="ids",
        )
        for k in range(2 * ECHO_BATCH + 7)
    ]
    expected = "".join(
        f"  {v.severity:<7} {v.rule:<24} {v.path}"
        + (f" (message {v.message_index})" if v.message_index is not None else "")
        + f"\n          {v.error_text}\n"
        for v in found
    )

    @click.command()
    def show() -> None:
        _echo_violations(found)

    assert CliRunner().invoke(show).output == expected
