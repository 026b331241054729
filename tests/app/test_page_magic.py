"""No page prints a stray string: Streamlit's "magic" writes every bare expression of a page script.

A docstring under a module constant (the project's habit in library modules) is such an expression in
a page: it appeared as text above the Switch page's title. Only a script's opening docstring is spared.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPTS = sorted([ROOT / "app.py", ROOT / "home.py", *(ROOT / "app_pages").glob("*.py")])


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_no_bare_string_below_the_docstring(script: Path) -> None:
    body = ast.parse(script.read_text()).body
    bare = [
        f"{script.name}:{node.lineno}"
        for node in body[1:]
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Constant)
        and isinstance(node.value.value, str)
    ]
    assert bare == []
