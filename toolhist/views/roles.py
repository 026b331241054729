"""The word a page shows for who spoke: the providers' own roles, on every page alike.

The library's model names the speakers ``human`` and ``ai`` (`toolhist.model.Speaker`); every provider's
wire says ``user`` and ``assistant``, and so did the Conversation page while Home, Payloads and the
tables beside them said ``human`` and ``ai``: one history read as two casts. Pages show `role`; the
model, the CLI and the exports keep the library's names.
"""

from __future__ import annotations

from typing import Final

ROLES: Final = {"human": "user", "ai": "assistant", "tool": "tool", "system": "system"}
"""The role shown for each of the library's speakers."""


def role(speaker: str) -> str:
    """``user`` for ``human``, ``assistant`` for ``ai``; ``tool``, ``system`` (any other) as they are."""
    return ROLES.get(speaker, speaker)
