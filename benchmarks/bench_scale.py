"""Every stage at 1k, 10k and 100k messages, each beside the floor measured in the same run.

The floor is reading the same file and parsing it with orjson, nothing else. For each size
(`generate.generate`: parallel calls, errors, duplicates, unanswered calls, out-of-order results)
this prints the median of N runs of:

- ``load``: `toolhist.load` of the file;
- ``validate``: `validate` for every provider (render as-is, then the rules);
- ``curate``: `toolhist.curate` with strategy ``toolhist`` for every provider;
- ``render``: `render` for every provider (the history as it is);
- ``pipeline``: load, then for every provider validate, curate and render that curation
  (`render_curation`, as the app does: one curation per provider);
- ``pipeline, 2 curations``: the same with ``render(…, strategy="toolhist")`` and ``curate`` as two
  calls (what ``toolhist render --strategy toolhist`` then ``toolhist curate`` compute), so the
  second curation of each provider is paid for too;
- ``peak MB``: the peak resident memory of the pipeline beside that of the orjson parse, each in
  a fresh interpreter (``VmHWM`` less the RSS after imports);
- ``curate, gc frozen``: ``curate`` again with the loaded session moved out of the cyclic garbage
  collector's reach (``gc.freeze``), to show how much of the growth is the collector traversing a
  large live heap rather than toolhist's own work;
- ``mistral``: `validate_payload(body, "mistral")` beside mistral_common 1.13.1's
  ``MistralRequestValidatorV11`` in serving mode (``ChatCompletionRequest.from_openai`` then
  ``validate_request``) on the same body; its first error (it stops there) is printed once.

Each stage run gets its own copy of the loaded session (``model_copy``: same messages, new
identity), so nothing one run remembers about a session (`toolhist.curation.shared`) helps the
next. Each time is followed by its ratio to the floor (``x``). The closing lines give the growth from 10k
to 100k messages per stage (linear is 10x; the target is within 12x) and the 10k pipeline against
the 10k floor (target: within 10x). Run: ``.venv/bin/python benchmarks/bench_scale.py [--runs 5]``.
Figures only; no test asserts on time.
"""

from __future__ import annotations

import argparse
import gc
import itertools
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import this_tree  # noqa: F401  (first: this checkout's toolhist is the one measured)
from generate import write

import toolhist
from toolhist.model import Session
from toolhist.providers import PROVIDERS, render, render_curation, validate, validate_payload


def median(fn: Callable[[], object], runs: int) -> float:
    """Median wall time of ``runs`` calls (garbage collected between runs, as a fresh request would be)."""
    times = []
    for _ in range(runs):
        gc.collect()
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_mb(stage: str, path: Path) -> float:
    """Peak resident MB that ``stage`` (``floor`` or ``pipeline``) adds, run in a fresh interpreter."""
    out = subprocess.run(
        [sys.executable, __file__, "--rss", stage, str(path)], check=True, capture_output=True, text=True
    )
    return float(out.stdout)


def _status_mb(field: str) -> float:
    """A ``/proc/self/status`` memory field in MB (Linux)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise LookupError(field)


def _rss_child(stage: str, path: Path) -> None:
    """In the child: run one stage and print how far the peak RSS rose above the RSS after imports.

    ``VmHWM`` starts afresh at exec, unlike ``ru_maxrss``, which keeps the parent's peak.
    """
    base = _status_mb("VmRSS")
    (floor if stage == "floor" else pipeline)(path)
    print(_status_mb("VmHWM") - base)


def frozen(fn: Callable[[], object]) -> Callable[[], object]:
    """``fn`` run with every object alive now frozen out of the cyclic collector."""

    def run() -> object:
        gc.freeze()
        try:
            return fn()
        finally:
            gc.unfreeze()

    return run


def floor(path: Path) -> Any:
    """The floor: read the file and parse it with orjson."""
    return orjson.loads(path.read_bytes())


def validate_all(session: Session) -> int:
    """Violations for every provider (the count, so nothing is optimised away)."""
    return sum(len(validate(session, p)) for p in PROVIDERS)


def curate_all(session: Session) -> int:
    """Changes made by the ``toolhist`` strategy for every provider."""
    return sum(len(toolhist.curate(session, p, strategy="toolhist").changes) for p in PROVIDERS)


def render_all(session: Session) -> int:
    """Messages rendered for every provider (as the history is)."""
    return sum(len(orjson.dumps(render(session, p).body)) for p in PROVIDERS)


def pipeline(path: Path) -> int:
    """Load, then validate, curate and render the curation for every provider (as the app does)."""
    session = toolhist.load(str(path))
    n = validate_all(session)
    for p in PROVIDERS:
        curation = toolhist.curate(session, p, strategy="toolhist")
        n += len(curation.changes) + len(orjson.dumps(render_curation(curation).body))
    return n


def pipeline_twice(path: Path) -> int:
    """The pipeline with the curated payload from ``render(strategy=…)`` and the Changes from ``curate``."""
    session = toolhist.load(str(path))
    n = validate_all(session)
    for p in PROVIDERS:
        n += len(orjson.dumps(render(session, p, strategy="toolhist").body))
    return n + curate_all(session)


def mistral_common_check(body: dict[str, Any]) -> str:
    """mistral_common's verdict on the body: ``ok`` or its first error."""
    from mistral_common.protocol.instruct.request import ChatCompletionRequest
    from mistral_common.protocol.instruct.validator import MistralRequestValidatorV11, ValidationMode

    try:
        request = ChatCompletionRequest.from_openai(body["messages"], tools=body.get("tools"), model="m")
        MistralRequestValidatorV11(ValidationMode.serving).validate_request(request)
    except Exception as exc:  # its exceptions are the answer being measured
        return f"{type(exc).__name__}: {exc}"
    return "ok"


def main() -> None:
    """Print one block per size, then the growth and target lines."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="1000,10000,100000")
    parser.add_argument("--big-runs", type=int, default=1, help="runs for sizes of 50k messages and more")
    parser.add_argument("--rss", nargs=2, metavar=("STAGE", "PATH"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.rss:
        _rss_child(args.rss[0], Path(args.rss[1]))
        return
    stages = ("load", "validate", "curate", "render", "pipeline", "pipeline2")
    times: dict[int, dict[str, float]] = {}
    print(
        f"providers: {', '.join(PROVIDERS)}; medians of {args.runs} runs ({args.big_runs} from 50k messages);"
        " x = ratio to the orjson floor"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            path = write(size, Path(tmp) / f"s{size}.json")
            session = toolhist.load(str(path))
            body = floor(path)
            runs = args.runs if size < 50_000 else args.big_runs
            row = {"floor": median(lambda path=path: floor(path), args.runs)}  # type: ignore[misc]
            row["load"] = median(lambda path=path: toolhist.load(str(path)), runs)  # type: ignore[misc]
            row["validate"] = median(lambda s=session: validate_all(s.model_copy()), runs)  # type: ignore[misc]
            row["curate"] = median(lambda s=session: curate_all(s.model_copy()), runs)  # type: ignore[misc]
            row["render"] = median(lambda s=session: render_all(s.model_copy()), runs)  # type: ignore[misc]
            row["pipeline"] = median(lambda path=path: pipeline(path), runs)  # type: ignore[misc]
            row["pipeline2"] = median(lambda path=path: pipeline_twice(path), runs)  # type: ignore[misc]
            row["curate_frozen"] = median(frozen(lambda s=session: curate_all(s.model_copy())), runs)  # type: ignore[misc]
            row["mistral"] = median(lambda b=body: validate_payload(b, "mistral"), runs)  # type: ignore[misc]
            row["mistral_common"] = median(lambda b=body: mistral_common_check(b), runs)  # type: ignore[misc]
            times[size] = row
            mb = path.stat().st_size / 1e6
            f = row["floor"]
            print(f"\n{size} messages, {mb:.1f} MB; floor (orjson parse) {f * 1000:.1f} ms")
            for stage in stages:
                label = "pipeline, 2 curations" if stage == "pipeline2" else stage
                print(f"  {label:<21} {row[stage] * 1000:10.1f} ms  {row[stage] / f:7.1f}x")
            cf = row["curate_frozen"]
            print(f"  {'curate, gc frozen':<21} {cf * 1000:10.1f} ms  {cf / f:7.1f}x")
            mem_floor, mem_pipe = peak_mb("floor", path), peak_mb("pipeline", path)
            ratio = f"{mem_pipe / mem_floor:7.1f}x" if mem_floor >= 1 else "    n/a "
            print(f"  {'peak MB':<21} {mem_pipe:10.1f}     {ratio}  (orjson parse {mem_floor:.1f} MB)")
            ours = len(validate_payload(body, "mistral"))
            print(
                f"  {'mistral':<21} {row['mistral'] * 1000:10.1f} ms  {row['mistral'] / f:7.1f}x"
                f"  ({ours} violations)"
                f"   mistral_common {row['mistral_common'] * 1000:.1f} ms {row['mistral_common'] / f:.1f}x"
                f"  ({mistral_common_check(body)[:90]})"
            )
    sizes = sorted(times)
    for small, big in itertools.pairwise(sizes):
        growth = ", ".join(
            f"{stage} {times[big][stage] / times[small][stage]:.1f}x"
            for stage in ("floor", *stages, "curate_frozen", "mistral", "mistral_common")
        )
        print(f"\n{small} -> {big} messages ({big / small:.0f}x the history): {growth}")
    if 10_000 in times:
        t = times[10_000]
        print(f"10k pipeline / 10k floor: {t['pipeline'] / t['floor']:.1f}x (target: within 10x)")


if __name__ == "__main__":
    main()
