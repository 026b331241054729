"""``toolhist check``: which providers reject a session, where, and with which words.

Two judgements, always said (`toolhist.judgement`): a request body is judged as sent; an agent log
as the request the agent would send next (its history plus the next user turn or the pending
results). A file that already is a request body in a provider's own wire format (a captured body
that got the 400) is validated exactly as it was sent for that provider, not re-rendered; every
other provider sees the body toolhist renders for it. Both are located in the canonical history.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from toolhist._gc import paused, pausing
from toolhist.formats.document import Document
from toolhist.formats.wire import OWN_FORMAT
from toolhist.judgement import Judged, Judgement, judge
from toolhist.model import Session
from toolhist.providers import (
    PROVIDERS,
    Violation,
    checked,
    checked_each,
    provider_for,
    rendered,
    validate,
)
from toolhist.providers.base import Payload, Provider, located, violations
from toolhist.providers.chat_shared import CHAT_SHAPED, sharing
from toolhist.ran_on import RanOn, ran_on
from toolhist.readers import load_document


def is_as_sent(session: Session, provider: str, strategy: str = "none") -> bool:
    """Whether ``provider``'s verdict is on the body exactly as it was sent (a body in its own format)."""
    return strategy == "none" and session.source.format == OWN_FORMAT[provider][0]


@paused
def verdict(
    doc: Document, session: Session, provider: str, strategy: str = "none", *, remember: bool = True
) -> list[Violation]:
    """One provider's part of `check`, for callers that already hold the parsed document and session.

    A body in the provider's own format, unrepaired, is validated as it was sent (located through
    the rendered source map); otherwise the body toolhist renders under ``strategy`` is validated.
    Either is kept in the per-session memory of verdicts as given (`toolhist.curation.given`: what
    strategy ``toolhist`` repairs) when it is one: a body sent is when toolhist renders that same
    body. ``remember=False`` keeps nothing (`Checking`, as `judged_verdict`).
    """
    if is_as_sent(session, provider, strategy):
        target, body, payload = _as_sent(doc, session, provider)
        found = violations(target, body, payload.source_map)
        if remember and payload.body == body:  # toolhist renders what was sent: the verdict as given too
            from toolhist.curation.given import remember as remembered  # curation builds on providers

            remembered(session, provider, found)
        return found
    return judged_verdict(judge(session), provider, strategy, remember=remember)


def _as_sent(doc: Document, session: Session, provider: str) -> tuple[Provider, dict[str, Any], Payload]:
    """The provider, the body as it was sent and `rendered`'s payload, whose source map locates it.

    The source map is the body as given's (`render`'s, without its freeform note: a walk over
    every block, three times for a chat body Mistral and Kimi also take as sent).
    """
    body = doc.value if isinstance(doc.value, dict) else {OWN_FORMAT[provider][1]: doc.value}
    target = provider_for(provider)
    return target, body, rendered(session, target)


@paused
def judged_verdict(
    judged: Judged, provider: str, strategy: str = "none", *, remember: bool = True
) -> list[Violation]:
    """``provider``'s violations of the judged history (`toolhist.judgement.judge`), rendered by toolhist.

    A violation inside the placeholder tail is kept (its payload path says where) but located in
    no message: the placeholder is not in the log, and pages that show message N must find it there.
    ``remember=False`` leaves the verdict out of the per-session memory (`toolhist.curation.given`),
    for a caller that lets each provider's violations go once it has used them (`Checking`).
    """
    found = (
        validate(judged.session, provider, strategy=strategy)
        if remember
        else checked(judged.session, provider, strategy=strategy)
    )
    if not judged.tail:
        return found
    return list(_in_log(judged, found))


def _in_log(judged: Judged, found: Iterable[Violation]) -> Iterator[Violation]:
    """``found``, a violation inside the placeholder tail located in no message (`judged_verdict`)."""
    logged = len(judged.session.messages) - len(judged.tail)
    for v in found:
        if v.message_index is not None and v.message_index >= logged:
            yield v.model_copy(update={"message_index": None, "block_index": None})
        else:
            yield v


@dataclass(frozen=True)
class CheckResult:
    """What ``check`` found for one file."""

    file: str
    format: str
    messages: int
    notes: tuple[str, ...] = ()
    """What the reader said (``SessionSource.notes``): skipped records, compactions, versions…"""
    skipped: dict[str, int] = field(default_factory=dict)
    """Records the reader does not know, by kind (``SessionSource.skipped``)."""
    unsent: dict[str, int] = field(default_factory=dict)
    """Records the agent keeps but does not send, by kind (``Session.unsent``)."""
    results: dict[str, list[Violation]] = field(default_factory=dict)
    as_sent: tuple[str, ...] = ()
    """Providers whose verdict is on the body exactly as it was sent."""
    judged: Judgement = "as-sent"
    """``as-sent`` (a request body) or ``next-request`` (an agent log: the request it would send next)."""
    appended: str | None = None
    """For ``next-request``: what the next request adds to the log, in words (None: nothing)."""
    ran_on: RanOn | None = None
    """The provider the log says the session ran on (`toolhist.ran_on`): it accepted the session."""

    def errors(self) -> int:
        """Error-level violations over all providers."""
        return sum(v.severity == "error" for vs in self.results.values() for v in vs)

    def to_json(self) -> dict[str, Any]:
        """The ``check --json`` object (DESIGN §6).

        ``toolhist check --json`` writes its text provider by provider instead of building it
        (`toolhist.cli.streamed`); tests/cli holds the two byte for byte equal.
        """
        return {
            "file": self.file,
            "format": self.format,
            "messages": self.messages,
            "judged": self.judged,
            "appended": self.appended,
            "ran_on": None if self.ran_on is None else asdict(self.ran_on),
            "results": {
                p: {"violations": [v.model_dump(mode="json") for v in vs]} for p, vs in self.results.items()
            },
            "notes": list(self.notes),
            "skipped": self.skipped,
            "unsent": self.unsent,
        }


Steps = Callable[[str, int, int], None]
"""Told how `check` is going: ``("read", bytes read, file size)`` while a file is read, then
``(provider, n, providers)`` before each provider's verdict (for a progress display)."""


@dataclass(frozen=True)
class Checking:
    """A file read and judged whose providers' verdicts are made one at a time (`start`, `verdicts`).

    `check` holds every provider's violations until it returns. ``toolhist check`` prints each
    provider's as it is made and lets it go: on a 200 MB Codex rollout Mistral's and Kimi's id
    findings alone are 75,000 Violations, 0.4x the file, and holding them all beside the session and
    the next provider's rendered body took the command's peak to 3x the file (issue 26).
    """

    doc: Document
    session: Session
    judged: Judged
    providers: tuple[str, ...]
    strategy: str = "none"

    def verdict(self, provider: str) -> list[Violation]:
        """``provider``'s violations, as `check` finds them, not kept in the per-session memory."""
        if is_as_sent(self.session, provider, self.strategy):
            return verdict(self.doc, self.session, provider, self.strategy, remember=False)
        return judged_verdict(self.judged, provider, self.strategy, remember=False)

    def each(self, provider: str) -> Iterator[Violation]:
        """`verdict`'s violations one at a time, each made as it is taken and kept by nothing here.

        For a caller that uses each and lets it go inside `streams`: the rendered body stays alive
        until the last is taken, not the list of every one (`toolhist.providers.base.located`).
        """
        if is_as_sent(self.session, provider, self.strategy):
            target, body, payload = _as_sent(self.doc, self.session, provider)
            return located(target, body, payload.source_map, shared=False)
        found = checked_each(self.judged.session, provider, strategy=self.strategy)
        return _in_log(self.judged, found) if self.judged.tail else found

    def streams(self, steps: Steps | None = None) -> Iterator[tuple[str, Iterator[Violation]]]:
        """`verdicts` in registry order, each provider's as `each` gives it: take all before the next.

        ``toolhist check``'s text counts and writes out each violation as it is made (issue 26):
        Mistral's 370,000 on a 1 GB Codex rollout were ~220 MB of Violations held while printed.
        The same collector pause and shared chat body as `verdicts`.
        """
        with pausing(), sharing():
            for n, provider in enumerate(self.providers):
                if steps is not None:
                    steps(provider, n, len(self.providers))
                yield provider, self.each(provider)

    def verdicts(
        self, steps: Steps | None = None, *, chat_first: bool = False
    ) -> Iterator[tuple[str, list[Violation]]]:
        """``(provider, violations)`` for each provider in turn, ``steps`` told before each (`Steps`).

        One collector pause over every provider (`toolhist._gc.pausing`), the caller's work between
        them included: it lets each provider's violations go, so nothing builds up while paused.
        In registry order Mistral and Kimi share one rendered body, OpenAI Chat renders its own
        (another provider's render drops a kept body: `toolhist.providers.chat_shared`).
        ``chat_first`` takes the three chat-shaped providers first, as Home does, so all three share
        one body and OpenAI Chat's pairing passes: for a caller that keeps every verdict anyway
        (`check`); a caller that prints each and lets it go keeps the registry order (the CLI's
        printed order), where holding Mistral's and Kimi's verdicts or a body for later would raise
        its peak memory.
        """
        order = sorted(self.providers, key=lambda p: p not in CHAT_SHAPED) if chat_first else self.providers
        with pausing(), sharing():
            for n, provider in enumerate(order):
                if steps is not None:
                    steps(provider, n, len(self.providers))
                yield provider, self.verdict(provider)

    def result(self, results: dict[str, list[Violation]]) -> CheckResult:
        """The `CheckResult` with ``results`` as its providers' verdicts (`result_of`)."""
        return result_of(self.doc.name, self.session, results, self.judged, self.strategy)


@paused
def start(
    source: Any,
    providers: list[str] | None = None,
    *,
    strategy: str = "none",
    format: str | None = None,
    name: str | None = None,
    steps: Steps | None = None,
) -> Checking:
    """Read and judge ``source`` for `check` (``steps`` told the bytes read); no provider checked yet."""
    names = tuple(provider_for(p).name for p in providers) if providers else tuple(PROVIDERS)
    reading = None if steps is None else functools.partial(steps, "read")
    doc, session = load_document(source, format, name=name, progress=reading)
    return Checking(doc, session, judge(session), names, strategy)


@paused
def check(
    source: Any,
    providers: list[str] | None = None,
    *,
    strategy: str = "none",
    format: str | None = None,
    name: str | None = None,
    steps: Steps | None = None,
) -> CheckResult:
    """Validate ``source`` for each provider (all of them when ``providers`` is None).

    ``name`` is what errors call in-memory input (an uploaded file's name); ``steps`` is told the
    progress (`Steps`).
    """
    run = start(source, providers, strategy=strategy, format=format, name=name, steps=steps)
    found = dict(run.verdicts(steps, chat_first=True))  # every verdict is kept: the chat trio shares a body
    return run.result({p: found[p] for p in run.providers})


def result_of(
    name: str, session: Session, results: dict[str, list[Violation]], judged: Judged, strategy: str = "none"
) -> CheckResult:
    """The `CheckResult` of a session whose providers' verdicts are ``results``.

    One constructor for `check` and the app's per-provider cache, which must give the same object.
    """
    return CheckResult(
        file=name,
        format=session.source.format,
        messages=len(session.messages),
        notes=session.source.notes,
        skipped=dict(session.source.skipped),
        unsent=dict(sorted(Counter(u.kind for u in session.unsent).items())),
        results=results,
        as_sent=tuple(p for p in results if is_as_sent(session, p, strategy)),
        judged=judged.judgement,
        appended=judged.appended,
        ran_on=ran_on(session),
    )
