r"""Cline's send path over its ``api_conversation_history.json``: what Cline replays to the provider.

Cline stores native ``tool_use`` blocks, but when a tool's result cannot be matched to its call
(``toolUseIdMap`` has no entry for the call's ``call_id``) ``ToolResultUtils.pushToolResult`` falls
back to the id ``"cline"`` and writes the result as a plain user text block,
``[read_file for 'a.ts'] Result:\n…``, not as a ``tool_result``. The file then holds calls that no
``tool_result`` answers, yet Cline's sessions ran on: before every request
``ContextManager.getTruncatedMessages`` calls ``ensureToolResultsFollowToolUse``, which, for each
assistant message with ``tool_use`` blocks followed by a user message,

- puts that message's ``tool_result`` blocks first, in the calls' order (the last one wins for an
  id answered twice);
- inserts ``{"type": "tool_result", "tool_use_id": id, "content": "result missing"}`` for every
  call without one (so the provider sees "result missing" and the real result as the text after);
- keeps every other block after them; drops results that answer none of that message's calls
  (v3.35.1 on, #7225); a string ``content`` becomes an empty list first (its text is not sent);
- changes nothing when the results already come first in order and every call is answered.

`cline_send_path` replays exactly that on the canonical messages (one per file entry), so the
verdict is on what Cline sent. Followed: cline/cline
``src/core/context/context-management/ContextManager.ts`` and
``src/core/task/tools/utils/ToolResultUtils.ts`` at 9ee618111d58630fea30b27439216448225458e0 (v3.x
before the move to ``apps/vscode``, #10961); introduced with native tool calling in 5fde21dffd
(#6921, v3.35.0). Not replayed, because the file does not hold them: the truncation range and the
file-read rewrites Cline keeps beside it (``taskHistory``, ``context_history.json``).

Roo Code and Kilo Code need no such replay: they repair the same shape when they write the file
(``validateAndFixToolResultIds``, RooCodeInc/Roo-Code ``src/core/task/validateToolResultIds.ts``,
#9952, at cb836567180a3ff1da6d082f3178b90c3bd22a70), so what their file holds is what they send.
"""

from __future__ import annotations

from typing import Any, Final

from toolhist.agents.cline.xml_calls import result_marker
from toolhist.model import Block, Message, TextBlock, ToolCallBlock, ToolResponseBlock

RESULT_MISSING: Final = "result missing"
"""The content Cline's ``ensureToolResultsFollowToolUse`` sends for a call with no ``tool_result``."""
INSERTED: Final = "_cline_inserted"
"""``provider_data`` key on a result Cline's send path inserted (underscore: never rendered)."""
CLINE_FIELDS: Final = frozenset({"modelInfo", "metrics"})
"""Message fields only Cline writes (``ClineStorageMessage``: ``modelInfo``, ``metrics``)."""


def is_cline(entries: list[Any], messages: list[Message]) -> bool:
    """Whether the file is Cline's: a Cline-only field, a block ``call_id``, or Cline's text fallback.

    The fallback (a ``tool_use`` answered only by a ``[name …] Result:`` text) is written by Cline's
    ``pushToolResult`` alone; Roo and Kilo write ``tool_result`` blocks for native calls.
    """
    for entry in entries:
        if not isinstance(entry, dict):
            continue
        if CLINE_FIELDS & entry.keys():
            return True
        content = entry.get("content")
        if isinstance(content, list) and any(isinstance(b, dict) and "call_id" in b for b in content):
            return True
    return bool(text_answered(messages))


def _calls(message: Message) -> list[ToolCallBlock]:
    """The message's ``tool_use`` blocks (server tools are not Cline's ``tool_use``)."""
    return [c for c in message.tool_calls() if c.provider_data.get("type", "tool_use") == "tool_use"]


def _is_result(block: Block) -> bool:
    return (
        isinstance(block, ToolResponseBlock)
        and block.provider_data.get("type", "tool_result") == "tool_result"
    )


def text_answered(messages: list[Message]) -> list[tuple[int, str]]:
    """(message index, call id) of every ``tool_use`` whose next message answers it only by text."""
    found: list[tuple[int, str]] = []
    for i in range(len(messages) - 1):
        calls = _calls(messages[i]) if messages[i].speaker == "ai" else []
        following = messages[i + 1]
        if not calls or following.metadata.source_role != "user":
            continue
        answered = {b.call_id for b in following.blocks if isinstance(b, ToolResponseBlock)}
        named = [
            m.name
            for b in following.blocks
            if isinstance(b, TextBlock) and (m := result_marker(b.text)) is not None
        ]
        for c in calls:
            if c.id not in answered and c.name in named:
                named.remove(c.name)
                found.append((i, c.id))
    return found


def cline_send_path(messages: list[Message]) -> tuple[list[Message], list[str]]:
    """``messages`` as Cline sends them (``ensureToolResultsFollowToolUse``), and notes on what changed."""
    out = list(messages)
    inserted: list[str] = []
    dropped: list[str] = []
    emptied: list[int] = []
    for i in range(len(out) - 1):
        calls = _calls(out[i]) if out[i].speaker == "ai" else []
        following = out[i + 1]
        if not calls or following.metadata.source_role != "user":
            continue
        ids = [c.id for c in calls]
        content = following.blocks
        if following.metadata.extra.get("_content_form") == "string":
            content = ()  # Cline: ``nextMessage.content = []`` for string content
            emptied.append(i + 1)
        results: dict[str, ToolResponseBlock] = {}
        others: list[Block] = []
        for block in content:
            if _is_result(block):
                assert isinstance(block, ToolResponseBlock)
                results[block.call_id] = block
            else:
                others.append(block)
        update = _out_of_order(content, ids, len(results))
        for c in calls:
            if c.id not in results:
                results[c.id] = ToolResponseBlock(
                    call_id=c.id,
                    tool_name=c.name,
                    result=RESULT_MISSING,
                    raw_call_id=c.raw_id,
                    provider_data={INSERTED: True},
                )
                inserted.append(c.raw_id or c.id)
                update = True
        if not update and i + 1 not in emptied:
            continue
        dropped += [r.raw_call_id or r.call_id for k, r in results.items() if k not in ids]
        blocks = (*(results[k] for k in ids), *others)
        metadata = following.metadata.model_copy(
            update={"extra": {**following.metadata.extra, "_content_form": "parts"}}
        )
        out[i + 1] = Message(speaker="tool", blocks=blocks, metadata=metadata)
    return out, _notes(inserted, dropped, emptied)


def _out_of_order(content: tuple[Block, ...], ids: list[str], answered: int) -> bool:
    """Cline's reorder test: the results do not open the message in the calls' order."""
    if answered == 0:
        return False
    expected = 0
    for block in content:
        if expected >= len(ids):
            break
        if isinstance(block, ToolResponseBlock) and _is_result(block) and block.call_id == ids[expected]:
            expected += 1
        else:
            return True
    return expected < answered


def _notes(inserted: list[str], dropped: list[str], emptied: list[int]) -> list[str]:
    notes = []
    if inserted:
        notes.append(
            f"cline: {len(inserted)} tool_use block(s) have no tool_result (their results, if any, are "
            "'[name …] Result:' text); Cline sends a tool_result 'result missing' for each, first in the "
            "next user message (ContextManager.ensureToolResultsFollowToolUse), and toolhist reads them "
            "so; `toolhist migrate FILE --to native` moves the result texts into the tool_result blocks"
        )
    if dropped:
        notes.append(
            f"cline: {len(dropped)} tool_result block(s) answer no call of the assistant message before "
            f"them and are not sent (ensureToolResultsFollowToolUse): {', '.join(dropped)}"
        )
    if emptied:
        notes.append(
            "cline: the text of message(s) "
            f"{', '.join(str(i) for i in emptied)} follows tool calls as a string and is not sent "
            "(ensureToolResultsFollowToolUse replaces string content with the results)"
        )
    return notes
