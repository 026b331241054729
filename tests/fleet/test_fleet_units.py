"""Fleet parts on small exact inputs: inputs, the dataset round trip, the summary numbers, the figures."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import dask.dataframe as dd
import pandas as pd
import pytest

from toolhist.errors import UsageError
from toolhist.fleet import DatasetWriter, FileResult, expand, is_url, read_table, scan_file
from toolhist.fleet.summary import per_provider, top_rules, trend, worst
from toolhist.fleet.task import agent_of
from toolhist.scan import scan
from toolhist.views.fleet import from_result, open_scan, rejected_figure, rules_figure, trend_figure

ROOT = Path(__file__).parent.parent.parent
SAMPLE = ROOT / "sample_logs" / "mistral_ids_after_openai.json"


def row(file: str, provider: str, errors: int, rules: str, date: str | None) -> dict[str, object]:
    return {
        "file": file,
        "format": "openai-chat",
        "agent": "",
        "provider": provider,
        "messages": 4,
        "errors": errors,
        "warnings": 0,
        "error_rules": rules,
        "rules": json.dumps(dict.fromkeys(filter(None, rules.split(";")), 1)),
        "started": None,
        "date": date,
    }


SESSIONS = pd.DataFrame(
    [
        row("a", "anthropic", 2, "r1;r2", "2026-11-01"),
        row("a", "mistral", 0, "", "2026-11-01"),
        row("b", "anthropic", 1, "r1", "2026-11-01"),
        row("b", "mistral", 3, "m1", "2026-11-01"),
        row("c", "anthropic", 0, "", "2026-11-02"),
        row("c", "mistral", 1, "m1", "2026-11-02"),
        row("d", "anthropic", 1, "r2", None),
        row("d", "mistral", 0, "", None),
    ]
)


def test_inputs_folders_globs_urls(tmp_path: Path) -> None:
    (tmp_path / "x" / ".git").mkdir(parents=True)
    (tmp_path / "x" / ".git" / "HEAD").write_text("ref", encoding="utf-8")
    for name in ("x/a.json", "x/b.jsonl", "y/c.json", ".hidden/d.json"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("{}", encoding="utf-8")
    assert expand([str(tmp_path)]) == [
        str(tmp_path / "x/a.json"),
        str(tmp_path / "x/b.jsonl"),
        str(tmp_path / "y/c.json"),
    ]
    assert expand([str(tmp_path / "*/*.json"), str(tmp_path / "x")]) == [
        str(tmp_path / "x/a.json"),
        str(tmp_path / "x/b.jsonl"),
        str(tmp_path / "y/c.json"),
    ]
    assert expand([f"file://{tmp_path}/y"]) == [f"file://{tmp_path}/y/c.json"]
    assert [is_url(s) for s in ("s3://b/k", "gs://b", "C:\\logs", "/tmp/x", "az://c/p")] == [
        True,
        True,
        False,
        False,
        True,
    ]
    with pytest.raises(UsageError, match=r"^/nope/nothing: no such file or folder$"):
        expand(["/nope/nothing"])
    with pytest.raises(UsageError, match=r"^nosuchscheme://b/k: cannot open nosuchscheme:// "):
        expand(["nosuchscheme://b/k"])


def test_scan_file_missing_and_agent_names(tmp_path: Path) -> None:
    gone = scan_file(str(tmp_path / "gone.json"), ["mistral"])
    assert gone == FileResult(
        str(tmp_path / "gone.json"),
        error=f"{tmp_path / 'gone.json'}: no such file",
    )
    assert [
        agent_of(f) for f in ("claude-code", "llxprt-debug", "llxprt-checkpoint", "openai-chat", "icontent")
    ] == [
        "claude-code",
        "llxprt",
        "llxprt",
        "",
        "",
    ]


def test_dataset_round_trip_read_by_pandas_and_dask(tmp_path: Path) -> None:
    (tmp_path / "in").mkdir()
    shutil.copy(SAMPLE, tmp_path / "in" / "a.json")
    (tmp_path / "in" / "bad.json").write_text("{", encoding="utf-8")
    result = scan(tmp_path / "in", ["mistral", "anthropic"], dataset=tmp_path / "ds")
    assert set(result.violations["provider"]) == {"mistral"}  # no anthropic part: nothing to write
    out = tmp_path / "ds"
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*.parquet")) == [
        "sessions/provider=anthropic/part-00000.parquet",
        "sessions/provider=mistral/part-00000.parquet",
        "unreadable/part-00000.parquet",
        "violations/provider=mistral/part-00000.parquet",
    ]
    sessions = read_table(out, "sessions")
    pd.testing.assert_frame_equal(
        sessions, result.sessions.sort_values(["file", "provider"]).reset_index(drop=True)
    )
    assert read_table(out, "unreadable").to_dict(orient="records") == [
        {"file": str(tmp_path / "in" / "bad.json"), "reason": result.unreadable[0].reason}
    ]
    assert len(pd.read_parquet(out / "violations")) == len(result.violations) > 0
    # dask's parquet reader calls a pandas API pandas 3.1 deprecates (its warning, not ours)
    with pytest.warns(Warning, match="inplace keyword"):
        total = int(dd.read_parquet(out / "sessions")["errors"].sum().compute())
    assert total == int(result.frame["errors"].sum())
    with pytest.raises(UsageError, match="exists and is not an empty folder"):
        DatasetWriter(out)


def test_summary_numbers() -> None:
    assert per_provider(SESSIONS).to_dict(orient="records") == [
        {"provider": "anthropic", "sessions": 4, "rejected": 3, "share": 0.75, "top_rules": "r1;r2"},
        {"provider": "mistral", "sessions": 4, "rejected": 2, "share": 0.5, "top_rules": "m1"},
    ]
    assert top_rules(SESSIONS).to_dict(orient="records") == [
        {"rule": "m1", "sessions": 2},
        {"rule": "r1", "sessions": 2},
        {"rule": "r2", "sessions": 2},
    ]
    assert trend(SESSIONS, "anthropic", ["r1", "r2"]).to_dict(orient="records") == [
        {"date": "2026-11-01", "rule": "r1", "sessions": 2, "share": 1.0},
        {"date": "2026-11-01", "rule": "r2", "sessions": 1, "share": 0.5},
    ]
    assert worst(SESSIONS, 2).to_dict(orient="records") == [
        {
            "file": "b",
            "format": "openai-chat",
            "messages": 4,
            "errors": 4,
            "providers_rejecting": 2,
            "error_rules": "m1;r1",
        },
        {
            "file": "a",
            "format": "openai-chat",
            "messages": 4,
            "errors": 2,
            "providers_rejecting": 1,
            "error_rules": "r1;r2",
        },
    ]


def test_figures_carry_the_numbers() -> None:
    table = per_provider(SESSIONS)
    bars = rejected_figure(table).data[0]
    assert list(bars.x) == [0.75, 0.5]
    assert list(bars.y) == ["anthropic", "mistral"]
    rules = rules_figure(top_rules(SESSIONS, provider="anthropic"), "anthropic").data[0]
    assert (list(rules.y), list(rules.x)) == (["r1", "r2"], [2, 2])
    lines = trend_figure(trend(SESSIONS, "anthropic", ["r1", "r2"]), "anthropic").data
    assert [(t.name, list(t.x), list(t.y)) for t in lines] == [
        ("r1", ["2026-11-01"], [1.0]),
        ("r2", ["2026-11-01"], [0.5]),
    ]


def test_notebook_view_opens_a_dataset_and_displays(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "in").mkdir()
    shutil.copy(SAMPLE, tmp_path / "in" / "a.json")
    result = scan(tmp_path / "in", ["mistral"], dataset=tmp_path / "ds")
    fleet = open_scan(tmp_path / "ds")
    assert fleet.providers == ["mistral"]
    pd.testing.assert_frame_equal(fleet.per_provider(), from_result(result).per_provider())
    shown: list[object] = []
    import IPython.display

    monkeypatch.setattr(IPython.display, "display", shown.append)
    fleet._ipython_display_()
    assert [type(x).__name__ for x in shown] == ["DataFrame", "Figure", "Figure", "Figure", "DataFrame"]


def test_an_unexpected_error_is_a_row_not_a_failed_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from toolhist.fleet import run

    def broken(url: str, providers: object, options: object) -> FileResult:
        raise RuntimeError("boom")

    monkeypatch.setattr(run, "scan_file", broken)
    shutil.copy(SAMPLE, tmp_path / "a.json")
    result = scan(tmp_path, ["mistral"])
    assert result.frame.empty
    assert [(u.file, u.reason) for u in result.unreadable] == [
        (str(tmp_path / "a.json"), f"{tmp_path / 'a.json'}: not scanned (RuntimeError: boom)")
    ]
