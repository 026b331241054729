"""Options several ``toolhist`` commands share, declared once so their names, checks and help agree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import click

from toolhist.readers import READERS

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]

format_option: Decorator = click.option(
    "--format", "fmt", type=click.Choice(list(READERS)), help="Skip detection and read as this format."
)
"""``--format ID``: read the file as this reader instead of detecting it."""


def _check_strategy(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Check ``--strategy`` names against the registry (a UsageError listing the choices)."""
    del ctx, param
    from toolhist.curation.strategies import strategy_for

    for name in value if isinstance(value, tuple) else (value,):
        if name is not None:
            strategy_for(name)
    return value


def strategy_option(default: str, help: str) -> Decorator:
    """``--strategy NAME`` with ``default``, checked against the registry before the command runs."""
    return click.option("--strategy", default=default, show_default=True, callback=_check_strategy, help=help)


def strategies_option(help: str) -> Decorator:
    """``--strategy NAME`` repeatable (into ``strategies``), each name checked."""
    return click.option("--strategy", "strategies", multiple=True, callback=_check_strategy, help=help)


def _peer_versions(ctx: click.Context, param: click.Parameter, value: Any) -> Any:
    """Name the peer libraries' versions for the whole command (`toolhist.peers.versions.using`)."""
    del param
    if value:
        from toolhist.peers.versions import parse, using

        ctx.with_resource(using(parse(value)))
    return value


peer_versions_option: Decorator = click.option(
    "--peer-version",
    "peer_versions",
    multiple=True,
    metavar="LIBRARY=VERSION",
    expose_value=False,
    callback=_peer_versions,
    help="Run the litellm/openai-agents strategies with this version of the library (repeatable; "
    "VERSION may be 'installed' or 'pin'; default: $TOOLHIST_PEER_VERSIONS, else the one installed "
    "here, else the pin). Install it first: `toolhist peers install --peer-version LIBRARY=VERSION`.",
)
"""``--peer-version litellm=1.110.2``: the version the library strategies run for this command."""
