"""OpenHands events as the agent turns them into LLM messages: the branch, the view, the messages.

Follows OpenHands/software-agent-sdk at 611629e6999ad398dc49c761721eefe18d5e6bd9 (``openhands-sdk``):

- ``conversation/event_store.py`` (``EventLog``): events are ``events/event-<index>-<id>.json``
  in index order; each names its ``parent_id`` (``None`` in legacy logs: the event before it), and
  the branch sent is the path from the leaf to the root (``path_to_root``); the leaf is
  ``base_state.json``'s ``leaf_event_id`` (``conversation/state.py``), else the last event.
- ``context/view/view.py`` (``View.from_events``): only ``LLMConvertibleEvent`` kinds enter the
  view; a ``Condensation`` removes its ``forgotten_event_ids`` and inserts its summary (a user
  message) at ``summary_offset``; then the properties are enforced
  (``context/view/properties/``): a second observation of one ``tool_call_id`` is dropped
  (``ObservationUniquenessProperty``, the first wins), an action without an observation and an
  observation without its action are dropped (``ToolCallMatchingProperty``), and a batch of
  actions from one response that lost a member loses them all (``BatchAtomicityProperty``). The
  actions of the last response are exempt from matching: the agent runs them before its next LLM
  call (``Agent.step`` runs pending actions first), so their observations are in the next request.
- ``event/base.py`` (``LLMConvertibleEvent.events_to_messages``): consecutive ``ActionEvent``s of
  one ``llm_response_id`` are one assistant message (the first's thought and reasoning, every
  call); adjacent plain user messages are merged.
- ``event/llm_convertible/*.py`` (``to_llm_message``): ``SystemPromptEvent`` is the system message
  (the prompt, then ``dynamic_context``); ``MessageEvent`` is its ``llm_message`` plus its
  ``extended_content``; ``ActionEvent`` is an assistant message with its ``tool_call``;
  ``ObservationEvent`` a tool message with the observation's ``to_llm_content`` (the base
  ``Observation``'s: ``[An error occurred during execution.]`` first when ``is_error``, then its
  ``content``; tools that override it, such as the terminal's, add what this reader does not
  reproduce); ``UserRejectObservation`` says ``Action rejected: <reason>``; ``AgentErrorEvent``
  is a tool message with its ``error``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

CONVERTIBLE: Final = frozenset(
    {
        "SystemPromptEvent",
        "MessageEvent",
        "ActionEvent",
        "ObservationEvent",
        "UserRejectObservation",
        "AgentErrorEvent",
        "CondensationSummaryEvent",
    }
)
OBSERVATIONS: Final = frozenset({"ObservationEvent", "UserRejectObservation", "AgentErrorEvent"})
NOT_SENT: Final = frozenset(
    {
        "Condensation",
        "CondensationRequest",
        "ConversationStateUpdateEvent",
        "PauseEvent",
        "LLMCompletionLogEvent",
        "TokenEvent",
        "StreamingDeltaEvent",
        "HookExecutionEvent",
        "ConversationErrorEvent",
        "UserActionEvent",
        "ACPToolCallEvent",
        "ResumeTranscriptEvent",
    }
)
"""Event kinds the SDK writes that are not ``LLMConvertibleEvent``s: state, not messages."""
ERROR_HEADER: Final = "[An error occurred during execution.]\n"
ROOT: Final = "__root__"
WHY: Final = {
    "branch": "on another branch: the agent sends the path from the leaf to the root (EventLog.path_to_root)",
    "forgotten": (
        "forgotten by a Condensation: View.from_events removes it (its summary stands in its place)"
    ),
    "duplicate": (
        "a second observation of one tool call: ObservationUniquenessProperty drops it, the first wins"
    ),
    "unmatched": (
        "an action or observation without its partner: ToolCallMatchingProperty drops it before the LLM call"
    ),
    "batch": "a batch of actions that lost a member: BatchAtomicityProperty drops the rest of it",
}


@dataclass
class Event:
    """One event with its place in the log."""

    value: dict[str, Any]
    index: int
    """Its place in the log (the file name's index), renumbered from 0 once the log is ordered."""
    file: str | None
    pos: int = 0
    """Its position in the document read (for the JSON path and the line)."""

    @property
    def kind(self) -> str:
        """The event's ``kind`` (its class name)."""
        return str(self.value.get("kind"))

    @property
    def id(self) -> str:
        """The event's id."""
        return str(self.value.get("id"))


@dataclass
class View:
    """The events sent, the events left out (with why), and the rest counted."""

    events: list[Event] = field(default_factory=list)
    left_out: list[tuple[Event, str]] = field(default_factory=list)
    state: dict[str, int] = field(default_factory=dict)
    """Non-convertible kinds on the branch (state updates, condensation requests…), counted."""


def branch(events: list[Event], leaf: str | None = None) -> tuple[list[Event], list[Event]]:
    """``path_to_root`` from the leaf, and the events off that path.

    The leaf is ``base_state.json``'s ``leaf_event_id``, else the last event; legacy events chain to
    the one before them.
    """
    if not events:
        return [], []
    by_id = {e.id: e for e in events}

    def parent(e: Event) -> Event | None:
        pid = e.value.get("parent_id")
        if pid == ROOT:
            return None
        if isinstance(pid, str):
            return by_id.get(pid)
        return events[e.index - 1] if e.index > 0 else None

    path: list[Event] = []
    seen: set[str] = set()
    current: Event | None = by_id.get(leaf) if leaf is not None else None
    current = current or events[-1]
    while current is not None and current.id not in seen:
        seen.add(current.id)
        path.append(current)
        current = parent(current)
    path.reverse()
    return path, [e for e in events if e.id not in seen]


def view(path: list[Event]) -> View:
    """``View.from_events`` on the branch, then the properties enforced (last response exempt)."""
    out = View()
    current: list[Event] = []
    for event in path:
        kind = event.kind
        if kind == "Condensation":
            forgotten = set(event.value.get("forgotten_event_ids") or [])
            out.left_out += [(e, "forgotten") for e in current if e.id in forgotten]
            current = [e for e in current if e.id not in forgotten]
            summary, offset = event.value.get("summary"), event.value.get("summary_offset")
            if isinstance(summary, str) and isinstance(offset, int):
                made = {"kind": "CondensationSummaryEvent", "id": f"{event.id}-summary", "summary": summary}
                current.insert(offset, Event(made, event.index, event.file, event.pos))
        if kind in CONVERTIBLE:
            current.append(event)
        else:
            out.state[kind] = out.state.get(kind, 0) + 1
    out.events = _enforce(current, path, out)
    return out


def _response(event: Event) -> str | None:
    rid = event.value.get("llm_response_id")
    return rid if isinstance(rid, str) else None


def _enforce(events: list[Event], path: list[Event], out: View) -> list[Event]:
    seen: set[str] = set()
    kept: list[Event] = []
    for e in events:
        if e.kind in OBSERVATIONS:
            cid = str(e.value.get("tool_call_id"))
            if cid in seen:
                out.left_out.append((e, "duplicate"))
                continue
            seen.add(cid)
        kept.append(e)
    actions = [e for e in kept if e.kind == "ActionEvent"]
    last = _response(actions[-1]) if actions else None
    pending = {
        str(e.value.get("tool_call_id")) for e in actions if _response(e) == last and not _after(e, kept)
    }
    called = {str(e.value.get("tool_call_id")) for e in actions}
    matched: list[Event] = []
    for e in kept:
        cid = str(e.value.get("tool_call_id"))
        if (e.kind == "ActionEvent" and cid not in seen and cid not in pending) or (
            e.kind in OBSERVATIONS and cid not in called
        ):
            out.left_out.append((e, "unmatched"))
            continue
        matched.append(e)
    batches: dict[str, set[str]] = {}
    for e in path:
        if e.kind == "ActionEvent" and _response(e):
            batches.setdefault(str(_response(e)), set()).add(e.id)
    present: dict[str, set[str]] = {}
    for e in matched:
        if e.kind == "ActionEvent" and _response(e):
            present.setdefault(str(_response(e)), set()).add(e.id)
    broken = {r for r, ids in present.items() if ids != batches.get(r, ids)}
    final: list[Event] = []
    for e in matched:
        if e.kind == "ActionEvent" and _response(e) in broken:
            out.left_out.append((e, "batch"))
            continue
        final.append(e)
    return final


def _after(action: Event, events: list[Event]) -> bool:
    """Whether anything but actions of its own response follows ``action`` (then it is not pending)."""
    at = events.index(action)
    return any(
        not (e.kind == "ActionEvent" and _response(e) == _response(action))
        for e in events[at + 1 :]
        if e.kind not in OBSERVATIONS
    )
