"""``toolhist.scan`` and ``toolhist scan``: the batch table agrees with the per-sample snapshot."""

from __future__ import annotations

import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from toolhist.check import check
from toolhist.providers import PROVIDERS
from toolhist.scan import COLUMNS, Unreadable, scan

ROOT = Path(__file__).parent.parent
SAMPLES = ROOT / "sample_logs"
SNAPSHOTS = Path(__file__).parent / "__snapshots__" / "test_sample_violations"
SAMPLE_FILES = sorted(p for p in SAMPLES.iterdir() if p.suffix in (".json", ".jsonl"))


def snapshot(name: str) -> dict[str, list[str]]:
    """The error rules per provider ``toolhist check`` finds: scan judges each file as check does.

    For a request body that is the sample-violations snapshot (the history as it stands); for an
    agent log, the request it would send next (checked against that snapshot in test_judgement).
    """
    result = check(str(SAMPLES / name))
    return {p: sorted({v.rule for v in vs if v.severity == "error"}) for p, vs in result.results.items()}


def stands(name: str) -> dict[str, list[str]]:
    path = SNAPSHOTS / f"test_sample_violations_per_provider[{name}].json"
    table: dict[str, list[str]] = json.loads(path.read_text(encoding="utf-8"))
    return table


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    return subprocess.run([exe, *args], capture_output=True, text=True, check=False, timeout=120, cwd=cwd)


FINISHED_LOGS = [
    "claude_code_compacted_result.jsonl",
    "gemini_cli_session.jsonl",
    "kilo_native_session.json",
    "llxprt_checkpoint_cancelled_shell.json",
    "llxprt_icontent.json",
    "otel_genai_support_agent.json",
    "vscode_rejected_tool.json",
]
"""Agent logs that end with the model's answer: judged with the next user turn added."""


def test_judged_verdicts_differ_from_the_history_as_it_stands_only_for_finished_logs() -> None:
    """The next-request judgement drops exactly the rules about a request that ends on the model's answer,
    on finished logs only: Mistral's last role, and Bedrock's prefill with tools where that answer came
    right after a tool round (``brk.prefill_tools``)."""
    for path in SAMPLE_FILES:
        judged, as_is = snapshot(path.name), stands(path.name)
        if path.name in FINISHED_LOGS:
            dropped = {p: sorted(set(as_is[p]) - set(judged[p])) for p in as_is}
            assert all(set(judged[p]) <= set(as_is[p]) for p in as_is), path.name
            assert dropped["mistral"] == ["mis.last_role"], path.name
            assert dropped["bedrock"] in ([], ["brk.prefill_tools"]), path.name
            assert all(dropped[p] == [] for p in as_is if p not in ("mistral", "bedrock")), path.name
        else:
            assert judged == as_is, path.name


@pytest.mark.parametrize("jobs", [1, 3])
def test_scan_matches_per_sample_snapshot(jobs: int) -> None:
    result = scan(SAMPLES, jobs=jobs)
    assert list(result.frame.columns) == list(COLUMNS)
    files = sorted(set(result.frame["file"]))
    assert files == [str(p) for p in SAMPLE_FILES]
    for path in SAMPLE_FILES:
        rows = result.frame[result.frame["file"] == str(path)]
        assert list(rows["provider"]) == list(PROVIDERS)
        records = rows.to_dict(orient="records")
        got = {str(r["provider"]): sorted(filter(None, str(r["error_rules"]).split(";"))) for r in records}
        assert got == snapshot(path.name), path.name
        for r in records:
            assert (r["errors"] == 0) == (r["error_rules"] == ""), (path.name, r["provider"])
    # the two Markdown notes are not sessions: listed with the reader's reason, not dropped
    assert [u.file for u in result.unreadable] == [str(SAMPLES / "EXPECTED.md"), str(SAMPLES / "README.md")]
    assert all("not valid JSON" in u.reason for u in result.unreadable)
    assert sum(result.rules.values()) == int(result.frame["errors"].sum() + result.frame["warnings"].sum())


def test_scan_one_provider_and_progress(tmp_path: Path) -> None:
    shutil.copy(SAMPLES / "mistral_ids_after_openai.json", tmp_path / "a.json")
    (tmp_path / "broken.json").write_text('{"messages": [', encoding="utf-8")
    (tmp_path / ".hidden.json").write_text("not looked at", encoding="utf-8")
    calls: list[tuple[int, int]] = []
    result = scan(tmp_path, ["mistral"], progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 2), (2, 2)]
    assert result.frame.to_dict(orient="records") == [
        {
            "file": str(tmp_path / "a.json"),
            "format": result.frame["format"][0],
            "provider": "mistral",
            "errors": result.frame["errors"][0],
            "warnings": result.frame["warnings"][0],
            "error_rules": ";".join(snapshot("mistral_ids_after_openai.json")["mistral"]),
        }
    ]
    assert len(result.unreadable) == 1
    bad = result.unreadable[0]
    assert isinstance(bad, Unreadable)
    assert bad.file == str(tmp_path / "broken.json")
    assert bad.reason.startswith(f"{tmp_path / 'broken.json'}:1:")


def test_cli_csv_columns_and_rows(tmp_path: Path) -> None:
    out = tmp_path / "table.csv"
    proc = run("scan", "sample_logs", "--provider", "mistral", "--provider", "anthropic", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    with out.open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert list(rows[0]) == list(COLUMNS)
    assert len(rows) == 2 * len(SAMPLE_FILES)
    for row in rows:
        expected = snapshot(Path(row["file"]).name)[row["provider"]]
        assert row["error_rules"] == ";".join(expected)
    assert "unreadable (2):\n  sample_logs/EXPECTED.md:1:1: not valid JSON" in proc.stdout
    assert "most common rules:" in proc.stdout
    assert "scanning" in proc.stderr


def test_cli_json_out_and_jobs(tmp_path: Path) -> None:
    out = tmp_path / "table.json"
    proc = run("scan", "sample_logs", "--provider", "gemini", "--jobs", "2", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    rows = json.loads(out.read_text(encoding="utf-8"))
    assert [(Path(r["file"]).name, r["error_rules"]) for r in rows] == [
        (p.name, ";".join(snapshot(p.name)["gemini"])) for p in SAMPLE_FILES
    ]


def test_cli_unreadable_file_is_listed_not_fatal(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("hello", encoding="utf-8")
    proc = run("scan", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "no readable session files",
        "",
        "unreadable (1):",
        f"  {tmp_path / 'notes.txt'}:1:1: not valid JSON: unexpected character, expected a JSON value",
    ]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--out", "t.xlsx"],
            "toolhist: error: --out t.xlsx: unsupported extension '.xlsx'; use .csv, .json or .parquet",
        ),
        (["--provider", "nope"], "toolhist: error: unknown provider 'nope'; choose one of: "),
    ],
)
def test_cli_bad_arguments_exit_2(tmp_path: Path, args: list[str], message: str) -> None:
    proc = run("scan", "sample_logs", *args, cwd=ROOT)
    assert proc.returncode == 2
    assert proc.stderr.startswith(message)
    assert not (ROOT / "t.xlsx").exists()


def test_cli_parquet_out_round_trips(tmp_path: Path) -> None:
    import pandas as pd  # both declared dependencies: a missing one fails here, it is not skipped

    out = tmp_path / "table.parquet"
    proc = run("scan", "sample_logs", "--provider", "kimi", "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    frame = pd.read_parquet(out)
    assert list(frame.columns) == list(COLUMNS)
    assert [str(v) for v in frame["error_rules"]] == [
        ";".join(snapshot(p.name)["kimi"]) for p in SAMPLE_FILES
    ]


def test_parquet_without_pyarrow_names_the_fleet_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    from toolhist.cli import scan as cli_scan
    from toolhist.extras import ExtraMissing

    real = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "pyarrow" else real(name, *a)
    )
    cli_scan.needs(["sessions/"], jobs=1, scheduler=None, out="t.csv", dataset=None)  # no pyarrow needed
    for out, dataset in (("t.parquet", None), (None, "scan-out")):
        with pytest.raises(ExtraMissing) as caught:
            cli_scan.needs(["sessions/"], jobs=1, scheduler=None, out=out, dataset=dataset)
        assert (
            str(caught.value)
            == "toolhist scan needs pyarrow, not installed here: pip install 'toolhist[fleet]'"
        )
