"""``toolhist verify``: send the judged request (opt-in), record the answer beside the prediction.

``toolhist verify FILE --provider P`` says what it would send (URL, model, bytes, estimated tokens,
the key's variable, what it changes for the least cost, toolhist's prediction) and asks; ``--yes``
sends without asking. ``toolhist verify --ledger`` lists what was sent and answered; ``--export FILE``
writes the ledger as structure only, for a bug report about a wrong verdict (`toolhist.verify.ledger`).

Exit codes: 0 the answer confirms the prediction (or the ledger was listed); 1 it does not (a wrong
verdict, or an answer that says nothing about the history); 2 nothing was sent (bad arguments, no
key, no answer, or the question answered no).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from toolhist.cli.options import format_option, peer_versions_option, strategy_option
from toolhist.errors import UsageError

ROUTES = {"auto": None, "generate": "generate", "count-tokens": "count_tokens"}


def _emit_json(value: Any) -> None:
    click.echo(json.dumps(value, indent=2, ensure_ascii=False))


@click.command("verify")
@click.argument("file", required=False, type=click.Path(dir_okay=False))
@click.option("--provider", help="The provider to send to (see `toolhist providers`).")
@strategy_option(
    "none", "Curation strategy applied first, as `check --strategy` (see `toolhist strategies`)."
)
@format_option
@peer_versions_option
@click.option("--model", help="The model to ask for (default: the one the request names).")
@click.option(
    "--endpoint",
    "route",
    type=click.Choice(list(ROUTES)),
    default="auto",
    show_default=True,
    help="count-tokens: Anthropic's free validating endpoint; generate: the generating one; "
    "auto: count-tokens on Anthropic's own host, generate everywhere else.",
)
@click.option("--yes", is_flag=True, help="Send without asking (the request is still printed).")
@click.option(
    "--timeout", type=float, default=60.0, show_default=True, help="Seconds to wait for the answer."
)
@click.option("--json", "as_json", is_flag=True, help="Print JSON (the plan, then the ledger row).")
@click.option("--ledger", "show_ledger", is_flag=True, help="List the ledger instead of sending anything.")
@click.option(
    "--export",
    "export_to",
    type=click.Path(dir_okay=False),
    help="With --ledger: write the ledger as structure only (no text, ids or keys) to this file.",
)
def verify_cmd(
    file: str | None,
    *,
    provider: str | None,
    strategy: str,
    fmt: str | None,
    model: str | None,
    route: str,
    yes: bool,
    timeout: float,
    as_json: bool,
    show_ledger: bool,
    export_to: str | None,
) -> None:
    """Send FILE's request to PROVIDER with your key, and record the answer beside toolhist's prediction.

    Nothing is sent without --yes or a yes to the question. The key is read from the provider's
    usual variable (OPENAI_API_KEY, ANTHROPIC_API_KEY, GEMINI_API_KEY, MISTRAL_API_KEY,
    MOONSHOT_API_KEY, AWS credentials) and goes nowhere else; the base-URL variables the SDKs read
    (OPENAI_BASE_URL, ANTHROPIC_BASE_URL…) point it at a gateway or a local server.
    """
    if show_ledger:
        if file is not None or provider is not None:
            raise UsageError("--ledger lists the ledger: give no FILE or --provider with it")
        _ledger(as_json, export_to)
        return
    if export_to is not None:
        raise UsageError("--export writes the ledger: use it with --ledger")
    if file is None or provider is None:
        raise UsageError("give FILE and --provider (or --ledger to list what was sent)")
    from toolhist.readers import load_document
    from toolhist.verify import plan
    from toolhist.verify.text import plan_json, plan_lines

    doc, session = load_document(file, fmt)
    chosen = plan(doc, session, provider, strategy=strategy, model=model, route=ROUTES[route])  # type: ignore[arg-type]
    if as_json:
        _emit_json({"plan": plan_json(chosen)})
    else:
        click.echo("\n".join(plan_lines(chosen)))
    if chosen.key_var is None and chosen.transport != "botocore":
        raise UsageError(f"no API key for {chosen.provider}: set {' or '.join(chosen.endpoint.key_vars)}")
    if not yes and not _asked(f"Send this request to {chosen.url} with your key?"):
        raise UsageError("nothing was sent")
    _send(chosen, timeout, as_json)


def _asked(question: str) -> bool:
    """The user's yes (on stderr, so a ``--json`` plan on stdout stays JSON); no input is a no."""
    try:
        return click.confirm(question, default=False, err=True)
    except click.exceptions.Abort:
        click.echo("", err=True)
        return False


def _send(chosen: Any, timeout: float, as_json: bool) -> None:
    from toolhist.verify import confirm
    from toolhist.verify.text import answer_lines

    entry, path = confirm(chosen, timeout=timeout)
    if as_json:
        _emit_json({"row": entry, "ledger": str(path)})
    else:
        for line in answer_lines(entry):
            click.echo(line)
        click.echo(f"ledger     {path}")
        if entry["outcome"] in ("false-alarm", "missed", "other-rule"):
            click.echo(
                "report it  toolhist verify --ledger --export verdict.json (structure only) "
                "and attach the file"
            )
    if entry["outcome"] != "confirmed":
        raise click.exceptions.Exit(1)


def _ledger(as_json: bool, export_to: str | None) -> None:
    from toolhist.verify import export, ledger_path, read

    path = ledger_path()
    rows, bad = read(path)
    for line in bad:
        click.echo(f"toolhist: {line}", err=True)
    if export_to is not None:
        Path(export_to).write_text(
            json.dumps(export(rows), indent=2, ensure_ascii=False) + "\n", encoding="utf-8"
        )
        click.echo(f"wrote {len(rows)} row(s), structure only, to {export_to}")
        return
    if as_json:
        _emit_json({"ledger": str(path), "rows": rows, "unreadable": bad})
        return
    if not rows:
        click.echo(f"{path}: nothing sent yet")
        return
    click.echo(f"{path}: {len(rows)} row(s)")
    for n, r in enumerate(rows, start=1):
        predicted = ",".join(r["predicted"]["errors"]) or "accepted"
        answered = r["answer"]["rule"] or "-"
        click.echo(
            f"{n:>3}  {r['time']}  {r['provider']:<16} {r['model']:<24} {r['answer']['status']}  "
            f"predicted {predicted}; answered {answered}  {r['outcome']}"
        )
