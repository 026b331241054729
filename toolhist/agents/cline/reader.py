"""Kilo Code / Roo Code / Cline ``api_conversation_history.json``: Anthropic messages plus agent fields.

The file is a JSON array of Anthropic ``MessageParam`` objects with extra fields (``ts`` in
milliseconds, ``isSummary``, Roo's ``condenseId``, Cline's ``modelInfo``…), read with the
Anthropic block reader so both formats agree on every block. Tool calls come in three encodings,
sometimes in one file (``research/kilo_rfc_vscode.md`` §1.3, seed 003):

- ``xml``: the XML era, or a native history that ``resumeTaskFromHistory`` flattened: calls are
  XML inside assistant text, results are ``[…] Result:`` user text. They stay text here, because
  that is what the provider receives; `toolhist.migrate` turns them back into blocks.
- ``json``: Kilo's native era: ``tool_use`` blocks, and ``tool_result`` content that starts with
  the ``[<description>] Result:`` text.
- ``native``: Roo/Cline native: plain ``tool_use`` / ``tool_result``.

``Session.metadata["tool_style"]`` says which (``mixed`` when XML and blocks meet, the seed 003
failure), with the message indices of each kind of call.

A Cline file (``metadata["agent"] == "cline"``) is read as Cline sends it: native calls that only a
``[name for '…'] Result:`` text answers get the ``result missing`` tool_result Cline's send path
inserts (`toolhist.agents.cline.send_path`). Cline's ``modelInfo`` gives each message its provider and model.

The shape is Anthropic's, so this reader only claims a file with an agent marker (``ts``,
``isSummary``, ``<environment_details>``, a result marker, toolhist's migration mark) and then
scores above the Anthropic reader (`SPECIFIC`), which would otherwise tie with it.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.agents.cline.send_path import cline_send_path, is_cline
from toolhist.agents.cline.xml_calls import ENV_DETAILS, find_calls, result_marker
from toolhist.formats.anthropic import BLOCK_TYPES, read_message
from toolhist.formats.base import Built, Pointer, Reader, ShapeError, arr, obj, rest
from toolhist.formats.document import Document
from toolhist.model import (
    Message,
    MessageMetadata,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

SPECIFIC: Final = 3
"""Score for a file this reader is certain of: above the Anthropic reader's 2, because every Kilo
file is also a valid Anthropic message list and a tie would make detection refuse to guess."""
MIGRATION_KEY: Final = "toolhistMigration"
"""The field `toolhist.migrate` puts on the first message: ``{"to": "native", "version": 1}``."""
AGENT_FIELDS: Final = frozenset(
    {"ts", "isSummary", "condenseId", "condenseParent", "truncationId", "modelInfo", "metrics", MIGRATION_KEY}
)


def _has_marker(message: dict[str, Any]) -> bool:
    if AGENT_FIELDS & message.keys():
        return True
    content = message.get("content")
    texts: list[str] = [content] if isinstance(content, str) else []
    if isinstance(content, list):
        texts = [b["text"] for b in content if isinstance(b, dict) and isinstance(b.get("text"), str)]
    return any(t.startswith(ENV_DETAILS) or result_marker(t) is not None for t in texts)


def _shape_ok(message: Any) -> bool:
    if not isinstance(message, dict):
        return False
    if message.get("type") == "reasoning" and "content" not in message:
        return True
    if message.get("role") not in ("user", "assistant") or "content" not in message:
        return False
    content = message["content"]
    if isinstance(content, str):
        return True
    return isinstance(content, list) and all(
        isinstance(b, dict)
        and isinstance(b.get("type"), str)
        and (b["type"] in BLOCK_TYPES or b["type"] == "reasoning")
        for b in content
    )


def _reasoning_entry(entry: dict[str, Any], ptr: Pointer) -> Message:
    """Roo's stand-alone reasoning entry (``type: "reasoning"``, ``encrypted_content``)."""
    summary = entry.get("summary")
    text = ""
    if isinstance(summary, list):
        text = "\n".join(s["text"] for s in summary if isinstance(s, dict) and isinstance(s.get("text"), str))
    elif isinstance(entry.get("text"), str):
        text = entry["text"]
    encrypted = entry.get("encrypted_content")
    return Message(
        speaker="ai",
        blocks=(
            ThinkingBlock(
                text=text,
                data=encrypted if isinstance(encrypted, str) else None,
                source_provider="kilo",
                provider_data=rest(entry, "type", "summary", "text", "encrypted_content", "ts"),
            ),
        ),
        metadata=MessageMetadata(
            source_role=entry.get("role") if isinstance(entry.get("role"), str) else None
        ),
    )


def message_styles(messages: tuple[Message, ...] | list[Message]) -> list[str | None]:
    """The tool style of each message, so a mixture can be located.

    ``xml`` (calls or results as text), ``tool_use`` (an ai message with call blocks), ``json`` /
    ``native`` (result blocks with / without Kilo's ``[…] Result:`` text), or None.
    """
    names = frozenset(
        m.name
        for message in messages
        for b in message.blocks
        if isinstance(b, TextBlock) and (m := result_marker(b.text)) is not None
    )
    styles: list[str | None] = []
    for message in messages:
        style: str | None = None
        if message.speaker == "ai":
            if any(isinstance(b, ToolCallBlock) for b in message.blocks):
                style = "tool_use"
            elif any(isinstance(b, TextBlock) and find_calls(b.text, names) for b in message.blocks):
                style = "xml"
        elif message.speaker in ("tool", "human"):
            results = [b for b in message.blocks if isinstance(b, ToolResponseBlock)]
            if results:
                style = "json" if any(_described(r.result) for r in results) else "native"
            elif any(isinstance(b, TextBlock) and result_marker(b.text) for b in message.blocks):
                style = "xml"
        styles.append(style)
    return styles


def _described(result: JsonValue) -> bool:
    """Whether a tool_result's content starts with Kilo's ``[<description>] Result:`` text."""
    if isinstance(result, list) and result and isinstance(result[0], dict):
        first = result[0].get("text")
        return isinstance(first, str) and (m := result_marker(first)) is not None and not m.flattened
    return False


def history_style(styles: list[str | None]) -> str:
    """The history's tool style: ``none``, ``xml``, ``json``, ``native`` or ``mixed``."""
    kinds = set(styles) - {None}
    xml = "xml" in kinds
    blocks = bool(kinds & {"tool_use", "json", "native"})
    if xml and blocks:
        return "mixed"
    if xml:
        return "xml"
    if "json" in kinds:
        return "json"
    return "native" if blocks else "none"


def _ran_on(message: Message, info: Any) -> Message:
    """Cline's ``modelInfo`` (``providerId``, ``modelId``) as the message's provider and model."""
    if not isinstance(info, dict):
        return message
    provider, model = info.get("providerId"), info.get("modelId")
    update = {
        "provider": provider if isinstance(provider, str) else None,
        "model": model if isinstance(model, str) else None,
    }
    return message.model_copy(update={"metadata": message.metadata.model_copy(update=update)})


def _join(indices: JsonValue) -> str:
    return ", ".join(str(i) for i in indices) if isinstance(indices, list) else ""


class KiloReader(Reader):
    """``kilo``: Kilo Code, Roo Code and Cline ``api_conversation_history.json``."""

    id = "kilo"
    description = (
        "Kilo Code / Roo Code / Cline api_conversation_history.json (XML, JSON and native tool styles)"
    )

    def recognise(self, value: Any) -> int:
        """`SPECIFIC` for an Anthropic-shaped list with an agent marker; otherwise 0 (Anthropic's)."""
        if not isinstance(value, list) or not value or not all(_shape_ok(m) for m in value):
            return 0
        return SPECIFIC if any(_has_marker(m) for m in value) else 0

    def read(self, doc: Document) -> Session:
        """Read every entry; ``ts`` (ms) becomes the message timestamp, other fields stay in ``extra``."""
        built = Built(doc)
        entries = arr(doc.value, ())
        migration: JsonValue = None
        for i, raw in enumerate(entries):
            entry = obj(raw, (i,))
            if entry.get("type") == "reasoning" and "content" not in entry:
                message = _reasoning_entry(entry, (i,))
            else:
                message = read_message(entry, (i,), self.id, built.notes)
            ts = entry.get("ts")
            if isinstance(ts, int | float) and not isinstance(ts, bool):
                message = message.model_copy(
                    update={"metadata": message.metadata.model_copy(update={"timestamp": ts / 1000})}
                )
            elif ts is not None:
                raise ShapeError((i, "ts"), "expected a number (milliseconds since the epoch)")
            if i == 0 and MIGRATION_KEY in entry:
                migration = entry[MIGRATION_KEY]
            built.add(_ran_on(message, entry.get("modelInfo")), i, (i,))
        agent = "kilo"
        if is_cline(entries, built.messages):
            agent = "cline"
            built.messages, sent = cline_send_path(built.messages)
            built.notes += sent
        styles = message_styles(built.messages)
        metadata: dict[str, JsonValue] = {
            "agent": agent,
            "tool_style": history_style(styles),
            "xml_tool_calls": [
                i for i, s in enumerate(styles) if s == "xml" and built.messages[i].speaker == "ai"
            ],
            "native_tool_calls": [i for i, s in enumerate(styles) if s == "tool_use"],
        }
        if migration is not None:
            metadata["migration"] = migration
        if metadata["tool_style"] == "mixed":
            # Said here so `toolhist summary` shows it; `toolhist.lint` carries the same finding.
            xml, native = _join(metadata["xml_tool_calls"]), _join(metadata["native_tool_calls"])
            built.notes.append(
                f"kilo.mixed_tool_style: tool calls as XML text (messages {xml}) "
                f"and as native blocks (messages {native}); "
                "`toolhist migrate FILE --to native` restores the XML ones as blocks"
            )
        return built.session(self.id, tools=None, request={}, metadata=metadata)
