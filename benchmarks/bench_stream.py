"""Streaming a large llxprt debug log: peak memory and time for ``toolhist.load(path)``.

Generates a realistic debug JSONL of about ``--mb`` megabytes (default 200) in a temp dir: a coding
session whose HistoryService lines describe every history entry, a ``[OpenAIVercelProvider] Chat
payload snapshot`` before each model turn (every snapshot repeats the history so far as previews,
which is what makes real debug logs big), and provider / chat noise lines. The load runs in a fresh
subprocess so its peak RSS (``resource.getrusage`` maxrss) is the reader's alone; the budget is
1 GB. Run: ``.venv/bin/python benchmarks/bench_stream.py [--mb 200]``. Figures only.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, TextIO

BUDGET_MB = 1024


def _line(out: TextIO, namespace: str, message: str, *args: Any) -> int:
    entry: dict[str, Any] = {
        "timestamp": "2025-12-19T10:45:15.123Z",
        "namespace": namespace,
        "level": "debug",
        "message": message,
    }
    if args:
        entry["args"] = list(args)
    text = json.dumps(entry, separators=(",", ":")) + "\n"
    out.write(text)
    return len(text.encode())


def _add(out: TextIO, speaker: str, types: list[str], calls: list[str], resps: list[str]) -> int:
    return _line(
        out,
        "llxprt:history:service",
        "Adding content to history:",
        {
            "speaker": speaker,
            "blockTypes": types,
            "toolCallIds": calls,
            "toolResponseIds": [{"callId": c, "toolName": "read_file"} for c in resps],
            "contentId": None,
            "modelName": "gpt-4.1",
        },
    )


def generate(path: Path, target_bytes: int) -> tuple[int, int]:
    """Write the log; return (history entries, snapshots)."""
    previews: list[dict[str, str]] = []
    written = entries = snapshots = turn = 0
    with path.open("w", encoding="utf-8") as out:
        while written < target_bytes:
            written += _add(out, "human", ["text"], [], [])
            entries += 1
            previews.append(
                {"role": "user", "contentPreview": f"Step {turn}: fix the failing test " + "x" * 120}
            )
            for step in range(3):
                snapshot = {"messageCount": len(previews), "messages": previews[-1500:]}
                written += _line(
                    out,
                    "llxprt:provider:openaivercel",
                    "[OpenAIVercelProvider] Chat payload snapshot",
                    snapshot,
                )
                snapshots += 1
                call = f"hist_tool_{turn:06d}{step}abcdefgh"
                written += _add(out, "ai", ["text", "tool_call"], [call], [])
                written += _add(out, "tool", ["tool_response"], [], [call])
                entries += 2
                part = json.dumps(
                    {
                        "type": "tool-call",
                        "toolCallId": call,
                        "toolName": "read_file",
                        "input": {"p": "a.py"},
                    },
                    separators=(",", ":"),
                )
                previews.append(
                    {"role": "assistant", "contentPreview": ("Reading.\n" + part)[:200] + "\u2026"}
                )
                previews.append(
                    {"role": "tool", "contentPreview": ('{"type":"tool-result","toolCallId":"' + call)}
                )
                for _ in range(4):
                    written += _line(
                        out, "llxprt:gemini:chat", "stream chunk", {"chars": 512, "text": "y" * 400}
                    )
            written += _add(out, "ai", ["text"], [], [])
            entries += 1
            turn += 1
    return entries, snapshots


CHILD = """
import resource, sys, time
t0 = time.perf_counter()
import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)
import toolhist
session = toolhist.load(sys.argv[1])
elapsed = time.perf_counter() - t0
peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(len(session.messages), len(session.metadata["requests"]), f"{elapsed:.2f}", peak_kb)
"""


def main() -> None:
    """Generate the log, load it in a child process, print size, time and peak memory."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mb", type=int, default=200, help="size of the generated log in MB")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "llxprt-debug-2025-12-19-10-45-15.jsonl"
        t0 = time.perf_counter()
        entries, snapshots = generate(path, args.mb * 1024 * 1024)
        size_mb = os.path.getsize(path) / 1024 / 1024
        print(
            f"generated {size_mb:.0f} MB: {entries} history entries, {snapshots} snapshots "
            f"in {time.perf_counter() - t0:.1f} s"
        )
        baseline = subprocess.run(
            [
                sys.executable,
                "-c",
                "import resource, toolhist; print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)",
            ],
            capture_output=True,
            text=True,
            check=True,
        )
        result = subprocess.run(
            [sys.executable, "-c", CHILD, str(path)], capture_output=True, text=True, check=True
        )
        messages, requests, seconds, peak_kb = result.stdout.split()
        peak_mb = int(peak_kb) / 1024
        base_mb = int(baseline.stdout) / 1024
        print(
            f"toolhist.load: {messages} messages, {requests} requests indexed, {seconds} s "
            f"({size_mb / float(seconds):.0f} MB/s)"
        )
        print(
            f"peak RSS: {peak_mb:.0f} MB (import alone: {base_mb:.0f} MB); budget {BUDGET_MB} MB: "
            f"{'within' if peak_mb < BUDGET_MB else 'OVER'}"
        )


if __name__ == "__main__":
    main()
