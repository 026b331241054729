"""The executed walkthrough, rendered to HTML by nbconvert, looked at in Chromium.

What a reader of a rendered notebook sees: with scripts, the timeline swaps its picture for the plotly
figure (plotly.js inline) and a click on a point shows that message; without scripts (GitHub's
notebook view, an untrusted notebook) the SVG picture stays. Nothing is fetched either way: the page
is rendered with nbconvert's lab template minus its own CDN scripts (require.js, MathJax, mermaid),
so every request the page makes is ours, and there must be none. Screenshots go to test-artifacts/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest
from nbconvert import HTMLExporter
from playwright.sync_api import Browser, Page, Request, expect
from test_notebook import LOG, execute

import toolhist
from toolhist.check import judged_verdict
from toolhist.judgement import judge
from toolhist.views.timeline import events_frame

pytestmark = pytest.mark.browser
html_exporter: Any = HTMLExporter  # nbconvert ships no type hints
ROOT = Path(__file__).parent.parent.parent
ARTIFACTS = ROOT / "test-artifacts"
OFFLINE_TEMPLATE = (
    "{%- extends 'lab/index.html.j2' -%}"
    "{%- block html_head_js_requirejs -%}{%- endblock html_head_js_requirejs -%}"
    "{%- block html_head_js_mathjax -%}{%- endblock html_head_js_mathjax -%}"
    "{%- block html_head_js_mermaidjs -%}{%- endblock html_head_js_mermaidjs -%}"
)
"""nbconvert's lab page without the scripts it loads from CDNs itself (our outputs load nothing)."""


@pytest.fixture(scope="module")
def rendered() -> Path:
    exporter = html_exporter(
        extra_loaders=[jinja2.DictLoader({"offline.html.j2": OFFLINE_TEMPLATE})],
        template_file="offline.html.j2",
    )
    body, _ = exporter.from_notebook_node(execute())
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / "walkthrough.html"  # kept with the screenshots, to open by hand
    path.write_text(body, encoding="utf-8")
    return path


def open_page(browser: Browser, path: Path, *, scripts: bool) -> Iterator[tuple[Page, list[str]]]:
    context = browser.new_context(viewport={"width": 1400, "height": 1000}, java_script_enabled=scripts)
    page = context.new_page()
    outside: list[str] = []

    def record(request: Request) -> None:
        if not request.url.startswith(("file://", "data:", "blob:")):
            outside.append(request.url)

    page.on("request", record)
    page.goto(path.as_uri())
    yield page, outside
    context.close()


@pytest.fixture
def live(browser: Browser, rendered: Path) -> Iterator[tuple[Page, list[str]]]:
    yield from open_page(browser, rendered, scripts=True)


@pytest.fixture
def static(browser: Browser, rendered: Path) -> Iterator[tuple[Page, list[str]]]:
    yield from open_page(browser, rendered, scripts=False)


def test_the_timeline_figure_is_live_and_a_click_shows_the_message(live: tuple[Page, list[str]]) -> None:
    page, outside = live
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    figure = page.locator(".th-figure")
    expect(figure).to_have_count(1)
    expect(figure).to_have_attribute("data-live", "1", timeout=30_000)
    expect(figure.locator(".th-static")).to_be_hidden()
    expect(figure.locator(".js-plotly-plot")).to_be_visible()
    session = toolhist.load(LOG)
    frame = events_frame(session, judged_verdict(judge(session), "mistral"))
    traces = page.evaluate(
        "() => Array.from(document.querySelector('.th-figure .js-plotly-plot')._fullData)"
        ".map(t => [t.name, (t.x || []).length])"
    )
    assert ["violations", int((frame["violations"] != "").sum())] in traces
    # click the Write call (message 1): its lane is 0, the figure's first
    figure.locator(".js-plotly-plot").scroll_into_view_if_needed()
    # Plotly answers a click on the point it last hovered: on a loaded machine the click can come
    # before the hover is computed, and Plotly then picks nothing. A user clicks again; so does this.
    for attempt in range(4):
        position = page.evaluate(
            """() => {
                const gd = document.querySelector('.th-figure .js-plotly-plot');
                const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
                const box = gd.getBoundingClientRect();
                return [box.left + xa._offset + xa.l2p(1), box.top + ya._offset + ya.l2p(0)];
            }"""
        )
        page.mouse.move(*position)
        page.wait_for_timeout(200)
        page.mouse.click(*position)
        try:
            expect(figure).to_have_attribute("data-picked", "1", timeout=15_000)
            break
        except AssertionError:
            if attempt == 3:
                raise
    pick = figure.locator(".th-pick")
    expect(pick).to_contain_text("Message 1 · ai")
    expect(pick).to_contain_text("mistral · mis.id_format: Tool call id was toolu_01R3SZZYuAq6mou5RqHE4rzF")
    # the other views: verdict cards, the coloured diff, four payloads side by side with marked lines
    expect(page.locator('.th-card.rejects[data-provider="mistral"]').first).to_be_visible()
    changed = page.locator("tr.th-changed td").first
    expect(changed).to_have_css("background-color", "rgb(255, 243, 205)")
    panels = page.locator(".th-payloads").first.locator(".th-payload")
    expect(panels).to_have_count(4)
    boxes = [panels.nth(i).bounding_box() for i in range(4)]
    assert all(b is not None for b in boxes)
    tops = {round(b["y"]) for b in boxes if b}
    assert len(tops) == 1  # side by side
    assert all(b["width"] >= 250 for b in boxes if b)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "walkthrough.png"), full_page=True)
    assert errors == []
    assert outside == []


def test_without_scripts_the_picture_stays(static: tuple[Page, list[str]]) -> None:
    page, outside = static
    pictures = page.locator("svg.th-timeline")
    expect(pictures).to_have_count(2)  # the session's display and the timeline's fallback
    expect(page.locator(".th-figure .th-static svg.th-timeline")).to_be_visible()
    expect(page.locator(".th-figure .th-static circle.violation")).to_have_count(
        int(page.locator(".th-figure svg.th-timeline").get_attribute("data-violations") or -1)
    )
    page.screenshot(path=str(ARTIFACTS / "walkthrough-static.png"), full_page=True)
    assert outside == []
