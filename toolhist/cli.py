"""The ``toolhist`` command.

Exit codes are a contract (DESIGN §6): 0 success, 1 violations found (``check``), 2 unreadable
input or bad arguments. Every failure is one line on stderr; a traceback never reaches the user,
even for a bug (that is exit 3 with a line asking for a report).
"""

from __future__ import annotations

import json
import sys
from typing import Any

import click

from toolhist import __version__
from toolhist.errors import LoadError, ToolhistError, UsageError
from toolhist.formats import READERS, load
from toolhist.model import json_schema
from toolhist.summary import Summary, summarize

EXIT_USAGE = 2
EXIT_INTERNAL = 3


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolhist")
def cli() -> None:
    """Inspect LLM tool-call histories.

    Read agent logs and provider request bodies; find what a provider would reject with HTTP 400.
    """


@cli.command("formats")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def formats_cmd(as_json: bool) -> None:
    """List the source formats toolhist reads (ids for --format)."""
    if as_json:
        _emit_json([{"id": r.id, "description": r.description} for r in READERS.values()])
        return
    width = max(len(r) for r in READERS)
    for reader in READERS.values():
        click.echo(f"{reader.id:<{width}}  {reader.description}")


@cli.command("summary")
@click.argument("file", type=click.Path(dir_okay=False, allow_dash=False))
@click.option(
    "--format", "fmt", type=click.Choice(list(READERS)), help="Skip detection and read as this format."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def summary_cmd(file: str, fmt: str | None, as_json: bool) -> None:
    """Detected format and counts: messages, calls, results, unanswered calls, unmatched results."""
    summary = summarize(load(file, format=fmt))
    if as_json:
        _emit_json(summary.model_dump(mode="json"))
    else:
        click.echo(render_summary(summary))


def render_summary(s: Summary) -> str:
    """The human-readable summary block."""
    speakers = ", ".join(f"{k} {v}" for k, v in s.by_speaker.items())
    lines = [
        f"file               {s.file}",
        f"format             {s.format}",
        f"messages           {s.messages} ({speakers})",
        f"tool calls         {s.tool_calls}",
        f"tool results       {s.tool_results}",
        f"unanswered calls   {len(s.unanswered_calls)}{_ids(s.unanswered_calls)}",
        f"unmatched results  {len(s.unmatched_results)}{_ids(s.unmatched_results)}",
        f"duplicate results  {len(s.duplicate_results)}{_ids(s.duplicate_results)}",
        f"tools declared     {'none' if s.tools_declared is None else s.tools_declared}",
    ]
    lines += [f"note               {n}" for n in s.notes]
    return "\n".join(lines)


def _ids(ids: list[str]) -> str:
    return f": {', '.join(ids)}" if ids else ""


@cli.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of the canonical Session form."""
    _emit_json(json_schema())


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI and map every failure to one stderr line and an exit code."""
    try:
        cli.main(args=argv, prog_name="toolhist", standalone_mode=False)
    except click.exceptions.Exit as exc:
        return int(exc.exit_code)
    except click.exceptions.Abort:
        click.echo("toolhist: aborted", err=True)
        return 1
    except click.ClickException as exc:
        click.echo(f"toolhist: error: {exc.format_message()}", err=True)
        return EXIT_USAGE if exc.exit_code == 2 else exc.exit_code
    except (LoadError, UsageError) as exc:
        click.echo(f"toolhist: error: {exc}", err=True)
        return EXIT_USAGE
    except ToolhistError as exc:
        click.echo(f"toolhist: error: {exc}", err=True)
        return EXIT_USAGE
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: still one line, never a traceback
        click.echo(f"toolhist: internal error: {type(exc).__name__}: {exc} (please report this)", err=True)
        return EXIT_INTERNAL
    return 0


def entry() -> None:
    """Console-script wrapper that exits with `main`'s code."""
    sys.exit(main())


if __name__ == "__main__":
    entry()
