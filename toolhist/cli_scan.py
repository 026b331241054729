"""``toolhist scan``: validate every session file under a directory and write one table.

Kept out of `toolhist.cli` so the command is one registration line there. Informational: exit 0
whatever the files contain (unreadable files are listed, not fatal); 2 for bad arguments.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import click

from toolhist.errors import UsageError
from toolhist.providers import provider_for
from toolhist.scan import ScanResult, scan, session_files

OUT_SUFFIXES = (".csv", ".json", ".parquet")
TOP_RULES = 10


def _check_out(out: str | None) -> None:
    """Refuse an output the scan could not write, before the (possibly long) scan runs."""
    if out is None:
        return
    suffix = Path(out).suffix.lower()
    if suffix not in OUT_SUFFIXES:
        raise UsageError(
            f"--out {out}: unsupported extension {suffix or '(none)'!r}; use .csv, .json or .parquet"
        )
    if suffix == ".parquet" and importlib.util.find_spec("pyarrow") is None:
        raise UsageError(f"--out {out}: .parquet needs pyarrow, which is not installed; use .csv or .json")


def _write(result: ScanResult, out: str) -> None:
    suffix = Path(out).suffix.lower()
    if suffix == ".csv":
        result.frame.to_csv(out, index=False)
    elif suffix == ".parquet":
        result.frame.to_parquet(out, index=False)
    else:
        Path(out).write_text(
            json.dumps(result.frame.to_dict(orient="records"), indent=2, ensure_ascii=False) + "\n",
            encoding="utf-8",
        )


@click.command("scan")
@click.argument("directory", type=click.Path(file_okay=False))
@click.option("--provider", "providers", multiple=True, help="Provider to check (repeatable; default: all).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Worker processes.")
@click.option("--out", help="Write the table here: .csv, .json (list of rows) or .parquet (needs pyarrow).")
def scan_cmd(directory: str, providers: tuple[str, ...], jobs: int, out: str | None) -> None:
    """Validate every session file under DIRECTORY against each provider.

    Prints errors and warnings per file and provider, the files that could not be read (with the
    reason), and the most common rules. A progress bar goes to stderr.
    """
    _check_out(out)
    for name in providers:
        provider_for(name)  # a typo is reported before the progress bar starts
    total = len(session_files(directory))
    with click.progressbar(length=total, label="scanning", file=sys.stderr) as bar:

        def progress(done: int, total: int) -> None:
            bar.update(1)

        result = scan(directory, providers or None, jobs=jobs, progress=progress)
    frame = result.frame
    if frame.empty:
        click.echo("no readable session files")
    else:
        width = max(len(str(f)) for f in frame["file"])
        pwidth = max(len(str(p)) for p in frame["provider"])
        click.echo(f"{'file':<{width}}  {'provider':<{pwidth}}  errors  warnings  error rules")
        for row in frame.itertuples(index=False):
            click.echo(
                f"{row.file!s:<{width}}  {row.provider!s:<{pwidth}}  {row.errors!s:>6}  "
                f"{row.warnings!s:>8}  {row.error_rules}"
            )
    if result.unreadable:
        click.echo(f"\nunreadable ({len(result.unreadable)}):")
        for bad in result.unreadable:
            # a LoadError's text already starts with the file (FILE:LINE:COL: reason)
            click.echo(
                f"  {bad.reason}" if bad.reason.startswith(bad.file) else f"  {bad.file}: {bad.reason}"
            )
    if result.rules:
        click.echo("\nmost common rules:")
        for rule, count in result.rules.most_common(TOP_RULES):
            click.echo(f"  {count:>5}  {rule}")
    if out is not None:
        _write(result, out)
        click.echo(f"\nwrote {out}")
