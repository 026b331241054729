"""The fewest changes on real agent logs (issue 24): none for the provider each log ran on.

Each file in ``tests/corpus/logs`` whose ``.source.json`` names the provider the recorded run met
(``toolhist_provider``) was accepted by that provider, so strategy ``toolhist`` must change nothing
in the request the agent sends next (a warning, which the provider takes, included); a log that
stops on pending calls or on the assistant gets only the Changes that repair that. Before issue 24
it made 2 to 969 changes per such file (ids rewritten, Cline's result texts split, Codex's
reasoning dropped). The repair passes are also run without the accepted-history check (`reference.repair`):
they must find nothing to do on their own, so the zero is their behaviour, not the check's.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import toolhist
from toolhist.curation import curate
from toolhist.curation.reference import repair
from toolhist.judgement import judge
from toolhist.providers import PROVIDERS, validate

CORPUS = Path(__file__).parent.parent / "corpus" / "logs"


def _ran_on(path: Path) -> str | None:
    source = json.loads(path.with_name(path.name + ".source.json").read_text())
    provider = source.get("toolhist_provider")
    return provider if isinstance(provider, str) else None


FILES = sorted(
    p for p in CORPUS.glob("*/*") if p.is_file() and not p.name.endswith(".source.json") and p.suffix != ".md"
)
RAN = [(p, _ran_on(p)) for p in FILES if _ran_on(p) is not None]


def test_the_corpus_names_the_provider_of_several_logs() -> None:
    assert {provider for _, provider in RAN} >= {"anthropic", "openai-responses", "openai-chat", "gemini"}


@pytest.mark.parametrize(("path", "provider"), RAN, ids=[f"{p.parent.name}/{p.name}" for p, _ in RAN])
def test_no_change_for_the_provider_it_ran_on(path: Path, provider: str) -> None:
    """What the provider took is the agent's next request: the log, plus the results of the calls it
    ends on or the user turn that follows it when the log stops there (`toolhist.judgement`)."""
    session = toolhist.load(path)
    assert provider in PROVIDERS
    judged = judge(session)
    assert [v.rule for v in validate(judged.session, provider) if v.severity == "error"] == []
    assert curate(session, provider, tail=judged.tail).changes == ()
    assert [(c.pass_, c.action) for c in repair(session, provider, judged.tail).changes] == []
    # The log alone: accepted too (no Change), or it ends where no request can (on pending calls,
    # on the assistant for a model without prefill) and each Change repairs that.
    errors = {v.rule for v in validate(session, provider) if v.severity == "error"}
    changes = curate(session, provider).changes
    assert bool(changes) == bool(errors)
    assert all(change.fixes and set(change.fixes) <= errors for change in changes), changes
    assert errors <= {"ant.result_missing", "ant.prefill_unsupported"}, errors


@pytest.mark.parametrize("path", FILES, ids=[f"{p.parent.name}/{p.name}" for p in FILES])
def test_every_change_on_a_real_log_repairs_a_violation_or_serves_one(path: Path) -> None:
    """For every provider: the Changes that name a rule name one the log breaks, and come first."""
    session = toolhist.load(path)
    for provider in PROVIDERS:
        found = {v.rule for v in validate(session, provider)}
        changes = curate(session, provider).changes
        assert bool(changes) <= bool(found), provider
        named = [bool(c.fixes) for c in changes]
        assert named == sorted(named, reverse=True), provider
        for change in changes:
            assert set(change.fixes) <= found, (provider, change.pass_, change.fixes)
        left = [v.rule for v in validate(session, provider, strategy="toolhist") if v.severity == "error"]
        assert left == ([] if session.messages or provider != "mistral" else ["mis.empty"]), provider
