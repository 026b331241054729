"""The Fleet page in a real browser: a scan dataset opens, the figures draw, a worst session opens elsewhere."""

from __future__ import annotations

from pathlib import Path

import pytest
from bench_modules import benchmark_module
from playwright.sync_api import Page, expect

from toolhist.fleet.summary import per_provider, worst
from toolhist.scan import scan

pytestmark = pytest.mark.browser

ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
WAIT = 60_000


def test_fleet_page_shows_a_scan_dataset(app_url: str, page: Page, tmp_path: Path) -> None:
    benchmark_module("fleet_gen").write_fleet(120, tmp_path / "fleet")
    result = scan(tmp_path / "fleet", dataset=tmp_path / "ds")
    page.goto(f"{app_url}/Fleet?dataset={tmp_path / 'ds'}")
    expect(page.get_by_role("heading", name="Rejected sessions per provider")).to_be_visible(timeout=WAIT)
    page.wait_for_function("document.querySelectorAll('.js-plotly-plot').length === 3", timeout=WAIT)
    shares: list[float] = page.evaluate(
        "() => Array.from(document.querySelector('.js-plotly-plot')._fullData[0].x)"
    )
    assert shares == list(per_provider(result.sessions)["share"])
    first = str(worst(result.sessions)["file"][0])
    page.get_by_role("link", name="Its anthropic violations").click()
    expect(page.get_by_role("heading", name="Violations", exact=True)).to_be_visible(timeout=WAIT)
    expect(page.get_by_text(Path(first).name).first).to_be_visible(timeout=WAIT)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "fleet-violations.png"))
    assert page.outside_requests == []  # type: ignore[attr-defined]
