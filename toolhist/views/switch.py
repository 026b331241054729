"""Tables of the switch what-if (`toolhist.switch`) for the Switch page and Jupyter.

pandas is imported inside each function: the core library never imports it at module import.
"""

from __future__ import annotations

import dataclasses
import json
import pickle
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

import orjson

from toolhist._gc import paused, pausing
from toolhist.model import Session
from toolhist.providers.base import Violation
from toolhist.switch import Leg, SwitchReport, one_leg, switch
from toolhist.switch.text import verdict_words
from toolhist.views import forked
from toolhist.views.on_request import starts_library

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas as pd


def verdicts_frame(leg: Leg) -> pd.DataFrame:
    """One row per strategy: its verdict, the rules, changes, foreign tokens, a thinking block off its prefix.

    A strategy that gave no answer (a library not installed) says why in ``rules``, as Curation does.

    ``prefix changed`` names the first Anthropic thinking block whose prefix the strategy edited:
    Claude Fable 5.1 and Opus 5.5 reject it on accounts created on or after 2026-08-31.
    """
    import pandas as pd

    rows = [
        {
            "strategy": name,
            "verdict": "no answer" if s.error else ("accepted" if s.accepted else "400"),
            "rules": f"not run: {s.error}" if s.error else ("" if s.accepted else verdict_words(s)),
            "changes": s.changes,
            "foreign tokens": len(s.foreign),
            "prefix changed": "" if s.rebound is None else f"{s.rebound.path} ({s.rebound.changed})",
        }
        for name, s in leg.strategies.items()
    ]
    columns = ["strategy", "verdict", "rules", "changes", "foreign tokens", "prefix changed"]
    return pd.DataFrame(rows, columns=columns)


def foreign_frame(leg: Leg) -> pd.DataFrame:
    """Every reasoning token another provider made, per strategy, with what the provider answers."""
    import pandas as pd

    rows = [
        {
            "strategy": name,
            "path": f.path,
            "token": f.kind,
            "made by": f.made_by,
            "message": f.message,
            "verdict": f.verdict,
            "provider's text": f.error_text or "not documented",
        }
        for name, s in leg.strategies.items()
        for f in s.foreign
    ]
    columns = ["strategy", "path", "token", "made by", "message", "verdict", "provider's text"]
    return pd.DataFrame(rows, columns=columns)


TEXT_LINES = 10
"""Up to this many violations of a shown body are lines of text; more are one table.

A long session's body for a provider that rejects it has a violation per message or so (241 at
10,000 messages, thousands at 100,000): a text element each made the page slow to draw and long
to scroll, while a table holds them all in one scrolling, searchable grid."""


def violations_frame(violations: Sequence[Violation]) -> pd.DataFrame:
    """One row per violation of a body: where, which rule, and the provider's own words."""
    import pandas as pd

    rows = [
        {
            "severity": v.severity,
            "rule": v.rule,
            "message": v.message_index,
            "path": v.path,
            "provider's text": v.error_text,
        }
        for v in violations
    ]
    return pd.DataFrame(rows, columns=["severity", "rule", "message", "path", "provider's text"])


SHOWN_CHARACTERS = 50_000
"""A body longer than this as indented JSON: its head shown, the whole downloaded.

About 1,500 lines of a chat body. The browser highlights and lays out every character of a code
element: with 200,000 (one head per leg) the page at 10,000 messages took 2.1 s in Chromium
(``benchmarks/bench_app.py``), 1.3 s with 50,000; the script's own run is 0.6 s of that."""


@dataclass(frozen=True)
class ShownBody:
    """A body as the Switch page shows it: the text of its code element, and a long one's line counts."""

    text: str
    """The body as indented JSON, or the head of a long one (whole lines)."""
    lines: int | None = None
    """The head's lines (None: ``text`` is the whole body)."""
    total: int | None = None
    """The whole body's lines, when only its head is shown."""


def shown_body(body: Any, *, long: bool) -> ShownBody:
    """``body`` as indented JSON, or past `SHOWN_CHARACTERS` (or on a ``long`` history) its head.

    ``json.dumps(indent=2)`` of a 400,000-message body is pure Python over hundreds of MB, and the
    browser cannot lay out that much text: a long one is written by orjson (same indentation) and
    its first `SHOWN_CHARACTERS` kept, to whole lines; the page offers the whole as a download.
    """
    text = None if long else json.dumps(body, indent=2, ensure_ascii=False)
    if text is not None and len(text) <= SHOWN_CHARACTERS:
        return ShownBody(text)
    whole = orjson.dumps(body, option=orjson.OPT_INDENT_2)
    head = whole[:SHOWN_CHARACTERS].decode("utf-8", "ignore")
    head = head[: head.rfind("\n")] if "\n" in head else head  # whole lines only
    return ShownBody(head, head.count("\n") + 1, whole.count(b"\n") + 1)


@dataclass(frozen=True)
class Kept:
    """A what-if as the Switch page keeps it between reruns: what it shows, no body.

    ``report`` is the `SwitchReport` with every body dropped (its verdicts, changes, violations and
    foreign tokens kept); ``bodies`` holds each answered body as shown, by leg and strategy. A whole
    body is made again only when downloaded (`toolhist.switch.hand_over`): kept for 32 settings,
    the four bodies of a 100,000-message switch and back were a quarter of a GB each time.
    """

    report: SwitchReport
    bodies: dict[tuple[int, str], ShownBody]


@paused
def kept(report: SwitchReport, *, long: bool) -> Kept:
    """``report`` as the page keeps it (`Kept`): each body made its shown text and dropped."""
    bodies: dict[tuple[int, str], ShownBody] = {}
    legs = []
    for n, leg in enumerate(report.legs):
        shown, shown_bodies = _kept_leg(leg, n, long=long)
        legs.append(shown)
        bodies |= shown_bodies
    return Kept(dataclasses.replace(report, legs=tuple(legs)), bodies)


def _kept_leg(leg: Leg, n: int, *, long: bool) -> tuple[Leg, dict[tuple[int, str], ShownBody]]:
    """Leg ``n`` with no body, and each of its answered bodies as shown (by leg and strategy)."""
    bodies: dict[tuple[int, str], ShownBody] = {}
    strategies = {}
    for name, result in leg.strategies.items():
        if result.body is not None:
            bodies[n, name] = shown_body(result.body, long=long)
        strategies[name] = dataclasses.replace(result, body=None)
    return dataclasses.replace(leg, strategies=strategies), bodies


PATIENCE = 60.0
"""Seconds the page waits for the return leg from a second process beyond 3x its own leg's time."""


def made(
    session: Session,
    at: int,
    to: str,
    *,
    strategies: Sequence[str],
    long: bool,
    settings: Mapping[str, Any],
) -> Kept:
    """`toolhist.switch.switch` as the Switch page keeps it (`kept`, then `packed`): no body.

    With a return, on a long session, part of the return leg is computed by a second process
    (`toolhist.views.forked`) while this one computes the rest: its strategies but ``none``
    (`_away`), each strategy of a leg being independent of the others (`toolhist.switch.one_leg`).
    At 100,000 messages switched half way the switch is ~2.3 s of CPU, the return ~5.2 s, of which
    ``none`` (the history as it stood, judged) ~2.3 s. Only the strategies built into toolhist go
    there (a library strategy starts a real library: not in a forked child). No sound answer in
    time (`forked.outcome`): they are computed here, as without a second process.
    """
    names = list(strategies)
    away = _away(names) if settings.get("back_to") is not None and forked.usable(session) else []
    args = (session, at, to, away, long, dict(settings))
    job = forked.launch(partial(_return_kept, *args)) if away else None
    try:
        with pausing():  # one pause of the collector over it all (its full collection cost 1.4 s here)
            done: dict[int, Leg] = {}
            bodies: dict[tuple[int, str], ShownBody] = {}
            if job is not None:
                began = time.monotonic()
                switched = one_leg(session, at, to, strategies=names, **settings)
                done[0], bodies = _kept_leg(switched, 0, long=long)
                del switched
                stay = [name for name in names if name not in away]
                here = _return_kept(session, at, to, stay, long, dict(settings)) if stay else None
                complete, answer = forked.outcome(job, PATIENCE + 3 * (time.monotonic() - began))
                job = None
                # no sound answer: the child's strategies are computed here, as without a second process
                there = answer if complete and _sound(answer, away) else _return_kept(*args)
                done[1] = there[0] if here is None else _merged(here[0], there[0], names)
                bodies |= there[1] if here is None else here[1] | there[1]
            report = switch(session, at, to, strategies=names, done=done, **settings)
            rest = kept(report, long=long)  # the legs computed here (the others have no body left)
            del report  # its bodies' memory freed: what is kept is copied anew
            return packed(Kept(rest.report, bodies | rest.bodies))
    finally:
        if job is not None:  # the run was stopped (the user left the page): no child computes on
            forked.stop(job)


def _away(names: list[str]) -> list[str]:
    """The return leg's strategies a second process computes: all but ``none``, or ``none`` alone.

    Nothing when one starts a library (not in a forked child).
    """
    if any(map(starts_library, names)):
        return []
    return [name for name in names if name != "none"] or names


def _return_kept(  # noqa: PLR0917 - `made`'s arguments, bound by partial
    session: Session, at: int, to: str, strategies: list[str], long: bool, settings: dict[str, Any]
) -> tuple[Leg, dict[tuple[int, str], ShownBody]]:
    """In the child: the return leg for ``strategies`` as the page keeps it (no body; each body as shown)."""
    return _kept_leg(one_leg(session, at, to, leg=1, strategies=strategies, **settings), 1, long=long)


def _sound(answer: Any, away: list[str]) -> bool:
    """Whether a child's answer is the return leg of ``away`` as `_return_kept` makes it."""
    return (
        isinstance(answer, tuple)
        and len(answer) == 2
        and isinstance(answer[0], Leg)
        and answer[0].kind == "return"
        and list(answer[0].strategies) == away
        and isinstance(answer[1], dict)
    )


def _merged(here: Leg, there: Leg, names: list[str]) -> Leg:
    """One leg of both processes' strategies, in the order they were asked (all else is the same)."""
    found = here.strategies | there.strategies
    return dataclasses.replace(here, strategies={name: found[name] for name in names})


@paused
def packed(made: Kept) -> Kept:
    """``made`` copied anew, once the report it came from is gone: a few MB that hold no freed memory.

    The violations and foreign tokens kept were made during the switch, among the objects of its
    bodies and sessions: a few thousand small objects each left in a block of memory of its own
    kept ~110 MB from being handed back after a 100,000-message switch and back (3 MB live). Their
    copy is made together (a pickle's round trip, which makes every object and string again).
    """
    copy: Kept = pickle.loads(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
    return copy
