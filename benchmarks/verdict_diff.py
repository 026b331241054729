"""Every provider's verdict on every file, by two trees of toolhist: the lists must be equal.

A speed change to the providers (renders, fused rule walks, shared passes) must leave every verdict
byte-identical: rule ids, paths, error texts, order. This runs `toolhist.check.verdict` for each
provider on each file under the given folders (``tests/corpus`` and ``sample_logs`` by default), in
two orders (the registry's, as the CLI prints; the chat-shaped three first, as Home computes them,
inside `toolhist.providers.chat_shared.sharing` so the shared body and passes are exercised), once
with this tree and once with ``--old`` (another checkout: ``/work/landed``), each in a fresh
interpreter, and compares the Violations as JSON. Sessions given with ``--session`` (the generated
``/tmp/prof/h10k.json``…) are compared the same way. Exit 1 and the first differences when any
verdict differs.

Run: ``.venv/bin/python benchmarks/verdict_diff.py --old /work/landed [--session FILE …]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
"""This tree (the one whose benchmarks/ holds this script)."""
FOLDERS = ("tests/corpus", "sample_logs")


def files(root: Path, folders: list[str], sessions: list[str]) -> list[Path]:
    """Every file under ``folders`` of ``root``, sorted, then ``sessions`` as given."""
    found = sorted(p for folder in folders for p in (root / folder).rglob("*") if p.is_file())
    return [*found, *(Path(s) for s in sessions)]


def dump(paths: list[Path], out: Path) -> None:
    """Write every verdict on ``paths`` to ``out``, one JSON line each (run inside the tree judged)."""
    from toolhist._gc import pausing
    from toolhist.check import verdict
    from toolhist.providers import PROVIDERS
    from toolhist.providers.chat_shared import CHAT_SHAPED, sharing
    from toolhist.readers import load_document

    orders = {"registry": list(PROVIDERS), "home": sorted(PROVIDERS, key=lambda p: p not in CHAT_SHAPED)}
    with out.open("w") as sink:
        for path in paths:
            for order, providers in orders.items():
                try:  # read again for each order: nothing remembered of the first helps the second
                    doc, session = load_document(str(path), None)
                except Exception as exc:  # not a session: the two trees must refuse it alike
                    sink.write(json.dumps({"file": str(path), "refused": type(exc).__name__}) + "\n")
                    break
                with pausing(), sharing():
                    for provider in providers:
                        found = [v.model_dump(mode="json") for v in verdict(doc, session, provider)]
                        line = {"file": str(path), "order": order, "provider": provider, "violations": found}
                        sink.write(json.dumps(line) + "\n")


def run(tree: Path, paths: list[Path], out: Path) -> None:
    """`dump` in a fresh interpreter that imports ``tree``'s toolhist."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    listing = out.with_suffix(".files")
    listing.write_text("\n".join(map(str, paths)))
    command = [sys.executable, str(Path(__file__).resolve()), "--dump", str(listing), str(out)]
    subprocess.run(command, cwd=tree, env=env, check=True)


def main() -> int:
    """Compare this tree's verdicts with ``--old``'s; 0 when every one is equal."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", type=Path, help="the other checkout (e.g. /work/landed)")
    parser.add_argument("--session", action="append", default=[], help="a further file to judge")
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
    differ = [(a, b) for a, b in zip(new_lines, old_lines, strict=False) if a != b]
    verdicts = sum('"provider"' in line for line in new_lines)
    print(f"{len(paths)} files, {verdicts} verdicts; {len(differ)} differ")
    for a, b in differ[:5]:
        print(f"new: {a[:300]}\nold: {b[:300]}")
    if len(new_lines) != len(old_lines):
        print(f"line counts differ: new {len(new_lines)}, old {len(old_lines)}")
        return 1
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
