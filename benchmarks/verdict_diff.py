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

import json
import sys
from pathlib import Path

from tree_diff import dumps


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


def main() -> int:
    """Compare this tree's verdicts with ``--old``'s; 0 when every one is equal."""
    found = dumps(__file__, __doc__.splitlines()[0], "a further file to judge", dump)
    if found is None:
        return 0
    paths, new_lines, old_lines = found
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
