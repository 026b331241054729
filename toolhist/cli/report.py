"""``toolhist report``: one self-contained HTML file to share a session's diagnosis.

Kept out of `toolhist.cli` so the command is one registration line there. Exit 0 when the report
is written; 2 for unreadable input or bad arguments (mapped by ``toolhist.cli.main``), and when
the ``notebook`` extra is missing: the report is built from the inspector's tables and timeline
(`toolhist.views`: pandas, plotly), imported only once the command runs.
"""

from __future__ import annotations

import click

from toolhist.atomic import write_text
from toolhist.cli.options import format_option
from toolhist.cli.progress import load_shown
from toolhist.extras import require


@click.command("report")
@click.argument("file", type=click.Path())
@click.option("-o", "--out", required=True, help="The HTML file to write.")
@click.option(
    "--provider", "providers", multiple=True, help="Provider to include (repeatable; default: all)."
)
@format_option
def report_cmd(file: str, out: str, providers: tuple[str, ...], fmt: str | None) -> None:
    """Write FILE's report as one HTML file: summary, timeline, violations, curation, payloads.

    The file has no script and loads nothing from the network; secrets are redacted and
    all session content is HTML-escaped, so it is safe to open and to share.
    """
    require("toolhist report", "notebook")
    from toolhist.report import report

    text = report(load_shown(file, fmt), providers or None)
    write_text(out, text)  # whole or not at all: an interrupted report leaves no partial file
    click.echo(f"wrote {out}")
