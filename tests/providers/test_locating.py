"""`located` makes exactly the Violations the plain per-finding code made (`toolhist.providers.locating`).

The reference here is that code: the rule's template filled by ``str.format``, the path written by
the provider's ``path_format`` and located by `PathMap.locate`, the Violation validated by pydantic.
Every field, in order, and the fields set, on every sample and generated history, and on findings
whose paths the fast ways do not take (string indices, odd names, unmapped maps, findings out of
order, a map read through its per-column dict).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.model import Session
from toolhist.providers import PROVIDERS, provider_for, render
from toolhist.providers.base import (
    Finding,
    PathMap,
    PathT,
    Provider,
    Violation,
    _locate,
    bracketed,
    dotted,
    located,
)
from toolhist.providers.locating import alone, bracketed_template, dotted_template, spelling
from toolhist.providers.source_map import of_dict

SAMPLES = sorted(
    p for p in (Path(__file__).parents[2] / "sample_logs").iterdir() if p.suffix in (".json", ".jsonl")
)


def _reference(provider: Provider, body: dict[str, Any], source_map: Any) -> list[Violation]:
    out = []
    for found in provider.check(body):
        rule = provider.rule(found.rule)
        if not rule.applies_to(body):
            continue
        message_index, block_index = _locate(found.path, provider.path_format, source_map or {})
        out.append(
            Violation(
                provider=provider.name,
                rule=rule.id,
                severity=rule.severity,
                path=provider.path_format(found.path),
                message_index=message_index,
                block_index=block_index,
                call_ids=tuple(found.call_ids),
                error_text=rule.template.format(**found.values),
                source=rule.source,
                fix=rule.fix,
            )
        )
    return out


def _state(found: list[Violation]) -> list[tuple[Any, ...]]:
    return [(tuple(v.__dict__.items()), v.__pydantic_fields_set__, v.__pydantic_extra__) for v in found]


def _same(provider: Provider, body: dict[str, Any], source_map: Any) -> list[Violation]:
    made = list(located(provider, body, source_map))
    assert _state(made) == _state(_reference(provider, body, source_map))
    assert _state(list(located(provider, body, source_map, shared=False))) == _state(made)
    _shared(made)
    return made


def _shared(made: list[Violation]) -> None:
    """Equal texts and call-id tuples of one verdict are one object each."""
    texts: dict[str, str] = {}
    ids: dict[tuple[str, ...], tuple[str, ...]] = {}
    for v in made:
        assert texts.setdefault(v.error_text, v.error_text) is v.error_text
        assert ids.setdefault(v.call_ids, v.call_ids) is v.call_ids


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: p.name)
def test_samples(sample: Path) -> None:
    session = toolhist.load(str(sample))
    for name in PROVIDERS:
        payload = render(session, name)
        _same(provider_for(name), payload.body, payload.source_map)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(broken_sessions())
def test_generated_histories(session: Session) -> None:
    for name in PROVIDERS:
        payload = render(session, name)
        _same(provider_for(name), payload.body, payload.source_map)


_PATHS: list[PathT] = [
    ("messages", 1),
    ("messages", 1, "tool_calls", 0, "id"),
    ("messages", 0, "tool_calls", 1, "id"),  # before the last hit: the hint misses
    ("messages", 1, "tool_calls", 0),
    ("messages", 9, "tool_calls", 0, "id"),  # nothing recorded at its prefixes but messages[9]
    ("messages", 99),  # nothing recorded
    ("messages", "1", "content"),  # a string index: the general way
    ("messages", True),  # a bool is no index
    ("messages", -1),
    ("system",),
    ("tools", 0, "function", "name"),
    ("messages", 1, "content", 0, "x", 2, "y"),  # three indices
    ("a%d", 1, "b%%", 2),  # names a %-template must escape
    ("", "x", 3),  # an empty first name
    ("messages", 1, 2, "id"),  # an index at an even place
]
_MAP = {
    ("messages", 0): (0, None),
    ("messages", 1): (1, None),
    ("messages", 9): (7, None),
    ("messages", 0, "tool_calls", 1): (0, 1),
    ("messages", 1, "tool_calls", 0): (1, 0),
    ("system",): (0, None),
    ("tools", 0): (0, None),
}


def _fake(fmt: Any, paths: list[PathT]) -> Provider:
    base = provider_for("mistral")

    def check(_body: dict[str, Any]) -> Iterator[Finding]:  # a constant text, and one spelt per value
        for path in paths:
            yield Finding("mis.empty", path)
            yield Finding("mis.id_format", path, {"id": f"id{len(path)}"}, (f"id{len(path)}",))

    return replace(base, check=check, path_format=fmt)


@pytest.mark.parametrize("fmt", [bracketed, dotted], ids=["bracketed", "dotted"])
@pytest.mark.parametrize("ordered", [True, False], ids=["ordered", "unordered"])
def test_odd_paths(fmt: Any, ordered: bool) -> None:
    entries = dict(_MAP) if ordered else dict(reversed(_MAP.items()))  # unordered: read through a dict
    mapped = PathMap(fmt, of_dict(fmt, entries))
    assert any(c.index is not None for c in mapped._map.columns) is not ordered
    provider = _fake(fmt, _PATHS + _PATHS[::-1])
    made = _same(provider, {"messages": [{}]}, mapped)
    assert [v.message_index for v in made[:12:2]] == [1, 1, 0, 1, 7, None]
    _same(provider, {"messages": [{}]}, dict(mapped))  # a plain map
    _same(provider, {"messages": [{}]}, None)
    _same(
        _fake(lambda path: "/".join(map(str, path)), _PATHS), {"messages": [{}]}, mapped
    )  # another convention


@given(st.lists(st.sampled_from(_PATHS), max_size=30))
def test_findings_in_any_order(paths: list[PathT]) -> None:
    _same(_fake(bracketed, paths), {"messages": [{}]}, PathMap(bracketed, of_dict(bracketed, _MAP)))


@pytest.mark.parametrize(
    ("template", "values"),
    [
        ("no field {{at all}}", {}),
        ("no field", {"id": "x"}),
        ("Tool call id was {id} but must be 9 {{chars}} 100%", {"id": "a{b}%s"}),
        ("{id}", {"id": "x"}),
        ("{id} and {id}", {"id": "x"}),  # named twice: format
        ("{id!r}", {"id": "x"}),  # a conversion: format
        ("{id:>5}", {"id": "x"}),  # a spec: format
        ("{a} {b}", {"a": "x", "b": 3}),
        ("{index}", {"index": 3}),  # not a str: format
    ],
)
def test_spelling(template: str, values: dict[str, Any]) -> None:
    constant, name, before, after = spelling(template)
    expected = template.format(**values)
    if constant is not None:
        assert constant == expected
    elif name is not None and type(values[name]) is str:
        assert before + values[name] + after == expected
    if "{" not in template.replace("{{", ""):
        assert constant is not None
    if template in ("{id}", "Tool call id was {id} but must be 9 {{chars}} 100%"):
        assert name == "id"
    if "!" in template or ":" in template or "{id} and {id}" in template or "{a}" in template:
        assert constant is None
        assert name is None


@pytest.mark.parametrize(
    "path",
    [("messages", 3, "tool_calls", 0, "id"), ("messages", 3), ("system",), ("a%", 1, "%d", 2), ("", "b", 1)],
)
def test_templates(path: PathT) -> None:
    shape = tuple(None if type(part) is int else part for part in path)
    indices = tuple(part for part in path if type(part) is int)
    assert bracketed_template(shape) % indices == bracketed(path)  # type: ignore[arg-type]
    assert dotted_template(shape) % indices == dotted(path)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("first", "second", "values"),
    [
        ("Tool {id}", "Tool call {id}", ("call x", "x")),
        ("{id} in results", "Duplicate {id}", ("Duplicate x", "x in results")),
        ("id {id}!", "id {a} and {b}!", ("1 and 2", None)),  # two fields: format
        ("id {id}!", "id 1 and 2!", ("1 and 2", None)),  # a constant
    ],
)
def test_texts_equal_across_rules_are_one(first: str, second: str, values: tuple[str, str | None]) -> None:
    base = provider_for("mistral")
    rules = (
        replace(base.rules[0], id="t.first", template=first),
        replace(base.rules[0], id="t.second", template=second),
        replace(base.rules[0], id="t.third", template="unrelated {id} text"),
    )

    def check(_body: dict[str, Any]) -> Iterator[Finding]:
        for _ in range(2):
            yield Finding("t.first", ("messages", 0), {"id": values[0]}, (values[0],))
            yield Finding("t.second", ("messages", 0), {"id": values[1], "a": "1", "b": "2"}, (values[0],))
            yield Finding("t.third", ("messages", 0), {"id": values[0]}, (values[0],))
        yield Finding("t.third", ("messages", 0), {"id": values[0]}, ("another",))  # a value again, other ids

    made = _same(replace(base, rules=rules, check=check), {"messages": [{}]}, None)
    assert made[0].error_text == made[1].error_text
    assert made[0].error_text is made[1].error_text
    assert made[0].call_ids is made[2].call_ids is made[4].call_ids
    assert made[-1].call_ids == ("another",)


def test_alone() -> None:
    assert alone(
        "Duplicate tool call id {id} in tool results", ("Duplicate tool call id {id} in assistant message",)
    )
    assert not alone("Tool {id}", ("Tool call {id}",))
    assert not alone("{id} x", ("y {a} and {b}",))  # no start: any text ending in " x" may be either
    assert alone("id {id}!", ("id {a} and {b}?",))
    assert not alone("id {id}!", ("id 1!",))
    assert alone("id {id}!", ("id!",))  # too short to hold both ends apart
    assert not alone("id {id}!", ("{",))  # unparsed: may
