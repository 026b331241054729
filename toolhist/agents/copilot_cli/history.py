"""The Copilot CLI's history as it replays it: messages in event order, with what later events undo.

A compaction, a ``/clear`` or a rewind changes what earlier events mean, so the reader does not
emit messages as it meets them: it appends `Slot` entries (a message being built, or a record kept
unsent) to a `Timeline`, which those events edit, and only at the end turns the live slots into the
Session's messages and the rest into ``Session.unsent`` records in place.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pydantic import JsonValue

from toolhist.formats.jsonl_stream import Collector
from toolhist.model import Block, Message, MessageMetadata, Speaker, Unsent


@dataclass
class Slot:
    """One entry of the history: a message (``speaker`` set) or a record the CLI keeps unsent."""

    line: int | None
    path: str
    index: int | None = None
    """The event's position among the file's events (0-based)."""
    speaker: Speaker | None = None
    blocks: list[Block] = field(default_factory=list)
    meta: MessageMetadata = field(default_factory=MessageMetadata)
    unsent_kind: str | None = None
    """Set when the slot is not sent: the Unsent record's kind (a dropped message's own kind)."""
    reason: str = ""
    text: str = ""
    data: dict[str, JsonValue] = field(default_factory=dict)
    event_id: str | None = None
    api_call: str | None = None
    """The assistant message's ``apiCallId``: chunks of one model response share it."""

    @property
    def live(self) -> bool:
        """A message that is sent."""
        return self.speaker is not None and self.unsent_kind is None

    def drop(self, kind: str, reason: str) -> None:
        """Keep this message as unsent (``kind`` names what it was), text and blocks as data."""
        if not self.live:
            return
        self.unsent_kind = f"{kind} {self.speaker} message"
        self.reason = reason
        self.text = "\n".join(b.text for b in self.blocks if b.type == "text")
        self.data = {"blocks": [b.model_dump(mode="json", exclude_defaults=True) for b in self.blocks]}


class Timeline:
    """The slots in event order, and where the current compaction started."""

    def __init__(self) -> None:
        self.slots: list[Slot] = []
        self.compaction_at: int | None = None

    def add(self, slot: Slot) -> Slot:
        """Append ``slot`` and return it."""
        self.slots.append(slot)
        return slot

    def keep(self, kind: str, reason: str, line: int | None, path: str, **extra: object) -> None:
        """Append a record kept unsent."""
        text = extra.pop("text", "")
        data = extra.pop("data", {})
        assert isinstance(text, str)
        assert isinstance(data, dict)
        self.slots.append(Slot(line, path, unsent_kind=kind, reason=reason, text=text, data=data))

    def last_live(self) -> Slot | None:
        """The newest message still sent."""
        return next((s for s in reversed(self.slots) if s.live), None)

    def live(self) -> list[Slot]:
        """Every message still sent, in order."""
        return [s for s in self.slots if s.live]

    def drop_all(self, kind: str, reason: str, until: int | None = None) -> list[Slot]:
        """Drop every live message before slot index ``until`` (all of them by default)."""
        dropped = []
        for slot in self.slots[: len(self.slots) if until is None else until]:
            if slot.live and slot.speaker != "system":
                slot.drop(kind, reason)
                dropped.append(slot)
        return dropped

    def emit(self, built: Collector) -> None:
        """Turn the slots into the Session's messages and unsent records, in order.

        The live system message (there is at most one) goes first: every request starts with it.
        """
        systems = [s for s in self.slots if s.live and s.speaker == "system"]
        for slot in systems:
            self._message(built, slot)
        for slot in self.slots:
            if slot.live and slot.speaker != "system":
                self._message(built, slot)
            elif slot.unsent_kind is not None:
                built.unsent.append(
                    Unsent(
                        kind=slot.unsent_kind,
                        reason=slot.reason,
                        before=len(built.messages),
                        line=slot.line,
                        json_path=slot.path,
                        text=slot.text,
                        data=slot.data,
                    )
                )

    @staticmethod
    def _message(built: Collector, slot: Slot) -> None:
        assert slot.speaker is not None
        message = Message(speaker=slot.speaker, blocks=tuple(slot.blocks), metadata=slot.meta)
        built.add(message, slot.line, slot.index, slot.path)
