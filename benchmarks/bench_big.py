"""Agent logs of every size through the CLI: wall time and peak memory as the operating system measures them.

For each agent (Claude Code, Codex; ``agent_logs.py`` writes the files) and each size (10k, 100k
and 1M lines of short tool outputs; about 1 GB of realistic multi-KB outputs) this runs, each in a
fresh process, N times:

- ``floor``: reading the file line by line and parsing each line with orjson, nothing kept;
- ``summary``: ``toolhist summary FILE``;
- ``check``: ``toolhist check FILE`` (every provider, the next request judged).

and prints the median wall time, the ratio to the floor, and the peak resident memory of the
process (``ru_maxrss`` from ``wait4``: the kernel's high-water mark of the child alone; this
script stays small so nothing of its own is counted) beside the file size. ``--pythonpath DIR``
runs another checkout (e.g. a clean copy of main: ``git archive main | tar -x -C DIR``) with the
same interpreter and packages, so before and after
come from one run on one machine; ``--limit-gb`` caps each child's address space so a baseline
that would exhaust a shared machine fails instead (reported as ``out of memory``).

Run: ``.venv/bin/python benchmarks/bench_big.py [--runs 3] [--lines 10000,100000,1000000] [--mb 1000]
[--agents claude-code,codex] [--dir CACHE]``. Generated files are kept in ``--dir`` (default a
temporary directory) and reused when present. Figures only; no test asserts on time or memory.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from agent_logs import AGENTS, write

FLOOR = (
    "import orjson, sys\n"
    "n = 0\n"
    "with open(sys.argv[1], 'rb') as fh:\n"
    "    for raw in fh:\n"
    "        if raw.strip():\n"
    "            orjson.loads(raw); n += 1\n"
)
"""The floor: every line parsed with orjson and dropped."""

LAUNCH = (
    "import runpy, sys\n"
    "sys.meta_path[:] = [f for f in sys.meta_path if not type(f).__module__.startswith('__editable__')]\n"
    "sys.path.insert(0, sys.argv.pop(1))\n"
    "sys.argv[0] = 'toolhist'\n"
    "runpy.run_module('toolhist', run_name='__main__', alter_sys=True)\n"
)
"""Runs ``toolhist`` from another checkout: its folder first, this one's editable install unhooked."""


@dataclass(frozen=True)
class Run:
    """One child process: wall seconds, peak RSS in MB, exit status."""

    seconds: float
    peak_mb: float
    status: int


def measure(argv: list[str], env: dict[str, str], limit_gb: float | None) -> Run:
    """Run ``argv``; wall time and the child's own peak RSS (``wait4``), output discarded."""
    if limit_gb is not None:  # the shell sets the cap, then becomes the measured process
        argv = ["sh", "-c", f'ulimit -v {int(limit_gb * 1024**2)}; exec "$@"', "sh", *argv]
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    code = proc.returncode
    if code not in (0, 1):
        sys.stderr.write(
            f"  ({' '.join(argv[-2:])}: exit {code}: {err.decode(errors='replace').strip()[-300:]})\n"
        )
    return Run(seconds, usage.ru_maxrss / 1024, code)


def median_run(argv: list[str], env: dict[str, str], runs: int, limit_gb: float | None) -> Run:
    """The median time and the median peak of ``runs`` runs (status of the last one)."""
    done = [measure(argv, env, limit_gb) for _ in range(runs)]
    return Run(
        statistics.median(r.seconds for r in done),
        statistics.median(r.peak_mb for r in done),
        done[-1].status,
    )


def sized(agent: str, directory: Path, lines: int | None, mb: float | None) -> Path:
    """The generated log for ``agent`` at this size (written once, then reused)."""
    label = f"{lines}l" if lines is not None else f"{mb:g}mb"
    path = directory / f"{agent}-{label}.jsonl"
    if not path.exists():
        partial = path.with_suffix(".partial")
        write(agent, partial, lines=lines, mb=mb)
        partial.rename(path)
    return path


def _uptime() -> str:
    try:
        return "load average " + " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "load average unknown"


def main() -> None:
    """Print one row per agent and size."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--big-runs", type=int, default=1, help="runs for files of 300 MB and more")
    parser.add_argument("--agents", default=",".join(AGENTS))
    parser.add_argument(
        "--lines", default="10000,100000,1000000", help="line counts (short outputs); '' for none"
    )
    parser.add_argument("--mb", default="1000", help="sizes in MB (realistic outputs); '' for none")
    parser.add_argument(
        "--commands", default="summary,check", help="comma-separated, each with its options ('check --json')"
    )
    parser.add_argument(
        "--dir", type=Path, help="where generated logs are kept (default: a temporary directory)"
    )
    parser.add_argument("--pythonpath", help="run toolhist from this checkout instead (PYTHONPATH)")
    parser.add_argument("--limit-gb", type=float, help="address-space cap per child process")
    args = parser.parse_args()
    env = dict(os.environ)
    toolhist = [sys.executable, "-m", "toolhist"]
    if args.pythonpath:
        toolhist = [sys.executable, "-c", LAUNCH, args.pythonpath]
    sizes: list[tuple[int | None, float | None]] = [(int(n), None) for n in args.lines.split(",") if n]
    sizes += [(None, float(m)) for m in args.mb.split(",") if m]
    commands = [c for c in args.commands.split(",") if c]
    print(
        f"toolhist from {args.pythonpath or Path(__file__).resolve().parents[1]}; {_uptime()};"
        f" medians of {args.runs} runs ({args.big_runs} from 300 MB)"
    )
    print(
        f"  {'log':<24} {'MB':>7} {'floor':>14} "
        + " ".join(f"{c + ' (x floor, peak/file)':>36}" for c in commands)
    )
    with tempfile.TemporaryDirectory() as tmp:
        directory = args.dir or Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        for agent in args.agents.split(","):
            for lines, mb in sizes:
                path = sized(agent, directory, lines, mb)
                size_mb = path.stat().st_size / 1e6
                runs = args.runs if size_mb < 300 else args.big_runs
                floor = median_run([sys.executable, "-c", FLOOR, str(path)], env, runs, None)
                cells = []
                for command in commands:
                    run = median_run([*toolhist, *command.split(), str(path)], env, runs, args.limit_gb)
                    if run.status not in (0, 1):
                        cells.append(f"{'failed (exit ' + str(run.status) + ')':>36}")
                        continue
                    cells.append(
                        f"{run.seconds:7.1f} s {run.seconds / floor.seconds:5.1f}x"
                        f" {run.peak_mb:7.0f} MB {run.peak_mb / size_mb:5.1f}x"
                    )
                label = f"{agent} {lines // 1000}k lines" if lines is not None else f"{agent} {mb:g} MB"
                print(
                    f"  {label:<24} {size_mb:7.1f} {floor.seconds:5.1f} s {floor.peak_mb:4.0f} MB "
                    + " ".join(cells),
                    flush=True,
                )
    print(f"done; {_uptime()}")


if __name__ == "__main__":
    main()
