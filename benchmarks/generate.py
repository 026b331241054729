"""Realistic generated sessions for the scale benchmarks: an agent's OpenAI Chat request body.

What a long coding-agent session looks like on disk, so the figures mean something:

- user turns, each followed by 1 to 4 assistant steps of 1 to 4 parallel tool calls, then a reply;
- tool results of realistic sizes (a short ``ok`` to a few KB of file content), some of them errors;
- the seed failure modes (``research/`` and ``seeds/``), each at a steady rate so every curation
  pass has work at every size: a result recorded twice (duplicate), a call never answered
  (unanswered, e.g. after a cancel), and results written in another order than their calls
  (out-of-order, from parallel execution) or after the next user message.

Deterministic for a seed. ``python benchmarks/generate.py 10000 out.json`` writes one.
"""

from __future__ import annotations

import argparse
import random
import string
from pathlib import Path
from typing import Any

import orjson

TOOLS = ("read_file", "grep", "run_shell", "edit_file", "list_dir", "web_fetch")
"""Tool names an agent typically declares."""

ERRORS = (
    "No such file or directory",
    "exit status 1\nAssertionError: expected 3, got 4",
    "timeout after 30s",
)
WORDS = ("fix", "the", "failing", "test", "in", "module", "please", "and")

SIZES = (1_000, 10_000, 100_000)
"""The history sizes the scale benchmark reports."""


def _declarations() -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": name,
                "description": f"The {name.replace('_', ' ')} tool.",
                "parameters": {
                    "type": "object",
                    "properties": {"path": {"type": "string"}, "pattern": {"type": "string"}},
                    "required": ["path"],
                },
            },
        }
        for name in TOOLS
    ]


def _call_id(rng: random.Random) -> str:
    """An OpenAI-shaped id (``call_`` + 24 characters)."""
    return "call_" + "".join(rng.choices(string.ascii_letters + string.digits, k=24))


def _arguments(rng: random.Random, name: str, k: int) -> str:
    args: dict[str, Any] = {"path": f"src/pkg{k % 17}/module_{rng.randint(0, 400)}.py"}
    if name == "grep":
        args["pattern"] = rng.choice(["def main", "TODO", "import os", r"class \w+"])
    elif name == "run_shell":
        args = {"command": rng.choice(["pytest -x -q", "ruff check .", "git status", "make build"])}
    elif name == "edit_file":
        args["diff"] = "@@ -1,3 +1,4 @@\n+import sys\n" + " line\n" * rng.randint(1, 30)
    return orjson.dumps(args).decode()


def _result(rng: random.Random, name: str) -> str:
    roll = rng.random()
    if roll < 0.08:
        return f"Error: {name} failed: " + rng.choice(
            [
                "No such file or directory",
                "exit status 1\nAssertionError: expected 3, got 4",
                "timeout after 30s",
            ]
        )
    if name == "read_file":
        return "".join(f"{i:>4}  x = compute(y, {i})  # line\n" for i in range(rng.randint(5, 120)))
    if name == "grep":
        return "\n".join(f"src/m{i}.py:{rng.randint(1, 900)}: match" for i in range(rng.randint(0, 25)))
    return rng.choice(["ok", "done", "All checks passed!", "3 passed in 0.41s"]) + " " * rng.randint(0, 40)


def generate(n_messages: int, seed: int = 7) -> dict[str, Any]:
    """An OpenAI Chat request body of exactly ``n_messages`` messages with the seed failure modes.

    Rates (per tool result): 1 in 40 duplicated, 1 in 50 calls left unanswered, 1 in 25 parallel
    batches answered in reverse order, 1 in 60 batches whose last result lands after the next
    user message.
    """
    rng = random.Random(seed)
    messages: list[dict[str, Any]] = [
        {"role": "system", "content": "You are a coding agent. Use the tools; be brief."}
    ]
    late: list[dict[str, Any]] = []
    k = 0
    while len(messages) < n_messages:
        words = " ".join(
            rng.choices(["fix", "the", "failing", "test", "in", "module", "please", "and"], k=12)
        )
        messages.append({"role": "user", "content": f"Step {k}: {words}"})
        messages.extend(late)
        late = []
        for _ in range(rng.randint(1, 4)):
            calls: list[dict[str, Any]] = []
            names: list[str] = []
            for _j in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
                name = rng.choice(TOOLS)
                names.append(name)
                calls.append(
                    {
                        "id": _call_id(rng),
                        "type": "function",
                        "function": {"name": name, "arguments": _arguments(rng, name, k)},
                    }
                )
            thought = "Let me look." if rng.random() < 0.3 else None
            messages.append({"role": "assistant", "content": thought, "tool_calls": calls})
            results = [
                {"role": "tool", "tool_call_id": c["id"], "content": _result(rng, name)}
                for c, name in zip(calls, names, strict=True)
                if rng.random() >= 1 / 50  # unanswered
            ]
            if len(results) > 1 and rng.random() < 1 / 25:
                results.reverse()  # out of order
            if len(results) > 1 and rng.random() < 1 / 60:
                late.append(results.pop())  # after the next user message
            for r in results:
                messages.append(r)
                if rng.random() < 1 / 40:
                    messages.append(dict(r))  # duplicate
        messages.append({"role": "assistant", "content": "Done: " + " ".join(["ok"] * rng.randint(1, 30))})
        k += 1
    return {"model": "gpt-4.1", "tools": _declarations(), "messages": messages[:n_messages]}


def write(n_messages: int, path: Path, seed: int = 7) -> Path:
    """Write a generated body to ``path`` (compact JSON, as agents write it) and return the path."""
    path.write_bytes(orjson.dumps(generate(n_messages, seed)))
    return path


def main() -> None:
    """Write one generated session: ``generate.py N OUT``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("messages", type=int)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    write(args.messages, args.out, args.seed)
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.1f} MB")


if __name__ == "__main__":
    main()
