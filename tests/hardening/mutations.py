"""Mutants of every sample and real-log corpus file: each field set to null, a number, a string, a list
and an object, JSON Lines line by line.

Exhaustive over fields, not over occurrences: a field is named by its *shape path* (list indices
replaced by ``*``, and for JSON Lines the record's ``type``/``role`` in front), and only its first
occurrence in a file is mutated. A log with 2,000 tool results has one ``content`` field of tool
results, not 2,000; every distinct field of every record kind is still hit. `run` takes one mutant
through ``load``, ``validate``, ``curate``, ``render`` and ``report`` and returns the exception that
escaped, if any: a `ToolhistError` is the refusal the contract asks for, anything else a crash.
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).parent.parent.parent
VALUES: tuple[Any, ...] = (None, 7, "x", [1], {"k": 1})
"""What each field becomes: null, a number, a string, a list, an object."""


def corpus() -> list[Path]:
    """Every sample and every real-log corpus file (provenance files aside)."""
    samples = sorted((ROOT / "sample_logs").glob("*.json*"))
    logs = sorted(
        p
        for p in (ROOT / "tests" / "corpus" / "logs").rglob("*.json*")
        if not p.name.endswith(".source.json")
    )
    return samples + logs


@dataclass(frozen=True)
class Mutant:
    """One file with one field replaced."""

    file: str
    where: str
    """``line N: a.b[3].c`` (JSON Lines) or ``a.b[3].c``."""
    value: Any
    data: bytes


def _shape_key(record: Any) -> str:
    if isinstance(record, dict):
        return str(record.get("type") or record.get("role") or "")
    return type(record).__name__


def _paths(
    value: Any, path: tuple[Any, ...], shape: tuple[str, ...], seen: set[tuple[str, ...]]
) -> Iterator[tuple[Any, ...]]:
    if path and shape not in seen:
        seen.add(shape)
        yield path
    if isinstance(value, dict):
        for key, item in value.items():
            kind = _shape_key(item)
            yield from _paths(item, (*path, key), (*shape, str(key), kind), seen)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _paths(item, (*path, i), (*shape, "*", _shape_key(item)), seen)


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, *rest = path
    if isinstance(value, dict):
        return {k: (_replaced(v, tuple(rest), new) if k == head else v) for k, v in value.items()}
    return [(_replaced(v, tuple(rest), new) if i == head else v) for i, v in enumerate(value)]


def _where(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def mutants(file: Path, *, every_value: bool = True) -> Iterator[Mutant]:
    """Every mutant of ``file`` (see the module doc).

    ``every_value=False``: each field gets one of the five values, in turn (the k-th field of the
    file the k-th value, modulo five), a fifth of the mutants for CI's time.
    """

    def values(k: int) -> tuple[Any, ...]:
        return VALUES if every_value else (VALUES[k % len(VALUES)],)

    text = file.read_text(encoding="utf-8")
    name = str(file.relative_to(ROOT))
    try:
        whole = json.loads(text)
    except json.JSONDecodeError:
        whole = None
    if whole is not None:
        for k, path in enumerate(_paths(whole, (), (), set())):
            for new in values(k):
                yield Mutant(name, _where(path), new, json.dumps(_replaced(whole, path, new)).encode())
        return
    lines = text.splitlines()
    seen: set[tuple[str, ...]] = set()
    k = 0
    for n, line in enumerate(lines):
        if not line.strip():
            continue
        record = json.loads(line)
        for path in _paths(record, (), (_shape_key(record),), seen):
            k += 1
            for new in values(k):
                changed = [*lines[:n], json.dumps(_replaced(record, path, new)), *lines[n + 1 :]]
                yield Mutant(name, f"line {n + 1}: {_where(path)}", new, "\n".join(changed).encode())


@dataclass(frozen=True)
class Crash:
    """An exception that escaped toolhist on a mutant: where it was raised and what it said."""

    file: str
    where: str
    value: str
    stage: str
    error: str
    at: str

    def line(self) -> str:
        return f"{self.file} {self.where} = {self.value} [{self.stage}] {self.error} ({self.at})"


PIPELINE_PROVIDERS = ("anthropic", "openai-chat", "gemini", "openai-responses", "bedrock", "mistral", "kimi")


def run(mutant: Mutant, n: int, *, report: bool) -> Crash | None:
    """Take ``mutant`` through the pipeline; the escaped exception that is not a ToolhistError, if any.

    ``load`` and ``validate`` for every provider; ``curate`` and ``render`` for one provider, the
    ``n``-th in turn (each provider gets every n-th mutant); ``report`` when asked. A `LoadError`
    must also be one line naming the file.
    """
    import toolhist
    from toolhist.errors import LoadError, ToolhistError
    from toolhist.providers import PROVIDERS, render, validate
    from toolhist.report import report as report_of

    stage = "load"
    try:
        try:
            session = toolhist.load(mutant.data, name=mutant.file)
        except LoadError as exc:
            if "\n" in str(exc) or not str(exc).startswith(mutant.file):
                raise AssertionError(f"not one line naming the file: {exc!r}") from exc
            return None
        for provider in PROVIDERS:
            stage = f"validate {provider}"
            validate(session, provider)
        provider = PIPELINE_PROVIDERS[n % len(PIPELINE_PROVIDERS)]
        stage = f"curate {provider}"
        toolhist.curate(session, provider)
        stage = f"render {provider}"
        render(session, provider, strategy="toolhist")
        if report:
            stage = "report"
            report_of(session, ["anthropic", "openai-chat"])
    except ToolhistError:
        return None
    except Exception as exc:
        frame = traceback.extract_tb(exc.__traceback__)[-1]
        at = f"{Path(frame.filename).name}:{frame.lineno}"
        error = f"{type(exc).__name__}: {exc}"[:200]
        return Crash(mutant.file, mutant.where, json.dumps(mutant.value), stage, error, at)
    return None
