"""``toolhist switch``: the switch what-if (`toolhist.switch`) on a file.

Kept out of `toolhist.cli` so the command is one registration line there. Informational: exit 0
whatever the verdicts; 2 for unreadable input or bad arguments (mapped by ``toolhist.cli.main``).
"""

from __future__ import annotations

import json

import click

from toolhist.cli.options import format_option, strategies_option
from toolhist.errors import UsageError
from toolhist.readers import load


@click.command("switch")
@click.argument("file", type=click.Path())
@click.option(
    "--at",
    "at",
    type=int,
    multiple=True,
    required=True,
    help="Message index of the switch; again (with --back-to) the return's (default: the end).",
)
@click.option("--to", "to", required=True, help="The provider the session switches to.")
@click.option("--back-to", "back_to", default=None, help="The provider the session returns to.")
@click.option("--from", "origin", default=None, help="The provider that made the messages before the switch.")
@click.option("--to-model", "to_model", default=None, help="The model on the provider switched to.")
@click.option("--back-model", "back_model", default=None, help="The model on the provider returned to.")
@strategies_option("Strategies to compare (repeatable; default: all of them).")
@format_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object, the bodies included.")
def switch_cmd(  # noqa: PLR0917 - click passes every option as an argument
    file: str,
    at: tuple[int, ...],
    to: str,
    back_to: str | None,
    origin: str | None,
    to_model: str | None,
    back_model: str | None,
    strategies: tuple[str, ...],
    fmt: str | None,
    as_json: bool,
) -> None:
    r"""What FILE's history does when the session switches provider at message N, and comes back.

    \b
    toolhist switch FILE --at N --to B [--back-to A --at M]
    The history up to N as each strategy hands it to B, B's verdict; with --back-to, the history up
    to M (default: the end) with messages N.. made by B (B's reasoning tokens and call ids) as each
    strategy hands it to A, A's verdict. Reasoning tokens another provider made are named, with the
    provider's error text: the body alone cannot show who made a signature.
    """
    from toolhist.switch import switch
    from toolhist.switch.text import report_lines

    if len(at) > 2:
        raise UsageError("--at is given once (the switch) or twice (the switch, then the return)")
    back_at = at[1] if len(at) == 2 else None
    session = load(file, format=fmt)
    report = switch(
        session,
        at[0],
        to,
        back_to=back_to,
        back_at=back_at,
        origin=origin,
        to_model=to_model,
        back_model=back_model,
        strategies=list(strategies) or None,
        name=file,
    )
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return
    for line in report_lines(report):
        click.echo(line)
