"""Provider id mappers (seed 001): each provider's form, deterministic, distinct ids stay distinct."""

from __future__ import annotations

import hashlib
import re
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

import toolhist
from toolhist.model import Session, ToolCallBlock, ToolResponseBlock
from toolhist.providers.edge_ids import _base62_head, anthropic_safe_id, kimi_id, mistral_id
from toolhist.providers.idmap import map_ids

MISTRAL = re.compile(r"^[a-zA-Z0-9]{9}$")
ANTHROPIC = re.compile(r"^[a-zA-Z0-9_-]+$")
raw_ids = st.text(min_size=0, max_size=40)
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)


def chat(turns: list[list[tuple[str, str]]]) -> Session:
    """A chat history: per turn, an assistant message with these (id, name) calls and their results."""
    messages: list[dict[str, Any]] = [{"role": "user", "content": "go"}]
    for turn in turns:
        messages.append(
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": cid, "type": "function", "function": {"name": name, "arguments": "{}"}}
                    for cid, name in turn
                ],
            }
        )
        messages.extend({"role": "tool", "tool_call_id": cid, "content": "ok"} for cid, _ in turn)
    return toolhist.load({"model": "kimi-k2-0905-preview", "messages": messages})


def mistral_all(raws: list[str]) -> list[str]:
    """Map raw ids in order, the way a renderer does: each result recorded as taken."""
    taken: set[str] = set()
    out = []
    for raw in raws:
        new = mistral_id(raw, taken)
        taken.add(new)
        out.append(new)
    return out


# --- kimi_id ---------------------------------------------------------------------------------------


def test_kimi_id_is_functions_name_index() -> None:
    assert kimi_id("read_file", 0) == "functions.read_file:0"
    assert kimi_id("mcp__github__search", 12) == "functions.mcp__github__search:12"


def test_kimi_ids_count_calls_over_the_whole_request() -> None:
    s = chat([[("call_a", "read_file"), ("call_b", "grep")], [("toolu_c", "read_file")]])
    mapped, mapping = map_ids(s, "kimi")
    assert mapping == {
        "call_a": "functions.read_file:0",
        "call_b": "functions.grep:1",
        "toolu_c": "functions.read_file:2",
    }
    assert [b.call_id for m in mapped.messages for b in m.blocks if isinstance(b, ToolResponseBlock)] == [
        "functions.read_file:0",
        "functions.grep:1",
        "functions.read_file:2",
    ]


@given(st.lists(st.lists(names, min_size=1, max_size=3), min_size=1, max_size=5))
def test_kimi_ids_are_global_call_indices_in_request_order(turns: list[list[str]]) -> None:
    n = 0
    with_ids = []
    for turn in turns:
        with_ids.append([(f"call_{n + k}", name) for k, name in enumerate(turn)])
        n += len(turn)
    mapped, _ = map_ids(chat(with_ids), "kimi")
    calls = [b for m in mapped.messages for b in m.blocks if isinstance(b, ToolCallBlock)]
    assert [c.id for c in calls] == [f"functions.{c.name}:{i}" for i, c in enumerate(calls)]
    results = [b.call_id for m in mapped.messages for b in m.blocks if isinstance(b, ToolResponseBlock)]
    assert results == [c.id for c in calls]


# --- mistral_id ------------------------------------------------------------------------------------


def test_mistral_id_hashes_foreign_ids_deterministically() -> None:
    first = mistral_id("call_Qm1xWv9aKd2R", set())
    assert MISTRAL.match(first)
    assert mistral_id("call_Qm1xWv9aKd2R", set()) == first
    assert mistral_id("call_Qm1xWv9aKd2S", set()) != first


def _long_base62(data: bytes) -> str:
    """Every base62 digit of ``data`` by repeated division (how Mistral ids were first written)."""
    number, digits = int.from_bytes(data, "big"), []
    while number:
        number, rest = divmod(number, 62)
        digits.append("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"[rest])
    return "".join(reversed(digits)).rjust(9, "0")


@given(st.binary(max_size=32))  # a SHA-256 digest
def test_mistral_hash_is_the_first_nine_base62_digits(data: bytes) -> None:
    assert _base62_head(data) == _long_base62(data)[:9]


def test_mistral_hash_at_digit_boundaries() -> None:
    for n in (0, 1, 61, 62, 62**8 - 1, 62**8, 62**9 - 1, 62**9, 62**9 + 1, 2**256 - 1):
        data = n.to_bytes(32, "big")
        assert _base62_head(data) == _long_base62(data)[:9], n
    assert (
        mistral_id("call_Qm1xWv9aKd2R", set())
        == _long_base62(hashlib.sha256(b"call_Qm1xWv9aKd2R").digest())[:9]
    )


def test_mistral_id_keeps_an_id_already_in_mistral_form() -> None:
    assert mistral_id("D681PevKs", set()) == "D681PevKs"
    assert mistral_id("D681PevKs\n", set()) != "D681PevKs\n"


def test_mistral_id_rehashes_on_collision() -> None:
    plain = mistral_id("toolu_01", set())
    again = mistral_id("toolu_01", {plain})
    assert again != plain
    assert MISTRAL.match(again)
    assert mistral_id("toolu_01", {plain, again}) not in {plain, again}
    # a raw id already in Mistral form that was handed to another raw id is moved too
    assert mistral_id("D681PevKs", {"D681PevKs"}) != "D681PevKs"


def test_mistral_id_does_not_change_taken() -> None:
    taken = {"aaaaaaaaa"}
    mistral_id("x", taken)
    assert taken == {"aaaaaaaaa"}


@given(st.lists(raw_ids, unique=True, max_size=30))
def test_mistral_ids_match_the_pattern_and_are_injective(raws: list[str]) -> None:
    mapped = mistral_all(raws)
    assert all(MISTRAL.match(m) and len(m) == 9 for m in mapped)
    assert len(set(mapped)) == len(raws)


@given(st.lists(st.text(alphabet="ab", min_size=9, max_size=9), unique=True, max_size=20), raw_ids)
def test_mistral_ids_stay_injective_when_valid_ids_collide_with_hashes(valid: list[str], other: str) -> None:
    hashed = mistral_id(other, set())
    raws = [r for r in [other, hashed, *valid] if r]
    raws = list(dict.fromkeys(raws))
    mapped = mistral_all(raws)
    assert len(set(mapped)) == len(raws)
    assert all(MISTRAL.match(m) for m in mapped)


# --- anthropic_safe_id -----------------------------------------------------------------------------


def test_anthropic_safe_id_keeps_valid_ids() -> None:
    assert anthropic_safe_id("toolu_01A-b") == "toolu_01A-b"


def test_anthropic_safe_id_rewrites_and_disambiguates() -> None:
    dotted = anthropic_safe_id("functions.read_file:0")
    assert dotted.startswith("functions_read_file_0_")
    assert len(dotted) == len("functions_read_file_0_") + 8
    assert ANTHROPIC.match(dotted)
    assert anthropic_safe_id("a.b") != anthropic_safe_id("a:b")
    assert ANTHROPIC.match(anthropic_safe_id(""))
    assert anthropic_safe_id("toolu_01\n") != "toolu_01\n"


@given(st.lists(raw_ids, unique=True, max_size=30))
def test_anthropic_safe_ids_match_the_pattern_and_are_injective(raws: list[str]) -> None:
    mapped = [anthropic_safe_id(r) for r in raws]
    assert all(ANTHROPIC.fullmatch(m) for m in mapped)
    assert len(set(mapped)) == len(raws)
