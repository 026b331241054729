"""``toolhist scan --dataset``: the per-provider summary, and bad fleet arguments as usage errors."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from toolhist.fleet import read_table
from toolhist.scan import scan

ROOT = Path(__file__).parent.parent.parent


def run(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    return subprocess.run(
        [exe, "scan", *args], capture_output=True, text=True, check=False, timeout=120, cwd=ROOT
    )


def test_dataset_summary(tmp_path: Path) -> None:
    proc = run(
        "sample_logs",
        "sample_logs/*.jsonl",
        "--provider",
        "mistral",
        "--provider",
        "anthropic",
        "--dataset",
        str(tmp_path / "ds"),
    )
    assert proc.returncode == 0, proc.stderr
    result = scan(ROOT / "sample_logs", ["mistral", "anthropic"])
    lines = ["provider    sessions  rejected  share  top error rules"]
    for provider in ("anthropic", "mistral"):
        rows = result.frame[result.frame["provider"] == provider]
        rejected = int((rows["errors"] > 0).sum())
        counts: dict[str, int] = {}
        for rules in rows["error_rules"]:
            for rule in filter(None, rules.split(";")):
                counts[rule] = counts.get(rule, 0) + 1
        top = ";".join(sorted(counts, key=lambda r: (-counts[r], r))[:3])
        lines.append(f"{provider:<10}  {len(rows):>8}  {rejected:>8}  {rejected / len(rows):>5.1%}  {top}")
    assert proc.stdout.splitlines()[:3] == lines
    assert "\nunreadable files: 2\n" in proc.stdout
    assert proc.stdout.endswith(f"\nwrote {tmp_path / 'ds'}\n")
    assert proc.stderr.splitlines()[-1].startswith("scanning 25/25 files, ")  # the glob's files counted once
    assert len(read_table(tmp_path / "ds", "sessions")) == 2 * 23


def test_bad_fleet_arguments_exit_2(tmp_path: Path) -> None:
    (tmp_path / "ds").mkdir()
    (tmp_path / "ds" / "x").write_text("", encoding="utf-8")
    cases = [
        (
            ["sample_logs", "--storage-option", "anon"],
            "toolhist: error: --storage-option 'anon': expected KEY=VALUE",
        ),
        (
            ["sample_logs", "--dataset", str(tmp_path / "ds")],
            f"toolhist: error: --dataset {tmp_path / 'ds'}: exists and is not an empty folder",
        ),
        (["no/such/folder"], "toolhist: error: no/such/folder: no such file or folder"),
    ]
    for args, message in cases:
        proc = run(*args)
        assert proc.returncode == 2, args
        assert proc.stderr.strip() == message


def test_most_common_rules_tie_by_name() -> None:
    """Counts on a cluster arrive in any task order; the printed ranking must not follow it."""
    proc = run("sample_logs")
    assert proc.returncode == 0, proc.stderr
    section = proc.stdout.split("\nmost common rules:\n", 1)[1].splitlines()
    ranked = [(int(line.split()[0]), line.split()[1]) for line in section if line.startswith("  ")]
    result = scan(ROOT / "sample_logs")
    want = sorted(result.rules.items(), key=lambda kv: (-kv[1], kv[0]))[: len(ranked)]
    assert [(c, r) for c, r in ranked] == [(c, r) for r, c in want]
    assert len({c for c, _ in ranked}) < len(ranked)  # the sample has ties, so the order is exercised
