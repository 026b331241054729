"""Kimi CLI's ``context.jsonl``: the history Kimi CLI restores and sends, read as it sends it.

Moonshot documents the two files of a session (MoonshotAI/kimi-cli
``docs/en/configuration/data-locations.md`` @83cfb5d3): ``context.jsonl`` is "the session's full
context" that ``--continue`` / ``--session`` restore; ``wire.jsonl`` is the Wire event log "used for
session replay and extracting session titles". So ``context.jsonl`` holds what is sent, and
``wire.jsonl`` is named, not read (`toolhist.formats.not_history`).

Follows MoonshotAI/kimi-cli at 4a550effdfcb29a25a5d325bf935296cc50cd417 (1.49.0):

- ``src/kimi_cli/soul/context.py`` (``Context.restore``, ``_apply_context_record``): each line is a
  kosong ``Message`` (``packages/kosong/src/kosong/message.py``: role ``system`` | ``user`` |
  ``assistant`` | ``tool``, ``content`` a string or ``text`` / ``think`` / ``image_url`` /
  ``audio_url`` / ``video_url`` parts, OpenAI-shaped ``tool_calls``, ``tool_call_id``) or a
  record of its own: ``_system_prompt`` (the frozen system prompt, sent as the system message),
  ``_usage`` (a token count) and ``_checkpoint`` (an ``/undo`` point). A line that does not
  validate is skipped with a warning, so this reader skips and names it too; ``/undo`` and
  ``/clear`` rotate the file (``context_1.jsonl``…), so the file read is the history as it stands.
- ``src/kimi_cli/soul/dynamic_injection.py`` (``normalize_history``): before each request adjacent
  user messages are merged into one, notifications (``<notification …``) excepted.
- ``packages/kosong/src/kosong/chat_provider/kimi.py`` (``_convert_message``): ``think`` parts go
  back as the message's ``reasoning_content``; an assistant tool-call message whose visible
  content is empty is sent without ``content``.

The provider is the user's config (``~/.kimi/config.toml``), not the session: what says where a
session ran is inferred (`sessions.session_says`). This reader reads the messages as the ``kimi``
provider (Moonshot's Chat Completions) sends them; kosong's other providers (``openai_legacy``,
``openai_responses``, ``anthropic``, ``google_genai``) convert the same history their own way.
"""

from __future__ import annotations

from typing import Any, Final

from pydantic import JsonValue

from toolhist.formats.base import ShapeError
from toolhist.formats.jsonl_stream import Collector, Lines, StreamReader, at_line, shape_on_line
from toolhist.formats.openai_chat import read_message
from toolhist.model import MessageMetadata, Session, ToolResponseBlock

ROLES: Final = frozenset({"system", "user", "assistant", "tool"})
RECORDS: Final = frozenset({"_system_prompt", "_usage", "_checkpoint"})
PARTS: Final = frozenset({"text", "think", "image_url", "audio_url", "video_url"})
ERROR_PREFIX: Final = "<system>ERROR: "
"""How Kimi CLI starts a failed tool's result (``tool_result_to_message``, soul/message.py)."""


def looks_kimi(value: Any) -> int:
    """2 on a context file: role records only, and one of Kimi's own (``_usage``…) or a ``think`` part."""
    if not isinstance(value, list) or not value:
        return 0
    if not all(isinstance(v, dict) and isinstance(v.get("role"), str) for v in value):
        return 0
    if not all(v["role"] in ROLES or v["role"].startswith("_") for v in value):
        return 0
    own = any(v["role"] in RECORDS for v in value) or any(
        isinstance(p, dict) and p.get("type") == "think"
        for v in value
        if isinstance(v.get("content"), list)
        for p in v["content"]
    )
    return 2 if own else 0


def _invalid(line: dict[str, Any]) -> str | None:
    """Why kosong's ``Message.model_validate`` would refuse this line, or None."""
    content = line.get("content")
    if content is not None and not isinstance(content, str | list):
        return "content is neither a string nor a list of parts"
    if isinstance(content, list):
        for part in content:
            if not isinstance(part, dict) or part.get("type") not in PARTS:
                kind = part.get("type") if isinstance(part, dict) else None
                return f"content part type {kind!r}"
    calls = line.get("tool_calls")
    if calls is not None and not isinstance(calls, list):
        return "tool_calls is not a list"
    return None


def _wire(message: dict[str, Any]) -> dict[str, Any]:
    """``_convert_message``: think parts become ``reasoning_content``, content dumped as kosong dumps it."""
    content = message.get("content")
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])
    think = [p for p in parts if p.get("type") == "think"]
    kept = [p for p in parts if p.get("type") != "think"]
    out = {k: v for k, v in message.items() if k != "content" and v is not None}
    out["content"] = kept[0]["text"] if len(kept) == 1 and kept[0].get("type") == "text" else kept
    calls = message.get("tool_calls")
    empty = all(p.get("type") == "text" and not str(p.get("text", "")).strip() for p in kept)
    if message.get("role") == "assistant" and calls and empty:
        del out["content"]
    if think:
        out["reasoning_content"] = "".join(str(p.get("think", "")) for p in think)
    return out


def _is_notification(message: dict[str, Any]) -> bool:
    content = message.get("content")
    parts = [{"type": "text", "text": content}] if isinstance(content, str) else content or []
    return (
        message.get("role") == "user"
        and len(parts) == 1
        and isinstance(parts[0], dict)
        and parts[0].get("type") == "text"
        and str(parts[0].get("text", "")).lstrip().startswith("<notification ")
    )


def _merged(
    records: list[tuple[int | None, dict[str, Any]]],
) -> tuple[list[tuple[int | None, dict[str, Any]]], int]:
    """``normalize_history``: adjacent user messages merged (notifications apart); how many were merged."""
    out: list[tuple[int | None, dict[str, Any]]] = []
    merged = 0
    for line, msg in records:
        if out and msg.get("role") == "user" and out[-1][1].get("role") == "user":
            last_line, last = out[-1]
            if not _is_notification(last) and not _is_notification(msg):
                parts = _parts(last.get("content")) + _parts(msg.get("content"))
                out[-1] = (last_line, {"role": "user", "content": parts})
                merged += 1
                continue
        out.append((line, msg))
    return out, merged


def _parts(content: Any) -> list[Any]:
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content or [])


class KimiCliReader(StreamReader):
    """``kimi-cli``: a Kimi CLI ``context.jsonl`` read as the history Kimi CLI sends."""

    id = "kimi-cli"
    description = "Kimi CLI context.jsonl (~/.kimi/sessions/<work dir md5>/<session>/context.jsonl)"

    def recognise(self, value: Any) -> int:
        """Certain on role records with one of Kimi CLI's own (``_system_prompt``, ``_usage``…)."""
        return looks_kimi(value)

    def read_lines(self, lines: Lines, *, name: str, path: str | None, notes: list[str]) -> Session:
        """Apply each record as ``Context.restore`` does, merge as ``normalize_history`` does, read it."""
        out = Collector(notes)
        system: tuple[int | None, str] | None = None
        records: list[tuple[int | None, dict[str, Any]]] = []
        usage: int | None = None
        checkpoints = 0
        for line, value in lines:
            if not isinstance(value, dict):
                out.skips.add("line that is not an object", line)  # as Context._parse_context_line does
                continue
            role = value.get("role")
            if role == "_system_prompt":
                if isinstance(value.get("content"), str):
                    system = (line, value["content"])
                else:
                    out.skips.add("_system_prompt without string content", line)
            elif role == "_usage":
                usage = value["token_count"] if isinstance(value.get("token_count"), int) else usage
            elif role == "_checkpoint":
                checkpoints += 1
            elif not isinstance(role, str):
                out.skips.add(
                    "record without a role" if role is None else "record whose role is not a string", line
                )
            elif role not in ROLES:
                out.skips.add(f"record role {role!r}", line)
            elif (why := _invalid(value)) is not None:
                out.skips.add(f"invalid message ({why})", line)
            else:
                records.append((line, value))
        if system is None and not records and usage is None and not checkpoints:
            skipped = "".join(f"; {n}" for n in out.skips.note())
            raise at_line(
                None,
                ("role",),
                f"no Kimi CLI context record (role _system_prompt, user, assistant…){skipped}",
            )
        if system is not None:
            meta = MessageMetadata(source_role="_system_prompt")
            out.add(
                read_message(
                    {"role": "system", "content": system[1]}, (), "openai-chat", out.notes
                ).model_copy(update={"metadata": meta}),
                system[0],
                None,
                "content",
            )
        sent, merged = _merged(records)
        for line, msg in sent:
            try:
                message = read_message(_wire(msg), (), "openai-chat", out.notes)
            except ShapeError as exc:
                raise shape_on_line(line, exc) from None
            out.add(_marked_errors(message), line, None)
        out.notes += _notes(merged, checkpoints, usage)
        out.notes += out.skips.note("Kimi CLI skips a context line it cannot validate too (Context.restore)")
        metadata: dict[str, JsonValue] = {"checkpoints": checkpoints}
        if usage is not None:
            metadata["token_count"] = usage
        return out.session(self.id, path=path, metadata=metadata)


def _marked_errors(message: Any) -> Any:
    """A tool result Kimi CLI wrote as a failure (``<system>ERROR: …``) carries that text as its error."""
    blocks = list(message.blocks)
    for i, block in enumerate(blocks):
        if isinstance(block, ToolResponseBlock):
            text = block.result if isinstance(block.result, str) else _first_text(block.result)
            if text is not None and text.startswith(ERROR_PREFIX):
                blocks[i] = block.model_copy(update={"error": text})
    return message.model_copy(update={"blocks": tuple(blocks)})


def _first_text(result: Any) -> str | None:
    if isinstance(result, list) and result and isinstance(result[0], dict):
        text = result[0].get("text")
        return text if isinstance(text, str) else None
    return None


def _notes(merged: int, checkpoints: int, usage: int | None) -> list[str]:
    notes: list[str] = []
    if merged:
        notes.append(
            f"{merged} user message(s) merged into the one before, as Kimi CLI's normalize_history does"
        )
    if checkpoints:
        notes.append(f"{checkpoints} _checkpoint record(s) (/undo points; not messages)")
    if usage is not None:
        notes.append(f"last _usage record: {usage} tokens")
    return notes


__all__ = ["KimiCliReader", "looks_kimi"]
