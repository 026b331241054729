"""A pytest plugin every run loads (`-p xdist_groups` in pyproject): which tests share a worker under xdist.

`./dev test` runs the suite with ``-n auto --dist loadgroup``: tests with the same ``xdist_group``
run on one worker. Every test is grouped by its file, as ``--dist loadfile`` would, so a
module-scoped fixture (a browser file's Streamlit server) starts once per file. The exception is
the files in `SPLIT`, whose tests are each their own group: ``tests/app/test_pages.py`` holds 567
self-contained AppTest cases (no module fixture, no shared state) and, kept on one worker, it was
the run's long pole (2,913 s of one worker while the other ran every other file, in the first
parallel run). Without xdist the marks are inert.
"""

from __future__ import annotations

import pytest

SPLIT = frozenset({"tests/app/test_pages.py"})
"""Files whose tests need no fixture or state beyond their own, handed out one test at a time."""


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "xdist_group(name): run on the worker of this group (pytest-xdist)")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.get_closest_marker("xdist_group") is not None:
            continue
        file = item.nodeid.split("::", 1)[0]
        item.add_marker(pytest.mark.xdist_group(item.nodeid if file in SPLIT else file))
