"""What the 10x target leaves room for: a dict-native sketch of the pipeline beside toolhist's.

Issue 10 asks for the whole pipeline on 10,000 messages within 10x of parsing the same file with
orjson. toolhist is far from that (``bench_scale.py``). This script answers the question that
decides what to do about it: is the target out of reach for any Python implementation, or only for
toolhist's present core (one frozen pydantic object per block, a source map of every payload path,
a `Change` with provenance for every rewrite)?

The sketch does the least work each stage must do, on plain dicts from ``orjson.loads``:

- ``load``: the parse, then one small tuple per message and per tool call (the canonical walk);
- ``validate``: per provider, a Chat-shaped body (a new dict per message and per call), then a
  pairing scan over it (calls answered, results matched);
- ``curate``: per provider, a repair of the generated failure modes (duplicate results dropped,
  late or reordered results moved behind their call, unanswered calls given a result) with every
  id made canonical, and a tuple recorded per change (the least a `Change` can be);
- ``render``: per provider, the curated history as a body again;
- ``pipeline``: load, then for each provider all three; ``pipeline, 1 provider`` the same for
  openai-chat alone (toolhist: ``validate``, ``curate`` and ``render_curation``).

It models none of what users read in toolhist's output (exact error texts, payload paths, source
maps, Changes, per-provider formats), so it is a lower bound, not a competitor. Printed: each stage
of the sketch and of toolhist (``bench_scale``'s functions, same file, same run), both as ratios to
the floor. The sketch runs with the cyclic garbage collector paused, as toolhist's entry points do
(`toolhist._gc`), so both are measured alike. Figures only; no test asserts on time. Run:
``.venv/bin/python benchmarks/bench_sketch.py [--size 10000] [--runs 5]``.
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path
from typing import Any

import orjson
import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)

import toolhist
from toolhist._gc import paused
from toolhist.providers import PROVIDERS, render_curation, validate

Body = list[dict[str, Any]]


@paused
def load(path: Path) -> list[tuple[str, Any, tuple[tuple[str, str, str], ...], str | None]]:
    """Parse, then one tuple per message (role, content, calls, answered id) and per call."""
    out = []
    for m in orjson.loads(path.read_bytes())["messages"]:
        calls = tuple(
            (c["id"], c["function"]["name"], c["function"]["arguments"]) for c in m.get("tool_calls") or ()
        )
        out.append((m["role"], m.get("content"), calls, m.get("tool_call_id")))
    return out


History = list[tuple[str, Any, tuple[tuple[str, str, str], ...], str | None]]


def body(history: History) -> Body:
    """A Chat-shaped body: a new dict per message and per call."""
    out: Body = []
    for role, content, calls, answered in history:
        msg: dict[str, Any] = {"role": role, "content": content}
        if calls:
            msg["tool_calls"] = [
                {"id": i, "type": "function", "function": {"name": n, "arguments": a}} for i, n, a in calls
            ]
        if answered is not None:
            msg["tool_call_id"] = answered
        out.append(msg)
    return out


def pairing(messages: Body) -> int:
    """Findings of a pairing scan: results without their call right before, calls left unanswered."""
    findings = 0
    open_calls: set[str] = set()
    for msg in messages:
        if msg["role"] == "tool":
            if msg["tool_call_id"] not in open_calls:
                findings += 1
            open_calls.discard(msg["tool_call_id"])
        else:
            findings += len(open_calls)
            open_calls = {c["id"] for c in msg.get("tool_calls", ())}
    return findings


def curate(history: History) -> tuple[History, list[tuple[str, int, str]]]:
    """Each call followed by exactly one result for it, in call order, every id canonical.

    Duplicates and strays are dropped, a missing result is synthesised; each of those and each id
    rewrite is recorded as ``(what, message, id)``.
    """
    changes: list[tuple[str, int, str]] = []
    results: dict[str, tuple[int, Any]] = {}
    for m, (role, content, _calls, answered) in enumerate(history):
        if role == "tool" and answered is not None:
            if answered in results:
                changes.append(("drop duplicate", m, answered))
            else:
                results[answered] = (m, content)
    out: History = []
    for m, (role, content, calls, _answered) in enumerate(history):
        if role == "tool":
            continue
        canonical = []
        for call_id, name, args in calls:
            new = "hist_tool_" + call_id.removeprefix("call_")
            changes.append(("canonical id", m, call_id))
            canonical.append((new, name, args))
        out.append((role, content, tuple(canonical), None))
        for (call_id, _name, _args), (new, _n, _a) in zip(calls, canonical, strict=True):
            found = results.pop(call_id, None)
            if found is None:
                changes.append(("synthesise result", m, call_id))
                out.append(("tool", "Error: no result was recorded", (), new))
            else:
                if found[0] != m + 1:
                    changes.append(("move result", found[0], call_id))
                out.append(("tool", found[1], (), new))
    changes.extend(("drop orphan", m, call_id) for call_id, (m, _) in results.items())
    return out, changes


@paused
def sketch_validate(history: History) -> int:
    """Seven Chat-shaped bodies, each scanned for pairing."""
    return sum(pairing(body(history)) for _ in PROVIDERS)


@paused
def sketch_curate(history: History) -> int:
    """Seven curations."""
    return sum(len(curate(history)[1]) for _ in PROVIDERS)


@paused
def sketch_render(history: History) -> int:
    """Seven bodies, serialised."""
    return sum(len(orjson.dumps(body(history))) for _ in PROVIDERS)


@paused
def sketch_pipeline(path: Path, providers: int = len(PROVIDERS)) -> int:
    """Load, then validate, curate and render the curation, for each of ``providers`` providers."""
    history = load(path)
    n = 0
    for _ in range(providers):
        n += pairing(body(history))
        curated, changes = curate(history)
        n += len(changes) + len(orjson.dumps(body(curated)))
    return n


@paused
def one_provider(path: Path) -> int:
    """The pipeline of toolhist for one provider (openai-chat): validate, curate, render the curation."""
    session = toolhist.load(str(path))
    curation = toolhist.curate(session, "openai-chat", strategy="toolhist")
    return (
        len(validate(session, "openai-chat"))
        + len(curation.changes)
        + len(orjson.dumps(render_curation(curation).body))
    )


def main() -> None:
    """Print the sketch and toolhist per stage, each beside the floor."""
    # Sibling scripts, importable when this one is run as a script (tests use the sketch alone).
    from bench_scale import curate_all, floor, median, pipeline, render_all, validate_all
    from generate import write

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = write(args.size, Path(tmp) / "session.json")
        history = load(path)
        session = toolhist.load(str(path))
        f = median(lambda: floor(path), args.runs)
        rows = {
            "load": (
                median(lambda: load(path), args.runs),
                median(lambda: toolhist.load(str(path)), args.runs),
            ),
            "validate": (
                median(lambda: sketch_validate(history), args.runs),
                median(lambda: validate_all(session.model_copy()), args.runs),
            ),
            "curate": (
                median(lambda: sketch_curate(history), args.runs),
                median(lambda: curate_all(session.model_copy()), args.runs),
            ),
            "render": (
                median(lambda: sketch_render(history), args.runs),
                median(lambda: render_all(session.model_copy()), args.runs),
            ),
            "pipeline": (
                median(lambda: sketch_pipeline(path), args.runs),
                median(lambda: pipeline(path), args.runs),
            ),
            "pipeline, 1 provider": (
                median(lambda: sketch_pipeline(path, 1), args.runs),
                median(lambda: one_provider(path), args.runs),
            ),
        }
    print(
        f"{args.size} messages, {len(PROVIDERS)} providers, medians of {args.runs} runs;"
        f" floor (orjson parse) {f * 1000:.1f} ms; x = ratio to the floor"
    )
    print(f"  {'stage':<20} {'sketch':>10} {'':>8} {'toolhist':>10} {'':>8} {'toolhist/sketch':>16}")
    for stage, (sketch, ours) in rows.items():
        print(
            f"  {stage:<20} {sketch * 1000:8.1f} ms {sketch / f:7.1f}x {ours * 1000:8.1f} ms {ours / f:7.1f}x"
            f" {ours / sketch:15.1f}x"
        )


if __name__ == "__main__":
    main()
