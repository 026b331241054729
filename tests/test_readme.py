"""The README's console examples are real: each ``$ toolhist …`` prints exactly what follows it."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = (ROOT / "README.md").read_text()


def examples() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for block in re.findall(r"```console\n(.*?)```", README, flags=re.DOTALL):
        command: str | None = None
        output: list[str] = []
        for line in block.splitlines():
            if line.startswith("$ "):
                if command is not None:
                    found.append((command, "\n".join(output).strip()))
                command, output = line[2:], []
            else:
                output.append(line)
        if command is not None:
            found.append((command, "\n".join(output).strip()))
    return [(c, o) for c, o in found if c.startswith("toolhist ") and "broken.json" not in c]


@pytest.mark.parametrize(("command", "expected"), examples())
def test_console_example(command: str, expected: str) -> None:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    args = shlex.split(command)[1:]
    out = subprocess.run([exe, *args], cwd=ROOT, capture_output=True, text=True, check=False, timeout=60)
    assert (out.stdout + out.stderr).strip() == expected


def test_quick_start_is_two_commands() -> None:
    start = README.index("## Quick start")
    block = re.search(r"```bash\n(.*?)```", README[start:], flags=re.DOTALL)
    assert block is not None
    commands = [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]
    assert commands == ["./dev app", "./dev test"]


def python_examples() -> list[str]:
    """The Python blocks of the README's "In your application" section: each is run as it stands."""
    start = README.index("### In your application")
    end = README.index("\n## ", start)
    return re.findall(r"```python\n(.*?)```", README[start:end], flags=re.DOTALL)


def test_the_framework_examples_are_two() -> None:
    assert len(python_examples()) == 2


@pytest.mark.parametrize("code", python_examples(), ids=["pydantic-ai", "langchain"])
def test_framework_example_prints_what_its_comments_say(code: str) -> None:
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=False, timeout=120
    )
    assert out.returncode == 0, out.stderr
    said = [
        line.split("# ", 1)[1] for line in code.splitlines() if line.startswith("print(") and "  # " in line
    ]
    printed = out.stdout.splitlines()
    assert [p for p in printed if p in said] == said
