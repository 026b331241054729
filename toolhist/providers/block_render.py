"""The walk Anthropic Messages and Bedrock Converse rendering share.

Both APIs take a top-level system prompt, user/assistant messages of typed content blocks, tool
calls in the assistant turn and results in the user turn. What differs is the spelling of each
block, how the system prompt and a repeated role are sent; those are the subclass's methods. The
order of the walk, the treatment of calls found in a user or tool message (seed 000 failure mode
A: sent as the assistant turn they are, so the broken order shows) and of verbatim blocks from
another format are the same, and live here once.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import JsonValue

from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)
from toolhist.providers.base import SourceMap, dotted


class BlockRenderer:
    """Walks canonical messages for a block-content API; subclasses spell the blocks."""

    name: str
    """The provider, as named in ``Payload.omitted`` lines."""
    system_place: str
    """Where a late system message goes, for the ``omitted`` line (``top-level system prompt``…)."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.same = session.source.format == self.name
        self.system_owner: int | None = None
        self.map = SourceMap(dotted)
        self.put_message = self.map.column("messages", None)
        self.put_part = self.map.column("messages", None, "content", None)
        self.omitted: list[str] = []

    def run(self) -> None:
        """Render every message: system messages into the system prompt, the rest in order.

        A foreign message of one block, most of a long history, goes straight to `emit`: one block
        is never empty text beside other content, and a call alone outside the assistant is the
        assistant turn it is (`message`'s answer for it, without its lists).
        """
        seen_other = False
        same = self.same
        emit, general = self.emit, self.message
        for mi, message in enumerate(self.session.messages):
            speaker = message.speaker
            if speaker == "system":
                if seen_other:
                    self.omitted.append(f"message {mi}: system message moved into the {self.system_place}")
                self.system_message(mi, message)
                continue
            seen_other = True
            blocks = message.blocks
            if not same and len(blocks) == 1:
                first = blocks[0]
                role = "assistant" if speaker == "ai" or type(first) is ToolCallBlock else "user"
                emit(mi, message, role, ((0, first),))
            else:
                general(mi, message)

    def message(self, mi: int, message: Message) -> None:
        """One non-system message as one message of the API (two for calls outside the assistant)."""
        pairs = list(enumerate(message.blocks))
        calls = None
        if not self.same and message.speaker != "ai":
            for b in message.blocks:  # a loop: a comprehension per message costs a function call
                if type(b) is ToolCallBlock:
                    calls = [(bi, b) for bi, b in pairs if isinstance(b, ToolCallBlock)]
                    break
        if calls:
            # Calls in a tool/user message (seed 000 failure mode A): sent as the assistant turn
            # they are, right after the rest, so the broken order shows.
            rest = [(bi, b) for bi, b in pairs if not isinstance(b, ToolCallBlock)]
            if rest:
                self.emit(mi, message, "user", rest)
            self.emit(mi, message, "assistant", calls)
            return
        if self.same and message.metadata.source_role in ("user", "assistant"):
            role = str(message.metadata.source_role)
        else:
            role = "assistant" if message.speaker == "ai" else "user"
        self.emit(mi, message, role, pairs)

    def sendable(self, mi: int, pairs: Sequence[tuple[int, Block]]) -> Sequence[tuple[int, Block]]:
        """``pairs`` less empty texts beside other content (OpenAI's "" next to tool_calls carries nothing).

        Each one left out is said in the notes, as the Responses and Gemini renderers say theirs.
        """
        if self.same or len(pairs) < 2:  # one block is never empty text beside other content
            return pairs
        empty = other = False  # one loop, no generator: this runs once per message
        for _, b in pairs:
            if isinstance(b, TextBlock) and not b.text:
                empty = True
            else:
                other = True
        if empty and other:
            kept = []
            for bi, b in pairs:
                if isinstance(b, TextBlock) and not b.text:
                    self.omitted.append(f"message {mi} block {bi}: empty text not sent (it carries nothing)")
                else:
                    kept.append((bi, b))
            return kept
        return pairs

    def block(self, mi: int, bi: int, block: Block) -> dict[str, JsonValue] | None:
        """One canonical block in the API's spelling (None: left out, and said so).

        Dispatched on the block's class (no subclass exists), the most frequent first: once per block.
        """
        kind = type(block)
        if kind is ToolResponseBlock:
            return self.response(mi, bi, block)  # type: ignore[arg-type]  # its class, tested
        if kind is ToolCallBlock:
            return self.call(mi, bi, block)  # type: ignore[arg-type]
        if kind is TextBlock:
            return self.text(block)  # type: ignore[arg-type]
        if isinstance(block, ThinkingBlock):
            return self.thinking(mi, bi, block)
        if isinstance(block, MediaBlock):
            return self.media(mi, bi, block)
        assert isinstance(block, OpaqueBlock)  # the one class left
        if block.source_format == self.name:
            return dict(block.data)
        self.omitted.append(
            f"message {mi} block {bi}: {block.source_format} block kept verbatim cannot be sent to {self.name}"
        )
        return None

    def system_message(self, mi: int, message: Message) -> None:
        """Collect a system message's blocks for the system prompt."""
        raise NotImplementedError

    def emit(self, mi: int, message: Message, role: str, pairs: Sequence[tuple[int, Block]]) -> None:
        """Append ``pairs`` of ``message`` as a message of ``role``."""
        raise NotImplementedError

    def text(self, block: TextBlock) -> dict[str, JsonValue]:
        """A text block."""
        raise NotImplementedError

    def call(self, mi: int, bi: int, call: ToolCallBlock) -> dict[str, JsonValue] | None:
        """A tool call."""
        raise NotImplementedError

    def response(self, mi: int, bi: int, block: ToolResponseBlock) -> dict[str, JsonValue] | None:
        """A tool result."""
        raise NotImplementedError

    def thinking(self, mi: int, bi: int, block: ThinkingBlock) -> dict[str, JsonValue] | None:
        """A thinking block."""
        raise NotImplementedError

    def media(self, mi: int, bi: int, block: MediaBlock) -> dict[str, JsonValue] | None:
        """A media block."""
        raise NotImplementedError
