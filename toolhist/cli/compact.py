"""``toolhist compact``: RFC 026 tool-history compaction of a file, with token figures per tier.

Kept out of `toolhist.cli` so the command is one registration line there. Informational: exit 0
whatever it finds; 2 for unreadable input or bad arguments (mapped by ``toolhist.cli.main``).
"""

from __future__ import annotations

import json

import click

from toolhist.cli.options import format_option
from toolhist.cli.progress import load_shown
from toolhist.compaction import RECENT_CALLS_TO_KEEP, RENDERINGS, TRUNCATION_THRESHOLD, compact
from toolhist.compaction.report import replacement_lines, tier_lines, to_json


@click.command("compact")
@click.argument("file", type=click.Path())
@click.option("--provider", required=True, help="The provider whose tokenizer and rules apply.")
@click.option(
    "--keep",
    type=click.IntRange(min=0),
    default=RECENT_CALLS_TO_KEEP,
    show_default=True,
    help="Recent tool call/result pairs kept verbatim (RFC 026 recentCallsToKeep).",
)
@click.option(
    "--threshold",
    type=click.IntRange(min=0),
    default=TRUNCATION_THRESHOLD,
    show_default=True,
    help="Compact only when the tool pairs total more tokens than this (truncationThreshold).",
)
@click.option(
    "--rendering",
    type=click.Choice(RENDERINGS),
    default="native",
    show_default=True,
    help="native: calls and results stay tool items; text-embed: calls omitted, results as user text.",
)
@format_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (structure below).")
def compact_cmd(  # noqa: PLR0917 - click passes every option as an argument
    file: str, provider: str, keep: int, threshold: int, rendering: str, fmt: str | None, as_json: bool
) -> None:
    r"""Compact FILE's tool history for PROVIDER: tokens per tier before and after, and the summaries.

    Tiers (RFC 026): 1 system + original intent, 2 historical summary, 3 recent tool pairs, 4
    current turn. Token figures are exact for OpenAI models (o200k_base / cl100k_base) and
    labelled "approx (o200k)" for every other provider.

    \b
    --json prints one object:
      {"file", "format", "provider", "rendering", "keep", "threshold",
       "triggered": bool, "reason": str, "pairs": int,
       "tokens": {"encoding", "exact": bool, "label", "tool", "before", "after"},
       "tiers": [{"tier": 1-4, "name", "messages_before", "messages_after",
                  "tokens_before", "tokens_after"}],
       "replacements": [{"call_id", "tool_name", "category", "call_at": [msg, block],
                         "result_at": [msg, block], "summary", "is_error",
                         "result_replaced", "tokens_before"}],
       "summary": str, "notes": [str],
       "messages": {"before": [{"index", "tier", "tokens"}], "after": [...]},
       "session": {"messages": [canonical messages]}}
    """
    session = load_shown(file, fmt)
    result = compact(session, provider, keep=keep, threshold=threshold, rendering=rendering)  # type: ignore[arg-type]
    if as_json:
        click.echo(json.dumps(to_json(result, file), indent=2, ensure_ascii=False))
        return
    click.echo(f"{file}: {session.source.format}, {len(session.messages)} messages, for {result.provider}")
    click.echo(f"tokens     {result.token_label}")
    pairs = f"{result.pair_count} ({result.tool_tokens} tool tokens)"
    click.echo(f"pairs      {pairs}; keep {keep}, threshold {threshold}")
    click.echo(f"rendering  {rendering}")
    click.echo(f"result     {result.reason}")
    click.echo("")
    for line in tier_lines(result):
        click.echo(line)
    click.echo("")
    click.echo(f"replaced   {len(result.replacements)} pair(s)")
    for line in replacement_lines(result):
        click.echo(line)
    if result.summary and rendering == "text-embed":
        click.echo("summary message")
        for line in result.summary.splitlines():
            click.echo(f"  {line}")
    for note in result.notes:
        click.echo(f"note       {note}")
