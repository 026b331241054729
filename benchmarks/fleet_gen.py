"""A generated fleet for the fleet-scan tests and benchmark: many sessions in dated folders.

What an agent platform's session store looks like, in miniature and deterministic for a seed:

- mostly generated OpenAI Chat request bodies (`generate.generate`: 6 to 40 messages, the seed
  failure modes at their steady rates: duplicates, unanswered calls, results out of order);
- every `SAMPLE_EVERY`-th session a copy of one of the bundled real samples (``sample_logs/``:
  Claude Code, Codex, Gemini CLI, Kilo, llxprt logs and captured request bodies), so every format
  and many rules appear;
- every `BROKEN_EVERY`-th file a truncated body (an unreadable row, never a failed scan);
- one folder per day (``2026-11-01/``…), each file's modification time that day: request bodies
  carry no timestamps, so their date is the file's (what a store's object time gives).

``python benchmarks/fleet_gen.py 10000 /tmp/fleet`` writes one.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import orjson

sys.path.insert(0, str(Path(__file__).parent))
from generate import generate

ROOT = Path(__file__).parent.parent
SAMPLES = sorted(p for p in (ROOT / "sample_logs").iterdir() if p.suffix in (".json", ".jsonl"))
SAMPLE_EVERY = 20
BROKEN_EVERY = 97
DAYS = 14
FIRST_DAY = datetime(2026, 11, 1, 12, tzinfo=UTC)


def write_fleet(n: int, out: Path, seed: int = 11) -> list[Path]:
    """Write ``n`` files under ``out`` (created) and return their paths, sorted."""
    rng = random.Random(seed)
    paths = []
    for i in range(n):
        day = FIRST_DAY + timedelta(days=i % DAYS)
        folder = out / day.strftime("%Y-%m-%d")
        folder.mkdir(parents=True, exist_ok=True)
        if i % BROKEN_EVERY == BROKEN_EVERY - 1:
            path = folder / f"s{i:06d}.json"
            path.write_bytes(orjson.dumps(generate(8, seed=i))[:-40])
        elif i % SAMPLE_EVERY == SAMPLE_EVERY - 1:
            sample = SAMPLES[(i // SAMPLE_EVERY) % len(SAMPLES)]
            path = folder / f"s{i:06d}{sample.suffix}"
            shutil.copyfile(sample, path)
        else:
            path = folder / f"s{i:06d}.json"
            path.write_bytes(orjson.dumps(generate(rng.randint(6, 40), seed=seed * 100_003 + i)))
        stamp = day.timestamp()
        os.utime(path, (stamp, stamp))
        paths.append(path)
    return sorted(paths)


def main() -> None:
    """``fleet_gen.py N OUT``: write a fleet of N files under OUT."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", type=int)
    parser.add_argument("out", type=Path)
    args = parser.parse_args()
    write_fleet(args.n, args.out)


if __name__ == "__main__":
    main()
