"""Invariants over generated input (hypothesis)."""

from __future__ import annotations

import json
from typing import Any

import orjson
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.errors import LoadError
from toolhist.model import Message, Session, SessionSource, TextBlock, ToolCallBlock, ToolResponseBlock

json_scalars = st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(max_size=12)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=8,
)
ids = st.text(alphabet="abcdefghijklmnopqrstuvwxyz0123456789_-.:", min_size=1, max_size=24)
names = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12)


@st.composite
def canonical_blocks(draw: st.DrawFn) -> Any:
    kind = draw(st.sampled_from(["text", "call", "result"]))
    if kind == "text":
        return TextBlock(text=draw(st.text(max_size=30)))
    if kind == "call":
        cid = draw(ids)
        return ToolCallBlock(
            id=cid, name=draw(names), parameters=draw(json_values), raw_id=draw(st.none() | st.just(cid))
        )
    return ToolResponseBlock(
        call_id=draw(ids),
        tool_name=draw(st.none() | names),
        result=draw(json_values),
        error=draw(st.none() | st.text(max_size=10)),
    )


sessions = st.builds(
    lambda msgs: Session(messages=tuple(msgs), source=SessionSource(format="toolhist")),
    st.lists(
        st.builds(
            Message,
            speaker=st.sampled_from(["system", "human", "ai", "tool"]),
            blocks=st.lists(canonical_blocks(), max_size=4).map(tuple),
        ),
        max_size=6,
    ),
)


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sessions)
def test_canonical_json_round_trip(session: Session) -> None:
    again = toolhist.load(session.to_json())
    assert again == session


@st.composite
def chat_bodies(draw: st.DrawFn) -> dict[str, Any]:
    messages: list[dict[str, Any]] = [{"role": "user", "content": draw(st.text(max_size=20))}]
    for _ in range(draw(st.integers(1, 4))):  # at least one tool round: a lone user turn is ambiguous
        calls = [
            {
                "id": draw(ids),
                "type": "function",
                "function": {"name": draw(names), "arguments": json.dumps(draw(json_values))},
            }
            for _ in range(draw(st.integers(1, 3)))
        ]
        messages.append(
            {"role": "assistant", "content": draw(st.none() | st.text(max_size=10)), "tool_calls": calls}
        )
        for c in draw(st.permutations(calls)):
            messages.append({"role": "tool", "tool_call_id": c["id"], "content": draw(st.text(max_size=10))})
    return {"model": "gpt-4.1", "messages": messages}


@settings(suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(chat_bodies())
def test_chat_body_reads_then_round_trips(body: dict[str, Any]) -> None:
    session = toolhist.load(body)
    assert session.source.format == "openai-chat"
    assert toolhist.load(session.to_json()) == session
    # Every call and result in the body is in the session: nothing dropped.
    summary = toolhist.summarize(session)
    assert summary.tool_calls == sum(len(m.get("tool_calls", [])) for m in body["messages"])
    assert summary.tool_results == sum(m["role"] == "tool" for m in body["messages"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_any_json_is_a_session_or_a_load_error(value: Any) -> None:
    data = orjson.dumps(value)
    for fmt in (None, *toolhist.FORMATS):
        try:
            toolhist.load(data, format=fmt)
        except LoadError as exc:
            message = str(exc)
        else:
            continue
        assert message.startswith("<bytes>")


message_like = st.fixed_dictionaries(
    {"role": st.sampled_from(["user", "assistant", "tool", "model", "system"])},
    optional={
        "content": json_values,
        "parts": json_values,
        "tool_calls": json_values,
        "tool_call_id": json_values,
        "type": st.sampled_from(["function_call", "function_call_output", "reasoning", "message"]),
        "call_id": json_values,
        "speaker": st.sampled_from(["human", "ai", "tool"]),
        "blocks": json_values,
    },
)


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(message_like, min_size=1, max_size=4), st.sampled_from(["messages", "contents", "input", None])
)
def test_near_miss_shapes_never_crash(messages: list[dict[str, Any]], key: str | None) -> None:
    value: Any = messages if key is None else {key: messages, "model": "m"}
    for fmt in (None, *toolhist.FORMATS):
        try:
            session = toolhist.load(value, format=fmt)
        except LoadError:
            continue
        assert toolhist.load(session.to_json()) == session
