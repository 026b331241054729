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


@cli.command("providers")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def providers_cmd(as_json: bool) -> None:
    """List the providers toolhist renders and validates for."""
    from toolhist.providers import PROVIDER_REGISTRY

    rows = [{"name": p.name, "title": p.title, "rules": len(p.rules)} for p in PROVIDER_REGISTRY.values()]
    if as_json:
        _emit_json(rows)
        return
    for row in rows:
        click.echo(f"{row['name']:<17} {row['title']} ({row['rules']} rules)")


@cli.command("strategies")
def strategies_cmd() -> None:
    """List the curation strategies (--strategy)."""
    click.echo("none  no repair: the history as the source had it, ids untouched")


@cli.command("rules")
@click.option("--provider", "provider", help="Only this provider's rules.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def rules_cmd(provider: str | None, as_json: bool) -> None:
    """List every rule: provider, slug, severity and what it enforces."""
    from toolhist.providers import all_rules

    rules = all_rules(provider)
    if as_json:
        _emit_json(
            [
                {
                    "provider": r.provider,
                    "rule": r.id,
                    "severity": r.severity,
                    "summary": r.summary,
                    "error_text": r.template,
                    "source": r.source,
                    "fix": r.fix,
                    "model_dependent": r.applies is not None,
                }
                for r in rules
            ]
        )
        return
    for r in rules:
        click.echo(f"{r.provider:<17} {r.id:<28} {r.severity:<8} {r.summary}")
    click.echo(f"{len(rules)} rules")


@cli.command("check")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--provider", "providers", multiple=True, help="Provider to check (repeatable; default: all).")
@click.option(
    "--strategy", default="none", show_default=True, help="Curation strategy applied before checking."
)
@click.option(
    "--format", "fmt", type=click.Choice(list(READERS)), help="Skip detection and read as this format."
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (DESIGN §6).")
def check_cmd(file: str, providers: tuple[str, ...], strategy: str, fmt: str | None, as_json: bool) -> None:
    """Which providers would reject FILE with HTTP 400, where, and with which error text.

    Exit 0 when no provider has an error-level violation, 1 when one has.
    """
    from toolhist.check import check

    result = check(file, list(providers) or None, strategy=strategy, format=fmt)
    if as_json:
        _emit_json(result.to_json())
    else:
        click.echo(f"{result.file}: {result.format}, {result.messages} messages")
        for name, found in result.results.items():
            errors = sum(v.severity == "error" for v in found)
            warnings = len(found) - errors
            how = " (the body as sent)" if name in result.as_sent else ""
            verdict = "ok" if not found else f"{errors} error(s), {warnings} warning(s)"
            click.echo(f"{name:<17} {verdict}{how}")
            for v in found:
                where = f" (message {v.message_index})" if v.message_index is not None else ""
                click.echo(f"  {v.severity:<7} {v.rule:<24} {v.path}{where}")
                click.echo(f"          {v.error_text}")
    if result.errors():
        raise click.exceptions.Exit(1)


@cli.command("render")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--provider", required=True, help="The provider whose request body to print.")
@click.option("--strategy", default="none", show_default=True, help="Curation strategy applied first.")
@click.option(
    "--format", "fmt", type=click.Choice(list(READERS)), help="Skip detection and read as this format."
)
@click.option("--json", "as_json", is_flag=True, help="Also print the source map and what was omitted.")
def render_cmd(file: str, provider: str, strategy: str, fmt: str | None, as_json: bool) -> None:
    """Print the exact request body PROVIDER would receive for FILE."""
    from toolhist.providers import render

    payload = render(load(file, format=fmt), provider, strategy=strategy)
    if as_json:
        _emit_json(payload.model_dump(mode="json"))
        return
    _emit_json(payload.body)
    for note in payload.omitted:
        click.echo(f"toolhist: omitted: {note}", err=True)


@cli.command("explain")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--text", "text", help="The error text as the provider (or a gateway) returned it.")
@click.option(
    "--text-file",
    "text_file",
    type=click.Path(dir_okay=False, exists=True),
    help="Read the error text from a file.",
)
@click.option("--format", "fmt", type=click.Choice(list(READERS)), help="Read FILE as this format.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def explain_cmd(
    file: str | None, text: str | None, text_file: str | None, fmt: str | None, as_json: bool
) -> None:
    """Say which provider rule an HTTP 400 text is, and (with FILE) which message breaks it."""
    from pathlib import Path

    from toolhist.explain import explain

    if (text is None) == (text_file is None):
        raise UsageError("give the error text with exactly one of --text or --text-file")
    error = text if text is not None else Path(str(text_file)).read_text(encoding="utf-8", errors="replace")
    result = explain(error, load(file, format=fmt) if file else None)
    if as_json:
        _emit_json(result.model_dump(mode="json"))
        return
    if result.rule is None:
        click.echo(f"unknown: {result.reason}")
        return
    click.echo(f"provider  {result.provider}")
    click.echo(f"rule      {result.rule}")
    click.echo(f"error     {result.error_text}")
    if result.message_index is not None:
        block = f", block {result.block_index}" if result.block_index is not None else ""
        click.echo(f"culprit   message {result.message_index}{block}")
    if result.call_ids:
        click.echo(f"call ids  {', '.join(result.call_ids)}")
    click.echo(f"meaning   {result.meaning}")
    click.echo(f"fix       {result.fix}")


@cli.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of the canonical Session form."""
    _emit_json(json_schema())


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI and map every failure to one stderr line and an exit code."""
    try:
        code = cli.main(args=argv, prog_name="toolhist", standalone_mode=False)
        if isinstance(code, int):  # click returns Exit codes instead of raising without standalone mode
            return code
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
