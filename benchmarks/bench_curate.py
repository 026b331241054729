"""Curation cost: the reference strategy against loading the same file, per provider.

Prints, for generated OpenAI Chat sessions of 1k, 5k and 10k messages (damaged: every 7th result
dropped, every 11th duplicated, so every pass has work): ``toolhist.load``, then ``curate`` and
``render(strategy="toolhist")`` for each provider, each the median of N runs, with the ratio to the
load. Run: ``.venv/bin/python benchmarks/bench_curate.py [--runs 5]``. Figures only.
"""

from __future__ import annotations

import argparse
from typing import Any

import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)
from bench_load import generate, median_time

import toolhist
from toolhist.providers import PROVIDERS, render


def damaged(n: int) -> dict[str, Any]:
    """A generated body with unanswered calls and duplicated results."""
    body = generate(n)
    out: list[Any] = []
    tools = 0
    for message in body["messages"]:
        if message.get("role") == "tool":
            tools += 1
            if tools % 7 == 0:
                continue
            if tools % 11 == 0:
                out.append(message)
        out.append(message)
    return {**body, "messages": out}


def main() -> None:
    """Print the figures for each size."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="*", default=[1000, 5000, 10000])
    args = parser.parse_args()
    for n in args.sizes:
        body = damaged(n)
        load = median_time(lambda body=body: toolhist.load(body), args.runs)  # type: ignore[misc]
        session = toolhist.load(body)
        print(f"{len(session.messages):>6} messages  load {load * 1000:8.1f} ms")
        for provider in PROVIDERS:
            cur = median_time(lambda p=provider, s=session: toolhist.curate(s, p), args.runs)  # type: ignore[misc]
            ren = median_time(lambda p=provider, s=session: render(s, p, strategy="toolhist"), args.runs)  # type: ignore[misc]
            print(
                f"        {provider:<17} curate {cur * 1000:8.1f} ms ({cur / load:5.1f}x load)"
                f"   curate+render {ren * 1000:8.1f} ms ({ren / load:5.1f}x load)"
            )


if __name__ == "__main__":
    main()
