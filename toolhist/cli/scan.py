"""``toolhist scan``: validate every session file under a directory and write one table.

Kept out of `toolhist.cli` so the command is one registration line there. Informational: exit 0
whatever the files contain (unreadable files are listed, not fatal); 2 for bad arguments, and for
a missing ``fleet`` extra (`needs`): the fleet modules are imported only once the command runs, so
the rest of the CLI works on toolhist's core.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from toolhist.atomic import replacing
from toolhist.errors import UsageError
from toolhist.extras import ExtraMissing, missing
from toolhist.providers import provider_for

if TYPE_CHECKING:
    from toolhist.scan import ScanResult

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


def needs(
    sources: Sequence[str], *, jobs: int, scheduler: str | None, out: str | None, dataset: str | None
) -> None:
    """`ExtraMissing` (the ``fleet`` extra) when a module these options use is not installed.

    pandas always (the tables); distributed for ``--jobs`` above 1 or ``--scheduler``; fsspec for a
    URL source; pyarrow for ``--dataset`` or a ``.parquet`` output.
    """
    from toolhist.fleet.inputs import is_url  # the standard library only

    wanted = ["pandas"]
    if jobs > 1 or scheduler is not None:
        wanted.append("distributed")
    if any(is_url(s) for s in sources):
        wanted.append("fsspec")
    if dataset is not None or (out is not None and Path(out).suffix.lower() == ".parquet"):
        wanted.append("pyarrow")
    gone = missing("fleet", wanted)
    if gone:
        raise ExtraMissing("toolhist scan", "fleet", gone)


def _write(result: ScanResult, out: str) -> None:
    """Write the table, every string redacted (it is shared), whole or not at all (`toolhist.atomic`)."""
    from toolhist.redact import redact_text

    frame = result.frame.map(lambda v: redact_text(v)[0] if isinstance(v, str) else v)
    suffix = Path(out).suffix.lower()
    with replacing(out) as temp:
        if suffix == ".csv":
            frame.to_csv(temp, index=False)
        elif suffix == ".parquet":
            frame.to_parquet(temp, index=False)
        else:
            temp.write_text(
                json.dumps(frame.to_dict(orient="records"), indent=2, ensure_ascii=False) + "\n",
                encoding="utf-8",
            )


def _options(pairs: tuple[str, ...]) -> dict[str, Any]:
    """``--storage-option KEY=VALUE`` pairs as fsspec keyword arguments (JSON values: ``anon=true``)."""
    options: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise UsageError(f"--storage-option {pair!r}: expected KEY=VALUE")
        try:
            options[key] = json.loads(value)
        except json.JSONDecodeError:
            options[key] = value
    return options


class _Progress:
    """``scanning 120/2000 files, 45.2 sessions/s, 3 unreadable`` on stderr.

    Redrawn in place on a terminal, every `EVERY` seconds otherwise (a CI log), and once at the end.
    """

    EVERY = 10.0

    def __init__(self) -> None:
        from toolhist.fleet.run import Rate

        self.rate = Rate()
        self.tty = sys.stderr.isatty()
        self.shown = 0.0
        self.total = 0

    def __call__(self, done: int, total: int) -> None:
        self.total = total
        now = time.monotonic()
        if self.tty or now - self.shown >= self.EVERY or done == total:
            self.shown = now
            end = "\n" if done == total or not self.tty else ""
            click.echo(f"\rscanning {done}/{total} files, {self.rate.line()}", err=True, nl=False)
            click.echo(end, err=True, nl=False)


@click.command("scan")
@click.argument("sources", nargs=-1, required=True)
@click.option("--provider", "providers", multiple=True, help="Provider to check (repeatable; default: all).")
@click.option(
    "--jobs", type=click.IntRange(min=1), default=1, show_default=True, help="Local Dask worker processes."
)
@click.option("--scheduler", help="Run on this Dask cluster (tcp://host:8786) instead of this machine.")
@click.option(
    "--storage-option",
    "storage",
    multiple=True,
    metavar="KEY=VALUE",
    help="fsspec option for URLs (repeatable): endpoint_url=http://127.0.0.1:9000, anon=true.",
)
@click.option(
    "--files-per-task",
    type=click.IntRange(min=1),
    default=1,
    show_default=True,
    help="Files per Dask task (more: less scheduler overhead on fleets of small files).",
)
@click.option("--out", help="Write the table here: .csv, .json (list of rows) or .parquet (needs pyarrow).")
@click.option(
    "--dataset",
    type=click.Path(file_okay=False),
    help="Write the fleet dataset here (Parquet, partitioned by provider): sessions, violations, unreadable.",
)
def scan_cmd(  # noqa: PLR0917 (click passes every option by position)
    sources: tuple[str, ...],
    providers: tuple[str, ...],
    jobs: int,
    scheduler: str | None,
    storage: tuple[str, ...],
    files_per_task: int,
    out: str | None,
    dataset: str | None,
) -> None:
    """Validate every session file SOURCES name against each provider.

    SOURCES are folders, globs or fsspec URLs (s3://bucket/prefix with toolhist[s3]). Prints errors
    and warnings per file and provider, the files that could not be read (with the reason), and the
    most common rules; with --dataset, a per-provider summary instead of the per-file table.
    Progress (files done, sessions/s, unreadable files) goes to stderr.
    """
    _check_out(out)
    for name in providers:
        provider_for(name)  # a typo is reported before the progress display starts
    needs(sources, jobs=jobs, scheduler=scheduler, out=out, dataset=dataset)
    from toolhist.scan import scan

    shown = _Progress()
    result = scan(
        sources,
        providers or None,
        jobs=jobs,
        progress=shown,
        scheduler=scheduler,
        storage_options=_options(storage),
        dataset=dataset,
        keep_rows=dataset is None or out is not None,
        on_result=shown.rate.add,
        files_per_task=files_per_task,
    )
    if dataset is not None:
        _summary(dataset)
        if out is not None:
            _write(result, out)
            click.echo(f"\nwrote {out}")
        return
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
        # ties by name: on a cluster the tasks finish in any order, and so would the counts' insertion
        for rule, count in sorted(result.rules.items(), key=lambda kv: (-kv[1], kv[0]))[:TOP_RULES]:
            click.echo(f"  {count:>5}  {rule}")
    if out is not None:
        _write(result, out)
        click.echo(f"\nwrote {out}")


def _summary(dataset: str) -> None:
    """Per provider: sessions, rejected share, top error rules; then the unreadable count."""
    from toolhist.fleet.dataset import read_table
    from toolhist.fleet.summary import per_provider, top_rules

    sessions = read_table(dataset, "sessions")
    unreadable = read_table(dataset, "unreadable")
    table = per_provider(sessions)
    width = max([10, *(len(str(p)) for p in table["provider"])])
    click.echo(f"{'provider':<{width}}  sessions  rejected  share  top error rules")
    for row in table.itertuples(index=False):
        click.echo(
            f"{row.provider!s:<{width}}  {row.sessions:>8}  {row.rejected:>8}  {row.share:>5.1%}  "
            f"{row.top_rules}"
        )
    click.echo(f"\nunreadable files: {len(unreadable)}")
    rules = top_rules(sessions, TOP_RULES)
    if not rules.empty:
        click.echo("\nmost common error rules (sessions rejected for it):")
        for rule, count in zip(rules["rule"], rules["sessions"], strict=True):
            click.echo(f"  {count:>7}  {rule}")
    click.echo(f"\nwrote {dataset}")
