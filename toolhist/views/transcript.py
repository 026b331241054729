"""The session as a conversation: what the Conversation page and ``notebook.conversation`` show.

Pure functions over the canonical model, so the page stays layout only and Jupyter shows the same:

- `index_of`: one pass over the session, kept per session: where each tool call is, which messages
  answer it, which calls are still pending (the agent sends their results next) and where each
  record the agent keeps but never sends (`Session.unsent`) stands;
- `search` / `search_index`: hits by text, tool name or call id, each naming its message, so a
  result list can jump to it (the index of searchable text is built once, on the first search);
- `window_of`: which messages a page shows, so a 100,000-message session renders a window, never
  100,000 cards;
- `threads`: the threads a Claude Code log holds (the main thread, each sidechain, each subagent
  file beside the session), so a subagent's conversation opens in the same view.

The HTML is `toolhist.views.transcript_html`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final, Literal, NamedTuple

from toolhist._gc import paused
from toolhist.agents.claude_code.sessions import main_file_of, subagent_files
from toolhist.judgement import judgement_of
from toolhist.model import (
    Block,
    MediaBlock,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

SearchField = Literal["text", "tool", "id"]
"""``text``: any text, thinking, argument or result; ``tool``: a tool's name; ``id``: a call id."""
SEARCH_FIELDS: Final[dict[SearchField, str]] = {"text": "text", "tool": "tool name", "id": "call id"}
SNIPPET: Final = 60
"""Characters of context either side of a match in a hit's snippet."""
UNSENT_BLOCK: Final = -1
"""`Hit.block` of a hit in an unsent record (it stands before `Hit.message`)."""


class Site(NamedTuple):
    """A block's place: message and block index (a tuple: an index holds one per block)."""

    message: int
    block: int


@dataclass(frozen=True)
class Index:
    """What a conversation view needs to know about the whole session, found in one pass."""

    calls: dict[str, Site]
    """Each tool call id, where it was made (the first call with that id)."""
    results: dict[str, tuple[Site, ...]]
    """Each answered call id, the results that answer it, in order (more than one: answered twice)."""
    pending: frozenset[str]
    """Calls of the last model turn with no result in an agent log that ends on them: the agent
    runs them and sends their results next (`toolhist.judgement`), so they are not errors."""
    unsent: dict[int, tuple[int, ...]]
    """For a message index, the `Session.unsent` records that stand just before it (positions in
    ``session.unsent``); ``len(messages)`` holds those after the last message."""
    call_count: int = 0
    """How many tool calls the session makes (ids repeated or not)."""

    def result_of(self, call_id: str) -> tuple[Site, ...]:
        """The results answering ``call_id`` (empty when none does)."""
        return self.results.get(call_id, ())

    def call_status(self, call_id: str) -> Literal["answered", "pending", "unanswered"]:
        """Whether a call has its result, waits for it (end of an agent log), or never got one."""
        if call_id in self.results:
            return "answered"
        return "pending" if call_id in self.pending else "unanswered"


@paused
def index_of(session: Session) -> Index:
    """The `Index` of ``session`` (one pass over every block)."""
    calls: dict[str, Site] = {}
    results: dict[str, list[Site]] = {}
    made = 0
    last_ai: int | None = None
    for m, message in enumerate(session.messages):
        if message.speaker == "ai":
            last_ai = m
        for b, block in enumerate(message.blocks):
            if isinstance(block, ToolCallBlock):
                calls.setdefault(block.id, Site(m, b))
                made += 1
            elif isinstance(block, ToolResponseBlock):
                results.setdefault(block.call_id, []).append(Site(m, b))
    pending: set[str] = set()
    messages = session.messages
    if (
        last_ai is not None
        and judgement_of(session) == "next-request"
        and all(m.speaker in ("ai", "tool") for m in messages[last_ai + 1 :])
    ):
        pending = {c.id for c in messages[last_ai].tool_calls() if c.id not in results}
    unsent: dict[int, list[int]] = {}
    for n, record in enumerate(session.unsent):
        unsent.setdefault(min(max(record.before, 0), len(messages)), []).append(n)
    return Index(
        calls=calls,
        results={k: tuple(v) for k, v in results.items()},
        pending=frozenset(pending),
        unsent={k: tuple(v) for k, v in unsent.items()},
        call_count=made,
    )


def subagent_of(session: Session, m: int) -> str | None:
    """The Claude Code subagent whose answer message ``m`` carries, when it carries one answer.

    The Task tool's result line names the subagent: ``toolUseResult.agentId`` (Claude Code 2.1,
    marot/spotter ``4d5611e5….jsonl`` @53a088d2 line 113) or a top-level ``agentId`` (2.0,
    daaain/claude-code-log ``sidechain_integrated.jsonl`` @579edc0f line 2). Results of parallel
    calls merged into one message share one line's fields, so only a lone result is named.
    """
    message = session.messages[m]
    if session.source.format != "claude-code" or sum(1 for _ in message.tool_responses()) != 1:
        return None
    extra = message.metadata.extra
    used = extra.get("toolUseResult")
    named = used.get("agentId") if isinstance(used, dict) else None
    named = named if isinstance(named, str) else extra.get("agentId")
    return named if isinstance(named, str) and named else None


def window_of(count: int, start: int, size: int) -> range:
    """The messages a page shows: ``size`` from ``start``, kept inside ``0..count``."""
    size = max(1, size)
    start = min(max(0, start), max(0, count - size))
    return range(start, min(count, start + size))


def result_text(result: object) -> str:
    """A tool result as text: a string as it is, content parts' texts joined, anything else as JSON."""
    if isinstance(result, str):
        return result
    if isinstance(result, list) and all(isinstance(p, dict) for p in result):
        texts = []
        for part in result:
            text = part.get("text") if isinstance(part, dict) else None
            if isinstance(text, str):
                texts.append(text)
            else:
                texts.append(json.dumps(part, ensure_ascii=False))
        return "\n".join(texts)
    return "" if result is None else json.dumps(result, indent=2, ensure_ascii=False)


def arguments_text(call: ToolCallBlock) -> str:
    """A call's arguments as shown: a freeform input verbatim, JSON pretty-printed, else the raw string."""
    if call.freeform_input is not None:
        return call.freeform_input
    if call.parameters is None and call.raw_arguments is not None:
        return call.raw_arguments
    return json.dumps(call.parameters, indent=2, ensure_ascii=False)


def _texts(block: Block) -> Iterator[str]:
    """Every piece of text a `text` search looks in."""
    if isinstance(block, TextBlock | ThinkingBlock):
        yield block.text
    elif isinstance(block, ToolCallBlock):
        yield block.name
        yield arguments_text(block)
    elif isinstance(block, ToolResponseBlock):
        yield result_text(block.result)
        if block.error:
            yield block.error
    elif isinstance(block, MediaBlock):
        yield " ".join(x for x in (block.filename, block.url, block.mime_type) if x)
    elif isinstance(block, OpaqueBlock):
        yield json.dumps(block.data, ensure_ascii=False)


def block_searchable(block: Block, fld: SearchField) -> str:
    """The text of ``block`` that a search of ``fld`` looks in (empty when the block has none)."""
    if fld == "text":
        return "\n".join(_texts(block))
    if fld == "tool":
        if isinstance(block, ToolCallBlock):
            return block.name
        return (block.tool_name or "") if isinstance(block, ToolResponseBlock) else ""
    # the id as written first, then toolhist's when it differs
    if isinstance(block, ToolCallBlock):
        return "\n".join(dict.fromkeys(x for x in (block.raw_id, block.id) if x))
    if isinstance(block, ToolResponseBlock):
        return "\n".join(dict.fromkeys(x for x in (block.raw_call_id, block.call_id) if x))
    return ""


@dataclass(frozen=True)
class SearchIndex:
    """Each block's searchable text, lower-cased, per field: built once, searched per keystroke."""

    sites: tuple[Site, ...]
    """The block of each entry (`UNSENT_BLOCK` for an unsent record's text)."""
    texts: dict[SearchField, tuple[str, ...]] = field(repr=False)
    """Per field, each entry's lower-cased text (in `sites` order)."""


@paused
def search_index(session: Session) -> SearchIndex:
    """The `SearchIndex` of ``session``: every block, and every unsent record's text."""
    sites: list[Site] = []
    texts: dict[SearchField, list[str]] = {"text": [], "tool": [], "id": []}
    for m, message in enumerate(session.messages):
        for b, block in enumerate(message.blocks):
            sites.append(Site(m, b))
            for fld, found in texts.items():
                found.append(block_searchable(block, fld).lower())
    for record in session.unsent:
        if record.text:
            sites.append(Site(record.before, UNSENT_BLOCK))
            texts["text"].append(record.text.lower())
            texts["tool"].append("")
            texts["id"].append("")
    return SearchIndex(tuple(sites), {k: tuple(v) for k, v in texts.items()})


@dataclass(frozen=True)
class Hit:
    """One match: where it is and a line of text around it."""

    message: int
    """The message the match is in (for an unsent record, the message it stands before)."""
    block: int
    """The block (`UNSENT_BLOCK` for an unsent record)."""
    kind: str
    """What was matched: the block type, or ``unsent``."""
    snippet: str
    """The text around the first match, on one line."""


def _snippet(text: str, query: str) -> str:
    at = max(text.lower().find(query), 0)
    lo, hi = max(0, at - SNIPPET), min(len(text), at + len(query) + SNIPPET)
    clip = " ".join(text[lo:hi].split())
    return ("…" if lo else "") + clip + ("…" if hi < len(text) else "")


def search(
    session: Session, found: SearchIndex, query: str, fld: SearchField = "text", *, limit: int = 200
) -> tuple[list[Hit], int]:
    """Blocks whose ``fld`` contains ``query`` (case-insensitive): the first ``limit`` hits and the count."""
    needle = query.strip().lower()
    if not needle:
        return [], 0
    matched = [k for k, text in enumerate(found.texts[fld]) if needle in text]
    hits = []
    for k in matched[:limit]:
        site = found.sites[k]
        if site.block == UNSENT_BLOCK:
            record = next(u for u in session.unsent if u.before == site.message and needle in u.text.lower())
            hits.append(
                Hit(site.message, UNSENT_BLOCK, f"unsent {record.kind}", _snippet(record.text, needle))
            )
            continue
        block = session.messages[site.message].blocks[site.block]
        text = block_searchable(block, fld)
        hits.append(Hit(site.message, site.block, block.type, _snippet(text, needle)))
    return hits, len(matched)


@dataclass(frozen=True)
class Thread:
    """A conversation a log holds: its main thread, a sidechain in it, or a subagent file beside it."""

    key: str
    """``main``, ``sidechain:<agentId or root uuid>``, or ``file:<path>``."""
    label: str
    """How the page names it."""


MAIN: Final = Thread("main", "main thread")


def threads(session: Session, path: str | None = None) -> list[Thread]:
    """The threads of a Claude Code log: main, each sidechain it keeps apart, each subagent file.

    Claude Code writes a subagent's thread into the session file (``isSidechain: true`` lines),
    into ``agent-<agentId>.jsonl`` beside it in the project folder (older releases), or into
    ``<session>/subagents/agent-<agentId>.jsonl`` (newer ones); ``path`` (the file opened, when it
    came from this machine) finds the files (`toolhist.agents.claude_code.sessions.subagent_files`,
    linked by the ``sessionId`` their lines carry). A subagent file opened on its own offers its
    session's main file and the session's other subagent files beside it. Every other format has
    one thread.
    """
    if session.source.format != "claude-code":
        return [MAIN]
    subagent = session.metadata.get("thread") == "sidechain"
    found = [Thread("main", "this subagent's thread" if subagent else "main thread")]
    chains = session.metadata.get("sidechains")
    chains = chains if isinstance(chains, list) else []
    if subagent and len(chains) == 1:
        chains = []  # a subagent file: its one sidechain is the thread shown
    for chain in chains:
        if isinstance(chain, dict) and isinstance(chain.get("key"), str):
            lines = chain.get("lines")
            found.append(Thread(f"sidechain:{chain['key']}", f"sidechain {chain['key']} ({lines} lines)"))
    if path:
        here = Path(path).expanduser()
        session_id = session.metadata.get("sessionId")
        session_id = session_id if isinstance(session_id, str) else None
        found += [Thread(f"file:{p}", f"subagent file {p.name}") for p in subagent_files(here, session_id)]
        main_file = main_file_of(here, session_id)
        if main_file is not None:
            found.append(Thread(f"file:{main_file}", f"the session's main file {main_file.name}"))
    return found


def hits_rows(hits: Sequence[Hit]) -> list[dict[str, str | int | None]]:
    """Hits as table rows (message, block, what, text), for the page's result list."""
    return [
        {
            "message": h.message,
            "block": None if h.block == UNSENT_BLOCK else h.block,
            "what": h.kind,
            "text": h.snippet,
        }
        for h in hits
    ]
