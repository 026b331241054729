"""The "This machine" table: the sessions agents keep here (`toolhist.machine`), for the home page.

Plain values only (no Streamlit): the page shows the frame and the line with ``st.dataframe`` and
``st.text``, which escape whatever a session file put in a project or model name.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from toolhist.machine import SessionRow
from toolhist.providers import Violation

ALL = "All agents"
COLUMNS = ("modified (UTC)", "agent", "project", "messages", "provider", "model", "problem", "file")
"""The table's columns; a ``verdict`` column comes after ``model`` once the sessions are judged."""


def sessions_frame(rows: Sequence[SessionRow]) -> pd.DataFrame:
    """One row per session, in the order given (`COLUMNS`, and ``verdict`` when judged)."""
    frame = pd.DataFrame(
        [
            {
                "modified (UTC)": row.when(),
                "agent": row.agent,
                "project": row.project or "",
                "messages": row.messages,
                "provider": row.provider or "",
                "model": row.model or "",
                "verdict": (f"{row.verdict}: {', '.join(row.rules)}" if row.rules else row.verdict) or "",
                "problem": row.problem or "",
                "file": str(row.path),
            }
            for row in rows
        ],
        columns=[*COLUMNS[:6], "verdict", *COLUMNS[6:]],
    )
    if all(row.verdict is None for row in rows):  # not judged: no empty column
        frame = frame.drop(columns="verdict")
    return frame.astype({"messages": "Int64"})  # a count, or empty when the file was not read


def label(row: SessionRow) -> str:
    """The session in the picker: date, agent, project and its id (file stem, or task folder)."""
    name = row.path.parent.name if row.path.name == "api_conversation_history.json" else row.path.stem
    return f"{row.when()} · {row.agent} · {row.project or '-'} · {name}"


def ran_on_line(row: SessionRow, found: Sequence[Violation] | None) -> str:
    """Where the session ran and the verdict there on its next request (``found``: its violations)."""
    if row.provider is None or found is None:
        return f"Ran on: not recorded in this {row.agent} session (every provider's verdict is below)"
    model = f" ({row.model})" if row.model else ""
    errors = sum(v.severity == "error" for v in found)
    verdict = "rejects (HTTP 400)" if errors else ("accepts, with warnings" if found else "accepts")
    rules = ", ".join(sorted({v.rule for v in found}))
    return f"Ran on {row.provider}{model}: the next request {verdict}" + (f" ({rules})" if rules else "")
