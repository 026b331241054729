"""A pytest plugin every test run loads (`-p app_may_open` in pyproject): the app may open the test files."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

OPEN_ENV = "TOOLHIST_OPEN"  # toolhist.views.paths.OPEN_ENV (not imported: the app's modules load pandas)


@pytest.fixture(scope="session", autouse=True)
def _app_may_open_the_test_files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """The app opens files only where sessions live or the user allows (`toolhist.views.paths`): the
    test session allows its own temporary folder, as a user would name one in ``$TOOLHIST_OPEN``
    (the browser tests' server inherits it). The tests of the bound itself unset it."""
    before = os.environ.get(OPEN_ENV)
    os.environ[OPEN_ENV] = str(tmp_path_factory.getbasetemp())
    yield
    if before is None:
        os.environ.pop(OPEN_ENV, None)
    else:
        os.environ[OPEN_ENV] = before
