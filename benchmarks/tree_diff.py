"""What ``session_diff.py`` and ``verdict_diff.py`` share: the files compared, each tree's dump of them.

Each script dumps what it compares (one JSON line per file, or per file and provider) in a fresh
interpreter that imports one tree's toolhist, once for this tree and once for ``--old``, and compares
the two dumps line by line.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
"""This tree (the one whose benchmarks/ holds the scripts)."""
FOLDERS = ("tests/corpus", "sample_logs")


def files(root: Path, folders: list[str], sessions: list[str]) -> list[Path]:
    """Every file under ``folders`` of ``root``, sorted, then ``sessions`` as given."""
    found = sorted(p for folder in folders for p in (root / folder).rglob("*") if p.is_file())
    return [*found, *(Path(s) for s in sessions)]


def dumps(
    script: str, description: str, session_help: str, dump: Callable[[list[Path], Path], None]
) -> tuple[list[Path], list[str], list[str]] | None:
    """The command line of a diff script: the files compared and each tree's dump of them, line by line.

    None when this process is the ``--dump`` child (``dump`` has written its file): the script ends.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--old", type=Path, help="the other checkout (e.g. /work/landed)")
    parser.add_argument("--session", action="append", default=[], help=session_help)
    parser.add_argument("--dump", nargs=2, metavar=("FILES", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dump:
        dump([Path(p) for p in Path(args.dump[0]).read_text().splitlines()], Path(args.dump[1]))
        return None
    if args.old is None:
        parser.error("--old is required")
    paths = [p.resolve() for p in files(HERE, list(FOLDERS), args.session)]
    with tempfile.TemporaryDirectory() as tmp:
        new, old = Path(tmp, "new.jsonl"), Path(tmp, "old.jsonl")
        _run(script, HERE, paths, new)
        _run(script, args.old.resolve(), paths, old)
        return paths, new.read_text().splitlines(), old.read_text().splitlines()


def _run(script: str, tree: Path, paths: list[Path], out: Path) -> None:
    """``script --dump`` in a fresh interpreter that imports ``tree``'s toolhist."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    listing = out.with_suffix(".files")
    listing.write_text("\n".join(map(str, paths)))
    command = [sys.executable, str(Path(script).resolve()), "--dump", str(listing), str(out)]
    subprocess.run(command, cwd=tree, env=env, check=True)
