"""A pytest plugin every run loads (`-p index_in_temp` in pyproject): the session index under a temporary cache.

``toolhist sessions`` keeps its index under ``$XDG_CACHE_HOME`` (`toolhist.index.db.default_path`);
setting it for the whole run keeps every test (and each toolhist process a test starts) off the
user's own ``~/.cache/toolhist``.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest


@pytest.fixture(scope="session", autouse=True)
def _cache_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    saved = {key: os.environ.get(key) for key in ("XDG_CACHE_HOME", "TOOLHIST_INDEX")}
    os.environ["XDG_CACHE_HOME"] = str(tmp_path_factory.mktemp("cache"))
    os.environ.pop("TOOLHIST_INDEX", None)
    yield
    for key, value in saved.items():
        if value is None:
            os.environ.pop(key, None)
        else:
            os.environ[key] = value
