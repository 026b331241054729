"""``toolhist sessions`` on 1,000 generated sessions across agents: the listing, and with verdicts.

The sessions are the bundled agent samples grown to sizes spread log-uniformly from 10 kB to 2 MB
(their message records repeated), each placed where its agent writes it, in a temporary home:
Claude Code 300, Codex 250, Gemini CLI 100, VS Code 100, Cline 80, Roo 60, Kilo 60, llxprt 50.
Prints the median of N listings (headers only, as ``toolhist sessions`` does by default) and one
run with verdicts (every file read whole and checked on the provider it ran on). The files were
just written, so they are in the page cache: a first listing after a reboot also waits for the disk.
Run: ``.venv/bin/python benchmarks/bench_sessions.py [--runs 5] [--sessions 1000]``.
Figures only; no test asserts on time.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)

from toolhist.machine import judge, list_sessions

SAMPLES = Path(__file__).resolve().parents[1] / "sample_logs"
SHARE = {
    "claude-code": 300,
    "codex": 250,
    "gemini-cli": 100,
    "vscode": 100,
    "cline": 80,
    "roo": 60,
    "kilo": 60,
    "llxprt": 50,
}


def _grow_lines(sample: str, size: int, keep: int) -> bytes:
    """The sample's first ``keep`` lines, then its other lines repeated until ``size`` bytes."""
    lines = (SAMPLES / sample).read_bytes().splitlines(keepends=True)
    head, body = lines[:keep], lines[keep:]
    out = b"".join(head)
    while len(out) < size:
        out += b"".join(body)
    return out


def _grow_array(sample: str, size: int) -> bytes:
    items: list[Any] = json.loads((SAMPLES / sample).read_bytes())
    one = len(json.dumps(items))
    return json.dumps(items * max(1, size // one)).encode()


def _grow_vscode(size: int) -> bytes:
    session = json.loads((SAMPLES / "vscode_rejected_tool.json").read_bytes())
    one = len(json.dumps(session, indent=2))
    session["requests"] = session["requests"] * max(1, size // one)
    return json.dumps(session, indent=2).encode()


def _grow_checkpoint(size: int) -> bytes:
    saved = json.loads((SAMPLES / "llxprt_checkpoint_cancelled_shell.json").read_bytes())
    one = len(json.dumps(saved, indent=2))
    saved["history"] = saved["history"] * max(1, size // one)
    return json.dumps(saved, indent=2).encode()


MAKERS: dict[str, Callable[[int, int], tuple[str, bytes]]] = {
    "claude-code": lambda i, size: (
        f".claude/projects/-home-dev-p{i % 40}/{i:08x}-0000-4000-8000-000000000000.jsonl",
        _grow_lines("claude_code_compacted_result.jsonl", size, 2),
    ),
    "codex": lambda i, size: (
        f".codex/sessions/2026/0{1 + i % 9}/{10 + i % 18}/rollout-2026-01-01T00-00-00-{i:08x}.jsonl",
        _grow_lines("codex_rollout_interrupted.jsonl", size, 3),
    ),
    "gemini-cli": lambda i, size: (
        f".gemini/tmp/project-{i % 10}/chats/session-2026-01-01T00-00-{i:08x}.jsonl",
        _grow_lines("gemini_cli_session.jsonl", size, 1),
    ),
    "vscode": lambda i, size: (
        f".config/Code/User/workspaceStorage/{i % 20:032x}/chatSessions/{i:08x}.json",
        _grow_vscode(size),
    ),
    "cline": lambda i, size: (
        f".cline/data/tasks/{i}/api_conversation_history.json",
        _grow_array("kilo_native_session.json", size),
    ),
    "roo": lambda i, size: (
        f".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/tasks/{i:08x}/api_conversation_history.json",
        _grow_array("kilo_xml_era.json", size),
    ),
    "kilo": lambda i, size: (
        f".config/Code/User/globalStorage/kilocode.kilo-code/tasks/{i:08x}/api_conversation_history.json",
        _grow_array("kilo_native_session.json", size),
    ),
    "llxprt": lambda i, size: (f".llxprt/tmp/{i % 5:064x}/checkpoint-{i}.json", _grow_checkpoint(size)),
}


def make_home(home: Path, sessions: int, seed: int = 7) -> int:
    """Write ``sessions`` sessions (scaled from `SHARE`) under ``home``; returns the bytes written."""
    rng = random.Random(seed)
    total = sum(SHARE.values())
    written = 0
    i = 0
    for agent, share in SHARE.items():
        for _ in range(round(sessions * share / total)):
            size = int(10_000 * 200 ** rng.random())  # 10 kB to 2 MB, log-uniform
            rel, data = MAKERS[agent](i, size)
            path = home / rel
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
            when = 1_767_225_600 + rng.randrange(30 * 86_400)
            os.utime(path, (when, when))
            written += len(data)
            if agent in ("roo", "kilo"):  # the request log that names the API protocol
                api = json.dumps({"apiProtocol": "anthropic" if agent == "roo" else "openai"})
                log = [{"ts": when, "type": "say", "say": "api_req_started", "text": api}]
                (path.parent / "ui_messages.json").write_text(json.dumps(log))
            i += 1
    return written


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sessions", type=int, default=1000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp)
        written = make_home(home, args.sessions)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            rows = list_sessions(home)
            times.append(time.perf_counter() - start)
        agents = Counter(row.agent for row in rows)
        print(f"{len(rows)} sessions, {written / 1e6:.0f} MB: {dict(agents)}")
        print(f"listing (headers):  median {statistics.median(times):.3f} s of {args.runs} runs")
        start = time.perf_counter()
        judged = [judge(row) for row in rows]
        spent = time.perf_counter() - start
        verdicts = Counter(row.verdict or row.problem for row in judged)
        print(f"with verdicts:      {spent:.1f} s once ({spent / len(rows) * 1000:.0f} ms a session)")
        print(f"verdicts: {dict(verdicts)}")
        estimated = sum(row.counted == "estimate" for row in rows)
        off = [
            abs(a.messages - b.messages) / max(1, b.messages)
            for a, b in zip(rows, judged, strict=True)
            if a.messages and b.messages
        ]
        median = statistics.median(off)
        print(f"message counts: {estimated} estimated from the head; median off the reader's by {median:.0%}")


if __name__ == "__main__":
    main()
