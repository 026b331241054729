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
import re
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
    root = ROOT / "tests" / "corpus" / "logs"
    files = [p for p in root.rglob("*.json*") if not p.name.endswith(".source.json")]
    folders = {f for p in files if (f := _session_folder(p)) is not None}
    return samples + sorted([p for p in files if _session_folder(p) is None] + list(folders))


def _session_folder(path: Path) -> Path | None:
    """The folder a file belongs to when the session is kept as a folder (OpenHands: ``base_state.json``
    and ``events/``): such a file is not a session by itself, so the folder is mutated as the one
    document its reader reads (`toolhist.readers.gather_folder`)."""
    return next((parent for parent in path.parents if (parent / "base_state.json").is_file()), None)


def document(file: Path) -> bytes:
    """The bytes a file's reader reads: the file's, or a session folder's gathered document."""
    if file.is_dir():
        from toolhist.readers import gather_folder

        gathered = gather_folder(file)
        assert gathered is not None, file
        return gathered
    return file.read_bytes()


@dataclass(frozen=True)
class Mutant:
    """One file with one field replaced."""

    file: str
    where: str
    """``line N: a.b[3].c`` (JSON Lines) or ``a.b[3].c``."""
    value: Any
    data: bytes
    line: int | None = None
    """The mutated line of a JSON Lines file (None for a JSON document)."""


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

    text = document(file).decode("utf-8")
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
                yield Mutant(name, f"line {n + 1}: {_where(path)}", new, "\n".join(changed).encode(), n + 1)


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


@dataclass(frozen=True)
class Original:
    """What the unmutated file reads as: its format, and the lines its session accounts for."""

    format: str
    lines: frozenset[int]
    parts: int
    """Blocks plus unsent records: a mutant with fewer lost something (a grouped record moving
    within a message is not lost)."""


def accounted(session: Any) -> frozenset[int]:
    """The source lines a session shows: its messages' (merged lines too), and what it keeps unsent."""
    lines = {loc.line for loc in session.source.locations if loc.line is not None}
    for message in session.messages:
        merged = message.metadata.extra.get("lines")
        lines |= {n for n in merged if isinstance(n, int)} if isinstance(merged, list) else set()
    lines |= {u.line for u in session.unsent if u.line is not None}
    return frozenset(lines)


def original(file: Path) -> Original:
    import toolhist

    session = toolhist.load(document(file), name=file.name)
    return Original(session.source.format, accounted(session), parts(session))


def parts(session: Any) -> int:
    return sum(len(m.blocks) for m in session.messages) + len(session.unsent)


def named(line: int, notes: tuple[str, ...]) -> bool:
    """Whether a note names ``line``: a skipped record (``line 41: skipped …``, ``first on line 41``)
    or the lines a thread left out (``on abandoned branches: lines 40, 41``)."""
    return any(re.search(rf"\blines? (?:\d+, )*{line}\b", note) for note in notes)


def unlocated(mutant: Mutant, exc: Exception, was: Original) -> str | None:
    """Why a `LoadError` fails the contract (one line naming the file, the line and the JSON path), or None.

    "Unknown format" has no place to name when sniffing found no format at all (the field that
    told the format apart is the one mutated); then the file read as the format it was must be
    read, or refused with its place named, as ``--format`` would.
    """
    import toolhist
    from toolhist.errors import LoadError

    assert isinstance(exc, LoadError)
    text = str(exc)
    if "\n" in text or not text.startswith(mutant.file):
        return f"not one line naming the file: {text}"
    if exc.reason.startswith("unknown format") and exc.json_path is None:
        try:
            toolhist.load(mutant.data, format=was.format, name=mutant.file)
        except LoadError as forced:
            exc = forced
        else:
            return None
    if exc.line is None or exc.json_path is None:
        return f"names no line or no JSON path: {exc}"
    return None


def run(mutant: Mutant, n: int, *, report: bool, was: Original | None = None) -> Crash | None:
    """Take ``mutant`` through the pipeline; the escaped exception that is not a ToolhistError, if any.

    ``load`` and ``validate`` for every provider; ``curate`` and ``render`` for one provider, the
    ``n``-th in turn (each provider gets every n-th mutant); ``report`` when asked. Given ``was``
    (the unmutated file), a `LoadError` must be one line naming the file, the line and the JSON
    path (`unlocated`), and a mutated line of a JSON Lines file that was in the session and is
    not any more must be named in the notes (`named`); either failure is returned as a Crash.
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
            why = unlocated(mutant, exc, was) if was is not None else None
            return None if why is None else _broken(mutant, "load", why)
        line = mutant.line
        lost = (
            was is not None
            and line in was.lines
            and line not in accounted(session)
            and parts(session) < was.parts
        )
        if lost and not named(line or 0, session.source.notes):
            return _broken(mutant, "load", f"line {line} left the session unnamed: {session.source.notes}")
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


def _broken(mutant: Mutant, stage: str, why: str) -> Crash:
    return Crash(mutant.file, mutant.where, json.dumps(mutant.value), stage, why[:300], "contract")
