"""The app opens a path only where sessions live or the user allows, and only a regular file.

Under AppTest, started in a working folder of its own with ``$TOOLHIST_OPEN`` unset: a ``?path=``
link (and the Path box) to a file outside is refused with the variable to set; a link inside the
working folder that leads outside is refused too; a FIFO inside is refused at once; a file inside,
or outside once its folder is named in ``$TOOLHIST_OPEN``, opens.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

import pytest
from bench_modules import benchmark_module
from streamlit.testing.v1 import AppTest

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
SAMPLE = ROOT / "sample_logs" / "openai_chat_request.json"


@pytest.fixture
def places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Path]:
    work, outside, home = tmp_path / "work", tmp_path / "outside", tmp_path / "home"
    for folder in (work, outside, home):
        folder.mkdir()
    shutil.copy(SAMPLE, work / "inside.json")
    shutil.copy(SAMPLE, outside / "secret.json")
    (work / "leads-out.json").symlink_to(outside / "secret.json")
    os.mkfifo(work / "fifo.json")
    monkeypatch.chdir(work)
    monkeypatch.delenv("TOOLHIST_OPEN", raising=False)
    monkeypatch.setenv("TOOLHIST_HOME", str(home))  # no agent folders of the machine's own
    return {"work": work, "outside": outside}


def linked(path: Path) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["path"] = str(path)
    return at.run()


def refused(at: AppTest) -> str:
    assert not at.exception
    assert [e.value for e in at.error] == ["Cannot read that path."]
    assert not [t for t in at.text if t.value.startswith("Session:")]
    [detail] = [c.value for c in at.code]
    return detail


def test_a_link_outside_the_allowed_folders_is_refused(places: dict[str, Path]) -> None:
    secret = places["outside"] / "secret.json"
    assert refused(linked(secret)) == (
        f"{secret}: a file not under an agent's session folder, the working folder or $TOOLHIST_OPEN; "
        f"to open it, start the app with TOOLHIST_OPEN={places['outside']}"
    )


def test_a_link_inside_that_leads_outside_is_refused(places: dict[str, Path]) -> None:
    assert "not under an agent's session folder" in refused(linked(places["work"] / "leads-out.json"))


def test_a_fifo_is_refused_at_once(places: dict[str, Path]) -> None:
    fifo = places["work"] / "fifo.json"
    assert refused(linked(fifo)) == (
        f"{fifo}: is a FIFO (named pipe), not a file: toolhist reads regular files only"
    )


def test_the_path_box_is_bound_as_links_are(places: dict[str, Path]) -> None:
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").input(str(places["outside"] / "secret.json")).run()
    assert "not under an agent's session folder" in refused(at)


def test_allowed_files_open(places: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    at = linked(places["work"] / "inside.json")
    assert not at.error
    assert [t.value for t in at.text if t.value.startswith("Session:")] == [
        f"Session: {places['work'] / 'inside.json'}"
    ]
    monkeypatch.setenv("TOOLHIST_OPEN", str(places["outside"]))
    at = linked(places["outside"] / "secret.json")
    assert not at.error
    assert [t.value for t in at.text if t.value.startswith("Session:")] == [
        f"Session: {places['outside'] / 'secret.json'}"
    ]


def _outward_address() -> str | None:
    """This machine's address on its network (a UDP connect sends nothing), or None when it has none."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("10.255.255.255", 1))
        address = str(probe.getsockname()[0])
    except OSError:
        return None
    finally:
        probe.close()
    return None if address.startswith("127.") else address


def _wait_for(proc: subprocess.Popen[bytes], port: int) -> None:
    deadline = time.monotonic() + 90
    while True:
        try:
            if urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2).read() == b"ok":
                return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail("the app did not start")
            time.sleep(0.5)


def test_the_app_listens_on_this_machine_only() -> None:
    """Started as ``./dev app`` starts it (no address given): 127.0.0.1 answers, the network does not."""
    assert (
        tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())["server"]["address"] == "127.0.0.1"
    )
    outward = _outward_address()
    if outward is None:
        pytest.skip("this machine has no network address to try")
    # the port lock the browser tests' servers take (benchmarks/serve.py): no parallel worker is
    # given the same port before this server binds it
    with benchmark_module("serve").claimed_port() as port:
        argv = [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless=true",
            f"--server.port={port}",
        ]
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        _wait_for(proc, port)
    try:
        with pytest.raises(ConnectionRefusedError):
            socket.create_connection((outward, port), timeout=5).close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
