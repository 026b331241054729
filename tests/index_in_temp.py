"""A pytest plugin every run loads (`-p index_in_temp` in pyproject): the session index under a temporary cache.

``toolhist sessions`` keeps its index at ``$TOOLHIST_INDEX``, else under ``$XDG_CACHE_HOME``
(`toolhist.index.db.default_path`); pointing ``$TOOLHIST_INDEX`` into a temporary folder for the
whole run keeps every test (and each toolhist process a test starts) off the user's own index. Not
``$XDG_CACHE_HOME``: the pinned peer libraries' environments live there (``toolhist peers install``,
run before the tests), and the strategies that run them must find them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in ("TOOLHIST_INDEX",)}
    os.environ["TOOLHIST_INDEX"] = str(tmp_path_factory.mktemp("cache") / "index.sqlite")
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
