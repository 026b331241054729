"""Canonical tool-call ids (seed 001) and the table of how each provider sees them.

Seed 001's design: normalise once when a history is read into ``hist_tool_`` + 24 base64url
characters of a SHA-256, then map canonical → provider format only at the edge
(`toolhist.providers.idmap`, `toolhist.providers.edge_ids`). The hash follows llxprt-code's
``canonicalizeToolCallId`` (``research/llxprt.md`` §2.4) exactly, so toolhist and llxprt agree on
the id of the same call:

- an id that is already canonical is returned unchanged (idempotent);
- otherwise known provider prefixes are stripped (``call_``, ``toolu_``, ``call`` + 8 or more
  alphanumerics), so ``call_abc`` and ``callabc…`` from two providers' renderings of one call meet;
- the seed is ``provider|raw|tool name``; a call with no raw id adds the turn key and its index in
  the turn, which makes missing ids stable across re-reads (position, not randomness).
"""

from __future__ import annotations

import base64
import hashlib
import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    import pandas as pd

    from toolhist.model import Session

PREFIX = "hist_tool_"
CANONICAL_ID = re.compile(r"^hist_tool_[A-Za-z0-9_-]{24}$")
"""What `canonical_id` produces: Anthropic-safe, Bedrock-safe, 34 characters (OpenAI allows 40)."""
_CALL_SUFFIX = re.compile(r"^[a-zA-Z0-9]+$")


def strip_prefixes(raw: str) -> str:
    """``raw`` without the provider prefixes llxprt strips (``research/llxprt.md`` §2.1, step 3).

    Repeats until nothing changes: ``call_call_3or3`` → ``3or3``. ``call`` without an underscore is
    stripped only before 8 or more alphanumerics (OpenAI's ``call3or3EL9…`` ids), which keeps
    ``callabc`` and ``call-abc12345`` whole.
    """
    candidate = raw
    while True:
        if candidate.startswith("call_"):
            candidate = candidate[5:]
        elif candidate.startswith("toolu_"):
            candidate = candidate[6:]
        elif candidate.startswith("call") and len(candidate) - 4 >= 8 and _CALL_SUFFIX.match(candidate[4:]):
            candidate = candidate[4:]
        else:
            return candidate


def canonical_id(
    provider: str | None,
    raw_id: str | None,
    tool_name: str | None,
    turn_key: str,
    call_index: int,
) -> str:
    """The canonical id of one call (or of one result, which hashes the same inputs).

    ``turn_key`` and ``call_index`` only enter the hash when the call has no usable raw id, so a
    call keeps its id when the history around it changes (compaction, pruning, reordering).
    """
    if raw_id and raw_id.startswith(PREFIX):
        return raw_id
    normalized = strip_prefixes(raw_id) if raw_id else ""
    parts = [provider or "", normalized, tool_name or ""]
    if not normalized:
        parts += [turn_key, str(call_index)]
    digest = hashlib.sha256("|".join(parts).encode()).digest()
    return PREFIX + base64.urlsafe_b64encode(digest).decode().rstrip("=")[:24]


def is_canonical(call_id: str) -> bool:
    """Whether ``call_id`` has the canonical form."""
    return bool(CANONICAL_ID.fullmatch(call_id))


def id_table(session: Session, providers: tuple[str, ...] | None = None) -> pd.DataFrame:
    """One row per tool call: raw id, canonical id and the id each provider's payload carries.

    Columns: ``message``, ``block``, ``name``, ``raw_id``, ``id`` (what the history pairs on), then
    one column per provider (the id `toolhist.providers.idmap` renders for it).
    """
    import pandas as pd

    from toolhist.model import ToolCallBlock
    from toolhist.providers import PROVIDERS
    from toolhist.providers.idmap import map_ids

    names = providers or PROVIDERS
    mapped = {name: map_ids(session, name)[1] for name in names}
    rows = []
    for m, message in enumerate(session.messages):
        for b, block in enumerate(message.blocks):
            if isinstance(block, ToolCallBlock):
                row = {"message": m, "block": b, "name": block.name, "raw_id": block.raw_id, "id": block.id}
                row.update({name: mapped[name].get(block.id, block.id) for name in names})
                rows.append(row)
    columns = ["message", "block", "name", "raw_id", "id", *names]
    return pd.DataFrame(rows, columns=columns)
