"""Malformed input: every case is one LoadError naming its place, exit 2 and one stderr line — never a hang.

The corpus (``malformed/`` plus the large cases `malformed_cases.GENERATED` writes at test time)
covers truncation, wrong encodings, BOMs, NaN/Infinity, binary, empty and whitespace-only input,
unknown shapes, duplicate keys, and wrong types for each reader present when it was written. The
``FORMATS`` test below runs generic wrong shapes through every registered reader, so readers added
later are held to the same contract.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType

import pytest
from malformed_cases import ALL, COMMITTED, EXPECTED, GENERATED, forced_format, materialise

import toolhist
from toolhist.cli import main
from toolhist.errors import LoadError
from toolhist.readers import FORMATS

TIMEOUT = 60
"""Seconds any one case may take; the 50 MB ones take a few."""


@pytest.fixture(scope="module")
def big_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("malformed")


@contextmanager
def within(seconds: int) -> Iterator[None]:
    """Fail with TimeoutError instead of hanging (SIGALRM: pytest runs tests in the main thread)."""

    def expire(signum: int, frame: FrameType | None) -> None:
        raise TimeoutError(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def expected(name: str, path: Path) -> str:
    return EXPECTED[name].format(file=path, formats=", ".join(FORMATS))


def test_the_corpus_is_complete() -> None:
    assert len(COMMITTED) >= 40
    assert sorted(EXPECTED) == ALL  # every case has its expected error, and no expectation is stale
    # every reader present when the corpus was written has its format-specific wrong types
    for fmt in ("openai-chat", "openai-responses", "anthropic", "gemini", "bedrock", "icontent", "toolhist"):
        cases = {n.split(".")[1] for n in COMMITTED if forced_format(n) == fmt}
        assert {"message_is_number", "content_wrong_type"} <= cases, fmt
        assert len(cases) >= 4, fmt


@pytest.mark.parametrize("name", ALL)
def test_load_names_the_place(name: str, big_dir: Path) -> None:
    path = materialise(name, big_dir)
    with within(TIMEOUT), pytest.raises(LoadError) as caught:
        toolhist.load(str(path), format=forced_format(name))
    assert str(caught.value) == expected(name, path)
    assert caught.value.file == str(path)
    if "unknown format" not in caught.value.reason and "empty" not in caught.value.reason:
        # a place inside the file: line (and column), or the JSON path of the offending field
        assert caught.value.line is not None or caught.value.json_path is not None


@pytest.mark.parametrize("name", ALL)
def test_cli_exits_2_with_one_line(name: str, big_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = materialise(name, big_dir)
    fmt = forced_format(name)
    with within(TIMEOUT):
        code = main(["summary", str(path), *(["--format", fmt] if fmt else [])])
    out, err = capsys.readouterr()
    assert (code, out) == (2, "")
    assert err == f"toolhist: error: {expected(name, path)}\n"


@pytest.mark.parametrize(
    "name",
    [
        "truncated_object.json",
        "utf16_le_bom.json",
        "binary_png.json",
        "duplicate_keys.json",
        "openai-chat.arguments_wrong_type.json",
        "big_single_line_truncated.json",
        "deep_array.json",
    ],
)
def test_the_installed_command_in_a_real_process(name: str, big_dir: Path) -> None:
    """The real process: exit status 2, one stderr line, no traceback, within the timeout."""
    path = materialise(name, big_dir)
    fmt = forced_format(name)
    done = subprocess.run(
        [sys.executable, "-m", "toolhist", "check", str(path), *(["--format", fmt] if fmt else [])],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"toolhist: error: {expected(name, path)}\n"


GENERIC = [
    (b"42", False),
    (b'"a string"', False),
    (b"[42]", True),
    (b"[[]]", True),
    (b'{"messages": 42}', True),
    (b'{"messages": [42]}', True),
    (b'[{"role": []}]', True),
    (b'{"messages": [{"role": "user", "content": {"x": 1}}]}', True),
    (b'{"contents": [{"parts": 42}]}', True),
    (b'{"input": [42]}', True),
]
"""Shapes no reader can take. True: the error must point inside the input (line or JSON path)."""


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("data", "located"), GENERIC)
def test_every_reader_refuses_wrong_shapes(fmt: str, data: bytes, located: bool) -> None:
    with within(TIMEOUT), pytest.raises(LoadError) as caught:
        toolhist.load(data, format=fmt, name="bad.json")
    assert caught.value.file == "bad.json"
    assert str(caught.value).startswith("bad.json")
    assert "\n" not in str(caught.value)
    if located:
        assert caught.value.line is not None or caught.value.json_path is not None


def test_generated_cases_are_as_large_as_promised(big_dir: Path) -> None:
    assert materialise("big_single_line_truncated.json", big_dir).stat().st_size > 50_000_000
    assert materialise("deep_array.json", big_dir).read_bytes().count(b"[") == 10_000
    assert set(GENERATED) <= set(ALL)
