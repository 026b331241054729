"""A listed session's verdict on the provider it ran on: the one part of a row that reads the whole file.

The file is read with its agent's reader (no sniffing) and judged as ``toolhist check`` judges an
agent log: the request the agent would send next (DESIGN §2), rendered for ``row.provider`` with
no repair. The row then carries the exact message count, and the model and provider if the header
did not name them. Kept apart from the listing so the default listing stays a header read.
"""

from __future__ import annotations

from dataclasses import replace

from toolhist.agents.registry import BY_ID
from toolhist.check import verdict
from toolhist.errors import ToolhistError
from toolhist.formats.document import Document
from toolhist.machine.listing import SessionRow
from toolhist.machine.ran_on import ran_on
from toolhist.model import Session
from toolhist.providers import Violation
from toolhist.readers import load_document

UNKNOWN = "provider unknown"
"""The verdict when neither the header nor the session names the provider it ran on."""


def _model(session: Session) -> str | None:
    """The model the session names: its request's, else the first message's that has one."""
    model = session.request.get("model") if isinstance(session.request, dict) else None
    if isinstance(model, str):
        return model
    return next((m.metadata.model for m in session.messages if m.metadata.model), None)


def judge(row: SessionRow) -> SessionRow:
    """``row`` with its verdict (or, for a file its reader refuses, the reason as ``problem``)."""
    if row.problem is not None:
        return row
    try:
        document, session = load_document(str(row.path), row.read_format)
    except (ToolhistError, OSError) as exc:
        return replace(row, problem=str(exc))
    return judge_read(row, document, session)[0]


def judge_read(row: SessionRow, document: Document, session: Session) -> tuple[SessionRow, list[Violation]]:
    """`judge` of a session already read: the judged row and the violations behind its verdict.

    `toolhist.index` reads each session once for its search text and its verdict.
    """
    model = row.model or _model(session)
    by_model = BY_ID[row.agent].provider_by_model
    provider = row.provider or (ran_on(row.agent, model=model) if by_model else None)
    judged = replace(row, messages=len(session.messages), counted="exact", model=model, provider=provider)
    if provider is None:
        return replace(judged, verdict=UNKNOWN), []
    found = verdict(document, session, provider)
    return replace(judged, verdict=verdict_text(found), rules=tuple(sorted({v.rule for v in found}))), found


def verdict_text(found: list[Violation]) -> str:
    """``rejects (HTTP 400)``, ``accepts, with warnings`` or ``accepts``."""
    errors = sum(v.severity == "error" for v in found)
    return "rejects (HTTP 400)" if errors else ("accepts, with warnings" if found else "accepts")
