"""Every field of every sample and real-log corpus file, broken five ways: never an uncaught exception.

`mutations.mutants` sets each distinct field of each file (each record kind's fields, in JSON Lines)
to null, a number, a string, a list and an object; `mutations.run` takes each mutant through
``load``, ``validate`` (every provider), ``curate`` and ``render`` (one provider per mutant, in
turn) and, for one mutant in `REPORT_EVERY`, ``report``. The contract: toolhist either reads the mutant or refuses it
with a one-line `LoadError` naming the file (or another `ToolhistError`); anything else escaping is
a crash, listed with the file, field, value, stage and the line that raised. Exhaustive over fields,
sampled over their occurrences (the first of each) and over the report (the costliest stage). In CI
each field gets one of the five values in turn (about 3,500 mutants, a few minutes);
``TOOLHIST_MUTATE_ALL=1`` gives every field all five (about 17,700).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from mutations import ROOT, corpus, mutants, run

REPORT_EVERY = 25
EVERY_VALUE = os.environ.get("TOOLHIST_MUTATE_ALL") == "1"


@pytest.mark.parametrize("file", corpus(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_mutant_crashes(file: Path) -> None:
    crashes = [
        c.line()
        for n, m in enumerate(mutants(file, every_value=EVERY_VALUE))
        if (c := run(m, n, report=n % REPORT_EVERY == 0))
    ]
    assert crashes == []
