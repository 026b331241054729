"""Where a fleet scan's files are: local folders, globs, and fsspec URLs (``s3://``, ``gs://``, ``az://``).

Each input names files where they live; nothing is copied up front. A worker reads one file at a
time (`local_copy`): a local path is read in place (agent logs stream line by line, see
`toolhist.readers.load`), a remote object is streamed in 1 MiB chunks to a temporary file on the
worker and read from there, so no file is ever held whole in memory by the transfer. Remote schemes
need their fsspec implementation: ``pip install 'toolhist[s3]'`` (s3fs), ``[gcs]`` (gcsfs),
``[azure]`` (adlfs).
"""

from __future__ import annotations

import glob
import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from toolhist.errors import UsageError

CHUNK = 1 << 20
"""Bytes per read when streaming a remote object to the worker's disk."""

EXTRAS = {
    "s3": "s3",
    "s3a": "s3",
    "gs": "gcs",
    "gcs": "gcs",
    "az": "azure",
    "abfs": "azure",
    "abfss": "azure",
}
"""URL scheme -> the toolhist extra that installs its fsspec implementation."""

StorageOptions = Mapping[str, Any]


def is_url(text: str) -> bool:
    """True for ``scheme://…`` (fsspec), False for a local path (a Windows drive letter included)."""
    scheme, sep, _ = text.partition("://")
    return bool(sep) and len(scheme) > 1 and scheme.replace("+", "").isalnum()


def _hidden(parts: Sequence[str]) -> bool:
    return any(part.startswith(".") for part in parts)


def _filesystem(url: str, options: StorageOptions) -> Any:
    """The fsspec filesystem for ``url``; a UsageError naming the extra when it is not installed."""
    import fsspec

    scheme = url.partition("://")[0]
    try:
        return fsspec.filesystem(scheme, **dict(options))
    except (ImportError, ValueError) as exc:
        extra = EXTRAS.get(scheme)
        hint = f"; install it with pip install 'toolhist[{extra}]'" if extra else ""
        raise UsageError(f"{url}: cannot open {scheme}:// ({exc}){hint}") from None


def _remote_files(url: str, options: StorageOptions) -> list[str]:
    fs = _filesystem(url, options)
    scheme = url.partition("://")[0]
    try:
        if glob.has_magic(url):
            found = [p for p in fs.glob(url) if fs.isfile(p)]
            base = ""
        elif fs.isdir(url):
            base = fs._strip_protocol(url).rstrip("/")
            found = fs.find(url)
        elif fs.isfile(url):
            return [url]
        else:
            raise UsageError(f"{url}: no such file or folder")
    except (OSError, PermissionError) as exc:
        raise UsageError(f"{url}: cannot list ({exc})") from None
    out = []
    for path in found:
        rel = path[len(base) + 1 :] if base and path.startswith(base + "/") else path.rsplit("/", 1)[-1]
        if not _hidden(rel.split("/")):
            out.append(f"{scheme}://{path}" if "://" not in path else path)
    return sorted(out)


def _local_files(text: str) -> list[str]:
    """Every entry the input names: each is a row of the scan, read or unreadable with its reason.

    Under a folder, that is every file and every entry that is not a plain folder: FIFOs, sockets,
    devices, dangling links and link loops (the task says why it cannot read them), a link to a
    folder (not followed: links may loop), and a folder that cannot be listed (its files cannot be
    named, so the folder is). A glob's matches likewise, folders excepted.
    """
    if glob.has_magic(text):
        return sorted(p for p in glob.glob(text, recursive=True) if not _plain_folder(p))
    root = Path(text)
    if os.path.lexists(text) and not _plain_folder(text):
        return [text]
    if not root.is_dir():
        raise UsageError(f"{text}: no such file or folder")
    found: list[str] = []

    def unlisted(exc: OSError) -> None:
        if exc.filename is not None:
            found.append(os.fspath(exc.filename))

    for folder, dirs, names in os.walk(text, onerror=unlisted):
        rel = Path(folder).relative_to(root).parts
        if _hidden(rel):
            dirs[:] = []
            continue
        linked = [d for d in dirs if os.path.islink(os.path.join(folder, d))]
        dirs[:] = [d for d in dirs if d not in linked and not d.startswith(".")]
        found += [os.path.join(folder, n) for n in [*names, *linked] if not n.startswith(".")]
    return sorted(found)


def _plain_folder(path: str) -> bool:
    return os.path.isdir(path) and not os.path.islink(path)


def expand(inputs: Sequence[str], options: StorageOptions | None = None) -> list[str]:
    """Every file the inputs name, each once, sorted; hidden files and folders skipped under a folder.

    A folder is walked recursively (every file is tried: formats are sniffed from content, not
    names); a glob (``logs/**/*.jsonl``, ``s3://bucket/2026-*/*.json``) is expanded; a URL is listed
    through fsspec with ``options`` (``endpoint_url``, ``anon``…).
    """
    files: set[str] = set()
    for item in inputs:
        files.update(_remote_files(item, options or {}) if is_url(item) else _local_files(item))
    return sorted(files)


@contextmanager
def local_copy(url: str, options: StorageOptions | None = None) -> Iterator[tuple[str, float | None]]:
    """``(local path, modification time)`` for one file: in place, or streamed to a temporary file.

    The temporary copy keeps the remote name's suffix (readers sniff content, but a ``.jsonl``
    suffix keeps error texts familiar) and is removed when the block ends.
    """
    if not is_url(url):
        yield url, os.path.getmtime(url)
        return
    fs = _filesystem(url, options or {})
    info = fs.info(url)
    mtime = _mtime(info)
    suffix = Path(url.rsplit("/", 1)[-1]).suffix
    handle, tmp = tempfile.mkstemp(prefix="toolhist-", suffix=suffix)
    try:
        with os.fdopen(handle, "wb") as out, fs.open(url, "rb", block_size=CHUNK) as src:
            shutil.copyfileobj(src, out, CHUNK)
        yield tmp, mtime
    finally:
        os.unlink(tmp)


def _mtime(info: Mapping[str, Any]) -> float | None:
    for key in ("mtime", "LastModified", "last_modified", "updated", "created"):
        value = info.get(key)
        if value is None:
            continue
        if isinstance(value, int | float):
            return float(value)
        stamp = getattr(value, "timestamp", None)
        if callable(stamp):
            return float(stamp())
    return None
