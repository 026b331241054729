"""A fleet scan as a Parquet dataset that pandas, DuckDB and Dask read without loading it whole.

Layout (Hive partitioning, which all three understand)::

    OUT/sessions/provider=anthropic/part-00000.parquet   one row per session x provider
    OUT/violations/provider=anthropic/part-00000.parquet one row per violation
    OUT/unreadable/part-00000.parquet                    one row per file that could not be read

The dataset is written into a hidden folder beside ``OUT`` and moved into place when complete
(`toolhist.atomic`), so a scan stopped half-way leaves no partial dataset. Rows are buffered and
written a part at a time (`PART_ROWS` per provider), so writing a fleet of
millions holds one part in memory. Partitioning by provider keeps the usual question ("what share
of sessions would Anthropic reject?") to one folder. ``pd.read_parquet(OUT / "sessions")``,
``duckdb.sql("select ... from read_parquet('OUT/sessions/**/*.parquet', hive_partitioning=true)")``
and ``dask.dataframe.read_parquet(OUT / "sessions")`` all read it.
"""

from __future__ import annotations

import os
import shutil
from collections import defaultdict
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from toolhist.atomic import discard, new_folder, publish_folder
from toolhist.errors import UsageError
from toolhist.fleet.task import SESSION_COLUMNS, VIOLATION_COLUMNS, FileResult
from toolhist.redact import redact_text

PART_ROWS = 100_000
"""Rows per Parquet part file (per table and provider) before it is written out."""

SCHEMAS = {
    "sessions": pa.schema(
        [
            ("file", pa.string()),
            ("format", pa.string()),
            ("agent", pa.string()),
            ("messages", pa.int64()),
            ("errors", pa.int64()),
            ("warnings", pa.int64()),
            ("error_rules", pa.string()),
            ("rules", pa.string()),
            ("started", pa.float64()),
            ("date", pa.string()),
        ]
    ),
    "violations": pa.schema(
        [
            ("file", pa.string()),
            ("rule", pa.string()),
            ("severity", pa.string()),
            ("message_index", pa.int64()),
            ("block_index", pa.int64()),
            ("path", pa.string()),
        ]
    ),
    "unreadable": pa.schema([("file", pa.string()), ("reason", pa.string())]),
}
"""Column types of each table (``provider`` is the partition folder, not a stored column)."""


class DatasetWriter:
    """Streams `FileResult` rows as Parquet parts; `close` writes what is left and publishes ``out``.

    Until `close`, the parts go to a hidden folder beside ``out``; `discard` removes it (a failed
    or interrupted scan), so ``out`` only ever holds a whole dataset.
    """

    def __init__(self, out: str | os.PathLike[str], part_rows: int = PART_ROWS) -> None:
        self.final = Path(out)
        if self.final.exists() and (not self.final.is_dir() or any(self.final.iterdir())):
            raise UsageError(f"--dataset {out}: exists and is not an empty folder")
        self.out = new_folder(out)
        self.part_rows = part_rows
        self.buffers: dict[tuple[str, str], list[dict[str, object]]] = defaultdict(list)
        self.parts: dict[tuple[str, str], int] = defaultdict(int)

    def add(self, result: FileResult) -> None:
        """Buffer one file's rows (an unreadable file: its reason), writing parts as they fill."""
        if result.error is not None:
            self._push("unreadable", "", {"file": result.file, "reason": result.error})
        for row in result.sessions:
            self._push("sessions", str(row["provider"]), row)
        for row in result.violations:
            self._push("violations", str(row["provider"]), row)

    def _push(self, table: str, provider: str, row: dict[str, object]) -> None:
        buffer = self.buffers[table, provider]
        buffer.append(row)
        if len(buffer) >= self.part_rows:
            self._flush(table, provider)

    def _flush(self, table: str, provider: str) -> None:
        rows = self.buffers.pop((table, provider), [])
        if not rows:
            return
        schema = SCHEMAS[table]
        folder = self.out / table / (f"provider={provider}" if provider else "")
        folder.mkdir(parents=True, exist_ok=True)
        number = self.parts[table, provider]
        self.parts[table, provider] += 1
        columns = {name: [_shared(row.get(name)) for row in rows] for name in schema.names}
        pq.write_table(pa.table(columns, schema=schema), folder / f"part-{number:05d}.parquet")

    def close(self) -> None:
        """Write the rows still buffered; give every table at least an empty part; move it to ``out``."""
        for table, provider in list(self.buffers):
            self._flush(table, provider)
        for table, schema in SCHEMAS.items():  # an empty table is still a readable (empty) dataset
            folder = self.out / table
            if not folder.exists():
                folder.mkdir(parents=True)
                pq.write_table(schema.empty_table(), folder / "part-00000.parquet")
        publish_folder(self.out, self.final)

    def discard(self) -> None:
        """Remove what was written so far (``out`` is left as it was)."""
        discard(self.out)


def _shared(value: object) -> object:
    """A dataset is meant to be shared: every string (a file name, a reason) is redacted."""
    return redact_text(value)[0] if isinstance(value, str) else value


def read_table(out: str | os.PathLike[str], table: str) -> pd.DataFrame:
    """One table of a scan dataset as a DataFrame, ``provider`` a plain string column.

    The columns follow `SESSION_COLUMNS` / `VIOLATION_COLUMNS` (``file``, ``reason`` for
    unreadable); rows are sorted by file (and provider) so two scans of the same files compare equal.
    """
    folder = Path(out) / table
    if not folder.is_dir():
        raise UsageError(f"{out}: not a toolhist scan dataset (no {table}/ folder)")
    frame: pd.DataFrame = pq.read_table(folder, partitioning="hive").to_pandas()
    if table == "unreadable":
        return frame.sort_values(["file"], kind="stable").reset_index(drop=True)
    if "provider" not in frame.columns:
        frame["provider"] = pd.Series([], dtype="str")
    frame["provider"] = frame["provider"].astype("str")
    columns = SESSION_COLUMNS if table == "sessions" else VIOLATION_COLUMNS
    frame = frame[list(columns)]
    keys = (
        ["file", "provider"] if table == "sessions" else ["file", "provider", "message_index", "rule", "path"]
    )
    return frame.sort_values(keys, kind="stable").reset_index(drop=True)


def remove(out: str | os.PathLike[str]) -> None:
    """Delete a scan dataset folder (the app's "scan a folder" writes to a temporary one)."""
    shutil.rmtree(out, ignore_errors=True)
