"""The ids of a tuple's calls and results, listed once for the passes that pair them.

``map_ids``, ``dedupe_calls``, ``synthesize_calls`` and ``dedupe_results`` each walked every
message and block of the history to find, on most histories, nothing to do: the calls' ids all
given and distinct, every result's call there, one result per call. At 100,000 messages for
OpenAI Chat those walks were 1.1 s of a 3.4 s curation (map_ids 0.5 s, synthesize_calls 0.2 s:
issue 24 §7). Whether each has something to do is a question about two lists of ids, made here
once per message tuple (`Trace.tool_ids`; a pass that changes nothing hands the next the same
tuple, `toolhist.curation.base.kept`), and each pass then does its walk only when it must.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolhist.model import Message, ToolCallBlock, ToolResponseBlock


@dataclass(frozen=True)
class ToolIds:
    """The ids of every call, and the call ids every result names, in history order."""

    calls: list[str]
    results: list[str]

    @property
    def calls_distinct(self) -> bool:
        """No two calls have the same id (an empty id counts as one)."""
        return len(set(self.calls)) == len(self.calls)

    @property
    def results_distinct(self) -> bool:
        """No two results name the same call."""
        return len(set(self.results)) == len(self.results)


def tool_ids_of(messages: tuple[Message, ...]) -> ToolIds:
    """`ToolIds` of ``messages``."""
    return ToolIds(
        [b.id for m in messages for b in m.blocks if type(b) is ToolCallBlock],
        [b.call_id for m in messages for b in m.blocks if type(b) is ToolResponseBlock],
    )
