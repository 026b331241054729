"""``examples/walkthrough.ipynb`` runs top to bottom in a real kernel and prints what the library says."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import nbclient
import nbformat
import pytest

from toolhist.providers import PROVIDERS

read_notebook: Any = nbformat.read  # nbformat ships no type hints
ROOT = Path(__file__).parent.parent
EXAMPLES = ROOT / "examples"
SNAPSHOT = (
    Path(__file__).parent
    / "__snapshots__"
    / "test_sample_violations"
    / "test_sample_violations_per_provider[mistral_ids_after_openai.json].json"
)


def stdout(cell: Any) -> str:
    return "".join(
        o["text"] for o in cell["outputs"] if o["output_type"] == "stream" and o["name"] == "stdout"
    )


@pytest.fixture(scope="module")
def executed() -> list[Any]:
    nb = read_notebook(EXAMPLES / "walkthrough.ipynb", as_version=4)
    client = nbclient.NotebookClient(
        nb, timeout=120, kernel_name="python3", resources={"metadata": {"path": str(EXAMPLES)}}
    )
    client.execute()
    return [c for c in nb.cells if c.cell_type == "code"]


def test_committed_without_outputs() -> None:
    nb = read_notebook(EXAMPLES / "walkthrough.ipynb", as_version=4)
    nbformat.validate(nb)
    assert all(c.get("outputs", []) == [] for c in nb.cells if c.cell_type == "code")


def test_outputs(executed: list[Any]) -> None:
    assert len(executed) == 5
    assert stdout(executed[0]) == "openai-chat 10 messages, 2 tool calls\n"
    expected: dict[str, list[str]] = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    lines = stdout(executed[1]).splitlines()
    assert lines == [f"{provider} {expected[provider]!r}" for provider in PROVIDERS]
    assert stdout(executed[2]) == "6 changes; 0 errors left\n"
    assert stdout(executed[3]) == "2 unreadable: ['EXPECTED.md', 'README.md']\n"
    table = [o for o in executed[3]["outputs"] if o["output_type"] == "execute_result"]
    assert len(table) == 1
    assert "mistral_ids_after_openai.json" in table[0]["data"]["text/html"]
    assert stdout(executed[4]) == "True False\n"
