"""`toolhist._trusted`: the cheap copy and constructor make exactly what pydantic would."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel

from toolhist._trusted import construct, maker, replace
from toolhist.curation.base import Change, Position
from toolhist.model import Message, MessageMetadata, TextBlock, ToolCallBlock, ToolResponseBlock


def state(model: BaseModel) -> tuple[Any, ...]:
    """What a caller can observe: value, repr, field order, fields set, private attributes."""
    return (
        model,
        repr(model),
        list(model.__dict__),
        sorted(model.model_fields_set),
        model.__pydantic_private__,
        model.__pydantic_extra__,
    )


CALL = ToolCallBlock(id="call_1", name="read", parameters={"path": "a"}, raw_id="call_1")
RESULT = ToolResponseBlock(call_id="call_1", result="ok")
MESSAGE = Message(speaker="ai", blocks=(TextBlock(text="hi"), CALL), metadata=MessageMetadata(turn_id="t"))


@pytest.mark.parametrize(
    ("model", "update"),
    [
        (CALL, {"id": "hist_tool_x"}),
        (RESULT, {"call_id": "hist_tool_x", "tool_name": "read"}),
        (MESSAGE, {"blocks": (CALL,)}),
        (MESSAGE, {"speaker": "tool", "blocks": ()}),
        (Change(pass_="p", action="drop", reason="r").with_subject(CALL), {"after": Position(message=1)}),
    ],
)
def test_replace_is_model_copy(model: BaseModel, update: dict[str, Any]) -> None:
    made = replace(model, **update)
    assert state(made) == state(model.model_copy(update=update))
    assert made.__dict__ is not model.__dict__
    assert made.__pydantic_fields_set__ is not model.__pydantic_fields_set__


@pytest.mark.parametrize(
    ("cls", "values"),
    [
        (Change, {"pass_": "map_ids", "action": "rewrite_id", "reason": "r", "call_id": "x",
                  "before": Position(message=2, block=1), "detail": {"old_id": "x", "new_id": "y"}}),
        (Change, {"pass_": "p", "action": "drop", "reason": "r", "dropped": {"type": "text", "text": ""}}),
        (Position, {"message": 3}),
        (Position, {"message": 3, "block": None}),
        (ToolResponseBlock, dict(RESULT.__dict__)),
        (Message, {"speaker": "human", "blocks": (TextBlock(text="x"),), "metadata": MessageMetadata()}),
    ],
)  # fmt: skip
def test_construct_is_the_validating_constructor(cls: type[BaseModel], values: dict[str, Any]) -> None:
    assert state(construct(cls, **values)) == state(cls(**values))


def test_construct_defaults_are_fresh() -> None:
    a = construct(Change, pass_="p", action="drop", reason="r")
    b = construct(Change, pass_="p", action="drop", reason="r")
    assert a.detail == {}
    assert a.detail is not b.detail
    assert a.__pydantic_private__ == {"_subject": None}
    assert a.__pydantic_private__ is not b.__pydantic_private__


@pytest.mark.parametrize(
    "values",
    [{"pass_": "p", "action": "drop"}, {"pass_": "p", "action": "drop", "reason": "r", "bogus": 1}],
)
def test_construct_refuses_missing_and_unknown_fields(values: dict[str, Any]) -> None:
    with pytest.raises(KeyError, match=r"reason|bogus"):
        construct(Change, **values)


@pytest.mark.parametrize(
    ("cls", "fixed", "values"),
    [
        (Position, {"message": 3}, {"block": 1}),
        (Position, {"message": 3}, {}),  # not every other field given: `construct` makes it
        (Position, {}, {"message": 4, "block": None}),
        (ToolResponseBlock, {"call_id": "c", "result": "ok"},
         {k: v for k, v in RESULT.__dict__.items() if k not in ("call_id", "result")}),
    ],
)  # fmt: skip
def test_maker_is_the_validating_constructor(
    cls: type[BaseModel], fixed: dict[str, Any], values: dict[str, Any]
) -> None:
    make = maker(cls, **fixed)
    assert state(make(**values)) == state(cls(**fixed, **values))
    assert state(make(**values)) == state(construct(cls, **fixed, **values))


def test_maker_refuses_unknown_fields() -> None:
    with pytest.raises(KeyError, match="bogus"):
        maker(Position, bogus=1)
    with pytest.raises(KeyError, match="bogus"):
        maker(Position, message=1)(block=None, bogus=1)


def _provider_finding(call_ids: Any) -> Any:
    """The openai-chat provider with a check that reports one finding with ``call_ids``."""
    from dataclasses import replace as dc_replace

    from toolhist.providers import provider_for
    from toolhist.providers.base import Finding

    chat = provider_for("openai-chat")
    rule = chat.rules[0]

    def check(body: dict[str, Any]) -> Any:
        yield Finding(rule.id, ("messages", 0), dict.fromkeys(_fields(rule.template), "v"), call_ids)

    return dc_replace(chat, check=check), rule


def _fields(template: str) -> list[str]:
    import string

    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


@pytest.mark.parametrize("call_ids", [("call_1", "call_2"), ["call_1"], ()])
def test_violations_are_the_validating_constructor(call_ids: Any) -> None:
    """`violations` builds each Violation without validation: the same object the validating constructor makes."""
    from toolhist.providers.base import Violation, violations

    provider, rule = _provider_finding(call_ids)
    (made,) = violations(provider, {"messages": [{"role": "user"}]}, {"messages[0]": (3, None)})
    expected = Violation(
        provider=provider.name,
        rule=rule.id,
        severity=rule.severity,
        path="messages[0]",
        message_index=3,
        block_index=None,
        call_ids=call_ids,
        error_text=rule.template.format(**dict.fromkeys(_fields(rule.template), "v")),
        source=rule.source,
        fix=rule.fix,
    )
    assert state(made) == state(expected)
    assert type(made.call_ids) is tuple


def test_positions_are_the_validating_constructor() -> None:
    """`toolhist.curation.base.position` writes each Position's state whole (`named_filler`)."""
    from toolhist.curation.base import position

    assert state(position((3, None))) == state(Position(message=3))
    assert state(position((3, 1))) == state(Position(message=3, block=1))
    assert position((3, None)).model_dump(exclude_unset=True) == {"message": 3}


def test_copies_share_their_fields_sets() -> None:
    """`replace` gives copies of models with one fields set one set for the names added (`fields_with`)."""
    first = construct(ToolCallBlock, id="a", name="read", parameters={})
    second = construct(ToolCallBlock, id="b", name="read", parameters={})
    assert first.__pydantic_fields_set__ is second.__pydantic_fields_set__
    a, b = replace(first, raw_id="x"), replace(second, raw_id="y")
    assert a.__pydantic_fields_set__ is b.__pydantic_fields_set__
    assert a.model_fields_set == first.model_fields_set | {"raw_id"}
    assert state(a) == state(first.model_copy(update={"raw_id": "x"}))
    assert replace(first, name="write").__pydantic_fields_set__ is not a.__pydantic_fields_set__
