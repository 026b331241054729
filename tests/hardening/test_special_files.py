"""Special files: refused at once with one line; and a scan names every entry it was given.

A FIFO used to hang ``summary`` and ``check`` forever and a symbolic link loop ended in exit 3;
``toolhist scan`` dropped dangling links, loops, FIFOs and the files of a folder it could not list
without a word. Each case is a real special file made here (``mkfifo``, a socket bound to a path,
``/dev/zero``, links), run through the CLI with an alarm set so a hang fails instead of stalling.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest

import toolhist
from toolhist.cli import main
from toolhist.errors import LoadError
from toolhist.scan import scan

ROOT = Path(__file__).parent.parent.parent
SAMPLE = ROOT / "sample_logs" / "openai_chat_request.json"
NOBODY = 65534


@contextmanager
def within(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def specials(tmp_path: Path) -> Iterator[dict[str, tuple[Path, str]]]:
    """Name -> (path, the reason toolhist must give)."""
    os.mkfifo(tmp_path / "fifo.jsonl")
    (tmp_path / "loop1").symlink_to(tmp_path / "loop2")
    (tmp_path / "loop2").symlink_to(tmp_path / "loop1")
    (tmp_path / "dangling.json").symlink_to(tmp_path / "nowhere.json")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(str(tmp_path / "socket"))
    yield {
        "fifo": (
            tmp_path / "fifo.jsonl",
            "is a FIFO (named pipe), not a file: toolhist reads regular files only",
        ),
        "loop": (tmp_path / "loop1", "a symbolic link loop"),
        "dangling": (tmp_path / "dangling.json", "a dangling symbolic link (its target does not exist)"),
        "socket": (tmp_path / "socket", "is a socket, not a file: toolhist reads regular files only"),
        "device": (Path("/dev/zero"), "is a character device, not a file: toolhist reads regular files only"),
        "folder": (tmp_path, "is a directory, not a session file"),
    }
    sock.close()


CASES = ["fifo", "loop", "dangling", "socket", "device", "folder"]
COMMANDS = [
    ["summary"],
    ["check"],
    ["render", "--provider", "anthropic"],
    ["check", "--format", "claude-code"],  # a streaming reader opens the file itself
    ["summary", "--format", "openai-chat"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids="-".join)
@pytest.mark.parametrize("case", CASES[:-1])  # a folder: click refuses it first, as a bad argument
def test_the_cli_refuses_a_special_file_at_once(
    case: str, argv: list[str], specials: dict[str, tuple[Path, str]], capsys: pytest.CaptureFixture[str]
) -> None:
    path, reason = specials[case]
    command, *options = argv
    with within(20):
        code = main([command, str(path), *options])
    out, err = capsys.readouterr()
    assert code == 2
    assert err == f"toolhist: error: {path}: {reason}\n"
    assert out == ""


@pytest.mark.parametrize("case", CASES)
def test_load_refuses_a_special_file(case: str, specials: dict[str, tuple[Path, str]]) -> None:
    path, reason = specials[case]
    with within(20), pytest.raises(LoadError) as caught:
        toolhist.load(path)
    assert (caught.value.file, caught.value.reason) == (str(path), reason)


@contextmanager
def unprivileged() -> Iterator[None]:
    """An ordinary user: root lists any folder, so a folder it may not list needs someone else."""
    if os.geteuid() != 0:
        yield
        return
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)


@pytest.fixture
def fleet() -> Iterator[Path]:
    """A folder of sessions with every kind of entry a scan may meet, readable by an ordinary user."""
    root = Path(tempfile.mkdtemp(prefix="toolhist-scan-"))
    root.chmod(0o755)
    (root / "logs").mkdir()
    shutil.copy(SAMPLE, root / "logs" / "ok.json")
    (root / "logs" / "broken.json").write_text('{"messages": 5}')
    os.mkfifo(root / "logs" / "fifo.jsonl")
    (root / "logs" / "dangling.json").symlink_to(root / "nowhere.json")
    (root / "logs" / "loop1").symlink_to(root / "logs" / "loop2")
    (root / "logs" / "loop2").symlink_to(root / "logs" / "loop1")
    (root / "elsewhere").mkdir()
    shutil.copy(SAMPLE, root / "elsewhere" / "also.json")
    (root / "logs" / "linked").symlink_to(root / "elsewhere")
    (root / "locked").mkdir()
    shutil.copy(SAMPLE, root / "locked" / "hidden-from-us.json")
    (root / "locked").chmod(0o000)
    (root / ".git").mkdir()  # hidden: never a session
    (root / ".git" / "HEAD").write_text("ref")
    yield root
    (root / "locked").chmod(0o755)
    shutil.rmtree(root)


def test_a_scan_names_every_entry_it_was_given(fleet: Path) -> None:
    scan([str(SAMPLE)], ["anthropic"])  # every module the scan needs, imported while we may read them
    logs = fleet / "logs"
    with unprivileged(), within(60):
        result = scan([str(fleet)], ["anthropic"])
    reasons = {u.file: u.reason for u in result.unreadable}
    read = set(result.frame["file"])
    assert read == {str(logs / "ok.json"), str(fleet / "elsewhere" / "also.json")}
    assert sorted(reasons) == sorted(
        str(p)
        for p in [
            fleet / "locked",
            logs / "broken.json",
            logs / "dangling.json",
            logs / "fifo.jsonl",
            logs / "linked",
            logs / "loop1",
            logs / "loop2",
        ]
    )
    assert reasons[str(fleet / "locked")] == (
        f"{fleet / 'locked'}: a folder toolhist cannot list (permission denied): its files are not scanned"
    )
    fifo = "is a FIFO (named pipe), not a file: toolhist reads regular files only"
    assert reasons[str(logs / "fifo.jsonl")] == f"{logs / 'fifo.jsonl'}: {fifo}"
    assert reasons[str(logs / "loop1")] == f"{logs / 'loop1'}: a symbolic link loop"
    dangling = "a dangling symbolic link (its target does not exist)"
    assert reasons[str(logs / "dangling.json")] == f"{logs / 'dangling.json'}: {dangling}"
    linked = "a symbolic link to a folder (not followed: links may loop)"
    assert reasons[str(logs / "linked")] == f"{logs / 'linked'}: {linked}"
    assert reasons[str(logs / "broken.json")].startswith(f"{logs / 'broken.json'}:")
