"""What Pi does to the history for the model it calls next (``transformMessages``), and its id normalizers.

Follows badlogic/pi-mono at 83378aad7e74a0e2bb8f37c007a9685fb4609d8a,
``packages/ai/src/providers/transform-messages.ts``, which every provider's converter runs first:

- an assistant message from another model (provider, api or model id differ) is rewritten:
  redacted thinking dropped, thinking without a signature (or from another model) turned into
  plain text or dropped when empty, a tool call's ``thoughtSignature`` dropped, its id put through
  the target provider's normalizer (and the results that answer it follow the new id);
- an assistant message that ended in ``error`` or ``aborted`` is skipped whole: an incomplete turn
  is not replayed (kept in ``Session.unsent``);
- a tool call left without a result when the next assistant or user message comes is answered
  with ``No result provided`` (``isError: true``) right there; a call still open at the end of
  the history is the pending call the next request answers.

The normalizers, per target API (each provider file in ``packages/ai/src/providers/``):
``anthropic.ts`` and ``amazon-bedrock.ts`` keep ``[a-zA-Z0-9_-]`` (others become ``_``) and 64
characters; ``google-shared.ts`` does the same only for ``claude-*`` and ``gpt-oss-*`` models
(``requiresToolCallId``); ``openai-completions.ts`` keeps the call part of a ``call|item`` id
sanitized to 40 characters, and cuts any id to 40 for the ``openai`` provider;
``openai-responses-shared.ts`` sanitizes both halves of a ``call|item`` id (the item prefixed
``fc_``, 64 characters, trailing ``_`` stripped) for the ``openai``, ``openai-codex`` and ``opencode``
providers (and ``azure-openai-responses``); ``mistral.ts`` keeps a 9-character alphanumeric id or
hashes it (``shortHash``, ``utils/hash.ts``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any, Final

from toolhist.agents.pi.context import Sent

RESPONSES_APIS: Final = frozenset({"openai-responses", "azure-openai-responses", "openai-codex-responses"})
GOOGLE_APIS: Final = frozenset({"google-generative-ai", "google-gemini-cli", "google-vertex"})
NO_RESULT: Final = "No result provided"
WHY_SKIPPED: Final = (
    "an assistant turn that ended in {stop}: transformMessages skips errored and aborted assistant "
    "messages, an incomplete turn is never replayed (pi-mono packages/ai/src/providers/transform-messages.ts)"
)
WHY_SYNTHETIC: Final = (
    "Pi answers a tool call left without a result before the next turn with 'No result provided' "
    "(transformMessages, pi-mono packages/ai/src/providers/transform-messages.ts)"
)
_UNSAFE = re.compile(r"[^a-zA-Z0-9_-]")


@dataclass(frozen=True)
class Target:
    """The model the next request goes to: ``(provider, model id)`` from the path, and its API."""

    provider: str
    model: str
    api: str | None
    """From the latest assistant message of that provider and model; None when none answered yet."""

    def same(self, message: dict[str, Any]) -> bool:
        """``isSameModel``: provider, api and model id all equal."""
        return (
            message.get("provider") == self.provider
            and message.get("api") == self.api
            and message.get("model") == self.model
        )


def _sanitize(value: str, limit: int) -> str:
    return _UNSAFE.sub("_", value)[:limit]


def _responses_id(raw: str) -> str:
    call, _, item = raw.partition("|")
    item = _UNSAFE.sub("_", item)
    item = item if item.startswith("fc") else f"fc_{item}"
    return f"{_UNSAFE.sub('_', call)[:64].rstrip('_')}|{item[:64].rstrip('_')}"


def _imul(a: int, b: int) -> int:
    """JavaScript's ``Math.imul``: the low 32 bits of the product, as a signed integer."""
    product = (a * b) & 0xFFFFFFFF
    return product - (1 << 32) if product & 0x80000000 else product


def short_hash(text: str) -> str:
    """Pi's ``shortHash`` (``packages/ai/src/utils/hash.ts``), over UTF-16 code units as JavaScript does."""
    h1, h2 = 0xDEADBEEF, 0x41C6CE57
    data = text.encode("utf-16-le")
    for i in range(0, len(data), 2):
        ch = data[i] | data[i + 1] << 8
        h1 = _imul(h1 ^ ch, 2654435761)
        h2 = _imul(h2 ^ ch, 1597334677)
    h1 = _imul(h1 ^ ((h1 & 0xFFFFFFFF) >> 16), 2246822507) ^ _imul(h2 ^ ((h2 & 0xFFFFFFFF) >> 13), 3266489909)
    h2 = _imul(h2 ^ ((h2 & 0xFFFFFFFF) >> 16), 2246822507) ^ _imul(h1 ^ ((h1 & 0xFFFFFFFF) >> 13), 3266489909)
    return _base36(h2 & 0xFFFFFFFF) + _base36(h1 & 0xFFFFFFFF)


def _base36(n: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        n, r = divmod(n, 36)
        out = digits[r] + out
        if n == 0:
            return out


def _mistral() -> Callable[[str], str]:
    """``createMistralToolCallIdNormalizer``: 9 alphanumerics, or a hash of them, unique per id."""
    ids: dict[str, str] = {}
    owners: dict[str, str] = {}

    def normalize(raw: str) -> str:
        if raw in ids:
            return ids[raw]
        attempt = 0
        while True:
            clean = re.sub(r"[^a-zA-Z0-9]", "", raw)
            if attempt == 0 and len(clean) == 9:
                candidate = clean
            else:
                seed = (clean or raw) if attempt == 0 else f"{clean or raw}:{attempt}"
                candidate = re.sub(r"[^a-zA-Z0-9]", "", short_hash(seed))[:9]
            if owners.get(candidate, raw) == raw:
                ids[raw], owners[candidate] = candidate, raw
                return candidate
            attempt += 1

    return normalize


def normalizer(target: Target) -> Callable[[str], str] | None:
    """The target API's tool-call id normalizer, as its provider file passes it to transformMessages."""
    api = target.api
    if api in ("anthropic-messages", "bedrock-converse-stream"):
        return lambda raw: _sanitize(raw, 64)
    if api in GOOGLE_APIS:
        needs = target.model.startswith(("claude-", "gpt-oss-"))
        return (lambda raw: _sanitize(raw, 64)) if needs else None
    if api == "openai-completions":
        openai = target.provider == "openai"
        return lambda raw: _sanitize(raw.split("|")[0], 40) if "|" in raw else (raw[:40] if openai else raw)
    if api in RESPONSES_APIS:
        allowed = {"openai", "openai-codex", "opencode"} | (
            {"azure-openai-responses"} if api == "azure-openai-responses" else set()
        )
        return (lambda raw: _responses_id(raw) if "|" in raw else raw) if target.provider in allowed else None
    if api == "mistral-conversations":
        return _mistral()
    return None


@dataclass
class Transformed:
    """``transformMessages``' output: the messages sent, and the assistant turns it skipped."""

    messages: list[Sent]
    skipped: list[tuple[int, Sent]]
    """(index in ``messages`` it stood before, the skipped assistant message)."""
    renamed: dict[str, str]
    """Tool call ids the normalizer changed, original → sent."""


def transform(messages: list[Sent], target: Target | None) -> Transformed:
    """Both passes of ``transformMessages`` for ``target`` (None: no model known, nothing is the same)."""
    norm = normalizer(target) if target is not None else None
    renamed: dict[str, str] = {}
    first: list[Sent] = []
    for sent in messages:
        msg = sent.message
        role = msg.get("role")
        if role == "toolResult":
            new = renamed.get(str(msg.get("toolCallId")))
            first.append(replace(sent, message={**msg, "toolCallId": new}) if new else sent)
        elif role == "assistant":
            same = target is not None and target.same(msg)
            blocks = [b for raw in _content(msg) for b in _block(raw, same, norm, renamed)]
            first.append(replace(sent, message={**msg, "content": blocks}))
        else:
            first.append(sent)
    out: list[Sent] = []
    skipped: list[tuple[int, Sent]] = []
    pending: list[dict[str, Any]] = []
    answered: set[str] = set()
    for sent in first:
        msg = sent.message
        role = msg.get("role")
        if role in ("assistant", "user"):
            # a call whose id is not a string is left out with its assistant message (blocks._call): no answer
            out += [
                _no_result(call, sent)
                for call in pending
                if isinstance(call.get("id"), str) and call["id"] not in answered
            ]
            pending, answered = [], set()
        if role == "assistant":
            if msg.get("stopReason") in ("error", "aborted"):
                skipped.append((len(out), sent))
                continue
            calls = [b for b in _content(msg) if isinstance(b, dict) and b.get("type") == "toolCall"]
            if calls:
                pending = calls
        elif role == "toolResult":
            answered.add(str(msg.get("toolCallId")))
        out.append(sent)
    return Transformed(out, skipped, renamed)


def _content(message: dict[str, Any]) -> list[Any]:
    content = message.get("content")
    return content if isinstance(content, list) else []


def _block(
    raw: Any, same: bool, norm: Callable[[str], str] | None, renamed: dict[str, str]
) -> list[dict[str, Any]]:
    """One assistant content block as transformMessages' first pass leaves it (none, one)."""
    if not isinstance(raw, dict):
        return [raw]
    kind = raw.get("type")
    if kind == "thinking":
        if raw.get("redacted"):
            return [raw] if same else []
        if same and raw.get("thinkingSignature"):
            return [raw]
        thinking = raw.get("thinking")
        if not isinstance(thinking, str) or not thinking.strip():
            return []
        return [raw] if same else [{"type": "text", "text": thinking}]
    if kind == "text":
        return [raw] if same else [{"type": "text", "text": raw.get("text")}]
    if kind == "toolCall":
        call = dict(raw)
        if not same:
            call.pop("thoughtSignature", None)
            raw_id = call.get("id")
            if norm is not None and isinstance(raw_id, str):
                new = norm(raw_id)
                if new != raw_id:
                    renamed[raw_id] = new
                    call["id"] = new
        return [call]
    return [raw]


def _no_result(call: dict[str, Any], before: Sent) -> Sent:
    message = {
        "role": "toolResult",
        "toolCallId": call.get("id"),
        "toolName": call.get("name"),
        "content": [{"type": "text", "text": NO_RESULT}],
        "isError": True,
    }
    return Sent(
        message, before.line, f"synthetic:{call.get('id')}", made="synthetic", order=before.order - 0.25
    )
