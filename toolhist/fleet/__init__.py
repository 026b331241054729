"""Fleet scan: every session of a platform against every provider, on one machine or a Dask cluster.

`toolhist.scan.scan` is the entry point (``toolhist scan``); this package holds its parts:
`inputs` (folders, globs, fsspec URLs), `task` (one file -> rows), `run` (in process or on Dask's
distributed scheduler), `dataset` (the partitioned Parquet output and its reader).

The names below are imported from their module on first use: `dataset` needs pandas and pyarrow
(the ``fleet`` extra), and ``toolhist scan`` and the app's Fleet page import `inputs` first to say
which extra is missing, on a core install, instead of failing here.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from toolhist.fleet.dataset import DatasetWriter, read_table
    from toolhist.fleet.inputs import expand, is_url
    from toolhist.fleet.task import SESSION_COLUMNS, VIOLATION_COLUMNS, FileResult, scan_file

_MODULE_OF = {
    "DatasetWriter": "dataset",
    "read_table": "dataset",
    "expand": "inputs",
    "is_url": "inputs",
    "SESSION_COLUMNS": "task",
    "VIOLATION_COLUMNS": "task",
    "FileResult": "task",
    "scan_file": "task",
}


def __getattr__(name: str) -> Any:
    """Each exported name, from its module (imported now, on first use)."""
    if name in _MODULE_OF:
        return getattr(import_module(f"toolhist.fleet.{_MODULE_OF[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "SESSION_COLUMNS",
    "VIOLATION_COLUMNS",
    "DatasetWriter",
    "FileResult",
    "expand",
    "is_url",
    "read_table",
    "scan_file",
]
