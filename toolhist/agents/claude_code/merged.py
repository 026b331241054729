"""The message the Claude Code reader is building: one line's message and the lines merged into it.

Claude Code writes one API response as several ``assistant`` lines (one per content block, same
``message.id``) and parallel results as consecutive ``user`` lines; the reader merges them into
one message (`toolhist.agents.claude_code.reader`). Merging each line into a finished `Message`
made a new message, metadata and ``extra`` per merged line, and `fill_tool_names` then made
every result message once more to name its results: on a 1 GB log, 250,000 lines merged and
130,000 results named (issue 26). An `Open` message collects its lines' blocks and is made once,
its results named then, in message order as `fill_tool_names` would name them (which, finding
them named, leaves them as they are). The objects are equal to the ones made before, field by
field, fields set included.
"""

from __future__ import annotations

from pydantic import JsonValue

from toolhist._trusted import construct
from toolhist.formats.base import named_blocks
from toolhist.formats.jsonl_stream import Collector
from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Speaker,
)


class Open:
    """A message not yet made: its first line's fields, every merged line's blocks and number."""

    __slots__ = ("blocks", "extra", "index", "line", "lines", "metadata", "speaker")

    def __init__(
        self,
        speaker: Speaker,
        blocks: list[Block],
        metadata: dict[str, JsonValue],
        extra: dict[str, JsonValue],
        *,
        line: int | None,
        index: int,
    ) -> None:
        self.speaker = speaker
        self.blocks = blocks
        self.metadata = metadata
        self.extra = extra
        self.lines: list[JsonValue] = [line]
        self.line = line
        self.index = index

    def merge(self, blocks: list[Block], line: int | None) -> None:
        """A later line of the same response (or the same results) joins this message."""
        self.blocks.extend(blocks)
        self.lines.append(line)

    def close(self, built: Collector, names: dict[str, str]) -> None:
        """Make the message and add it to ``built``; its calls' names go into ``names`` (call id → name).

        A result without a tool name takes the name of an earlier call with its id, as
        `toolhist.formats.base.fill_tool_names` gives it.
        """
        blocks = named_blocks(self.blocks, names) or tuple(self.blocks)
        self.extra["lines"] = self.lines
        metadata = construct(MessageMetadata, **self.metadata, extra=self.extra)
        message = construct(Message, speaker=self.speaker, blocks=blocks, metadata=metadata)
        built.add(message, self.line, self.index, f"[{self.index}].message")
