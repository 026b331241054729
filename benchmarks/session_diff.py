"""Every file's Session, read by two trees of toolhist: the sessions must be identical.

A speed change to a reader (passes fused, models made without validation) must leave what it reads
exactly as it was: messages and blocks in order, every field's value, which fields count as set,
field order, source locations, notes, unsent records. This loads each file under the given folders
(``tests/corpus`` and ``sample_logs`` by default) with ``toolhist.load``, once with this tree and
once with ``--old`` (another checkout: ``/work/landed``), each in a fresh interpreter, and compares
a digest of each Session (its ``model_dump``, every model's fields set and field order) or the
error that refused the file. Files given with ``--session`` (a generated rollout from
``benchmarks/agent_logs.py``…) are compared the same way. Exit 1 and the differing files when any
Session differs.

Run: ``.venv/bin/python benchmarks/session_diff.py --old /work/landed [--session FILE …]``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

from tree_diff import dumps


def _shape(model: Any) -> list[Any]:
    """A model's fields set and field order, and its nested models' (what ``model_dump`` does not show)."""
    from pydantic import BaseModel

    shape: list[Any] = [type(model).__name__, sorted(model.model_fields_set), list(model.__dict__)]
    for value in model.__dict__.values():
        if isinstance(value, BaseModel):
            shape.append(_shape(value))
        elif isinstance(value, tuple):
            shape.extend(_shape(v) for v in value if isinstance(v, BaseModel))
    return shape


def digest(session: Any) -> str:
    """The SHA-256 of a Session's ``repr(model_dump())`` (key order included) and its models' shapes."""
    h = hashlib.sha256(repr(session.model_dump()).encode())
    h.update(repr(_shape(session)).encode())
    return h.hexdigest()


def dump(paths: list[Path], out: Path) -> None:
    """Write each file's Session digest (or the error refusing it) to ``out``, one JSON line each."""
    import toolhist

    with out.open("w") as sink:
        for path in paths:
            try:
                session = toolhist.load(str(path))
            except Exception as exc:  # not a session: the two trees must refuse it alike
                line = {"file": str(path), "refused": f"{type(exc).__name__}: {exc}"}
            else:
                line = {"file": str(path), "format": session.source.format, "digest": digest(session)}
            sink.write(json.dumps(line) + "\n")


def main() -> int:
    """Compare this tree's sessions with ``--old``'s; 0 when every one is identical."""
    found = dumps(__file__, __doc__.splitlines()[0], "a further file to read", dump)
    if found is None:
        return 0
    paths, new_lines, old_lines = found
    differ = [json.loads(a)["file"] for a, b in zip(new_lines, old_lines, strict=True) if a != b]
    read = sum('"digest"' in line for line in new_lines)
    print(f"{len(paths)} files, {read} read as sessions; {len(differ)} differ")
    for name in differ[:10]:
        print(f"differs: {name}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
