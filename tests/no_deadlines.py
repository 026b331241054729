"""A pytest plugin every run loads (`-p no_deadlines` in pyproject): Hypothesis runs without a time limit.

Hypothesis fails an example that takes longer than 200 ms by default: a timing threshold, which
the house rules keep out of tests (speed is measured in ``benchmarks/``). On a loaded machine,
and with the suite across the cores (`./dev test`), a property test whose examples are near that
limit failed with ``DeadlineExceeded`` and passed alone
(``tests/test_redact_file.py::test_secrets_at_the_edges_of_pieces_are_redacted_as_in_the_whole``).
A test's own ``@settings`` still wins over this profile. A run without Hypothesis (``./dev test-s3``
installs only what ``tests_s3`` needs, and pyproject's addopts load this plugin there too) has no
property test to set it for.
"""

from __future__ import annotations

try:
    from hypothesis import settings
except ImportError:  # no Hypothesis, no property tests in this run
    pass
else:
    settings.register_profile("toolhist", deadline=None)
    settings.load_profile("toolhist")
