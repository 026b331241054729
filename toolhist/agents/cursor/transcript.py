"""Cursor's agent transcripts (``~/.cursor/projects/<slug>/agent-transcripts/<id>/<id>.jsonl``).

Cursor is closed source; the shape is what public viewers read and what they checked against files
a real ``agent`` wrote (search index id 70885788496, a Cursor adapter's notes, 2026.10.01): one line
per message, ``{"role": "user" | "assistant", "message": {"content": [blocks]}}`` with Claude-API
style blocks (``text``, ``thinking``, ``tool_use {name, input}``, and in some builds ``tool_result``
in a user line), plus ``{"type": "turn_ended", "status"}`` and ``{"type": "metadata"}`` lines.
"No timestamps, no tool results (tool messages are left out)": the transcript is Cursor's record of
the chat, not the request it sends.

So a call has no result in most transcripts although Cursor sent one: each such call gets a result
marked synthetic (``provider_data._synthetic``, `NOT_KEPT`), so a verdict does not blame Cursor for a
result it did send, and a note says how many. A ``tool_result`` that is in the file answers the
oldest open call (by ``tool_use_id`` when both sides have one). ``turn_ended`` and ``metadata``
lines carry no message; other line kinds are skipped and named.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import tag
from toolhist.formats.jsonl_stream import Collector, Lines, StreamReader, at_line
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

NOT_KEPT: Final = "[the transcript does not keep this tool result; Cursor sent one]"
QUIET: Final = frozenset({"turn_ended", "metadata"})


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


class CursorTranscriptReader(StreamReader):
    """``cursor-transcript``: a Cursor agent transcript (``agent-transcripts/**.jsonl``)."""

    id = "cursor-transcript"
    description = "Cursor agent transcript (~/.cursor/projects/<p>/agent-transcripts/**.jsonl)"

    def recognise(self, value: Any) -> int:
        """Certain on ``{role, message: {content: [...]}}`` lines; other lines must be typed objects."""
        lines = value if isinstance(value, list) else [value]
        messages = [v for v in lines if isinstance(v, dict) and "role" in v]
        others = [v for v in lines if not (isinstance(v, dict) and "role" in v)]
        if not messages or not all(isinstance(v, dict) and isinstance(v.get("type"), str) for v in others):
            return 0
        shaped = all(
            v.get("role") in ("user", "assistant")
            and isinstance(v.get("message"), dict)
            and isinstance(v["message"].get("content"), list)
            and set(v) <= {"role", "message"}
            for v in messages
        )
        return 2 if shaped else 0

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Turn the lines into messages; calls without a result get the synthetic one (module notes)."""
        built = Collector(notes)
        open_calls: list[ToolCallBlock] = []
        made = 0
        for index, (line, entry) in enumerate(lines):
            if not isinstance(entry, dict):
                raise at_line(line, (), f"expected an object, got {_kind(entry)}")
            if entry.get("type") in QUIET and "role" not in entry:
                continue
            role = tag(entry.get("role"))
            message = entry.get("message")
            content = message.get("content") if isinstance(message, dict) else None
            if role not in ("user", "assistant"):
                built.skips.add(f"line kind '{entry.get('type', role)}'", line)
                continue
            if not isinstance(content, list):
                raise at_line(line, ("message", "content"), f"expected an array, got {_kind(content)}")
            if role == "user":
                results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
                if results:
                    self._results(built, results, open_calls, line, index)
                texts = [TextBlock(text=b["text"]) for b in content if _is_text(b)]
                if texts:
                    made += self._close(built, open_calls, line, index)
                    meta = MessageMetadata(source_role="user")
                    built.add(
                        Message(speaker="human", blocks=tuple(texts), metadata=meta), line, index, "message"
                    )
                continue
            made += self._close(built, open_calls, line, index)
            blocks = self._assistant(content, line, open_calls)
            if blocks:
                meta = MessageMetadata(source_role="assistant")
                built.add(Message(speaker="ai", blocks=tuple(blocks), metadata=meta), line, index, "message")
        made += self._close(built, open_calls, None, None)
        if made:
            built.notes.append(
                f"{made} tool call(s) have no result in the transcript (Cursor keeps none there): "
                "each got a synthetic placeholder result"
            )
        built.notes.extend(built.skips.note())
        return built.session(self.id, path=path)

    @staticmethod
    def _assistant(content: list[Any], line: int | None, open_calls: list[ToolCallBlock]) -> list[Block]:
        blocks: list[Block] = []
        for i, block in enumerate(content):
            kind = block.get("type") if isinstance(block, dict) else None
            if _is_text(block):
                blocks.append(TextBlock(text=block["text"]))
            elif kind == "thinking" and isinstance(block.get("thinking"), str):
                blocks.append(ThinkingBlock(text=block["thinking"], source_provider="cursor-transcript"))
            elif kind == "tool_use":
                name = block.get("name")
                if not isinstance(name, str):
                    raise at_line(line, ("message", "content", i, "name"), "expected the tool's name")
                said_id = block.get("id") if isinstance(block.get("id"), str) else None
                call = ToolCallBlock(
                    id=said_id or f"cursor_l{line}_{i}",
                    name=name,
                    parameters=block.get("input"),
                    raw_id=said_id,
                )
                blocks.append(call)
                open_calls.append(call)
        return blocks

    @staticmethod
    def _results(
        built: Collector,
        results: list[dict[str, Any]],
        open_calls: list[ToolCallBlock],
        line: int | None,
        index: int,
    ) -> None:
        answers: list[Block] = []
        for result in results:
            wanted = result.get("tool_use_id")
            call = next((c for c in open_calls if c.raw_id is not None and c.raw_id == wanted), None)
            call = call or (open_calls[0] if open_calls else None)
            if call is None:
                built.keep_unsent("orphan tool result", "a result with no open call", line, f"[{index}]")
                continue
            open_calls.remove(call)
            answers.append(
                ToolResponseBlock(call_id=call.id, tool_name=call.name, result=_result(result.get("content")))
            )
        if answers:
            meta = MessageMetadata(source_role="tool")
            built.add(Message(speaker="tool", blocks=tuple(answers), metadata=meta), line, index, "message")

    @staticmethod
    def _close(built: Collector, open_calls: list[ToolCallBlock], line: int | None, index: int | None) -> int:
        """Answer every open call with the synthetic placeholder; returns how many."""
        if not open_calls:
            return 0
        answers: list[Block] = [
            ToolResponseBlock(
                call_id=c.id,
                tool_name=c.name,
                result=NOT_KEPT,
                is_complete=False,
                provider_data={"_synthetic": "Cursor's transcripts keep no tool results"},
            )
            for c in open_calls
        ]
        meta = MessageMetadata(
            source_role="tool", synthetic=True, reason="tool results are not in the transcript"
        )
        built.add(Message(speaker="tool", blocks=tuple(answers), metadata=meta), line, index, "message")
        count = len(open_calls)
        open_calls.clear()
        return count


def _is_text(block: Any) -> bool:
    return isinstance(block, dict) and block.get("type") == "text" and isinstance(block.get("text"), str)


def _result(content: Any) -> JsonValue:
    if isinstance(content, list):
        texts = [b["text"] for b in content if _is_text(b)]
        if len(texts) == len(content):
            return "\n".join(texts)
    return content if isinstance(content, str | list | dict) else str(content)
