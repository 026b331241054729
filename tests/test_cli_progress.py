"""Long CLI work: progress on a terminal only, Ctrl-C as exit 130 and one line, no half-written files.

Real processes, real signals: the command runs as ``python -m toolhist`` with stderr on a
pseudo-terminal (progress) or a pipe (none). To interrupt a command mid-way without
timing, a scan of many files is interrupted once it says it has read the first of them.
"""

from __future__ import annotations

import os
import pty
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from bench_modules import benchmark_module

from toolhist.atomic import new_folder, publish_folder, replacing, write_text
from toolhist.errors import UsageError

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "sample_logs" / "gemini_cli_session.jsonl"
generate = benchmark_module("generate")


def _toolhist(*args: str, **kwargs: object) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "toolhist", *args], cwd=ROOT, **kwargs)  # type: ignore[call-overload,no-any-return]


def _on_terminal(*args: str) -> tuple[int, bytes, bytes]:
    """Run with stderr on a pseudo-terminal: exit code, stdout, everything drawn on the terminal."""
    leader, follower = pty.openpty()
    with tempfile.TemporaryFile() as stdout:  # a file, not a pipe: nothing blocks while the terminal is read
        proc = _toolhist(*args, stdout=stdout, stderr=follower)
        os.close(follower)
        drawn = b""
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:  # EIO: the process closed the terminal (it exited)
                break
            if not chunk:
                break
            drawn += chunk
        code = proc.wait(timeout=300)
        os.close(leader)
        stdout.seek(0)
        return code, stdout.read(), drawn


def test_progress_is_drawn_on_a_terminal_and_erased(tmp_path: Path) -> None:
    """``check`` draws its reading and checking status on the terminal, then erases it."""
    path = tmp_path / "session.json"
    generate.write(2000, path)
    code, out, drawn = _on_terminal("check", str(path))
    assert code == 1
    assert b"\rreading session.json    0%  0/1 MB\x1b[K" in drawn
    assert b"\rchecking session.json  openai-chat (1/7)\x1b[K" in drawn
    assert b"bedrock (7/7)" in drawn
    assert drawn.endswith(b"\r\x1b[K")  # the status line is erased: the terminal is as it was
    plain = subprocess.run(
        [sys.executable, "-m", "toolhist", "check", str(path)], cwd=ROOT, capture_output=True, check=False
    )
    assert plain.stdout == out  # stdout is the same with or without a terminal
    assert plain.stderr == b""  # not a terminal: no progress at all


def test_summary_of_a_streamed_log_draws_its_share_read() -> None:
    code, out, drawn = _on_terminal("summary", str(SAMPLE))
    assert code == 0
    assert b"gemini-cli" in out
    assert f"\rreading {SAMPLE.name}  100%  0/0 MB\x1b[K".encode() in drawn


def _interrupt(proc: subprocess.Popen[bytes]) -> tuple[int, bytes, bytes]:
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def test_interrupted_scan_leaves_no_dataset(tmp_path: Path) -> None:
    """A scan stopped once it has read its first file leaves neither the dataset nor its hidden parts."""
    folder = tmp_path / "fleet"
    folder.mkdir()
    for n in range(300):
        generate.write(30, folder / f"s{n:03d}.json", seed=n)
    dataset = tmp_path / "out"
    proc = _toolhist(
        "scan", str(folder), "--dataset", str(dataset), stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert proc.stderr is not None
    first = proc.stderr.read1(4096)  # type: ignore[attr-defined]  # the first progress line: mid-scan
    assert first.startswith(b"\rscanning 1/300 files")
    code, _, err = _interrupt(proc)
    assert code == 130
    assert err.endswith(b"toolhist: interrupted\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fleet"]


def test_replacing_keeps_the_old_file_when_the_write_fails(tmp_path: Path) -> None:
    target = tmp_path / "out.html"
    write_text(target, "old report")

    def interrupted_write() -> None:
        with replacing(target) as temp:
            temp.write_text("half of a new rep", encoding="utf-8")
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        interrupted_write()
    assert target.read_text(encoding="utf-8") == "old report"
    assert [p.name for p in tmp_path.iterdir()] == ["out.html"]
    write_text(target, "new report")
    assert target.read_text(encoding="utf-8") == "new report"
    assert [p.name for p in tmp_path.iterdir()] == ["out.html"]


def test_a_folder_is_published_whole(tmp_path: Path) -> None:
    target = tmp_path / "dataset"
    target.mkdir()  # an empty folder may be replaced
    temp = new_folder(target)
    (temp / "part-0.parquet").write_bytes(b"x")
    assert list(target.iterdir()) == []  # nothing visible before it is published
    publish_folder(temp, target)
    assert [p.name for p in target.iterdir()] == ["part-0.parquet"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dataset"]
    with pytest.raises(UsageError, match="exists and is not an empty folder"):
        new_folder(target)
