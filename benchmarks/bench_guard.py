"""The guard's cost per request: what `toolhist.guard` adds to one ``chat.completions.create`` call.

For a generated agent history (`generate.generate`, an OpenAI Chat body with the seed failure modes
in it) of 100, 1,000 and 10,000 messages, this times in the same process:

- ``sdk``: the openai SDK building and sending the request through a transport that answers at
  once (``httpx2.MockTransport``: no network, so what is timed is the SDK's own work: argument
  handling, JSON encoding, the request object, parsing the answer);
- ``warn``: the same call with the guard's transport in ``warn`` mode around that transport (the
  body parsed and checked for its provider; violations go to a logger that is switched off here,
  as a quiet production logger would be);
- ``repair``: the same in ``repair`` mode, which also curates the history and sends the curation;
- ``own``: the guard's own work on that body alone (``Guard.before``: parse, check, log), which is
  what ``warn`` adds; the end-to-end difference ``warn - sdk`` is printed too, but on a busy
  machine it is within the noise of the SDK's own time, so the share is taken from ``own``.

The calls are interleaved run by run, so a load change on the machine hits all of them. It prints
medians of N runs and ``own`` as a share of ``sdk``. The goal (issue 20) is under 5% of the SDK's
request building at 1,000 messages. Figures only; no test asserts on time.
Run: ``.venv/bin/python benchmarks/bench_guard.py [--runs 7]``.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import Any

import httpx2
import openai
import orjson
import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)
from generate import generate

from toolhist import guard
from toolhist.guard.core import Guard

OK = {
    "id": "chatcmpl-bench",
    "object": "chat.completion",
    "created": 0,
    "model": "gpt-4.1",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
}


def _answer(request: httpx2.Request) -> httpx2.Response:
    request.read()
    return httpx2.Response(200, json=OK)


def _client(http: Any) -> openai.OpenAI:
    return openai.OpenAI(api_key="bench", base_url="http://bench.invalid/v1", max_retries=0, http_client=http)


def _create(client: openai.OpenAI, body: dict[str, Any]) -> object:
    return client.chat.completions.create(**body)


def medians(fns: list[Callable[[], object]], runs: int) -> list[float]:
    """Median wall time of each function over ``runs`` interleaved rounds, after one warm-up each."""
    for fn in fns:
        fn()
    times: list[list[float]] = [[] for _ in fns]
    for _ in range(runs):
        for fn, kept in zip(fns, times, strict=True):
            start = time.perf_counter()
            fn()
            kept.append(time.perf_counter() - start)
    return [statistics.median(kept) for kept in times]


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--sizes", default="100,1000,10000")
    args = parser.parse_args()
    logging.getLogger("toolhist.guard").disabled = True
    print(f"openai {openai.__version__}; medians of {args.runs} runs; the transport answers at once")
    heads = ("sdk", "warn", "repair", "warn-sdk")
    print(f"{'messages':>8}  " + "  ".join(f"{h:>9}" for h in heads) + f"  {'own':>8}  {'own/sdk':>7}")
    for size in (int(s) for s in args.sizes.split(",")):
        body = generate(size)
        plain = _client(httpx2.Client(transport=httpx2.MockTransport(_answer)))
        warn = _client(guard.http_client("warn", transport=httpx2.MockTransport(_answer)))
        repair = _client(guard.http_client("repair", transport=httpx2.MockTransport(_answer)))
        raw = orjson.dumps(body)
        own = Guard(mode="warn")
        runs = args.runs if size < 10_000 else max(3, args.runs // 2)
        calls: list[Callable[[], object]] = [
            partial(_create, plain, body),
            partial(_create, warn, body),
            partial(_create, repair, body),
            partial(own.before, "openai-chat", raw),
        ]
        t_sdk, t_warn, t_repair, t_own = medians(calls, runs)
        print(
            f"{size:>8}  {t_sdk * 1e3:>7.1f}ms  {t_warn * 1e3:>7.1f}ms  {t_repair * 1e3:>7.1f}ms"
            f"  {(t_warn - t_sdk) * 1e3:>7.1f}ms  {t_own * 1e3:>6.2f}ms  {t_own / t_sdk:>7.2%}"
        )


if __name__ == "__main__":
    main()
