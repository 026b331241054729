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

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent.parent
"""This tree (the one whose benchmarks/ holds this script)."""
FOLDERS = ("tests/corpus", "sample_logs")


def files(root: Path, folders: list[str], sessions: list[str]) -> list[Path]:
    """Every file under ``folders`` of ``root``, sorted, then ``sessions`` as given."""
    found = sorted(p for folder in folders for p in (root / folder).rglob("*") if p.is_file())
    return [*found, *(Path(s) for s in sessions)]


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


def run(tree: Path, paths: list[Path], out: Path) -> None:
    """`dump` in a fresh interpreter that imports ``tree``'s toolhist."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    listing = out.with_suffix(".files")
    listing.write_text("\n".join(map(str, paths)))
    command = [sys.executable, str(Path(__file__).resolve()), "--dump", str(listing), str(out)]
    subprocess.run(command, cwd=tree, env=env, check=True)


def main() -> int:
    """Compare this tree's sessions with ``--old``'s; 0 when every one is identical."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="the other checkout (e.g. /work/landed)")
    parser.add_argument("--session", action="append", default=[], help="a further file to read")
    parser.add_argument("--dump", nargs=2, metavar=("FILES", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dump:
        dump([Path(p) for p in Path(args.dump[0]).read_text().splitlines()], Path(args.dump[1]))
        return 0
    if args.old is None:
        parser.error("--old is required")
    paths = [p.resolve() for p in files(HERE, list(FOLDERS), args.session)]
    with tempfile.TemporaryDirectory() as tmp:
        new, old = Path(tmp, "new.jsonl"), Path(tmp, "old.jsonl")
        run(HERE, paths, new)
        run(args.old.resolve(), paths, old)
        new_lines, old_lines = new.read_text().splitlines(), old.read_text().splitlines()
    differ = [json.loads(a)["file"] for a, b in zip(new_lines, old_lines, strict=True) if a != b]
    read = sum('"digest"' in line for line in new_lines)
    print(f"{len(paths)} files, {read} read as sessions; {len(differ)} differ")
    for name in differ[:10]:
        print(f"differs: {name}")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
