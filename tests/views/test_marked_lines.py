"""`marked_lines` lists exactly what ``offending_lines(lines_frame(…))`` lists, without numbering every line.

The Payloads page shows a long body's marked lines only; the fast path must not change a row, a
line number, a path or a rule. Checked on arbitrary JSON bodies with violations on arbitrary paths
(present, nested in each other, repeated, absent), and on every sample's body for every provider.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.errors import ToolhistError
from toolhist.providers import PROVIDERS, Violation, provider_for, render, validate
from toolhist.providers.base import PathT, bracketed, dotted
from toolhist.views.payloads import (
    json_lines,
    line_count,
    lines_frame,
    marked_lines,
    numbered_lines,
    offending_lines,
)

SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=6),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=40,
)


def paths_of(value: Any, path: PathT = ()) -> list[PathT]:
    """Every value's path in a JSON value, the root's included."""
    out: list[PathT] = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            out += paths_of(item, (*path, key))
    elif isinstance(value, list):
        for n, item in enumerate(value):
            out += paths_of(item, (*path, n))
    return out


def violation(path: str, rule: str) -> Violation:
    return Violation(
        provider="test", rule=rule, severity="error", path=path, error_text="x", source="test", fix="none"
    )


def same(fast: pd.DataFrame, slow: pd.DataFrame) -> None:
    assert list(fast.columns) == list(slow.columns)
    assert list(fast.index) == list(slow.index)
    assert fast.to_dict("records") == slow.to_dict("records")


@settings(max_examples=300, deadline=None)
@given(
    body=json_values,
    data=st.data(),
    spell=st.sampled_from([bracketed, dotted]),
    context=st.integers(0, 3),
)
def test_marked_lines_are_the_offending_lines_of_the_full_frame(
    body: Any, data: st.DataObject, spell: Callable[[PathT], str], context: int
) -> None:
    paths = paths_of(body)
    picked = data.draw(st.lists(st.sampled_from(paths), max_size=6))
    absent = data.draw(st.lists(st.text(max_size=8), max_size=2))  # paths no value has
    rules = data.draw(st.lists(st.sampled_from(["r.one", "r.two", "r.three"]), min_size=8, max_size=8))
    found = [violation(spell(p), rules[n % 8]) for n, p in enumerate(picked)]
    found += [violation(p, "r.absent") for p in absent]
    slow = offending_lines(lines_frame(body, spell, found), context=context)
    same(marked_lines(body, spell, found, context=context), slow)
    assert line_count(body) == len(json_lines(body)) == json.dumps(body, indent=2).count("\n") + 1


@settings(max_examples=100, deadline=None)
@given(body=json_values, full_up_to=st.integers(0, 30))
def test_numbered_lines_are_all_lines_up_to_the_bound_then_only_the_marked(
    body: Any, full_up_to: int
) -> None:
    paths = paths_of(body)
    found = [violation(bracketed(p), "r.one") for p in paths[len(paths) // 2 :][:2]]
    total, frame = numbered_lines(body, bracketed, found, full_up_to=full_up_to)
    full = lines_frame(body, bracketed, found)
    assert total == len(full)
    same(frame, full if total <= full_up_to else offending_lines(full))


@pytest.mark.parametrize("provider", PROVIDERS)
def test_every_sample_body_lists_the_same_marked_lines(provider: str) -> None:
    checked = marked = 0
    for path in sorted(SAMPLES.glob("*.json*")):
        try:
            session = toolhist.load(path)
        except ToolhistError:
            continue  # a sample that needs --format (ambiguous) is covered by the sample tests
        payload = render(session, provider)
        found = validate(session, provider)
        spell = provider_for(provider).path_format
        fast = marked_lines(payload.body, spell, found)
        same(fast, offending_lines(lines_frame(payload.body, spell, found)))
        checked += 1
        marked += int((fast["rules"] != "").sum())
    assert checked >= 10
    assert marked > 0  # some sample's body has marked lines for this provider
