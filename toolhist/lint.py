"""Warnings about a history that no provider rejects but that still misleads the model.

A lint finding is not a provider rule (`toolhist.providers` owns those): the request is accepted,
the conversation is just worse for it. One rule so far:

- ``kilo.mixed_tool_style`` (warning): one history holds tool calls written as XML text *and* as
  native tool-call blocks. Kilo's ``resumeTaskFromHistory`` flattens every ``tool_use`` to XML
  and saves it; a task resumed under native tools then continues with blocks, and the model sees
  both styles (seed 003). ``toolhist migrate FILE --to native`` restores the blocks.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

from toolhist.agents.cline.reader import message_styles
from toolhist.model import Session

MIXED_TOOL_STYLE: Final = "kilo.mixed_tool_style"


class LintFinding(BaseModel):
    """One finding: which rule, how bad, where, and what to do."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    rule: str
    """The rule id (``kilo.mixed_tool_style``)."""
    severity: Literal["warning"]
    """Lint findings never block a request; providers' rules do that."""
    message: str
    """What is wrong, with the message indices."""
    message_indices: tuple[int, ...]
    """The canonical messages involved."""
    fix: str
    """What repairs it."""


def lint(session: Session) -> list[LintFinding]:
    """Every lint finding for ``session``, in rule order."""
    styles = message_styles(session.messages)
    xml = [i for i, s in enumerate(styles) if s == "xml" and session.messages[i].speaker == "ai"]
    native = [i for i, s in enumerate(styles) if s == "tool_use"]
    if not xml or not native:
        return []
    return [
        LintFinding(
            rule=MIXED_TOOL_STYLE,
            severity="warning",
            message=(
                f"tool calls written as XML text (messages {_list(xml)}) and as native tool calls "
                f"(messages {_list(native)}) in one history: the model sees two tool styles"
            ),
            message_indices=tuple(sorted(xml + native)),
            fix="toolhist migrate FILE --to native (turns the XML calls and their results back into blocks)",
        )
    ]


def _list(indices: list[int]) -> str:
    return ", ".join(map(str, indices))
