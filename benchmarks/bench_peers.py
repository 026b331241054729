"""``toolhist compare`` on one history, beside the time the real libraries take for the same request.

For each provider, the median of N runs of:

- ``compare``: `toolhist.curation.compare.compare` with one strategy (curate, render, validate);
- ``library``: the real library alone building its request in its worker (`toolhist.peers.run.ask`
  with the job already made), i.e. what LiteLLM / the Agents SDK cost by themselves;
- ``port``: the same comparison with the old port (``litellm-port`` / ``openai-agents-port``).

The first call starts the worker (importing LiteLLM takes seconds); that start-up is printed apart.
The AI SDK (``vercel-ai`` / ``vercel-ai-model``, a port proven against the real one in
``tests/peers/test_aisdk_differential.py``) follows: ``compare`` with the port beside the real SDK
under node (``tests/js/harness.mjs``): node's start-up apart, then per request in one batch.
Run: ``.venv/bin/python benchmarks/bench_peers.py [--runs 5] [--file sample_logs/...]``
(needs ``toolhist peers install``). Figures only; no test asserts on time.
"""

from __future__ import annotations

import argparse
import sys
import time
from functools import partial
from pathlib import Path

import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)
from bench_load import median_time

from toolhist.curation.compare import compare
from toolhist.model import Session
from toolhist.peers import run
from toolhist.peers.strategies import ROUTES, VIA_LITELLM, _agents_via_litellm, job
from toolhist.readers import load

PORTS = {"litellm": "litellm-port", "openai-agents": "openai-agents-port"}


def library_alone(strategy: str, session: Session, provider: str) -> None:
    """The worker round trip(s) only: the Agents SDK's chat body, then LiteLLM, for `VIA_LITELLM`."""
    if strategy == "openai-agents" and provider in VIA_LITELLM:
        _agents_via_litellm([session], provider)
    else:
        run.ask(strategy, [job(strategy, session, provider)])


def main() -> None:
    """Print one line per strategy and provider."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--file", default="sample_logs/provider_switch_duplicate_results.json")
    args = parser.parse_args()
    session = load(args.file)
    print(f"{args.file}: {len(session.messages)} messages, median of {args.runs} runs")
    for strategy, providers in ROUTES.items():
        started = time.perf_counter()
        run.worker(strategy)
        print(f"{strategy}: worker start {time.perf_counter() - started:.2f} s ({run.version(strategy)})")
        for provider in providers:
            library = median_time(partial(library_alone, strategy, session, provider), args.runs)
            whole = median_time(partial(compare, session, provider, [strategy]), args.runs)
            port = median_time(partial(compare, session, provider, [PORTS[strategy]]), args.runs)
            print(
                f"  {provider:<17} compare {whole * 1000:8.1f} ms   library alone {library * 1000:8.1f} ms"
                f"   port compare {port * 1000:8.1f} ms"
            )
    ai_sdk(session, args.runs)


def ai_sdk(session: Session, runs: int) -> None:
    """The AI SDK port (``compare``) beside the real SDK under node, per route and provider."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "peers"))
    from ai_sdk import model_messages, run_js, tools_of, ui_messages

    started = time.perf_counter()
    versions, _ = run_js([])
    start = time.perf_counter() - started
    print(f"AI SDK: node start-up {start:.2f} s ({', '.join(f'{k} {v}' for k, v in versions.items())})")
    for route, strategy, convert in (
        ("ui", "vercel-ai", ui_messages),
        ("model", "vercel-ai-model", model_messages),
    ):
        for provider in ("openai-chat", "openai-responses", "anthropic"):
            job = {
                "route": route,
                "provider": provider,
                "messages": convert(session),
                "tools": tools_of(session),
            }
            began = time.perf_counter()
            run_js([job] * runs)
            real = max(time.perf_counter() - began - start, 0.0) / runs
            port = median_time(partial(compare, session, provider, [strategy]), runs)
            print(
                f"  {strategy:<16} {provider:<17} port compare {port * 1000:8.1f} ms"
                f"   AI SDK {real * 1000:8.1f} ms"
            )


if __name__ == "__main__":
    main()
