"""Load (and check) cost against the floor: parsing the same file with orjson alone.

Prints, for generated OpenAI Chat sessions of 1k, 10k and 100k messages: the orjson parse of the
file, ``toolhist.load``, ``summarize`` and ``validate`` for openai-chat, each the median of N runs,
with the ratio to the orjson floor. Run: ``.venv/bin/python benchmarks/bench_load.py [--runs 5]``.
Figures only; no test asserts on time.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)

import toolhist
from toolhist.providers import validate


def generate(n_messages: int, seed: int = 7) -> dict[str, Any]:
    """A chat body of about ``n_messages``: user turns, parallel calls, results, some errors."""
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are a coding agent."}]
    k = 0
    while len(messages) < n_messages:
        messages.append({"role": "user", "content": f"step {k}: " + "lorem ipsum " * rng.randint(2, 20)})
        for _ in range(rng.randint(1, 3)):
            calls = [
                {
                    "id": f"call_{k}_{j}",
                    "type": "function",
                    "function": {
                        "name": rng.choice(["read_file", "grep", "sh"]),
                        "arguments": json.dumps({"path": f"src/m{j}.py", "n": j}),
                    },
                }
                for j in range(rng.randint(1, 3))
            ]
            messages.append({"role": "assistant", "content": None, "tool_calls": calls})
            messages.extend(
                {"role": "tool", "tool_call_id": c["id"], "content": "x" * rng.randint(20, 400)}
                for c in calls
            )
        messages.append({"role": "assistant", "content": "done " * rng.randint(1, 30)})
        k += 1
    return {"model": "gpt-4.1", "messages": messages[:n_messages]}


def parse_file(path: Path) -> Any:
    """The floor: read the same file and parse it with orjson, nothing else."""
    return orjson.loads(path.read_bytes())


def median_time(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``runs`` calls."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    """Print one table row per size."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1000,10000,100000")
    args = parser.parse_args()
    header = f"{'messages':>9} {'MB':>6} {'orjson':>8} {'load':>8} {'x':>6} {'summary':>8} {'validate':>9}"
    print(f"{header} {'x':>6}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            path = Path(tmp) / f"s{size}.json"
            path.write_bytes(orjson.dumps(generate(size)))
            session = toolhist.load(str(path))
            floor = median_time(partial(parse_file, path), args.runs)
            load = median_time(partial(toolhist.load, str(path)), args.runs)
            summ = median_time(partial(toolhist.summarize, session), args.runs)
            val = median_time(partial(validate, session, "openai-chat"), args.runs)
            mb = path.stat().st_size / 1e6
            row = f"{size:>9} {mb:>6.1f} {floor:>8.3f} {load:>8.3f} {load / floor:>6.1f}"
            row += f" {summ:>8.3f} {val:>9.3f}"
            print(f"{row} {(load + val) / floor:>6.1f}")


if __name__ == "__main__":
    main()
