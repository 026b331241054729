"""``toolhist curate`` and ``toolhist compare``: a repair's Changes, and strategies side by side.

``curate`` lists the Changes that repair an error first, each with the rule it repairs, and the ids
as sent (a ``rewrite_id`` shows old → sent; strategy ``canonical`` prints its id map once instead).
``compare`` says ``not run`` for a strategy whose library is not installed, with the command that
installs it, never zero changes and zero errors. Exit codes: DESIGN §6 (``curate`` exits 1 when an
error-level violation is left; ``compare`` is informational).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from toolhist.cli import _echo_violations, _emit_json
from toolhist.cli.options import format_option, peer_versions_option, strategies_option, strategy_option
from toolhist.cli.progress import load_shown

if TYPE_CHECKING:
    from toolhist.curation.base import Change, Curation, Position


@click.command("curate")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--provider", required=True, help="The provider to curate for.")
@strategy_option("toolhist", "Curation strategy (see `toolhist strategies`).")
@format_option
@peer_versions_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object (DESIGN §6).")
def curate_cmd(file: str, provider: str, strategy: str, fmt: str | None, as_json: bool) -> None:
    """Repair FILE for PROVIDER: the curated history, every change made, and what is still wrong.

    Exit 0 when the curated history has no error-level violation for PROVIDER, 1 when it has.
    """
    from toolhist.curation import curate
    from toolhist.providers import provider_for, validate

    provider = provider_for(provider).name
    session = load_shown(file, fmt)
    curation = curate(session, provider, strategy=strategy)
    left = validate(session, provider, strategy=strategy)
    if as_json:  # `Curation.to_json` and the violations left, written a message at a time
        from toolhist.cli.streamed import write_curate_json

        write_curate_json(curation, left, lambda text: click.echo(text, nl=False))
    else:
        _echo_curation(file, strategy, curation)
        errors = sum(v.severity == "error" for v in left)
        verdict = "ok" if not left else f"{errors} error(s), {len(left) - errors} warning(s)"
        click.echo(f"left     {verdict}")
        _echo_violations(left)
    if any(v.severity == "error" for v in left):
        raise click.exceptions.Exit(1)


def _echo_curation(file: str, strategy: str, curation: Curation) -> None:
    from toolhist.diff import diff

    session = curation.original
    before, after = len(session.messages), len(curation.session.messages)
    click.echo(f"{file}: {session.source.format}, {before} messages")
    if curation.library is not None:
        click.echo(f"library  {curation.library} (the real library's request body, read back)")
        said = _versions_said([strategy])  # empty for a framework's strategy: its installed extra runs
        if said:
            click.echo(f"versions {said}")
    counts = diff(session, curation.sent_session(), curation.changes).counts()
    rows = ", ".join(f"{n} {status}" for status, n in counts.items())
    click.echo(f"strategy {curation.strategy} for {curation.provider}: {before} → {after} messages ({rows})")
    actions = Counter(change.action for change in curation.changes)
    by_action = ", ".join(f"{action} {n}" for action, n in sorted(actions.items()))
    fixing = sum(bool(change.fixes) for change in curation.changes)
    repairs = f"; {fixing} repair a violation of the history as given, listed first" if fixing else ""
    click.echo(f"changes  {len(curation.changes)}" + (f" ({by_action})" if by_action else "") + repairs)
    for change in curation.changes:
        click.echo(f"  {_change_line(change)}")
    if curation.id_map:
        click.echo(
            f"id map   {len(curation.id_map)} call(s): source id → canonical → sent to {curation.provider}"
        )
        for row in curation.id_map:
            click.echo(f"  {row.source or '(made by curation)'} → {row.canonical} → {row.sent}")


def _change_line(change: Change) -> str:
    """``pass action @before → after call_id[ → sent id] (fixes rule, …): reason``."""
    call = f" {change.call_id}" if change.call_id else ""
    new = change.detail.get("new_id") if change.action == "rewrite_id" else None
    sent = f" → {new}" if isinstance(new, str) else ""
    fixes = f" (fixes {', '.join(change.fixes)})" if change.fixes else ""
    where = f"@{_position(change.before)} → {_position(change.after)}"
    return f"{change.pass_} {change.action} {where}{call}{sent}{fixes}: {change.reason}"


def _position(position: Position | None) -> str:
    if position is None:
        return "-"
    return str(position.message) if position.block is None else f"{position.message}.{position.block}"


@click.command("compare")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--provider", required=True, help="The provider to curate for.")
@strategies_option("A strategy to compare (repeatable; default: every registered one).")
@format_option
@peer_versions_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object keyed by strategy.")
def compare_cmd(
    file: str, provider: str, strategies: tuple[str, ...], fmt: str | None, as_json: bool
) -> None:
    """Compare strategies on FILE for PROVIDER: changes made by action, violations left by rule.

    A strategy whose library is not installed says "not run" and how to install it.
    Informational: exit 0 whatever the strategies leave (use `curate` or `check` to gate on it).
    """
    from toolhist.curation.compare import compare
    from toolhist.providers import provider_for

    provider = provider_for(provider).name
    session = load_shown(file, fmt)
    results: dict[str, dict[str, Any]] = {
        name: {
            "status": r.status,
            "messages": r.messages,
            "changes": r.changes,
            "actions": r.actions,
            "errors": sum(r.errors.values()) if r.status == "ran" else None,
            "warnings": sum(r.warnings.values()) if r.status == "ran" else None,
            "rules": {"error": r.errors, "warning": r.warnings},
            "violations": [v.model_dump(mode="json") for v in r.violations],
            **({"library": r.library} if r.library is not None else {}),
            **({"error": r.error} if r.error is not None else {}),
            **({"install": r.install, "needs": r.needs} if r.install is not None else {}),
            **({"describe": r.describe()} if r.status != "ran" else {}),
        }
        for name, r in compare(session, provider, strategies or None).items()
    }
    if as_json:
        _emit_json(results)
        return
    click.echo(f"{file}: {session.source.format}, {len(session.messages)} messages, for {provider}")
    width = max(len("strategy"), *(len(name) for name in results))
    click.echo(f"{'strategy':<{width}}  {'changes':>7}  {'errors':>6}  {'warnings':>8}  actions; rules left")
    for name, r in results.items():
        if r["status"] != "ran":
            click.echo(f"{name:<{width}}  {r['describe']}")
            continue
        actions = ", ".join(f"{a} {n}" for a, n in r["actions"].items()) or "-"
        failing = [f"{rule} {n}" for rule, n in r["rules"]["error"].items()]
        warned = [f"{rule} {n} (warning)" for rule, n in r["rules"]["warning"].items()]
        rules = ", ".join(failing + warned) or "-"
        counts = f"{r['changes']:>7}  {r['errors']:>6}  {r['warnings']:>8}"
        runs = f" [{r['library']}]" if "library" in r else ""
        click.echo(f"{name:<{width}}  {counts}  {actions}; {rules}{runs}")
    said = _versions_said(list(results))
    if said:
        click.echo(f"versions {said}")


def _versions_said(strategies: Sequence[str]) -> str:
    """Which version of each library the given strategies ran, and why (empty when none runs one)."""
    from toolhist.peers.pins import LIBRARY_OF_STRATEGY
    from toolhist.peers.versions import Selected, describe, resolve, selected, split_strategy

    said: dict[str, str] = {}
    for name in strategies:
        base, wanted = split_strategy(name)
        library = LIBRARY_OF_STRATEGY.get(base)
        if library is None:
            continue
        chosen = selected(library) if wanted is None else Selected(library, resolve(library, wanted), "named")
        said.setdefault(name, f"{name}: {describe(chosen)}")
    return "; ".join(said.values())
