"""Clicks on a canvas (Streamlit's data grid, a Plotly chart) in the browser tests, made as a user makes them.

A grid or a chart is drawn on a canvas: the tests click at a position, and a click that lands while
the canvas is redrawn (a rerun that has just ended, a chart re-laid out) is lost, for a user as for a
test. The user clicks again once the page is still; `clicked_until` does the same, and never clicks
twice when the first click was only slow to show (a second click on a grid's selection cell would
deselect the row): it waits for the page's run to end and looks again before each new click.
"""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Locator, Page

TRIES = 3
"""Clicks at most before the check is waited for as any other."""
PATIENCE = 20_000
"""Milliseconds a click's effect is waited for before the page is let settle and looked at again."""


def settled(page: Page, timeout: float) -> None:
    """Wait until the script run is over, so the page holds no element left from the previous run."""
    page.wait_for_function(
        "() => document.querySelector('[data-test-script-state]')"
        "?.getAttribute('data-test-script-state') === 'notRunning'",
        timeout=timeout,
    )


def pick_row(page: Page, grid: Locator, row: int) -> None:
    """Click a data grid row's row-selection cell (the grid is a canvas)."""
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    assert box is not None
    header = row_height = 35  # Streamlit's data grid: header and rows 35 px high
    page.mouse.click(box["x"] + 16, box["y"] + header + row_height * row + row_height / 2)


def clicked_until(
    page: Page, click: Callable[[], None], done: Callable[[float], None], timeout: float
) -> None:
    """``click()`` until ``done(ms)`` (an ``expect`` with that timeout) passes: at most `TRIES` clicks.

    Before each click after the first, the page's run is let end and ``done`` looked at again: a
    click that was received, only slowly, is not repeated. The last check waits ``timeout`` ms.
    """
    for attempt in range(TRIES):
        if attempt:
            settled(page, timeout)
            try:
                done(1_000)
                return
            except AssertionError:
                pass
        click()
        try:
            done(PATIENCE)
            return
        except AssertionError:
            continue
    done(timeout)
