"""Which violation each Change repairs, and the Changes that repair an error first.

A curation of a long history can make thousands of Changes; the user asks first "what did it do
about the 400?". The strategies that check the history before repairing it (``toolhist``,
``canonical``) know its violations, and each rule names the pass that repairs it (`Rule.fix`,
DESIGN §6: ``close_orphans (synthetic result) or move_results``). A Change repairs a violation when

- the rule's ``fix`` names the Change's pass, and
- they are about the same thing: a call id of the violation is the Change's ``call_id``; else the
  violation's message is where the Change's subject was; else the violation names no place (a
  request-level rule such as ``ant.tools_required``) or the Change has no place in the history
  given (a turn it inserted), and the pass is the one the rule names.

A violation that no such Change is about (the repair took another way than the rule's ``fix``
says) goes to the Changes about its call id, else its message. `attribute` fills `Change.fixes`
with those rule ids and orders the Changes: those that repair an error, then those that repair
only a warning, then the rest, each group in pass order.
"""

from __future__ import annotations

import functools
import re
from collections import defaultdict
from collections.abc import Sequence

from toolhist._trusted import fields_with
from toolhist.curation.base import Change
from toolhist.providers.base import Violation

_WORD = re.compile(r"[a-z][a-z0-9_]+")
ALSO: dict[str, tuple[str, ...]] = {
    "ant.thinking_first": ("disable_thinking",),  # fix: "… or disable thinking"
    "brk.first_user": ("merge_turns",),  # fix: "prepend a user turn" (merge_turns' placeholder)
}
"""Passes that repair a rule whose ``fix`` text says what to do without naming the pass."""


@functools.lru_cache(maxsize=1024)
def _named(rule: str, fix: str) -> frozenset[str]:
    """The pass names ``fix`` mentions (words with an underscore), and `ALSO`'s for ``rule``.

    Remembered: a long history breaks a few rules thousands of times (an id rule per call).
    """
    return frozenset({word for word in _WORD.findall(fix) if "_" in word} | set(ALSO.get(rule, ())))


def _passes(v: Violation) -> frozenset[str]:
    """The pass names a rule's ``fix`` text mentions (words with an underscore), and `ALSO`'s."""
    return _named(v.rule, v.fix)


def attribute(changes: Sequence[Change], found: Sequence[Violation]) -> tuple[Change, ...]:
    """``changes`` with `Change.fixes` filled from ``found`` (the history's violations), errors first.

    A violation no Change of a pass its rule names is about (the repair took another way: the copy
    of a call recorded twice dropped, where the rule suggests closing it) goes to the Changes about
    its call id, else its message.
    """
    if not changes:
        return ()
    by_call: defaultdict[tuple[str, str], list[Violation]] = defaultdict(list)
    by_message: defaultdict[tuple[str, int], list[Violation]] = defaultdict(list)
    by_pass: defaultdict[str, list[Violation]] = defaultdict(list)
    # Only the passes some Change is of are looked up (`_hits`): a Mistral history's 10,000 id
    # warnings name two passes besides the one that made their Changes.
    wanted = {change.pass_ for change in changes}
    asked: dict[frozenset[str], tuple[str, ...]] = {}  # a rule's passes → those of them in ``wanted``
    for v in found:
        passes = _passes(v)
        names = asked.get(passes)
        if names is None:
            names = asked[passes] = tuple(name for name in passes if name in wanted)
        for name in names:
            by_pass[name].append(v)
            for call_id in v.call_ids:
                by_call[name, call_id].append(v)
            if v.message_index is not None:
                by_message[name, v.message_index].append(v)
    hits = [_hits(change, by_call, by_message, by_pass) for change in changes]
    covered = {id(v) for found_hits in hits for v in found_hits}
    left: defaultdict[tuple[str, str], list[Violation]] = defaultdict(list)
    left_at: defaultdict[tuple[str, int], list[Violation]] = defaultdict(list)
    for v in found:
        if id(v) not in covered:
            for call_id in v.call_ids:
                left["", call_id].append(v)
            if v.message_index is not None:
                left_at["", v.message_index].append(v)
    errors: list[Change] = []
    warnings: list[Change] = []
    rest: list[Change] = []
    ordered: dict[int, tuple[tuple[str, ...], bool]] = {}  # id of a list of hits (all alive) → its rules
    for change, named in zip(changes, hits, strict=True):
        found_hits = named or _located(change, left, left_at)
        if not found_hits:
            rest.append(change)
            continue
        if len(found_hits) == 1:  # the usual case on a long history: one id rule broken per call
            (only,) = found_hits
            rules: tuple[str, ...] = (only.rule,)
            error = only.severity == "error"
        elif (known := ordered.get(id(found_hits))) is not None:  # a call's result shares its list
            rules, error = known
        else:
            rules = tuple(
                sorted(
                    {v.rule for v in found_hits},
                    key=lambda rule: (_severity(found_hits, rule) != "error", rule),
                )
            )
            error = any(v.severity == "error" for v in found_hits)
            ordered[id(found_hits)] = rules, error
        (errors if error else warnings).append(_with_fixes(change, rules))
    return (*errors, *warnings, *rest)


_setattr = object.__setattr__
_FIXES = ("fixes",)


def _with_fixes(change: Change, rules: tuple[str, ...]) -> Change:
    """``replace(change, fixes=rules)`` (`toolhist._trusted.replace`) for a Change: one per repair.

    A Change has no extra values and its one private attribute (the subject) always has a value,
    so the copy is the dict of values with ``fixes`` set, the fields set with ``fixes`` (one for all
    the Changes whose fields set is the same, `fields_with`), and the private dict copied.
    """
    new = Change.__new__(Change)
    values = change.__dict__.copy()
    values["fixes"] = rules
    _setattr(new, "__dict__", values)
    _setattr(new, "__pydantic_extra__", None)
    _setattr(new, "__pydantic_fields_set__", fields_with(change.__pydantic_fields_set__, _FIXES))
    private = change.__pydantic_private__
    _setattr(new, "__pydantic_private__", None if private is None else private.copy())
    return new


def _severity(hits: list[Violation], rule: str) -> str:
    return "error" if any(v.rule == rule and v.severity == "error" for v in hits) else "warning"


def _located(
    change: Change,
    by_call: dict[tuple[str, str], list[Violation]],
    by_message: dict[tuple[str, int], list[Violation]],
) -> list[Violation]:
    """The violations about the Change's call id, else its message (any pass)."""
    if change.call_id is not None and ("", change.call_id) in by_call:
        return by_call["", change.call_id]
    if change.before is not None and ("", change.before.message) in by_message:
        return by_message["", change.before.message]
    return []


def _hits(
    change: Change,
    by_call: dict[tuple[str, str], list[Violation]],
    by_message: dict[tuple[str, int], list[Violation]],
    by_pass: dict[str, list[Violation]],
) -> list[Violation]:
    """The violations whose rule names the Change's pass and which are about the same thing."""
    name = change.pass_
    if name not in by_pass:
        return []
    if change.call_id is not None and (name, change.call_id) in by_call:
        return by_call[name, change.call_id]
    if change.before is not None and (name, change.before.message) in by_message:
        return by_message[name, change.before.message]
    if change.before is None and change.call_id is None:
        return by_pass[name]
    return [v for v in by_pass[name] if v.message_index is None and not v.call_ids]
