"""The inspector app as a real Streamlit server on a free localhost port, for benchmarks and browser tests.

One place for the command line, the health-check wait and the shutdown, so what the browser tests
drive is what the timeline benchmark measures.
"""

from __future__ import annotations

import fcntl
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
"""Debian chromium's flags for a headless run here: no sandbox or GPU, and nothing that phones home."""


PORT_LOCK = Path(tempfile.gettempdir()) / "toolhist-serve-port.lock"
"""Held from picking a port until the server on it answers (`claimed_port`)."""
ATTEMPTS = 3
"""Servers started before giving up: a server that exits before answering may have lost its port."""


def free_port() -> int:
    """A free localhost port (free now: nothing holds it once this returns; see `claimed_port`)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def claimed_port() -> Iterator[int]:
    """A free localhost port, with a lock (`PORT_LOCK`) every caller holds until its server listens.

    `free_port` closes its socket before the server binds the port, so two processes starting
    servers at once (the suite's parallel workers, a benchmark beside a test run) could be given the
    same port; the second server then exits, and its health check is answered by the first one. Start
    the server and wait for it inside the block: no other caller picks a port meanwhile. (A process
    that binds without this lock can still take the port in that window; `start_server` then starts
    again on another one.)
    """
    with PORT_LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield free_port()  # closing the file releases the lock


def start_server(
    timeout: float = 60, env: dict[str, str] | None = None, root: Path = ROOT
) -> tuple[subprocess.Popen[bytes], str]:
    """``streamlit run app.py`` on a free port, once its health check answers (else RuntimeError).

    ``env``: variables added to this process's environment for the server (``TOOLHIST_HOME``).
    ``root``: the source tree to serve (a benchmark serves another checkout beside this one: Streamlit
    puts the script's folder first on ``sys.path``, so that tree's ``toolhist`` is the one imported).
    A server that exits before answering is started again on another port (`ATTEMPTS` in all): a
    process outside `claimed_port` may have taken its port between the pick and the bind.
    """
    deadline = time.monotonic() + timeout
    for attempt in range(1, ATTEMPTS + 1):
        with claimed_port() as port:
            proc = _launch(port, env, root)
            url = f"http://127.0.0.1:{port}"
            if _answers(proc, url, deadline):
                return proc, url
        proc.kill()
        proc.wait(10)
        if attempt == ATTEMPTS or time.monotonic() > deadline:
            break
    raise RuntimeError(f"the Streamlit server did not come up on {url} (exit code {proc.poll()})")


def _launch(port: int, env: dict[str, str] | None, root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless=true",
            f"--server.port={port}",
            "--server.address=127.0.0.1",
            "--browser.gatherUsageStats=false",
            "--server.fileWatcherType=none",
        ],
        cwd=root,
        env={**os.environ, **env} if env else None,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _answers(proc: subprocess.Popen[bytes], url: str, deadline: float) -> bool:
    """Whether the health check at ``url`` answered before ``deadline`` and before ``proc`` exited."""
    while True:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                return True
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            return False
        time.sleep(0.3)


def stop_server(proc: subprocess.Popen[bytes]) -> None:
    """Stop the server; one still busy with a long session's script run is killed after 30 s.

    Streamlit honours SIGTERM only once a running script yields, which on a 100,000-message session
    can take longer than anyone should wait when the measuring or testing is over.
    """
    proc.terminate()
    try:
        proc.wait(30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)
