"""Some providers' verdicts on the machine's second core: a forked child computes them beside the page.

Why: Home asks for all seven verdicts at once, and at 100,000 messages they are ~9 s of CPU on one
core while the other core of a 2-core machine idles (issue 24 asks Home's verdicts in seconds on this
machine). Python runs one thread at a time, so the second core needs a second process, and only a
fork gives it the session for free: the session is already parsed here (~1 GB of objects at 100,000
messages), shared copy-on-write with the child; a spawned process would parse the file again (3 s)
or unpickle the session (longer). The child sends back each violation's fields (pickled dicts, made
into Violations here as `toolhist.providers.base.located` makes them: unpickling pydantic models
took 0.5 s for 6,600 of them), a few MB.

Safe by default: a fork can only cost time, never a verdict. It runs only where it is sound and
pays (`usable`: Linux, where fork without exec is supported for such code, with a second core, and a
session between `MIN_MESSAGES` and `MAX_MESSAGES`, so a gigabyte session is not doubled in memory);
the child runs toolhist's own computation, nothing of Streamlit, and leaves with ``os._exit`` (no
exit handler of the server runs twice). The locks that computation takes (the collector pause, the
shared chat body) are made anew in a child (``os.register_at_fork`` in `toolhist._gc` and
`toolhist.providers.chat_shared`): another session's thread may hold one at the fork. Whatever goes
wrong — fork refused, the child raising or killed, an answer that is not every provider's, no answer
within the patience the caller gives — `answers` returns None and the caller computes those verdicts
itself, as it would without this module. ``TOOLHIST_FORK=0`` turns it off.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

from toolhist._gc import pausing
from toolhist._trusted import filler
from toolhist.check import verdict
from toolhist.formats.document import Document
from toolhist.model import Session
from toolhist.providers import Violation
from toolhist.providers.chat_shared import sharing

MIN_MESSAGES = 3_000
"""Below this a session's seven verdicts take well under a second: the fork is not worth its cost."""
MAX_MESSAGES = 150_000
"""Above this the child's copies of the pages it touches could add gigabytes: one process does all."""
ENV = "TOOLHIST_FORK"
"""``0`` turns the second process off."""

_FILL = filler(Violation)


@dataclass(frozen=True)
class Child:
    """A forked child computing ``providers``' verdicts; its answer comes on ``fd``."""

    pid: int
    fd: int
    providers: tuple[str, ...]


def usable(session: Session) -> bool:
    """Whether `start` may fork for ``session`` (see the module's docstring for why these)."""
    return (
        sys.platform == "linux"
        and (os.cpu_count() or 1) >= 2
        and MIN_MESSAGES <= len(session.messages) <= MAX_MESSAGES
        and os.environ.get(ENV, "1") != "0"
    )


def start(document: Document, session: Session, providers: Sequence[str]) -> Child | None:
    """Fork a child that computes ``providers``' verdicts (`toolhist.check.verdict`); None if fork fails."""
    job = launch(partial(_verdicts, document, session, tuple(providers)))
    return None if job is None else Child(job.pid, job.fd, tuple(providers))


def _verdicts(document: Document, session: Session, providers: tuple[str, ...]) -> dict[str, Any]:
    return {p: _states(verdict(document, session, p, remember=False)) for p in providers}


@dataclass(frozen=True)
class Job:
    """A forked child running one piece of a page's work (`launch`); its answer comes on ``fd``."""

    pid: int
    fd: int


def launch(work: Callable[[], object]) -> Job | None:
    """Fork a child that runs ``work`` and sends back what it returns, pickled; None if fork fails.

    For a page's piece of work that is independent of what the page computes meanwhile (the
    Payloads page's bodies, the Curation page's repaired verdict). The caller checks `usable` first,
    as for verdicts; ``work`` is toolhist's own computation on what the process already holds
    (nothing of Streamlit), run as `start`'s is: the collector paused, the chat body shared, the
    locks they take made anew in the child. Its answer is read with `outcome`.
    """
    read_end, write_end = os.pipe()
    try:
        with warnings.catch_warnings():  # 3.12+ warns of forking a threaded process: the child is ours alone
            warnings.simplefilter("ignore", DeprecationWarning)
            pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: compute, answer, leave without running the server's exit handlers
        code = 1
        try:
            os.close(read_end)
            with pausing(), sharing():
                made = work()
            with os.fdopen(write_end, "wb") as out:
                out.write(pickle.dumps(made, protocol=pickle.HIGHEST_PROTOCOL))
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    return Job(pid, read_end)


def outcome(job: Job | Child, patience: float) -> tuple[bool, Any]:
    """``(True, what the child's work returned)``, waiting at most ``patience`` s; else ``(False, None)``.

    No sound answer (the child raised, was killed, sent bytes that do not unpickle, took longer than
    ``patience``): the caller computes the work itself, as it would without a fork. The child is
    reaped either way (killed first when it has not answered in time).
    """
    chunks: list[bytes] = []
    deadline = time.monotonic() + patience
    complete = False
    try:
        while (left := deadline - time.monotonic()) > 0:
            if not select.select([job.fd], [], [], left)[0]:
                continue
            chunk = os.read(job.fd, 1 << 20)
            if not chunk:
                complete = True
                break
            chunks.append(chunk)
    finally:
        os.close(job.fd)
        ok = _reaped(job.pid, killing=not complete)
    if not (complete and ok):
        return False, None
    try:
        # our own child's bytes, never a file's; made under the collector's pause: the objects they
        # make set off a full collection over the page's ~1 GB otherwise (1.5 s at 100,000 messages)
        with pausing():
            return True, pickle.loads(b"".join(chunks))
    except Exception:
        return False, None


def answers(child: Child, patience: float) -> dict[str, list[Violation]] | None:
    """The child's verdicts, waiting at most ``patience`` seconds; None when there is no sound answer.

    The child is reaped either way (killed first when it has not answered in time), so none is left
    behind as a zombie or as a process still computing for a page that has moved on.
    """
    complete, found = outcome(child, patience)
    if not complete or not isinstance(found, dict) or set(found) != set(child.providers):
        return None
    with pausing():  # as `outcome`'s unpickling
        return {p: [_FILL(state) for state in found[p]] for p in child.providers}


def _states(found: list[Violation]) -> list[dict[str, Any]]:
    """Each violation's fields, in declared order (what `answers` makes a Violation of again)."""
    return [v.__dict__ for v in found]


def stop(child: Child | Job) -> None:
    """End ``child`` unanswered (the page was left): kill it, close its pipe, reap it."""
    with contextlib.suppress(OSError):  # closed already (`answers` was under way)
        os.close(child.fd)
    _reaped(child.pid, killing=True)


def _reaped(pid: int, *, killing: bool) -> bool:
    """Wait for ``pid`` (killed first if ``killing``); whether it exited with status 0."""
    if killing:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    try:
        _, status = os.waitpid(pid, 0)
    except ChildProcessError:  # reaped already (not by us): its answer, if complete, still stands
        return not killing
    return not killing and os.waitstatus_to_exitcode(status) == 0
