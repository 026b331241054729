"""The framework requirements of pyproject.toml, one a line, for `./dev test-newest`.

The lock (constraints.txt) pins one version of each framework, the one `./dev test` runs; the
ranges pyproject.toml declares reach further up. `./dev test-newest` installs these lines without
the lock (pip then takes the newest release inside each range) and runs the frameworks' tests, so
the top of each range is tested too. ``--installed`` prints what that install chose instead.
"""

from __future__ import annotations

import sys
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from packaging.requirements import Requirement

EXTRAS = ("pydantic-ai", "langchain", "langgraph")
"""The framework extras: every requirement of theirs."""
FROM_TEST = ("langgraph", "langgraph-checkpoint-sqlite", "openai-agents", "smolagents")
"""The frameworks the `[test]` extra adds to make live objects and files with."""


def requirements() -> list[str]:
    """The framework requirements as pyproject.toml writes them (environment markers kept)."""
    project = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text())["project"]
    extras: dict[str, list[str]] = project["optional-dependencies"]
    found = [r for extra in EXTRAS for r in extras[extra]]
    found += [r for r in extras["test"] if Requirement(r).name in FROM_TEST]
    return list(dict.fromkeys(found))


def main(argv: list[str]) -> None:
    """Print each requirement, or with ``--installed`` each framework's installed version."""
    for line in requirements():
        if "--installed" not in argv:
            print(line)
            continue
        name = Requirement(line).name
        try:
            print(f"{name}=={version(name)}  (allowed: {Requirement(line).specifier})")
        except PackageNotFoundError:
            print(f"{name}: not installed")


if __name__ == "__main__":
    main(sys.argv[1:])
