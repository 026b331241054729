"""The peers environment for these tests: installed once (``toolhist peers install``) if missing.

A fixture module, not a conftest (a second ``conftest`` module would clash in mypy): each test
module imports ``peers_env`` and marks itself ``usefixtures("peers_env")``.

It must be there: a failed install fails the session's peer tests (never a skip), since the
``litellm`` and ``openai-agents`` strategies are only what they claim when the real libraries run.
"""

from __future__ import annotations

import pytest

from toolhist.errors import ToolhistError
from toolhist.peers.env import install
from toolhist.peers.pins import PINS


@pytest.fixture(scope="session")
def peers_env() -> None:
    for library in PINS:
        try:
            install(library)
        except ToolhistError as exc:
            pytest.fail(f"the peers environment could not be installed: {exc}")
