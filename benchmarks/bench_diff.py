"""``toolhist.diff`` cost on generated sessions of 1k, 5k and 10k messages.

Three edits of the same canonical session, each the median of N runs:

- ``same``: the session against itself (hashing and the prefix fast path);
- ``edits``: what a repair does: every 50th result dropped, a synthetic result inserted every 40
  messages, every 30th result moved two places later;
- ``ids``: every tool id rewritten (every call and result message changes; the loose stages work).

Run: ``.venv/bin/python benchmarks/bench_diff.py [--runs 5] [--sizes 1000,5000,10000]``.
Figures only; no test asserts on time.
"""

from __future__ import annotations

import argparse
import random

import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)
from bench_load import median_time

from toolhist.diff import diff
from toolhist.model import (
    Message,
    MessageMetadata,
    Session,
    SessionSource,
    TextBlock,
    ToolCallBlock,
    ToolResponseBlock,
)


def generate(n_messages: int, seed: int = 7) -> Session:
    """A canonical session of ``n_messages``: user turns, parallel calls, results, closing text."""
    rng = random.Random(seed)
    messages: list[Message] = [Message(speaker="system", blocks=(TextBlock(text="You are a coding agent."),))]
    k = 0
    while len(messages) < n_messages:
        words = "lorem ipsum " * rng.randint(2, 20)
        messages.append(Message(speaker="human", blocks=(TextBlock(text=f"step {k}: {words}"),)))
        for r in range(rng.randint(1, 3)):
            calls = tuple(
                ToolCallBlock(
                    id=f"call_{k}_{r}_{j}",
                    raw_id=f"call_{k}_{r}_{j}",
                    name=rng.choice(["read_file", "grep", "sh"]),
                    parameters={"path": f"src/m{j}.py", "n": j},
                )
                for j in range(rng.randint(1, 3))
            )
            messages.append(Message(speaker="ai", blocks=calls))
            messages.extend(
                Message(
                    speaker="tool",
                    blocks=(
                        ToolResponseBlock(call_id=c.id, tool_name=c.name, result="x" * rng.randint(20, 400)),
                    ),
                )
                for c in calls
            )
        messages.append(Message(speaker="ai", blocks=(TextBlock(text="done " * rng.randint(1, 30)),)))
        k += 1
    return Session(messages=tuple(messages[:n_messages]), source=SessionSource(format="toolhist"))


def repaired(session: Session) -> Session:
    """Drops, synthetic inserts and moves, as a curation would make them."""
    out: list[Message] = []
    results = 0
    held: list[Message] = []
    for n, message in enumerate(session.messages):
        if message.speaker == "tool":
            results += 1
            if results % 50 == 0:
                continue  # dropped
            if results % 30 == 0:
                held.append(message)  # moved two places later
                continue
        out.append(message)
        if len(out) % 2 == 0 and held:
            out.extend(held)
            held.clear()
        if n % 40 == 0:
            synthetic = ToolResponseBlock(call_id=f"synthetic_{n}", result="cancelled", is_complete=False)
            meta = MessageMetadata(synthetic=True, reason="closes an unanswered call")
            out.append(Message(speaker="tool", blocks=(synthetic,), metadata=meta))
    out.extend(held)
    return session.model_copy(update={"messages": tuple(out)})


def rewritten(session: Session) -> Session:
    """Every tool id rewritten, as a canonical-id strategy does."""
    messages = []
    for message in session.messages:
        blocks = tuple(
            b.model_copy(update={"id": "hist_tool_" + b.id})
            if isinstance(b, ToolCallBlock)
            else b.model_copy(update={"call_id": "hist_tool_" + b.call_id})
            if isinstance(b, ToolResponseBlock)
            else b
            for b in message.blocks
        )
        messages.append(message.model_copy(update={"blocks": blocks}))
    return session.model_copy(update={"messages": tuple(messages)})


def main() -> None:
    """Print one table row per size."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1000,5000,10000")
    args = parser.parse_args()
    print(f"{'messages':>9} {'same':>8} {'edits':>8} {'ids':>8}   (seconds, median of {args.runs})")
    for size in (int(s) for s in args.sizes.split(",")):
        base = generate(size)
        edited, renamed = repaired(base), rewritten(base)
        same = median_time(lambda: diff(base, base), args.runs)  # noqa: B023 - timed right here
        edits = median_time(lambda: diff(base, edited), args.runs)  # noqa: B023
        ids = median_time(lambda: diff(base, renamed), args.runs)  # noqa: B023
        print(f"{size:>9} {same:>8.3f} {edits:>8.3f} {ids:>8.3f}")


if __name__ == "__main__":
    main()
