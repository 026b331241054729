"""Seed 001 canonical ids: llxprt's vectors, idempotence, missing ids, and the id table."""

from __future__ import annotations

import pytest
from builders import ai, call, human, result, tool
from hypothesis import given
from hypothesis import strategies as st

import toolhist
from toolhist.ids import CANONICAL_ID, canonical_id, id_table, strip_prefixes
from toolhist.model import Session, SessionSource


@pytest.mark.parametrize(
    ("provider", "raw", "name", "turn", "index", "expected"),
    [
        # research/llxprt.md §2.4, computed from llxprt's canonicalizeToolCallId
        ("gemini", "692a5fddc", "glob", "t", 0, "hist_tool_wSpCYMxzYBheYkhQs5QZJYXC"),
        (
            "gemini",
            "call_3or3EL9f1eJ6fimZIHmJRVG2",
            "run_shell_command",
            "t",
            0,
            "hist_tool_ly06rND56MwtXLxpvizCypNm",
        ),
        (
            "gemini",
            "call3or3EL9f1eJ6fimZIHmJRVG2",
            "run_shell_command",
            "t",
            0,
            "hist_tool_ly06rND56MwtXLxpvizCypNm",
        ),
        ("openai", "abc123", "read_file", "t", 0, "hist_tool_sIRQlhcI_zr0NiWboafJyxKl"),
        ("anthropic", "abc123", "read_file", "t", 0, "hist_tool_wZXLRVxKT-YjZudN06n_u6Md"),
        (None, None, None, "turn-2", 3, "hist_tool_dGX7UIxFZzvm3eo1Bw_HzQ0Q"),
        ("gemini", None, "test", "turn-test", 0, "hist_tool_stri5F247AQXCEKwgXYPVoAY"),
    ],
)
def test_llxprt_vectors(
    provider: str | None, raw: str | None, name: str | None, turn: str, index: int, expected: str
) -> None:
    assert canonical_id(provider, raw, name, turn, index) == expected


@pytest.mark.parametrize(
    ("raw", "stripped"),
    [
        ("call_abc123xyz", "abc123xyz"),
        ("toolu_01abc123def", "01abc123def"),
        ("call3or3EL9f1eJ6fimZIHmJRVG2", "3or3EL9f1eJ6fimZIHmJRVG2"),
        ("call_call_3or3", "3or3"),
        ("toolu_call_x", "x"),
        ("callabc", "callabc"),
        ("call-abc12345", "call-abc12345"),
        ("callbackHandler1", "backHandler1"),
        ("functions.read_file:3", "functions.read_file:3"),
    ],
)
def test_prefixes_are_stripped_as_llxprt_does(raw: str, stripped: str) -> None:
    assert strip_prefixes(raw) == stripped


@given(st.text(max_size=40), st.text(max_size=20), st.integers(0, 50))
def test_canonical_ids_are_canonical_and_idempotent(raw: str, name: str, index: int) -> None:
    first = canonical_id("openai-chat", raw or None, name, "turn", index)
    assert CANONICAL_ID.fullmatch(first)
    assert canonical_id("anthropic", first, "other", "x", 9) == first


def test_missing_ids_are_stable_by_position_and_distinct() -> None:
    a = canonical_id("gemini", None, "glob", "turn_1", 0)
    b = canonical_id("gemini", None, "glob", "turn_1", 1)
    assert a != b
    assert canonical_id("gemini", None, "glob", "turn_1", 0) == a
    assert canonical_id("gemini", "", "glob", "turn_1", 0) == a


def test_id_table_shows_each_provider_id() -> None:
    session = Session(
        messages=(
            human("go"),
            ai(call("functions.read:0", "read")),
            tool(result("functions.read:0", "ok", name="read")),
        ),
        source=SessionSource(format="kimi"),
    )
    # Strategy canonical keeps seed 001's canonical ids in its history (toolhist's holds the ids sent).
    curated = toolhist.curate(session, "anthropic", strategy="canonical").session
    table = id_table(curated, ("anthropic", "kimi", "mistral", "openai-chat"))
    assert list(table.columns) == [
        "message",
        "block",
        "name",
        "raw_id",
        "id",
        "anthropic",
        "kimi",
        "mistral",
        "openai-chat",
    ]
    row = table.iloc[0].to_dict()
    canonical = row["id"]
    assert CANONICAL_ID.fullmatch(canonical)
    assert row["raw_id"] == "functions.read:0"
    assert row["anthropic"] == "toolu_" + canonical.removeprefix("hist_tool_")
    assert row["openai-chat"] == "call_" + canonical.removeprefix("hist_tool_")
    assert row["kimi"] == "functions.read:0"
    assert len(row["mistral"]) == 9
    assert row["mistral"].isalnum()


def test_canonical_ids_survive_compaction_and_re_reads() -> None:
    from toolhist.model import ToolCallBlock

    empty = ToolCallBlock(id="", name="glob", parameters={"pattern": "*.py"})
    full = Session(
        messages=(
            human("first"),
            ai(call("call_old", "read")),
            tool(result("call_old", "x", name="read")),
            human("second"),
            ai(call("call_keep", "read"), empty),
            tool(result("call_keep", "y", name="read")),
        ),
        source=SessionSource(format="openai-chat"),
    )
    compacted = full.model_copy(update={"messages": full.messages[3:]})
    ids_full = [b.id for m in toolhist.curate(full, "anthropic").session.messages for b in m.tool_calls()]
    ids_compacted = [
        b.id for m in toolhist.curate(compacted, "anthropic").session.messages for b in m.tool_calls()
    ]
    assert ids_full[1:] == ids_compacted  # the kept calls, including the id-less one, keep their ids
    reread = toolhist.load(full.to_json())
    assert [
        b.id for m in toolhist.curate(reread, "anthropic").session.messages for b in m.tool_calls()
    ] == ids_full
