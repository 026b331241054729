"""Only regular files are read: a FIFO, a device or a socket is refused at once, with one line.

Reading a FIFO blocks until some other process writes to it (``summary`` and ``check`` hung forever
on one); a character device such as ``/dev/zero`` never ends; a symbolic link loop fails deep in
the read with an ``OSError`` no reader expects. `regular_file` looks before anything is opened
(``stat`` follows links, and never blocks) and turns each case into a `LoadError` naming the file.
"""

from __future__ import annotations

import errno
import os
import stat

from toolhist.errors import LoadError

_KINDS = (
    (stat.S_ISDIR, "is a directory, not a session file"),
    (stat.S_ISFIFO, "is a FIFO (named pipe), not a file: toolhist reads regular files only"),
    (stat.S_ISCHR, "is a character device, not a file: toolhist reads regular files only"),
    (stat.S_ISBLK, "is a block device, not a file: toolhist reads regular files only"),
    (stat.S_ISSOCK, "is a socket, not a file: toolhist reads regular files only"),
)


def why_not_regular(path: str) -> str | None:
    """Why ``path`` cannot be read as a session file (one phrase), or None when it is a regular file."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return (
            "a dangling symbolic link (its target does not exist)" if os.path.islink(path) else "no such file"
        )
    except PermissionError:
        return "permission denied"
    except ValueError:  # os.stat refuses a path with a NUL character in it
        return "the path holds a NUL character"
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return "a symbolic link loop"
        if exc.errno == errno.ENAMETOOLONG:
            return "the path is too long"
        return exc.strerror or str(exc)
    for test, reason in _KINDS:
        if test(info.st_mode):
            return reason
    return None if stat.S_ISREG(info.st_mode) else "not a regular file"


def regular_file(path: str) -> int:
    """The size of the regular file at ``path``; a `LoadError` naming it for anything else."""
    reason = why_not_regular(path)
    if reason is not None:
        raise LoadError(reason, file=path)
    try:
        return os.stat(path).st_size
    except OSError as exc:  # replaced between the two looks
        raise LoadError(exc.strerror or str(exc), file=path) from None
