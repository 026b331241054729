"""``toolhist check``: which providers reject a file, printed provider by provider.

Each provider's verdict is printed as it is made and then let go (`toolhist.check.Checking`), so a
gigabyte log's violations are never all in memory at once (issue 26); the output is the one
`toolhist.check.check` gives, line for line. ``--json`` prints `toolhist.check.CheckResult.to_json`,
written the same way (`toolhist.cli.streamed`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

import click

from toolhist._gc import paused
from toolhist.cli import ECHO_BATCH, violation_entry
from toolhist.cli.options import format_option, peer_versions_option, strategy_option
from toolhist.cli.progress import Progress

if TYPE_CHECKING:
    from toolhist.check import CheckResult
    from toolhist.providers import Violation


@click.command("check")
@click.argument("file", type=click.Path())
@click.option("--provider", "providers", multiple=True, help="Provider to check (repeatable; default: all).")
@strategy_option("none", "Curation strategy applied before checking (see `toolhist strategies`).")
@format_option
@peer_versions_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (DESIGN §6).")
def check_cmd(file: str, providers: tuple[str, ...], strategy: str, fmt: str | None, as_json: bool) -> None:
    """Which providers would reject FILE with HTTP 400, where, and with which error text.

    A request body is judged as sent; an agent log as the request the agent would send next (its
    history plus the next user turn or the pending results); the output says which. Exit 0 when
    no provider has an error-level violation, 1 when one has.
    """
    with Progress() as progress:
        reading = progress.reading(file)

        def steps(stage: str, done: int, total: int) -> None:
            if stage == "read":
                reading(done, total)
            else:
                progress.show(f"checking {os.path.basename(file)}  {stage} ({done + 1}/{total})", now=True)

        shown = _check_json if as_json else _check_text
        errors = shown(file, providers, strategy, fmt, steps=steps, progress=progress)
    if errors:
        raise click.exceptions.Exit(1)


@paused
def _check_text(
    file: str,
    providers: tuple[str, ...],
    strategy: str,
    fmt: str | None,
    *,
    steps: Callable[[str, int, int], None],
    progress: Progress,
) -> int:
    """``check``'s text output, each provider's verdict printed as it is made and then let go.

    The same lines `toolhist.check.check` would give, in the same order, but no provider's
    violations outlive its own lines (`toolhist.check.Checking`: issue 26, peak memory). The status
    line is erased before each provider's lines are printed. Returns the error-level violations.
    """
    from toolhist.check import is_as_sent, start
    from toolhist.judgement import describe
    from toolhist.ran_on import ran_on, said

    run = start(file, list(providers) or None, strategy=strategy, format=fmt, steps=steps)
    session = run.session
    progress.clear()
    click.echo(f"{run.doc.name}: {session.source.format}, {len(session.messages)} messages")
    click.echo(describe(run.judged.judgement, run.judged.appended))
    where = ran_on(session)
    if where is not None:
        click.echo(said(where))
    errors = 0
    for name, each in run.streams(steps):
        counts, lines = _written(each)
        del each  # the provider's body and source map go before the next provider renders its own
        progress.clear()
        errors += counts[0]
        _echo_counts(name, *counts, as_sent=is_as_sent(session, name, strategy))
        for text in lines:
            click.echo(text)
        del lines
    _echo_read(run.result({}))
    return errors


def _written(found: Iterator[Violation]) -> tuple[tuple[int, int], list[str]]:
    """The error and warning counts of ``found`` and its lines (`_echo_violations`'), taken one by one.

    A verdict's lines must follow its counts, so they are written out as each violation is made
    and the Violation let go: the lines, in text of `ECHO_BATCH` entries, are a third of the
    Violations' memory (Mistral's 370,000 on a 1 GB Codex rollout: ~220 MB as Violations; issue 26).
    """
    errors = warnings = 0
    lines: list[str] = []
    batch: list[str] = []
    for v in found:
        if v.severity == "error":
            errors += 1
        else:
            warnings += 1
        batch.append(violation_entry(v))
        if len(batch) == ECHO_BATCH:
            lines.append("\n".join(batch))
            batch = []
    if batch:
        lines.append("\n".join(batch))
    return (errors, warnings), lines


@paused
def _check_json(
    file: str,
    providers: tuple[str, ...],
    strategy: str,
    fmt: str | None,
    *,
    steps: Callable[[str, int, int], None],
    progress: Progress,
) -> int:
    """``check --json``: `toolhist.check.CheckResult.to_json` written provider by provider.

    The bytes ``_emit_json(check(...).to_json())`` would print, but each provider's violations
    are written as they are made and let go (`toolhist.cli.streamed`: issue 26, peak memory). The
    status line is erased before each write, and each write ends a line: a status drawn over a
    half-written line would erase it from a terminal that shows both. Returns the error-level
    violations.
    """
    from toolhist.check import start
    from toolhist.cli.streamed import write_check_json

    run = start(file, list(providers) or None, strategy=strategy, format=fmt, steps=steps)

    held = [""]  # the last line begun: written with the next write, after the status is drawn

    def write(text: str) -> None:
        text = held[0] + text
        cut = text.rfind("\n") + 1
        held[0] = text[cut:]
        if cut:
            progress.clear()
            click.echo(text[:cut], nl=False)

    return write_check_json(run.result({}), run.verdicts(steps), write)


def _echo_counts(name: str, errors: int, warnings: int, *, as_sent: bool) -> None:
    """A provider's verdict line: ``ok`` or the counts (its violations follow: `_written`)."""
    how = " (the body as sent)" if as_sent else ""
    verdict = "ok" if not errors + warnings else f"{errors} error(s), {warnings} warning(s)"
    click.echo(f"{name:<17} {verdict}{how}")


def _echo_read(result: CheckResult) -> None:
    """After the verdicts: what the log kept but does not send, what the reader skipped, its notes."""
    for kind, n in result.unsent.items():
        click.echo(f"kept, not sent: {kind} x{n}")
    for kind, n in result.skipped.items():
        click.echo(f"skipped (the reader does not know it): {kind} x{n}")
    for note in result.notes:
        click.echo(f"note: {note}")
