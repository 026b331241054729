"""The canonical history model every reader produces and every provider renders from.

Modelled on llxprt-code's ``IContent`` (seed 000): a message is a speaker and a list of typed
blocks. Three choices go further than the original:

- Everything is frozen. A curation pass returns a new Session; nothing mutates what it was given.
- Ids are kept twice: ``id`` is what toolhist pairs on, ``raw_id`` is exactly what the source had,
  so an id rewrite is always visible and reversible.
- Whatever a source carried that the canonical fields do not model goes into ``provider_data``
  (per block, per message) or ``Session.request``, keyed as the source spelled it. Rendering back
  to the source's own provider therefore loses nothing, and nothing a user gave is silently dropped.

Kept but not sent. An agent log holds more than the history the agent replays: Codex's
``ghost_snapshot`` items, VS Code requests that failed before any answer, Gemini CLI info/error
records, Claude Code sidechains (subagent threads). The agent's own send path leaves them out
(DESIGN §2), so ``Session.messages`` is exactly what is sent and everything else the reader
recognised goes into ``Session.unsent`` (one `Unsent` record each, with the message index it
stood before, its visible text and the reason). Renderers, rules and
curation only ever walk ``messages``, so nothing unsent can reach a payload, whatever the
provider; summaries, the app and reports read ``unsent`` to show it. Records a reader does not
know at all are counted by kind in ``SessionSource.skipped`` and named in the notes: an unknown
record never makes a log unreadable.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, JsonValue, TypeAdapter

SCHEMA_KIND: Final = "toolhist.session"
SCHEMA_VERSION: Final = 1

Speaker = Literal["system", "human", "ai", "tool"]
ProviderData = dict[str, JsonValue]


class _Frozen(BaseModel):
    """Immutable, strict about unknown fields, field docstrings exported as schema descriptions."""

    model_config = ConfigDict(frozen=True, extra="forbid", use_attribute_docstrings=True)


class TextBlock(_Frozen):
    """Plain text said by any speaker."""

    type: Literal["text"] = "text"
    """Discriminator."""
    text: str
    """The text, verbatim."""
    provider_data: ProviderData = Field(default_factory=dict)
    """Source fields the canonical block does not model (e.g. Anthropic ``cache_control``,
    Responses ``annotations``), keyed as the source spelled them."""


class ToolCallBlock(_Frozen):
    """The model asking for a tool to run. Pairs with ``ToolResponseBlock.call_id``."""

    type: Literal["tool_call"] = "tool_call"
    """Discriminator."""
    id: str
    """The id toolhist pairs on. Readers set it to the source id; curation may rewrite it (and then
    records a Change). For sources without ids (Gemini) it is derived from the position."""
    name: str
    """The tool (function) name as the model called it."""
    parameters: JsonValue = None
    """The arguments as a JSON value. ``None`` when the source's argument string was not valid JSON
    (see ``raw_arguments`` and ``arguments_error``)."""
    raw_id: str | None = None
    """The id exactly as the source had it, ``None`` when the source had none."""
    freeform_input: str | None = None
    """The raw text input of a freeform tool call (Responses ``custom_tool_call`` ``input``, e.g. the
    patch Codex's ``apply_patch`` sends), verbatim; ``None`` for a function call. ``parameters``
    then holds ``{"input": <the same text>}``, the object providers without freeform tools get;
    the Responses renderer sends a ``custom_tool_call`` (and its result a ``custom_tool_call_output``)."""
    raw_arguments: str | None = None
    """The argument string exactly as the source sent it (OpenAI-style sources send a JSON string).
    Kept so invalid JSON is never lost and a captured body renders back byte-identical."""
    arguments_error: str | None = None
    """Why ``raw_arguments`` could not be parsed as JSON, or ``None`` when it could."""
    provider_data: ProviderData = Field(default_factory=dict)
    """Source fields not modelled here: Gemini ``thoughtSignature``, Responses item ``id``
    (``fc_…``) and ``status``, OpenAI ``type``…"""


class ToolResponseBlock(_Frozen):
    """The outcome of a tool call, sent back to the model."""

    type: Literal["tool_response"] = "tool_response"
    """Discriminator."""
    call_id: str
    """The ``ToolCallBlock.id`` this answers."""
    tool_name: str | None = None
    """The tool's name. Anthropic, Bedrock and Responses results carry none: readers fill it from
    the matching earlier call, and leave ``None`` only when no call matches."""
    result: JsonValue = None
    """The result content as the source had it: a string, a list of content parts, or an object."""
    error: str | None = None
    """An error message when the tool failed (Anthropic ``is_error``, Bedrock ``status: error``)."""
    is_complete: bool = True
    """False for a result the agent synthesised or cut short (cancellation, timeout)."""
    raw_call_id: str | None = None
    """The call id exactly as the source had it, ``None`` when the source had none."""
    provider_data: ProviderData = Field(default_factory=dict)
    """Source fields not modelled here."""


class ThinkingBlock(_Frozen):
    """Model reasoning replayed in the history (Anthropic thinking, Responses reasoning, Gemini thoughts)."""

    type: Literal["thinking"] = "thinking"
    """Discriminator."""
    text: str = ""
    """The readable reasoning (or its summary). Empty for redacted or encrypted-only reasoning."""
    signature: str | None = None
    """Anthropic's signature, Gemini's thought signature: opaque, bound to the provider and model
    that produced it; a different provider rejects it."""
    redacted: bool = False
    """True for Anthropic ``redacted_thinking``; the opaque payload is in ``data``."""
    data: str | None = None
    """Opaque reasoning payload: Anthropic ``redacted_thinking.data``, Responses ``encrypted_content``."""
    source_provider: str | None = None
    """The format the block was read from; signatures only replay to that provider."""
    provider_data: ProviderData = Field(default_factory=dict)
    """Source fields not modelled here (Responses reasoning item ``id``, ``summary`` parts…)."""


class MediaBlock(_Frozen):
    """An image, document or audio part."""

    type: Literal["media"] = "media"
    """Discriminator."""
    mime_type: str | None = None
    """The media type when the source said it."""
    data: str | None = None
    """Base64 data, when inline."""
    url: str | None = None
    """A URL (or data: URL, or provider file id) when the media is referenced."""
    filename: str | None = None
    """The file name when the source gave one."""
    provider_data: ProviderData = Field(default_factory=dict)
    """Source fields not modelled here (the original part ``type``, ``detail``…)."""


class OpaqueBlock(_Frozen):
    """A source block toolhist does not model (Bedrock ``cachePoint``, a Responses ``web_search_call``…).

    Kept verbatim so nothing is lost: rendering back to the same provider emits it unchanged;
    other providers cannot take it, and curation says so in a Change.
    """

    type: Literal["opaque"] = "opaque"
    """Discriminator."""
    source_format: str
    """The reader that found it; only that provider's format can carry it."""
    data: ProviderData
    """The block exactly as the source had it."""


Block = Annotated[
    TextBlock | ToolCallBlock | ToolResponseBlock | ThinkingBlock | MediaBlock | OpaqueBlock,
    Field(discriminator="type"),
]


class MessageMetadata(_Frozen):
    """Where a message came from and what the agent said about it."""

    source_role: str | None = None
    """The role as the source spelled it (``user``, ``assistant``, ``developer``, ``model``,
    ``function``…); the speaker is the canonical reading of it."""
    turn_id: str | None = None
    """The agent's turn id, when it recorded one."""
    timestamp: float | None = None
    """Seconds since the epoch, when the source recorded a time."""
    provider: str | None = None
    """The provider that produced this message, when known."""
    model: str | None = None
    """The model that produced this message, when known."""
    synthetic: bool = False
    """True when an agent or a curation pass made this message rather than the model or user."""
    reason: str | None = None
    """Why a synthetic message exists."""
    extra: ProviderData = Field(default_factory=dict)
    """Message-level source fields not modelled here (OpenAI ``name``, Kimi ``reasoning_content``…)."""


class Message(_Frozen):
    """One entry of the history."""

    speaker: Speaker
    """``system`` instructions, ``human`` input, ``ai`` output, ``tool`` results. A provider message
    that carries tool results (an Anthropic user message with ``tool_result`` blocks) is ``tool``."""
    blocks: tuple[Block, ...] = ()
    """The content, in source order."""
    metadata: MessageMetadata = Field(default_factory=MessageMetadata)
    """Provenance and agent annotations."""

    def tool_calls(self) -> Iterator[ToolCallBlock]:
        """The tool call blocks of this message, in order."""
        return (b for b in self.blocks if isinstance(b, ToolCallBlock))

    def tool_responses(self) -> Iterator[ToolResponseBlock]:
        """The tool response blocks of this message, in order."""
        return (b for b in self.blocks if isinstance(b, ToolResponseBlock))


class ToolSpec(_Frozen):
    """A tool the request declared."""

    name: str
    """The tool name calls refer to."""
    description: str | None = None
    """What the tool does, as declared."""
    parameters: JsonValue = None
    """The JSON Schema of the arguments, as declared."""
    kind: str = "function"
    """``function`` for a declared function; otherwise the built-in tool type (``web_search``…).
    The declarations exactly as sent stay in ``Session.request`` for the same provider."""


class Location(_Frozen):
    """Where in the source file a message came from."""

    index: int | None = None
    """Position in the source's list of messages / contents / input items (0-based)."""
    line: int | None = None
    """1-based line number, for line-oriented sources (JSONL)."""
    json_path: str = ""
    """JSON path of the source entry, e.g. ``messages[3]`` or ``input[4:6]`` for grouped items."""
    block_items: tuple[int, ...] | None = None
    """For sources whose items were grouped into one message (Responses input): the source item
    index of each block, so a renderer can rebuild the items exactly."""


class SessionSource(_Frozen):
    """Provenance of the whole session."""

    format: str
    """The reader id that produced the session (see ``toolhist.FORMATS``)."""
    path: str | None = None
    """The file the session was read from, when it came from a file."""
    locations: tuple[Location, ...] = ()
    """One entry per message, in message order."""
    notes: tuple[str, ...] = ()
    """What the reader could not carry over exactly, said plainly (never a silent drop)."""
    skipped: dict[str, int] = Field(default_factory=dict)
    """Records the reader does not know, by kind (``line type inter_agent_communication_metadata``):
    skipped, counted here and named in ``notes``, never fatal. Empty when every record was known."""


class Unsent(_Frozen):
    """A record the agent's log keeps but the agent never sends to the model (see the module notes)."""

    kind: str
    """What it is, as the source names it (``ghost_snapshot``, ``failed_request``…)."""
    reason: str
    """Why the agent does not send it, naming the agent code that decides so."""
    before: int
    """Index in ``Session.messages`` of the first message after it (``len(messages)`` at the end),
    so a view can show it in place."""
    line: int | None = None
    """1-based source line, for line-oriented sources (JSONL)."""
    json_path: str = ""
    """JSON path of the source record."""
    text: str = ""
    """What a user saw of it (an error message, a streamed answer); empty when it has no text."""
    data: ProviderData = Field(default_factory=dict)
    """The record, or the fields of it not in ``text``, as the source spelled them."""


class Session(_Frozen):
    """A tool-calling history plus the request it belonged to."""

    kind: Literal["toolhist.session"] = "toolhist.session"
    """Marks the canonical JSON form, so ``load`` recognises a dumped Session."""
    version: Literal[1] = 1
    """Version of the canonical JSON form."""
    messages: tuple[Message, ...] = ()
    """The history, in order."""
    tools: tuple[ToolSpec, ...] | None = None
    """Declared tools, or ``None`` when the source declared none (not the same as an empty list)."""
    request: ProviderData = Field(default_factory=dict)
    """Every request field outside the history, verbatim (model, tools as declared, temperature,
    thinking…). A system prompt field (Anthropic ``system``…) becomes the first message instead."""
    source: SessionSource
    """Where the session came from."""
    metadata: ProviderData = Field(default_factory=dict)
    """Free-form annotations (agent, session id…)."""
    unsent: tuple[Unsent, ...] = ()
    """What the agent's log keeps that the agent does not send (snapshots, failed requests…), in
    source order. Kept visible for views; never rendered (renderers walk ``messages`` only)."""

    def to_json(self) -> str:
        """The canonical JSON form, which ``toolhist.load`` reads back to an equal Session."""
        return self.model_dump_json()

    def _repr_html_(self) -> str:
        """Jupyter: the summary and the messages, escaped (`toolhist.display`)."""
        from toolhist.extras import plain_html

        if (plain := plain_html(self)) is not None:  # the notebook extra is not installed
            return plain
        from toolhist.display import session_html

        return session_html(self)


BLOCK_ADAPTER: TypeAdapter[Block] = TypeAdapter(Block)
"""Validates one block from its canonical JSON form (module-level: built once)."""


def json_schema() -> dict[str, JsonValue]:
    """The JSON Schema of the canonical Session form (``toolhist schema``)."""
    schema: dict[str, JsonValue] = Session.model_json_schema()
    schema["$id"] = f"https://toolhist.invalid/schema/session-v{SCHEMA_VERSION}.json"
    schema["title"] = "toolhist Session"
    return schema
