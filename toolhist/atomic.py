"""Writing output files whole or not at all.

``toolhist report -o``, ``scan --out``/``--dataset`` and ``migrate -o`` write files a user opens,
shares or feeds to the next tool. A command stopped half-way (Ctrl-C, a full disk, an unreadable
input found late) must not leave a truncated report or a dataset missing its last parts where the
previous good one was. So everything is written to a temporary name beside the target (same folder,
hence same file system) and moved into place with one ``os.replace``/``os.rename`` when complete;
on any failure, interruption included, the temporary file or folder is removed and the target is
left as it was.
"""

from __future__ import annotations

import os
import secrets
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from toolhist.errors import UsageError


@contextmanager
def replacing(target: str | os.PathLike[str]) -> Iterator[Path]:
    """A temporary path beside ``target`` to write; moved onto ``target`` when the block completes."""
    final = Path(target)
    temp = _beside(final)
    os.close(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # the umask applies, as for open()
    try:
        yield temp
        os.replace(temp, final)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def write_text(target: str | os.PathLike[str], text: str) -> None:
    """``Path(target).write_text(text, encoding="utf-8")``, whole or not at all."""
    with replacing(target) as temp:
        temp.write_text(text, encoding="utf-8")


def new_folder(target: str | os.PathLike[str]) -> Path:
    """A temporary folder beside ``target``, for a folder written in parts (`publish_folder` / `discard`).

    ``target`` may be missing or an empty folder; anything else is a UsageError, before work starts.
    """
    final = Path(target)
    if final.exists() and (not final.is_dir() or any(final.iterdir())):
        raise UsageError(f"{target}: exists and is not an empty folder")
    final.parent.mkdir(parents=True, exist_ok=True)
    temp = _beside(final)
    temp.mkdir(0o777)
    return temp


def publish_folder(temp: Path, target: str | os.PathLike[str]) -> None:
    """Move a finished temporary folder onto ``target`` (an empty folder there is replaced)."""
    final = Path(target)
    if final.is_dir():
        final.rmdir()  # empty, checked by `new_folder`; an entry added since makes this fail loudly
    os.rename(temp, final)


def _beside(final: Path) -> Path:
    """A fresh hidden name in ``final``'s folder: ``.NAME.PID.RANDOM.partial``."""
    return final.parent / f".{final.name}.{os.getpid()}.{secrets.token_hex(4)}.partial"


def discard(temp: Path) -> None:
    """Remove an unfinished temporary folder."""
    shutil.rmtree(temp, ignore_errors=True)
