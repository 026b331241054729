"""The Fleet page under AppTest: a scan dataset and a scanned folder show the library's own numbers."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import parse_qs

import pandas as pd
import pytest
from bench_modules import benchmark_module
from streamlit.testing.v1 import AppTest

from toolhist.fleet.summary import per_provider, worst
from toolhist.scan import ScanResult, scan
from toolhist.views.markup import md_literal

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")


@pytest.fixture(scope="module")
def fleet(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, ScanResult]:
    """100 generated files (one truncated) plus their scan and its dataset."""
    write: Callable[[int, Path], list[Path]] = benchmark_module("fleet_gen").write_fleet
    folder = tmp_path_factory.mktemp("fleet")
    write(100, folder)
    dataset = tmp_path_factory.mktemp("out") / "ds"
    return folder, dataset, scan(folder, dataset=dataset)


def page(**params: str) -> AppTest:
    """The app with ``params`` in the URL, switched to the Fleet page (the home page opens first)."""
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    return at.switch_page("app_pages/7_Fleet.py").run()


def check_shown(at: AppTest, result: ScanResult) -> None:
    assert not at.exception
    assert [m.value for m in at.metric] == [
        str(result.frame["file"].nunique()),
        str(len(result.unreadable)),
        "7",
    ]
    shown = at.dataframe[0].value
    pd.testing.assert_frame_equal(shown.reset_index(drop=True), per_provider(result.sessions))
    assert len(at.get("plotly_chart")) == 3
    assert list(at.dataframe[1].value["file"]) == list(worst(result.sessions)["file"])
    first = str(worst(result.sessions)["file"][0])
    links = at.get("page_link")
    assert [link.proto.page for link in links] == ["Violations", "Timeline"]
    v = result.violations
    errors = v[(v["file"] == first) & (v["provider"] == "anthropic") & (v["severity"] == "error")]
    want = {"path": [first], "provider": ["anthropic"]}
    if errors["message_index"].notna().any():
        want["msg"] = [str(int(errors["message_index"].min()))]
    for link in links:
        assert parse_qs(link.proto.query_string) == want


def test_dataset_is_shown(fleet: tuple[Path, Path, ScanResult]) -> None:
    _, dataset, result = fleet
    at = page(dataset=str(dataset))
    check_shown(at, result)
    assert at.query_params["dataset"] == str(dataset)
    assert at.expander[0].label == "Unreadable files (1)"


def test_folder_is_scanned(fleet: tuple[Path, Path, ScanResult]) -> None:
    folder, _, result = fleet
    at = page(scan=str(folder))
    check_shown(at, result)
    assert at.query_params["scan"] == str(folder)


def test_provider_choice_redraws_rules(fleet: tuple[Path, Path, ScanResult]) -> None:
    _, dataset, _ = fleet
    at = page(dataset=str(dataset), provider="mistral")
    assert not at.exception
    rules = list(at.get("plotly_chart"))[1]
    assert "Top error rules for mistral" in rules.proto.spec


def test_not_a_dataset_is_an_error_not_a_traceback(tmp_path: Path) -> None:
    at = page(dataset=str(tmp_path))
    assert not at.exception
    # shown literally: the message passes through md_literal (no Markdown from a path)
    assert [e.value for e in at.error] == [
        md_literal(f"{tmp_path}: not a toolhist scan dataset (no sessions/ folder)")
    ]
