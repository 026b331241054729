"""``toolhist sessions``: the sessions each agent keeps on this machine, newest first.

Kept out of `toolhist.cli` so the command is one registration line there. Informational: exit 0
whatever the sessions contain (unreadable files are rows with their reason); 2 for bad arguments.
The listing and the verdicts come through the session index (`toolhist.index`): a file's head is
read again only when it changed, a verdict kept until its file or toolhist changes.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import click

from toolhist.cli.indexed import index_file, index_option, open_index, progress, size_text
from toolhist.cli.session_search import print_found, run_search, shown_path
from toolhist.index import (
    WHERE_IT_RAN,
    IndexProblem,
    Query,
    forget,
    judged_rows,
    list_indexed,
    pending,
    refresh,
)
from toolhist.machine import AGENTS, HOME_ENV, Places, SessionRow, judge, places
from toolhist.machine.listing import newest_first, walk
from toolhist.providers import PROVIDERS


def _messages(row: SessionRow) -> str:
    if row.messages is None:
        return "-"
    return f"~{row.messages}" if row.counted == "estimate" else str(row.messages)


def _verdict(row: SessionRow) -> str:
    if row.verdict is None:
        return "-"
    return f"{row.verdict}: {', '.join(row.rules)}" if row.rules else row.verdict


def render_rows(rows: list[SessionRow], home: Path, *, verdicts: bool) -> list[str]:
    """The table ``toolhist sessions`` prints: a header, one line per session, a problem line under it."""
    table = [
        [row.when(), row.agent, _messages(row), row.provider or "-"]
        + ([_verdict(row)] if verdicts else [])
        + [row.project or "-", shown_path(row.path, home)]
        for row in rows
    ]
    header = ["modified (UTC)", "agent", "messages", "provider"] + (["verdict"] if verdicts else [])
    header += ["project", "path"]
    widths = [max(len(r[i]) for r in [header, *table]) for i in range(len(header) - 1)]
    lines = []
    for cells, row in zip([header, *table], [None, *rows], strict=True):
        padded = [
            cell.rjust(widths[i]) if header[i] == "messages" else cell.ljust(widths[i])
            for i, cell in enumerate(cells[:-1])
        ]
        lines.append("  ".join([*padded, cells[-1]]))
        if row is not None and row.problem is not None:
            lines.append(f"    unreadable: {row.problem}")
    return lines


@click.command("sessions")
@click.option(
    "--agent",
    "agents",
    multiple=True,
    type=click.Choice(AGENTS),
    help="Only this agent's sessions (repeatable; default: every agent).",
)
@click.option(
    "--home",
    type=click.Path(file_okay=False, exists=True, path_type=Path),
    help=f"Read this folder as the home folder (default: ${HOME_ENV}, else yours). "
    "The agents' own variables (CODEX_HOME, CLAUDE_CONFIG_DIR…) are then ignored.",
)
@click.option(
    "--verdict",
    "verdicts",
    is_flag=True,
    help="Also read each session whole and check it on the provider it ran on (slower: the default "
    "listing reads only each file's first 256 KiB).",
)
@click.option(
    "--where",
    is_flag=True,
    help="List the folders looked in instead of the sessions (the current folder's .crush, .opencode too).",
)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of sessions.")
@index_option
@click.option(
    "--no-index",
    is_flag=True,
    help="Read every file's head (and with --verdict every session) again, without the session index.",
)
@click.option(
    "--forget", is_flag=True, help="Delete the session index (it holds text from your sessions) and exit."
)
@click.option(
    "--search",
    "text",
    default="",
    help="Find the messages holding TEXT (case-insensitive), in every session.",
)
@click.option(
    "--tool", metavar="NAME", help="Find the messages calling this tool, or holding a result of it."
)
@click.option("--call-id", metavar="ID", help="Find the call with this id and the results answering it.")
@click.option(
    "--rule", metavar="ID", help="Find the sessions breaking this rule (on the provider each ran on)."
)
@click.option(
    "--provider",
    type=click.Choice(PROVIDERS),
    help="With --rule: judge every session on this provider instead of the one it ran on.",
)
@click.option("--limit", type=click.IntRange(min=1), default=100, show_default=True, help="Hits to print.")
def sessions_cmd(  # noqa: PLR0917 - click passes every option as an argument
    agents: tuple[str, ...],
    home: Path | None,
    verdicts: bool,
    where: bool,
    as_json: bool,
    index_path: Path | None,
    no_index: bool,
    forget: bool,
    text: str,
    tool: str | None,
    call_id: str | None,
    rule: str | None,
    provider: str | None,
    limit: int,
) -> None:
    """List the sessions each agent keeps on this machine, newest first.

    Claude Code, Codex, Gemini CLI, VS Code chat, Cline, Roo, Kilo and llxprt, in the folders each
    uses on Linux, macOS and Windows. Per session: last modified, agent, messages, the provider it
    ran on, the project and the file. Messages are counted from the file's first 256 KiB (message
    records found by a byte search; "~" marks a count scaled from the part read); with --verdict
    they are the messages read. A file that cannot be read is listed with the reason.

    The heads and verdicts are kept in the session index (see --index): a file is read again only
    when its size or modification time changes. --forget deletes the index.

    --search, --tool, --call-id and --rule search every session's messages instead of listing them
    (given together, a hit meets them all): each session is read whole into the index once, and
    again only when it changes. Only each message's first 4,096 characters are searched.
    """
    if forget:
        _forget(index_file(index_path))
        return
    found = places(home)
    if where:
        for agent, folder in found.where():
            if not agents or agent in agents:
                state = "found" if folder.is_dir() else "absent"
                here = "  (in the current folder)" if found.in_cwd(folder) else ""
                click.echo(f"{agent:<11}  {state:<6}  {shown_path(folder, found.home)}{here}")
        return
    query = Query(text, tool, call_id, rule, provider, agents)
    if not query.empty:
        _search(found, query, index_path, no_index=no_index, limit=limit, as_json=as_json)
        return
    if provider is not None:
        raise click.UsageError("--provider goes with --rule")
    rows = _rows(found, agents or AGENTS, verdicts, None if no_index else index_file(index_path))
    if as_json:
        click.echo(json.dumps([row.to_json() for row in rows], indent=2, ensure_ascii=False))
        return
    if not rows:
        click.echo(f"no sessions found under {found.home} (see `toolhist sessions --where`)")
        return
    click.echo("\n".join(render_rows(rows, found.home, verdicts=verdicts)))
    counts = Counter(row.agent for row in rows)
    unreadable = sum(row.problem is not None for row in rows)
    by_agent = ", ".join(f"{agent} {counts[agent]}" for agent in AGENTS if counts[agent])
    click.echo(f"{len(rows)} sessions ({by_agent}); {unreadable} unreadable")


def _forget(path: Path) -> None:
    """Delete the index file; say what was removed."""
    removed = forget(path)
    click.echo(
        f"removed the session index {path} ({size_text(removed)})"
        if removed
        else f"no session index at {path}"
    )


def _search(
    found: Places, query: Query, index_path: Path | None, *, no_index: bool, limit: int, as_json: bool
) -> None:
    """Bring the listed sessions into the index and print the hits (the index is needed: exit 2 without)."""
    if no_index:
        raise click.UsageError(
            "--search, --tool, --call-id and --rule need the session index (not --no-index)"
        )
    with open_index(index_file(index_path), found) as conn, progress() as shown:
        listing = list_indexed(conn, found, query.agents or AGENTS, shown)
        results = run_search(conn, found.home, listing, query, limit=limit, progress=shown)
    print_found(results, found.home, as_json=as_json)


def _rows(where: Places, agents: tuple[str, ...], verdicts: bool, index: Path | None) -> list[SessionRow]:
    """The listed rows (judged with ``verdicts``), through the index at ``index`` unless it is None.

    An index that cannot be opened or written is one line on stderr; the listing goes on without it.
    """
    if index is not None:
        try:
            with open_index(index, where) as conn, progress() as shown:
                listing = list_indexed(conn, where, agents, shown)
                if not verdicts:
                    return listing.rows
                refresh(conn, str(where.home), pending(conn, listing, (WHERE_IT_RAN,)), shown)
                # what the index holds no verdict for (a session kept as a folder: OpenHands) is
                # judged here, as without the index
                return [row if row.verdict is not None else judge(row) for row in judged_rows(conn, listing)]
        except IndexProblem as exc:
            click.echo(f"toolhist: note: {exc}; listing without it", err=True)
    rows = newest_first(list(walk(where, agents)))
    return [judge(row) for row in rows] if verdicts else rows
