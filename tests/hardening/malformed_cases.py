"""The malformed-input corpus: committed files, large ones made at test time, and what each must say.

Shared by ``test_malformed.py`` (library and CLI) and ``test_malformed_app.py`` (the home page).
A file named ``FORMAT.case.json`` is read with ``--format FORMAT`` (its format-specific wrong
types); every other file is read with format detection.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from toolhist.readers import FORMATS

HERE = Path(__file__).parent
CORPUS = HERE / "malformed"
EXPECTED: dict[str, str] = json.loads((HERE / "malformed_expected.json").read_text(encoding="utf-8"))
"""Each case's exact error, ``{file}`` standing for its path."""

BIG = 50_000_000
DEEP = 10_000


def _big_truncated() -> bytes:
    return b'{"messages": [{"role": "user", "content": "' + b"a" * BIG


def _big_wrong_type() -> bytes:
    return (
        b'{"messages": [{"role": "user", "content": "' + b"a" * BIG + b'"}, {"role": "user", "content": 5}]}'
    )


def _big_jsonl_line() -> bytes:
    return (
        b'{"role": "user", "content": "a"}\n{"role": "assistant", "content": "' + b"b" * BIG + b'", "x": }\n'
    )


def _deep_array() -> bytes:
    return b"[" * DEEP + b"]" * DEEP


def _deep_object() -> bytes:
    return b'{"a":' * DEEP + b"1" + b"}" * DEEP


def _deep_in_content() -> bytes:
    return b'{"messages": [{"role": "user", "content": ' + b"[" * DEEP + b"]" * DEEP + b"}]}"


def _deep_but_parseable() -> bytes:
    """1,000 levels: within orjson's limit, beyond what recursive Python code can walk."""
    return b'{"messages": [{"role": "user", "content": ' + b"[" * 1000 + b"]" * 1000 + b"}]}"


GENERATED: dict[str, Callable[[], bytes]] = {
    "big_single_line_truncated.json": _big_truncated,
    "big_single_line_wrong_type.json": _big_wrong_type,
    "big_jsonl_line.jsonl": _big_jsonl_line,
    "deep_array.json": _deep_array,
    "deep_object.json": _deep_object,
    "deep_in_content.json": _deep_in_content,
    "deep_but_parseable.json": _deep_but_parseable,
}
"""Cases too large to commit (50 MB on one line, 10,000-deep nesting), written at test time."""

COMMITTED = sorted(p.name for p in CORPUS.iterdir())
ALL = sorted([*COMMITTED, *GENERATED])


def forced_format(name: str) -> str | None:
    """The format a ``FORMAT.case.json`` file is read with; None (detect) for the others."""
    prefix = name.split(".", 1)[0]
    return prefix if name.count(".") >= 2 and prefix in FORMATS else None


def materialise(name: str, directory: Path) -> Path:
    """The path of case ``name``: the committed file, or the generated one written into ``directory``."""
    if name in GENERATED:
        path = directory / name
        if not path.exists():
            path.write_bytes(GENERATED[name]())
        return path
    return CORPUS / name
