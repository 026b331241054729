"""toolhist's own canonical Session JSON (``Session.to_json()``), so a dumped session loads back equal."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError

from toolhist.formats.base import Reader, ShapeError
from toolhist.formats.document import Document
from toolhist.model import SCHEMA_KIND, Session


class CanonicalReader(Reader):
    """``toolhist``: the canonical JSON form written by ``toolhist curate --json`` and ``Session.to_json``."""

    id = "toolhist"
    description = "toolhist canonical Session JSON (what Session.to_json() writes)"
    judgement = "as-sent"

    def recognise(self, value: Any) -> int:
        """Certain on the ``kind`` marker."""
        return 2 if isinstance(value, dict) and value.get("kind") == SCHEMA_KIND else 0

    def read(self, doc: Document) -> Session:
        """Validate strictly against the model; the first error names its JSON path."""
        try:
            return Session.model_validate(doc.value)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise ShapeError(tuple(first["loc"]), first["msg"]) from None
