"""The ``toolhist`` command.

Exit codes are a contract (DESIGN §6): 0 success, 1 violations found (``check``), 2 unreadable
input or bad arguments. Every failure is one line on stderr; a traceback never reaches the user,
even for a bug (that is exit 3 with a line asking for a report).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from importlib import import_module
from typing import TYPE_CHECKING, Any, ClassVar

import click

from toolhist import __version__
from toolhist.cli.options import format_option, peer_versions_option, strategy_option
from toolhist.cli.progress import EXIT_INTERRUPTED, Interrupted, load_shown, stoppable
from toolhist.errors import LoadError, ToolhistError, UsageError
from toolhist.model import json_schema
from toolhist.readers import READERS
from toolhist.summary import Summary, summarize

if TYPE_CHECKING:
    from toolhist.explain import Explanation
    from toolhist.providers import Violation

EXIT_USAGE = 2
EXIT_INTERNAL = 3


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


class _Commands(click.Group):
    """The command group; commands kept in modules of their own are imported only when run.

    ``toolhist scan`` brings pandas and the fleet machinery, ``report`` the views: importing them for
    every ``toolhist check`` cost a second of start-up and tens of MB of memory before any work.
    ``--help`` still lists them all (it imports them then).
    """

    LAZY: ClassVar[dict[str, tuple[str, str]]] = {
        "check": ("check", "check_cmd"),
        "curate": ("curate", "curate_cmd"),
        "compare": ("curate", "compare_cmd"),
        "migrate": ("migrate", "migrate_cmd"),
        "compact": ("compact", "compact_cmd"),
        "scan": ("scan", "scan_cmd"),
        "report": ("report", "report_cmd"),
        "sessions": ("sessions", "sessions_cmd"),
        "peers": ("peers", "peers_cmd"),
        "switch": ("switch", "switch_cmd"),
        "verify": ("verify", "verify_cmd"),
    }
    """Command name → (module in this package, attribute)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.LAZY})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        known = super().get_command(ctx, cmd_name)
        if known is not None or cmd_name not in self.LAZY:
            return known
        module, name = self.LAZY[cmd_name]
        command: click.Command = getattr(import_module(f"toolhist.cli.{module}"), name)
        return command


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="toolhist")
@click.option(
    "--redact",
    is_flag=True,
    help="Replace secrets (API keys, tokens, passwords, private keys) in everything printed.",
)
def cli(redact: bool) -> None:
    """Inspect LLM tool-call histories.

    Read agent logs and provider request bodies; find what a provider would reject with HTTP 400.
    What is printed shows each body exactly as it was sent; ``--redact`` replaces its secrets.
    """
    if redact:
        from toolhist.redact import redacting_streams

        click.get_current_context().with_resource(redacting_streams())


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
@click.argument("file", type=click.Path(allow_dash=False))
@format_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def summary_cmd(file: str, fmt: str | None, as_json: bool) -> None:
    """Detected format and counts: messages, calls, results, unanswered calls, unmatched results."""
    summary = summarize(load_shown(file, fmt))
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
    lines += [f"kept, not sent     {k} x{n}" for k, n in s.unsent.items()]
    lines += [f"skipped (unknown)  {k} x{n}" for k, n in s.skipped.items()]
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
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list instead of a table.")
def strategies_cmd(as_json: bool) -> None:
    """List the curation strategies (--strategy)."""
    from toolhist.curation.strategies import STRATEGY_REGISTRY
    from toolhist.peers.env import find
    from toolhist.peers.pins import LIBRARY_OF_STRATEGY, PINS
    from toolhist.peers.versions import selected

    rows: list[dict[str, Any]] = []
    for s in STRATEGY_REGISTRY.values():
        row: dict[str, Any] = {"name": s.name, "summary": s.summary}
        library = LIBRARY_OF_STRATEGY.get(s.name)
        if library is not None:
            chosen = selected(library)
            env = find(library, chosen.version)
            row["library"] = {
                "name": library,
                "version": chosen.version,
                "why": chosen.why,
                "pin": PINS[library],
                "installed": env is not None,
            }
        rows.append(row)
    if as_json:
        _emit_json(rows)
        return
    width = max(len(row["name"]) for row in rows)
    for row in rows:
        lib = row.get("library")
        runs = ""
        if lib is not None:
            state = "installed" if lib["installed"] else "not installed: run `toolhist peers install`"
            why = "" if lib["why"] == "pin" else f" ({lib['why']}; the pin is {lib['pin']})"
            runs = f" [runs {lib['name']} {lib['version']}{why}, {state}]"
        click.echo(f"{row['name']:<{width}}  {row['summary']}{runs}")


@cli.command("rules")
@click.option("--provider", "provider", help="Only this provider's rules.")
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def rules_cmd(provider: str | None, as_json: bool) -> None:
    """List every rule: provider, slug, severity, the models and dates it holds for, and its evidence."""
    from toolhist.providers import all_rules
    from toolhist.views.rules import condition, dates, models, rule_record

    rules = all_rules(provider)
    if as_json:
        _emit_json([rule_record(r) for r in rules])
        return
    for r in rules:
        kinds = ",".join(dict.fromkeys(e.kind for e in r.evidence))
        applies = models(r) + (" (when…)" if condition(r) else "")
        head = f"{r.provider:<17} {r.id:<30} {r.severity:<8} {applies:<24} {dates(r):<17}"
        click.echo(f"{head} {kinds:<20} {r.summary}")
    click.echo(f"{len(rules)} rules")


ECHO_BATCH = 1000
"""Violations written per ``click.echo`` call: a gigabyte log has hundreds of thousands of them."""


def _echo_violations(found: Sequence[Violation]) -> None:
    """One indented entry per violation: severity, rule, path and message, then the provider's text.

    Written `ECHO_BATCH` entries at a time: one ``click.echo`` per line (its stream lookup, style
    stripping and flush) was 7% of ``toolhist check`` on a 1 GB Claude Code log (issue 26); the
    bytes written are the same.
    """
    for start in range(0, len(found), ECHO_BATCH):
        click.echo("\n".join(map(violation_entry, found[start : start + ECHO_BATCH])))


def violation_entry(v: Violation) -> str:
    """A violation's two lines as ``check`` and ``curate`` write them: where, then the provider's text."""
    where = f" (message {v.message_index})" if v.message_index is not None else ""
    return f"  {v.severity:<7} {v.rule:<24} {v.path}{where}\n          {v.error_text}"


@cli.command("render")
@click.argument("file", type=click.Path())
@click.option("--provider", required=True, help="The provider whose request body to print.")
@strategy_option("none", "Curation strategy applied first (see `toolhist strategies`).")
@format_option
@peer_versions_option
@click.option("--json", "as_json", is_flag=True, help="Also print the source map and what was omitted.")
@click.option(
    "--sdk",
    "via_sdk",
    is_flag=True,
    help="Print the HTTP request the provider's official SDK sends for the body (mock transport, offline).",
)
def render_cmd(
    file: str, provider: str, strategy: str, fmt: str | None, as_json: bool, *, via_sdk: bool
) -> None:
    """Print the exact request body PROVIDER would receive for FILE."""
    from toolhist.providers import render

    payload = render(load_shown(file, fmt), provider, strategy=strategy)
    if via_sdk:
        _render_sdk(payload.body, provider, payload.source_map, as_json)
        return
    if as_json:
        _emit_json(payload.model_dump(mode="json"))
        return
    _emit_json(payload.body)
    for note in payload.omitted:
        click.echo(f"toolhist: omitted: {note}", err=True)


def _render_sdk(
    body: dict[str, Any], provider: str, source_map: Mapping[str, tuple[int, int | None]], as_json: bool
) -> None:
    """``render --sdk``: the captured request on stdout; SDK type violations and notes on stderr."""
    from toolhist import sdk

    found = sdk.check(body, provider, source_map, fill_model=True)
    for v in found:  # first, so they are on screen even when the SDK then refuses the body
        click.echo(f"toolhist: sdk: {v.rule} {v.path}: {v.error_text}", err=True)
    captured = sdk.capture(body, provider)
    if as_json:
        _emit_json(
            {
                "sdk": captured.sdk,
                "version": captured.version,
                "method": captured.method,
                "url": captured.url,
                "headers": captured.headers,
                "dropped_headers": list(captured.dropped_headers),
                "body": captured.body,
                "model_filled": captured.model_filled,
                "violations": [v.model_dump(mode="json") for v in found],
            }
        )
    else:
        click.echo(captured.as_text())
    click.echo(f"toolhist: sdk: {captured.sdk} {captured.version}", err=True)
    if captured.model_filled:
        click.echo(f"toolhist: sdk: the history names no model; sent {sdk.MODEL_PLACEHOLDER!r}", err=True)


@cli.command("explain")
@click.argument("file", required=False, type=click.Path())
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
    """Say which provider rule an HTTP 400 text is, and (with FILE) which message breaks it.

    FILE may be a guard bundle (`toolhist.guard`): its recorded answer is the error text, unless
    --text or --text-file gives another.
    """
    from pathlib import Path

    from toolhist.explain import explain

    if text is not None and text_file is not None:
        raise UsageError("give the error text with exactly one of --text or --text-file")
    session = load_shown(file, fmt) if file else None
    bundle = session.metadata.get("bundle") if session is not None else None
    if text is None and text_file is None:
        if not isinstance(bundle, dict):
            raise UsageError("give the error text with --text or --text-file (or FILE as a toolhist bundle)")
        from toolhist.guard.bundle import error_text

        text = error_text(bundle)
        if not text:
            raise UsageError(f"{file}: the bundle records no error, only an accepted request")
    error = text if text is not None else Path(str(text_file)).read_text(encoding="utf-8", errors="replace")
    result = explain(error, session)
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
    elif file and not result.call_ids and result.provider is not None:
        click.echo(f"in file   {_in_verdict_line(file, fmt, result)}")
    if result.call_ids:
        click.echo(f"call ids  {', '.join(result.call_ids)}")
    click.echo(f"meaning   {result.meaning}")
    click.echo(f"fix       {result.fix}")


def _in_verdict_line(file: str, fmt: str | None, result: Explanation) -> str:
    """Where FILE breaks the rule a text names, for a text that names no message (`explain.in_verdict`)."""
    from toolhist.check import check
    from toolhist.explain import in_verdict
    from toolhist.providers import PROVIDERS

    provider, rule = str(result.provider), str(result.rule)
    if provider not in PROVIDERS:
        return "the text names no message"  # a client-side check (AI SDK, LangGraph): no verdict to ask
    same = in_verdict(result, check(file, [provider], format=fmt).results[provider])
    if not same:
        return (
            f"no {rule} error in this file's {provider} verdict "
            "(the text names no message: the 400 may be about another history)"
        )
    at = sorted({v.message_index for v in same if v.message_index is not None})
    return (
        f"message {at[0]} (the first of {len(same):,} {rule} error(s) in this file's {provider} verdict; "
        "the text names no message)"
    )


@cli.command("bundles")
@click.argument("folder", type=click.Path(file_okay=False, exists=True))
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list.")
def bundles_cmd(folder: str, as_json: bool) -> None:
    """List the guard's capture bundles under FOLDER, newest first: time, provider, model, status, rule."""
    from pathlib import Path

    from toolhist.guard.bundle import listing

    rows, bad = listing(Path(folder))
    if as_json:
        _emit_json(
            {"bundles": [r.to_json() for r in rows], "unreadable": [{"file": f, "reason": r} for f, r in bad]}
        )
        return
    if not rows:
        click.echo(f"{folder}: no bundles")
    for r in rows:
        click.echo(
            f"{r.time}  {r.provider:<16} {r.model or '-':<28} {r.status}  {r.rule or '-':<24} {r.path}"
        )
    for f, reason in bad:
        click.echo(f"skipped {f}: {reason}", err=True)


@cli.command("schema")
def schema_cmd() -> None:
    """Print the JSON Schema of the canonical Session form."""
    _emit_json(json_schema())


def main(argv: list[str] | None = None) -> int:
    """Entry point: run the CLI and map every failure to one stderr line and an exit code.

    Ctrl-C is exit 130 and one line (`toolhist.cli.progress`).
    """
    try:
        with stoppable():
            code = cli.main(args=argv, prog_name="toolhist", standalone_mode=False)
        if isinstance(code, int):  # click returns Exit codes instead of raising without standalone mode
            return code
    except (Interrupted, KeyboardInterrupt):
        click.echo("toolhist: interrupted", err=True)
        return EXIT_INTERRUPTED
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
