"""The ``litellm`` and ``openai-agents`` strategies against the real libraries, on generated histories.

The strategies run the libraries, so "the strategy is the library" holds by construction; what can
go wrong is the way back: reading the library's body as a curated Session and Changes. So for
every generated history (`histories.generated`) and every route:

- toolhist's render of the curated session has the library's body's exact tool structure
  (roles, calls, results, texts, ids; `structure.structure`);
- nothing the library left out is silent: every input block whose kind of content the body has
  fewer of is the ``before`` of a drop/rewrite/fill/merge Change;
- a library that raised before sending is one ``keep`` Change naming the exception.
"""

from __future__ import annotations

from collections import Counter
from functools import cache

import pytest
from histories import generated
from peers_env import peers_env  # noqa: F401  # the session fixture
from structure import structure

from toolhist.curation import Curation
from toolhist.peers.diffing import key
from toolhist.peers.run import Answer
from toolhist.peers.strategies import ROUTES, run_many
from toolhist.providers import render

COUNT = 300
ROUTE_PARAMS = [(strategy, provider) for strategy, providers in ROUTES.items() for provider in providers]

pytestmark = pytest.mark.usefixtures("peers_env")


@cache
def ran(strategy: str, provider: str) -> tuple[tuple[Answer, Curation], ...]:
    """One batch per route, shared by the tests below."""
    return tuple(run_many(strategy, generated(COUNT), provider))


@pytest.mark.parametrize(("strategy", "provider"), ROUTE_PARAMS)
def test_render_of_the_curated_session_is_the_library_body(strategy: str, provider: str) -> None:
    sessions = generated(COUNT)
    assert len(sessions) == COUNT
    rows = ran(strategy, provider)
    mismatched = []
    unreadable = []  # bodies no toolhist reader takes (none among the generated histories)
    bodies = 0
    for n, (answer, curation) in enumerate(rows):
        assert curation.library is not None
        assert curation.library.startswith(strategy + " ")
        if curation.changes and curation.changes[0].detail.get("error") == "UnreadableBody":
            unreadable.append(n)
            continue
        if answer.body is None:
            assert [(c.pass_, c.action) for c in curation.changes] == [(strategy, "keep")]
            assert curation.changes[0].detail["error"] == answer.raised
            assert curation.session == sessions[n]
            continue
        bodies += 1
        if structure(render(curation.session, provider).body) != structure(answer.body):
            mismatched.append(n)
    assert mismatched == []
    assert unreadable == []
    assert bodies > 0


@pytest.mark.parametrize(("strategy", "provider"), ROUTE_PARAMS)
def test_nothing_the_library_left_out_is_silent(strategy: str, provider: str) -> None:
    """For each kind of content, the body has fewer blocks only by as many as Changes account for."""
    sessions = generated(COUNT)
    silent = []
    for n, (answer, curation) in enumerate(ran(strategy, provider)):
        if answer.body is None:
            continue
        given = sessions[n].messages
        sent = Counter(key(b) for m in curation.session.messages for b in m.blocks)
        missing = Counter(key(b) for m in given for b in m.blocks) - sent
        explained = Counter(
            key(given[c.before.message].blocks[c.before.block])
            for c in curation.changes
            if c.before is not None
            and c.before.block is not None
            and c.action in ("drop", "dedupe", "conflict", "rewrite", "fill")
        )
        if missing - explained:
            silent.append((n, dict(missing - explained)))
    assert silent == []
