"""Fleet scan: every session of a platform against every provider, on one machine or a Dask cluster.

`toolhist.scan.scan` is the entry point (``toolhist scan``); this package holds its parts:
`inputs` (folders, globs, fsspec URLs), `task` (one file -> rows), `run` (in process or on Dask's
distributed scheduler), `dataset` (the partitioned Parquet output and its reader).
"""

from __future__ import annotations

from toolhist.fleet.dataset import DatasetWriter, read_table
from toolhist.fleet.inputs import expand, is_url
from toolhist.fleet.task import SESSION_COLUMNS, VIOLATION_COLUMNS, FileResult, scan_file

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
