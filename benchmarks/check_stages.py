"""Where ``toolhist check``'s peak memory comes from: the read, then each provider's verdict.

``bench_big.py`` gives the whole command's peak; this gives it stage by stage, in one process:
the kernel's high-water mark (``VmHWM``) is reset before each stage (``/proc/self/clear_refs``,
value 5; Linux) and read after it, beside the resident size left (``VmRSS``), the CPU seconds
and the violations found. A stage's peak less the resident size before it is its working memory
(the rendered body, its source map, the rules' walk and the Violations made).

``--tracemalloc N`` also prints, for each provider, the N largest allocation sites live when its
rules start (body and source map built), against what was live after the read: slow (several
times the run), for a file of 100 MB or so, not 1 GB.

Run: ``.venv/bin/python benchmarks/check_stages.py FILE [--provider P …] [--tracemalloc N]``.
Figures only; nothing asserts on them. Issue 26: on a 1 GB Codex rollout (``agent_logs.py``)
the read left 1,525 MB over the 44 MB base and each provider's verdict added 350 to 545 MB more
(Bedrock, last, the highest), the command's peak.
"""

from __future__ import annotations

import argparse
import resource
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any


def _status() -> str:
    """``VmHWM`` and ``VmRSS`` in MB."""
    values = {}
    for line in Path("/proc/self/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmHWM", "VmRSS"):
            values[key] = int(value.split()[0]) // 1024
    return f"peak {values.get('VmHWM', 0):6} MB  resident {values.get('VmRSS', 0):6} MB"


def _reset_peak() -> None:
    """Start a new high-water mark (``clear_refs`` 5 resets ``VmHWM`` to the current resident size)."""
    Path("/proc/self/clear_refs").write_text("5")


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _sites(top: int, baseline: tracemalloc.Snapshot) -> Iterator[str]:
    """The ``top`` largest allocation sites live now and not at ``baseline``, innermost toolhist frames."""
    for stat in tracemalloc.take_snapshot().compare_to(baseline, "traceback")[:top]:
        frames = [f for f in stat.traceback if "toolhist" in f.filename][-3:][::-1]
        where = " <- ".join(f"{f.filename.split('toolhist/')[-1]}:{f.lineno}" for f in frames)
        yield f"    {stat.size_diff / 1e6:7.1f} MB {stat.count_diff:9} blocks  {where}"


def main() -> None:
    """Print one line per stage."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("file")
    parser.add_argument("--provider", action="append", help="only these providers (repeatable)")
    parser.add_argument("--tracemalloc", type=int, default=0, metavar="N", help="top N sites per provider")
    args = parser.parse_args()

    import toolhist.check as check_module
    import toolhist.providers as providers_module

    print(f"base (toolhist imported)  {_status()}", flush=True)
    _reset_peak()
    start = _cpu()
    run = check_module.start(args.file, args.provider)
    print(
        f"read + judge {_cpu() - start:7.1f} s  {_status()}  {len(run.session.messages)} messages",
        flush=True,
    )
    baseline = None
    if args.tracemalloc:
        tracemalloc.start(12)
        baseline = tracemalloc.take_snapshot()
        names = vars(providers_module)  # `checked` calls the module's name: replaced there
        plain = names["violations"]

        def spied(provider: Any, body: Any, source_map: Any = None) -> Any:
            assert baseline is not None
            print(f"  {provider.name}: live at the walk's start, beyond the read", flush=True)
            for line in _sites(args.tracemalloc, baseline):
                print(line, flush=True)
            return plain(provider, body, source_map)

        names["violations"] = spied
    for name, found in run.verdicts():
        print(f"{name:<18} {_cpu() - start:7.1f} s  {_status()}  {len(found)} violations", flush=True)
        del found
        _reset_peak()


if __name__ == "__main__":
    main()
