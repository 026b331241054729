"""The inspector app as a real Streamlit server on a free localhost port, for benchmarks and browser tests.

One place for the command line, the health-check wait and the shutdown, so what the browser tests
drive is what the timeline benchmark measures.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
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


def free_port() -> int:
    """A free localhost port."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(
    timeout: float = 60, env: dict[str, str] | None = None, root: Path = ROOT
) -> tuple[subprocess.Popen[bytes], str]:
    """``streamlit run app.py`` on a free port, once its health check answers (else RuntimeError).

    ``env``: variables added to this process's environment for the server (``TOOLHIST_HOME``).
    ``root``: the source tree to serve (a benchmark serves another checkout beside this one: Streamlit
    puts the script's folder first on ``sys.path``, so that tree's ``toolhist`` is the one imported).
    """
    port = free_port()
    proc = subprocess.Popen(
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
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + timeout
    while True:
        try:
            if urllib.request.urlopen(f"{url}/_stcore/health", timeout=2).read() == b"ok":
                return proc, url
        except OSError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError(f"the Streamlit server did not come up on {url} (exit code {proc.poll()})")
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
