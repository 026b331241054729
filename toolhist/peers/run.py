"""Talk to a real library running in its peers environment: send jobs, get back the bodies it sent.

One long-lived worker process per library and version (`toolhist.peers._worker`, started on
first use, kept for the life of this process; the version: `toolhist.peers.versions.selected`),
since importing LiteLLM takes seconds and a comparison asks it once per provider. Jobs go one JSON
line each; a batch is written whole and read back in order, so the differential tests pay the
start-up once for hundreds of histories. A worker that dies or answers
something unreadable is an error naming the library and its last stderr line, never a fallback.
"""

from __future__ import annotations

import atexit
import json
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from toolhist.errors import ToolhistError
from toolhist.peers.env import PeersEnv, require
from toolhist.peers.versions import selected

WORKER = Path(__file__).with_name("_worker.py")


class PeerFailed(ToolhistError):
    """The library's worker process could not answer (it crashed, or printed something else)."""


@dataclass(frozen=True)
class Answer:
    """What the library did with one job."""

    body: dict[str, Any] | None
    """The JSON request body it POSTed, or ``None`` when it raised first."""
    path: str | None
    """The request path (``/v1/messages``, ``/model/…/converse``…)."""
    raised: str | None
    """The exception type it raised before sending anything."""
    message: str | None
    """That exception's first line."""


class Worker:
    """One running ``_worker.py`` in a library's environment."""

    def __init__(self, env: PeersEnv) -> None:
        self.env = env
        self._lock = threading.Lock()
        # A file, not a pipe, so library warnings never block the worker; it lives as long as the
        # worker and `close` closes it.
        self._stderr = tempfile.TemporaryFile()  # noqa: SIM115
        self._proc = subprocess.Popen(
            [str(env.python), str(WORKER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._stderr,
            text=True,
            encoding="utf-8",
        )
        ready = self._line()
        self.versions: dict[str, str] = dict(ready.get("ready") or {})
        """Distribution → version, as the worker read them from its environment."""

    def _line(self) -> dict[str, Any]:
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            self._proc.wait()
            self._stderr.seek(0)
            err = self._stderr.read().decode("utf-8", "replace")
            last = (err.strip().splitlines() or ["(no output)"])[-1]
            raise PeerFailed(f"the {self.env.library} worker in {self.env.path} stopped: {last}")
        try:
            value = json.loads(line)
        except ValueError:
            raise PeerFailed(f"the {self.env.library} worker printed {line[:200]!r}") from None
        if not isinstance(value, dict):
            raise PeerFailed(f"the {self.env.library} worker printed {line[:200]!r}")
        return value

    def ask(self, jobs: Sequence[dict[str, Any]]) -> list[Answer]:
        """The library's answer to each job, in order."""
        with self._lock:
            # Written from another thread while this one reads: a batch larger than the pipe buffers
            # would otherwise block both processes on a full pipe.
            writer = threading.Thread(target=self._write, args=(list(jobs),), daemon=True)
            writer.start()
            answers = []
            for _ in jobs:
                got = self._line()
                answers.append(
                    Answer(
                        body=got.get("body"),
                        path=got.get("path"),
                        raised=got.get("raised"),
                        message=got.get("message"),
                    )
                )
            writer.join()
            return answers

    def _write(self, jobs: list[dict[str, Any]]) -> None:
        assert self._proc.stdin is not None
        try:
            for job in jobs:
                self._proc.stdin.write(json.dumps(job, ensure_ascii=False) + "\n")
            self._proc.stdin.flush()
        except (BrokenPipeError, OSError):  # the worker died: the reader reports its last words
            return

    def close(self) -> None:
        """End the worker (closing stdin ends its loop)."""
        if self._proc.poll() is None:
            assert self._proc.stdin is not None
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
        self._stderr.close()


_WORKERS: dict[tuple[str, str], Worker] = {}
_START = threading.Lock()


def worker(library: str) -> Worker:
    """The running worker for the selected version of ``library``, started now if needed.

    PeersMissing when that version's environment is not installed.
    """
    chosen = selected(library)
    with _START:
        found = _WORKERS.get((library, chosen.version))
        if found is not None and found._proc.poll() is None:
            return found
        started = Worker(require(library, chosen))
        _WORKERS[(library, chosen.version)] = started
        return started


def version(library: str) -> str:
    """The version of ``library`` the strategy runs (the selected one, as its environment reports it)."""
    running = worker(library)
    return running.versions.get(library) or running.env.versions[library]


def ask(library: str, jobs: Sequence[dict[str, Any]]) -> list[Answer]:
    """Run ``jobs`` through the real ``library``."""
    return worker(library).ask(jobs)


@atexit.register
def _close_all() -> None:
    for running in _WORKERS.values():
        running.close()
