"""``toolhist peers``: install and list the real peer libraries behind two strategies.

The ``litellm`` and ``openai-agents`` strategies run them (`toolhist.peers`).
"""

from __future__ import annotations

import json

import click

from toolhist.peers.env import env_dir, find, install
from toolhist.peers.pins import PINS


@click.group("peers")
def peers_cmd() -> None:
    """The real libraries behind the `litellm` and `openai-agents` strategies."""


@peers_cmd.command("install")
@click.option("--verbose", is_flag=True, help="Show venv and pip output.")
def install_cmd(verbose: bool) -> None:
    """Make a cached virtual environment per pinned library (a no-op for those already there)."""
    for library in PINS:
        if find(library) is None:
            click.echo(f"installing {library}=={PINS[library]} into {env_dir(library)}", err=True)
        env = install(library, log=verbose)
        versions = ", ".join(f"{k} {v}" for k, v in env.versions.items())
        click.echo(f"{library}: {env.path} ({versions})")


@peers_cmd.command("status")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def status_cmd(as_json: bool) -> None:
    """Each pinned library, its version and whether its environment is installed (exit 1 if not)."""
    rows = {}
    for library, version in PINS.items():
        env = find(library)
        rows[library] = {"version": version, "path": str(env_dir(library)), "installed": env is not None}
    if as_json:
        click.echo(json.dumps(rows, indent=2))
    else:
        for library, row in rows.items():
            state = "installed" if row["installed"] else "not installed (run `toolhist peers install`)"
            click.echo(f"{library} {row['version']}: {state} at {row['path']}")
    if not all(row["installed"] for row in rows.values()):
        raise click.exceptions.Exit(1)
