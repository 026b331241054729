"""``toolhist migrate``: restore a Kilo/Roo/Cline history's XML-text tool calls as native blocks.

Kept out of `toolhist.cli` so the command is one registration line there. The migrated history is
written to ``-o OUT`` or, without it, to stdout (the report then goes to stderr, so the history can
be piped). ``--json`` prints one object: the report, plus the history when there is no ``-o``.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from toolhist.atomic import write_text
from toolhist.errors import UsageError
from toolhist.migrate import FORMAT_VERSION, Migration, migrate_file


@click.command("migrate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option(
    "--to",
    "target",
    type=click.Choice(["native"]),
    required=True,
    help="The tool style to migrate to (native tool_use / tool_result blocks).",
)
@click.option("-o", "--output", "output", type=click.Path(dir_okay=False), help="Write the history here.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as one JSON object.")
def migrate_cmd(file: str, target: str, output: str | None, as_json: bool) -> None:
    """Turn XML-text tool calls in a Kilo api_conversation_history.json back into tool_use blocks.

    Results become tool_result blocks with the same deterministic ids; what cannot be recovered
    (values printed as [object Object], images dropped on resume) is reported. Migrating twice
    changes nothing.
    """
    migration = migrate_file(file)
    if output is not None:
        if Path(output).resolve() == Path(file).resolve() and not migration.changed:
            pass  # already migrated: leave the file untouched
        else:
            try:
                write_text(output, migration.dumps())  # whole or not at all (`toolhist.atomic`)
            except OSError as exc:
                raise UsageError(f"{output}: cannot write: {exc.strerror or exc}") from None
    if as_json:
        report = _report(file, target, output, migration)
        if output is None:
            report["history"] = migration.history
        click.echo(json.dumps(report, indent=2, ensure_ascii=False))
        return
    if output is None:
        click.echo(migration.dumps(), nl=False)
    for line in _lines(file, output, migration):
        click.echo(line, err=output is None)


def _report(file: str, target: str, output: str | None, m: Migration) -> dict[str, object]:
    return {
        "file": file,
        "to": target,
        "format_version": FORMAT_VERSION,
        "output": output,
        "changed": m.changed,
        "calls": m.calls,
        "results": m.results,
        "issues": [i.model_dump(mode="json") for i in m.issues],
    }


def _lines(file: str, output: str | None, m: Migration) -> list[str]:
    where = output or "stdout"
    if not m.changed:
        head = f"{file}: already migrated (format version {FORMAT_VERSION}); nothing to change"
    else:
        head = f"{file}: {m.calls} call(s) and {m.results} result(s) restored as native blocks -> {where}"
    return [head] + [
        f"  {i.kind:<13} message {i.message_index}"
        + (f" {i.tool_name}" if i.tool_name else "")
        + (f" ({i.call_id})" if i.call_id else "")
        + f": {i.detail}"
        for i in m.issues
    ]
