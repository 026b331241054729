"""A file redacted piece by piece is byte for byte what `redact_text` makes of all of it, in bounded pieces."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from toolhist import redact
from toolhist.redact import KINDS, redact_text
from toolhist.redact_file import CHUNK, PEM_REACH, redact_stream, safe_cut

CORPUS = Path(__file__).parent / "corpus"
OPENAI = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2"
TOKEN = "Qw3rTy8uIo9pAs2dFg4hJk6lZx7cVb1n"
PEM_BODY = "MIIEowIBAAKCAQEA1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8S9t0"


def whole(data: bytes) -> bytes:
    """What the app held before: the whole text redacted (`toolhist.views.state._redacted`)."""
    return redact_text(data.decode("utf-8"))[0].encode("utf-8")


def streamed(data: bytes, chunk: int) -> bytes | None:
    target = io.BytesIO()
    return target.getvalue() if redact_stream(io.BytesIO(data), target, chunk) else None


def one_scan(raw: bytes) -> bytes:
    """`redact_utf8` as it was: one search of the grouped `_FRAGMENTS` (13 times slower than now)."""
    lowered, pieces, last, pos = raw.lower(), [], 0, 0
    while (hit := redact._FRAGMENTS.search(lowered, pos)) is not None:
        at = hit.start()
        pos = at + 1
        if at < last:
            continue
        found = redact._match_at(raw, at, last, redact._candidates(hit))
        if found is not None:
            kind, start, end = found
            pieces += [raw[last:start], f"[REDACTED:{kind.name}]".encode()]
            last = pos = end
    return b"".join([*pieces, raw[last:]])


def corpus_files() -> list[Path]:
    return sorted(p for p in CORPUS.rglob("*") if p.is_file())


@pytest.mark.parametrize("path", corpus_files(), ids=lambda p: str(p.relative_to(CORPUS)))
def test_every_corpus_file_redacts_as_the_whole_text(path: Path) -> None:
    data = path.read_bytes()
    try:
        expected: bytes | None = whole(data)
    except UnicodeDecodeError:
        expected = None  # not text: no copy is made (the session read is redacted instead)
    for chunk in (1, 64, 4096, CHUNK):
        assert streamed(data, chunk) == expected, chunk
    if expected is not None:
        assert one_scan(data) == expected


PIECES = st.sampled_from(
    [
        "\n",
        "},\n",
        "{\n",
        "]\n",
        "  ",
        "\r\n",
        "é",
        "日本",
        "word ",
        f"key {OPENAI} ",
        f'"api_key": "{TOKEN}"',
        '"api_key":\n',  # pretty-printed JSON: the name on one line, its value on the next
        f'  "{TOKEN}"',
        "password =\n",
        "hunter2hunter2\n",
        "Authorization: Bearer\n",
        f"{TOKEN}\n",
        "Basic\n",
        "dXNlcjpwYXNzd29yZA==\n",
        "aws_secret_access_key:\n",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY\n",
        "-----BEGIN RSA PRIVATE KEY-----\n",
        f"{PEM_BODY}\n",
        "-----END RSA PRIVATE KEY-----\n",
        "<",
        "postgres://user:\n",
        "s3cr3t@db\n",
        '{"a": "x"}\n',
    ]
)


@settings(max_examples=400)
@given(st.lists(PIECES, max_size=40), st.integers(min_value=1, max_value=80))
@example(["{\n", '"api_key":\n', f'  "{TOKEN}"', "},\n"], 1)
@example(["},\n", "-----BEGIN RSA PRIVATE KEY-----\n", "},\n", f"{PEM_BODY}\n", "},\n"], 1)
@example(["},\n", "Authorization: Bearer\n", "},\n", f"{TOKEN}\n"], 1)
def test_secrets_at_the_edges_of_pieces_are_redacted_as_in_the_whole(pieces: list[str], chunk: int) -> None:
    data = "".join(pieces).encode("utf-8")
    assert streamed(data, chunk) == whole(data) == one_scan(data)


def test_a_key_split_over_lines_in_pretty_printed_json_is_redacted() -> None:
    data = json.dumps({"env": {"api_key": TOKEN}, "items": list(range(50))}, indent=2).encode()
    data = data.replace(b'"api_key": ', b'"api_key":\n      ')
    out = streamed(data, 16)
    assert out == whole(data)
    assert out is not None
    assert TOKEN.encode() not in out
    assert b"[REDACTED:credential]" in out


def test_no_cut_within_reach_of_a_private_key_header() -> None:
    """A block cut short on one line may end at an END line further on: no cut between them."""
    head = b'{"a": "-----BEGIN RSA PRIVATE KEY-----\\nMIIE"},\n'
    tail = b'{"b": "x-----END RSA PRIVATE KEY-----"}\n'
    filler = b'{"c": 1},\n' * 100
    data = head + filler + tail
    assert safe_cut(head + filler) is None
    assert streamed(data, 8) == whole(data)
    far = head + b'{"c": 1},\n' * (PEM_REACH // 10 + 1)
    assert safe_cut(far) == len(far)


def test_a_line_ending_in_a_word_or_a_separator_is_no_cut() -> None:
    assert safe_cut(b"Bearer\n") is None
    assert safe_cut(b'"api_key":\n') is None
    assert safe_cut(b"plain text\n") is None
    assert safe_cut(b'{"a": 1}\n{"b": 2}\n') == 18
    assert safe_cut(b'{"a": 1}  \r\n\n') == 13
    assert safe_cut(b"\n\n") is None  # blanks back to the start: what came before is not known here


class Counting(io.BytesIO):
    """A file that remembers the largest read and the largest write."""

    def __init__(self, data: bytes = b"") -> None:
        super().__init__(data)
        self.largest = 0

    def read(self, size: int | None = -1) -> bytes:
        got = super().read(size)
        self.largest = max(self.largest, len(got))
        return got

    def write(self, data: bytes) -> int:  # type: ignore[override]
        self.largest = max(self.largest, len(data))
        return super().write(data)


def test_a_log_over_the_piece_size_is_never_held_whole() -> None:
    line = json.dumps({"type": "user", "message": {"content": f"my key {OPENAI} " + "x" * 300}}) + "\n"
    data = (line * 2000).encode()  # about 700 kB, in pieces of 16 kB
    chunk = 16 * 1024
    source, target = Counting(data), Counting()
    assert redact_stream(source, target, chunk)
    assert source.largest <= chunk
    assert target.largest <= 2 * chunk  # a piece is what was read since the last cut
    assert target.getvalue() == whole(data)
    assert OPENAI.encode() not in target.getvalue()


def test_bytes_that_are_not_utf8_are_found_in_any_piece() -> None:
    data = b'{"a": 1},\n' * 1000 + b"\xff\xfe" + b'{"a": 1},\n' * 10
    assert streamed(data, 64) is None
    assert streamed(data, CHUNK) is None


def test_the_cut_rule_was_reasoned_for_these_patterns() -> None:
    """`safe_cut` holds by what each kind's pattern can match across a newline (its docstring): a
    kind added or a pattern changed must be checked against that reasoning, then recorded here."""
    patterns = hashlib.sha256(b"\0".join(kind.pattern for kind in KINDS)).hexdigest()
    assert [kind.name for kind in KINDS] == [
        "anthropic-key",
        "openai-key",
        "google-key",
        "aws-access-key",
        "github-token",
        "huggingface-token",
        "slack-token",
        "jwt",
        "private-key",
        "url-password",
        "aws-secret-key",
        "password",
        "basic-auth",
        "bearer-token",
        "credential",
    ]
    assert patterns == "04bbd98c0c34957e5dadb73b50fd9240f75ae3b03567cd01a8d27661e530ae75"
