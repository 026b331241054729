"""``toolhist peers``: install and list the real peer libraries behind two strategies.

The ``litellm`` and ``openai-agents`` strategies run them (`toolhist.peers`), each version in a cached
environment of its own; which version runs is `toolhist.peers.versions.selected`.
"""

from __future__ import annotations

import json
from typing import Any

import click

from toolhist.cli.options import peer_versions_option
from toolhist.peers.env import env_dir, find, install, installed_versions
from toolhist.peers.pins import PINS
from toolhist.peers.versions import describe, selected


@click.group("peers")
def peers_cmd() -> None:
    """The real libraries behind the `litellm` and `openai-agents` strategies."""


@peers_cmd.command("install")
@peer_versions_option
@click.option("--verbose", is_flag=True, help="Show venv and pip output.")
def install_cmd(verbose: bool) -> None:
    """Make a cached virtual environment per library at the version strategies run (a no-op when there).

    That version is the pin unless --peer-version, $TOOLHIST_PEER_VERSIONS or an installed copy names another.
    """
    for library in PINS:
        chosen = selected(library)
        if find(library, chosen.version) is None:
            click.echo(f"installing {describe(chosen)} into {env_dir(library, chosen.version)}", err=True)
        env = install(library, chosen.version, log=verbose)
        versions = ", ".join(f"{k} {v}" for k, v in env.versions.items())
        click.echo(f"{library}: {env.path} ({versions})")


@peers_cmd.command("status")
@peer_versions_option
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def status_cmd(as_json: bool) -> None:
    """Each library: the version strategies run and why, its pin, the versions installed.

    Exit 1 when the version strategies run is not installed.
    """
    rows: dict[str, dict[str, Any]] = {}
    for library, pin in PINS.items():
        chosen = selected(library)
        rows[library] = {
            "version": chosen.version,
            "why": chosen.why,
            "pin": pin,
            "path": str(env_dir(library, chosen.version)),
            "installed": find(library, chosen.version) is not None,
            "cached": [str(e.versions.get(library, "?")) for e in installed_versions(library)],
        }
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        for library, row in rows.items():
            state = "installed" if row["installed"] else "not installed (run `toolhist peers install`)"
            click.echo(f"{describe(selected(library))}: {state} at {row['path']}")
            if row["cached"]:
                click.echo(f"  cached versions: {', '.join(row['cached'])}")
    if not all(row["installed"] for row in rows.values()):
        raise click.exceptions.Exit(1)
