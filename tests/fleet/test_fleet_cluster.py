"""The fleet scan on a real Dask cluster gives exactly the single-process result, even when a worker dies.

A `distributed.LocalCluster` of three worker processes (processes, not threads: a worker must be
killable mid-scan) on the generated 2,000-session fleet. No timings are asserted anywhere.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pandas as pd
import pytest
from bench_modules import benchmark_module
from distributed import Client, LocalCluster

from toolhist.fleet import read_table
from toolhist.scan import ScanResult, scan

ROOT = Path(__file__).parent.parent.parent
FLEET_SIZE = 2000


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The generated fleet (``benchmarks/fleet_gen.py``): 2,000 files in 14 dated folders."""
    out = tmp_path_factory.mktemp("fleet")
    benchmark_module("fleet_gen").write_fleet(FLEET_SIZE, out)
    return out


@pytest.fixture(scope="module")
def single(fleet: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[ScanResult, Path]:
    """The fleet scanned in this process (``--jobs 1``, no Dask), with its dataset."""
    dataset = tmp_path_factory.mktemp("single") / "ds"
    return scan(fleet, dataset=dataset), dataset


@pytest.fixture(scope="module")
def cluster() -> Iterator[LocalCluster]:
    with LocalCluster(
        n_workers=3, threads_per_worker=1, processes=True, dashboard_address="127.0.0.1:0", host="127.0.0.1"
    ) as running:
        yield running


def same(got: ScanResult, want: ScanResult) -> None:
    pd.testing.assert_frame_equal(got.frame, want.frame)
    pd.testing.assert_frame_equal(got.sessions, want.sessions)
    pd.testing.assert_frame_equal(got.violations, want.violations)
    assert got.unreadable == want.unreadable
    assert got.rules == want.rules


def test_single_process_fleet_is_what_was_generated(single: tuple[ScanResult, Path], fleet: Path) -> None:
    result, _ = single
    files = sorted(str(p) for p in fleet.rglob("*") if p.is_file())
    assert len(files) == 2000
    # every 97th file is a truncated body: listed with the reader's reason, never dropped
    broken = [f for f in files if int(Path(f).stem[1:]) % 97 == 96]
    assert [u.file for u in result.unreadable] == broken
    assert all(u.reason.startswith(f"{u.file}:1:") for u in result.unreadable)
    assert result.frame["file"].nunique() == 2000 - len(broken)
    assert len(result.frame) == 7 * (2000 - len(broken))
    # generated bodies carry no timestamps: their date is the file's; the real samples keep their own
    generated = result.sessions[~result.sessions["file"].str.endswith(".jsonl")]
    assert {f"2026-11-{d:02d}" for d in range(1, 15)} <= set(generated["date"])
    assert generated["date"].isin([f"2026-11-{d:02d}" for d in range(1, 15)]).mean() > 0.9
    assert set(result.sessions["agent"]) >= {"", "claude-code", "codex", "gemini-cli", "kilo", "llxprt"}
    assert sum(result.rules.values()) == len(result.violations)


def test_cluster_scan_equals_single_process(
    cluster: LocalCluster, single: tuple[ScanResult, Path], fleet: Path, tmp_path: Path
) -> None:
    want, want_dataset = single
    got = scan(fleet, scheduler=cluster.scheduler_address, dataset=tmp_path / "ds")
    same(got, want)
    for table in ("sessions", "violations", "unreadable"):
        pd.testing.assert_frame_equal(read_table(tmp_path / "ds", table), read_table(want_dataset, table))


def test_cluster_scan_in_batches_equals_single_process(
    cluster: LocalCluster, single: tuple[ScanResult, Path], fleet: Path
) -> None:
    want, _ = single
    same(scan(fleet, scheduler=cluster.scheduler_address, files_per_task=7), want)


def test_worker_killed_mid_scan_loses_no_file(
    cluster: LocalCluster, single: tuple[ScanResult, Path], fleet: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    want, _ = single
    with Client(cluster) as client:
        before = client.run(os.getpid)
    victim = sorted(before.values())[0]
    killed_at: list[int] = []

    def progress(done: int, total: int) -> None:
        if done == 300:
            os.kill(victim, signal.SIGKILL)  # the nanny starts a fresh worker; its tasks run elsewhere
            killed_at.append(done)

    got = scan(fleet, scheduler=cluster.scheduler_address, progress=progress)
    assert killed_at == [300]
    with Client(cluster) as client:
        after = client.run(os.getpid)
    assert victim not in after.values()
    same(got, want)
    said = capfd.readouterr().err.splitlines()
    assert "Traceback (most recent call last):" not in said
    assert [line for line in said if "distributed." in line] == []  # Dask's records, said as one line
    assert len([line for line in said if "lost worker" in line]) <= 1


def test_cli_on_a_scheduler_prints_what_the_local_run_prints(cluster: LocalCluster, tmp_path: Path) -> None:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [exe, "scan", "sample_logs", *args],
            capture_output=True,
            text=True,
            check=False,
            timeout=120,
            cwd=ROOT,
        )

    local = run()
    remote = run("--scheduler", cluster.scheduler_address, "--out", str(tmp_path / "t.csv"))
    assert local.returncode == remote.returncode == 0, remote.stderr
    assert remote.stdout == local.stdout + f"\nwrote {tmp_path / 't.csv'}\n"
    assert remote.stderr.splitlines()[-1].startswith("scanning 25/25 files, ")
    assert remote.stderr.splitlines()[-1].endswith(" sessions/s, 2 unreadable")


def test_cli_unreachable_scheduler_is_a_usage_error() -> None:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    proc = subprocess.run(
        [exe, "scan", "sample_logs", "--scheduler", "tcp://127.0.0.1:9"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
        cwd=ROOT,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("toolhist: error: --scheduler tcp://127.0.0.1:9: cannot connect (")
    assert "Traceback" not in proc.stderr
