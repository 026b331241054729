"""zstd decompression for Zed's threads: the standard library's on Python 3.14+, else ``zstandard``.

``zstandard`` (the ``[zed]`` extra) is the Python binding of the zstd reference library, kept by
Gregory Szorc since 2016 with wheels for every platform; it is imported only when a Zed thread is
read, so the core install stays without it.
"""

from __future__ import annotations

import importlib
from typing import Any, Final

INSTALL: Final = "Zed's threads are zstd-compressed: pip install 'toolhist[zed]' (the zstandard package)"
MAX_OUTPUT: Final = 512 * 1024 * 1024
"""The largest thread decompressed (a corrupt or hostile frame cannot exhaust memory)."""


def _module() -> Any:
    for name in ("compression.zstd", "zstandard"):
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    return None


def available() -> bool:
    """Whether a zstd decompressor is installed."""
    return _module() is not None


def decompress(data: bytes) -> bytes:
    """The bytes ``data`` compresses; ValueError for bad data or when no decompressor is installed."""
    module = _module()
    if module is None:
        raise ValueError(INSTALL)
    try:
        if module.__name__ == "zstandard":
            reader = module.ZstdDecompressor().stream_reader(data)
            out: bytes = reader.read(MAX_OUTPUT + 1)
        else:
            out = module.decompress(data)
    except Exception as exc:
        raise ValueError(str(exc)) from None
    if len(out) > MAX_OUTPUT:
        raise ValueError(f"a thread larger than {MAX_OUTPUT} bytes once decompressed")
    return out
