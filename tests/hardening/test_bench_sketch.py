"""The dict-native sketch in ``benchmarks/bench_sketch.py`` does the work it claims, or its figures mean nothing."""

from __future__ import annotations

from pathlib import Path

from bench_modules import benchmark_module

import toolhist


def test_sketch_curation_pairs_every_call_and_counts_what_toolhist_finds(tmp_path: Path) -> None:
    sketch = benchmark_module("bench_sketch")
    path = benchmark_module("generate").write(1_000, tmp_path / "s.json")
    history = sketch.load(path)
    assert len(history) == 1_000
    assert sketch.pairing(sketch.body(history)) > 0  # the generated failure modes are there
    curated, changes = sketch.curate(history)
    assert sketch.pairing(sketch.body(curated)) == 0
    calls = [c for _, _, cs, _ in history for c in cs]
    kinds = [what for what, _, _ in changes]
    assert kinds.count("canonical id") == len(calls)
    assert all(cs == () or all(i.startswith("hist_tool_") for i, _, _ in cs) for _, _, cs, _ in curated)
    # The same duplicates and unanswered calls toolhist's own curation reports.
    made = toolhist.curate(toolhist.load(str(path)), "openai-chat", strategy="toolhist").changes
    assert kinds.count("drop duplicate") == sum(c.action == "dedupe" for c in made) > 0
    assert kinds.count("synthesise result") == sum(c.action == "close" for c in made) > 0
