"""Every bundled sample, every provider: the error rules a naive client (strategy ``none``) hits,
and that the reference strategy leaves none. The table is pinned as a snapshot, reviewed by hand
against each sample's README line (what the user saw)."""

from __future__ import annotations

from pathlib import Path

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.extensions.json import JSONSnapshotExtension

import toolhist
from toolhist.providers import PROVIDERS, validate

SAMPLES = sorted(
    p for p in (Path(__file__).parent.parent / "sample_logs").iterdir() if p.suffix in (".json", ".jsonl")
)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sample_violations_per_provider(path: Path, snapshot: SnapshotAssertion) -> None:
    session = toolhist.load(path)
    table = {
        provider: sorted({v.rule for v in validate(session, provider) if v.severity == "error"})
        for provider in PROVIDERS
    }
    assert table == snapshot.use_extension(JSONSnapshotExtension)
    for provider in PROVIDERS:
        left = [v.rule for v in validate(session, provider, strategy="toolhist") if v.severity == "error"]
        assert left == [], (path.name, provider)
