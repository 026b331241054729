"""llxprt-code's tool-id functions at issue #864 (V864) and at HEAD, reproduced quirk for quirk.

Facts: ``research/llxprt.md`` §2.1 (ingest), §2.4 (HEAD canonical ids, reused from `toolhist.ids`),
§4 (ToolIdStrategy, per-provider normalisers) and §5 (which provider calls which). The point is to
show an llxprt maintainer the ids llxprt really writes, so the V864 normalisers are kept divergent:
Anthropic's does not sanitise (a Kimi id becomes ``toolu_functions.read_file:3``, which Anthropic
rejects), the Responses one hashes where the others prefix, and so on.

Two things llxprt does at random are made deterministic here, because a report must render the same
body twice: V864's Mistral ids (9 random ``[a-zA-Z0-9]``) come from ``random.Random(id)``, and
``randomUUID()`` fallbacks come from the id's SHA-256 (`_uuid4`). Both keep llxprt's shapes.

Providers llxprt has no module for: ``bedrock`` takes the Anthropic normaliser (Claude on Bedrock is
reached through the Anthropic-shaped path, and Bedrock's ``toolUseId`` rule is Anthropic's pattern).
"""

from __future__ import annotations

import hashlib
import random
import re
import string
import uuid
from collections.abc import Callable, Sequence
from typing import Literal

from toolhist.ids import PREFIX, canonical_id, strip_prefixes
from toolhist.model import Block, Message, Session, ToolCallBlock, ToolResponseBlock

Version = Literal["v864", "head"]
HIST = PREFIX
"""``hist_tool_``: llxprt's history id prefix."""
_ALNUM = re.compile(r"^[a-zA-Z0-9]+$")
_NOT_OPENAI = re.compile(r"[^a-zA-Z0-9_]")
"""V864 ``sanitize``: everything but ``[a-zA-Z0-9_]`` is removed."""
_NOT_HEAD = re.compile(r"[^a-zA-Z0-9_-]")
"""HEAD keeps hyphens too (base64url hashes contain ``-``)."""
_MISTRAL_ALPHABET = string.ascii_lowercase + string.ascii_uppercase + string.digits
"""``a-z A-Z 0-9`` in llxprt's order (the order decides HEAD's base62 digits)."""
MISTRAL_ID = re.compile(r"^[a-zA-Z0-9]{9}$")
_K2 = re.compile(r"(?:^|[^a-z0-9])k2(?:[^a-z0-9]|$)")


def _uuid4(seed: str) -> uuid.UUID:
    """A version-4 UUID derived from ``seed``: ``randomUUID()``'s shape, the same every run."""
    return uuid.UUID(bytes=hashlib.sha256(seed.encode()).digest()[:16], version=4)


# --- ingest (§2.1, §3.1) ---------------------------------------------------------------------------


def normalize_to_history_id(raw: str | None) -> str | None:
    """V864 ``ContentConverters.normalizeToHistoryId``: the history id of a provider id, or None.

    A ``hist_tool_`` id is returned as it is (nested prefixes included); otherwise ``call_``,
    ``toolu_`` and ``call`` + 8 or more alphanumerics are stripped until none is left, so
    ``callbackHandler1`` loses ``call`` (a false positive llxprt has) and ``call-abc12345`` keeps it.
    None means "no id": llxprt then generates one.
    """
    if not raw:
        return None
    if raw.startswith(HIST):
        return raw
    candidate = strip_prefixes(raw)
    return HIST + candidate if candidate else None


def generated_history_id_v864(seed: str) -> str:
    """V864 ``HistoryService.generateHistoryId()`` = ``hist_tool_<randomUUID()>``, seeded by ``seed``."""
    return HIST + str(_uuid4(seed))


def generated_history_id_head(turn_key: str, call_index: int) -> str:
    """HEAD ``getIdGeneratorCallback(turnKey)``: ``canonicalizeToolCallId`` of ``|||turnKey|n``."""
    return canonical_id(None, None, None, turn_key, call_index)


# --- ToolIdStrategy (§4.1) -------------------------------------------------------------------------

ToolFormat = Literal["kimi", "mistral", "qwen", "openai"]


def is_kimi_model(model: str) -> bool:
    """``isKimiModel``: ``kimi`` anywhere, or ``k2`` as a whole token (``K2-Thinking``)."""
    lowered = model.lower()
    return "kimi" in lowered or bool(_K2.search(lowered))


def is_mistral_model(model: str) -> bool:
    """``isMistralModel``: one of Mistral's model families in the name."""
    lowered = model.lower()
    return any(n in lowered for n in ("mistral", "devstral", "codestral", "pixtral", "ministral"))


def detect_tool_format(model: str) -> ToolFormat:
    """``detectToolFormat()`` of llxprt's OpenAI providers; only kimi and mistral change ids."""
    if is_kimi_model(model):
        return "kimi"
    if is_mistral_model(model):
        return "mistral"
    lowered = model.lower()
    if "glm-4" in lowered or "qwen" in lowered:
        return "qwen"
    return "openai"


class KimiMapper:
    """``kimiStrategy.createMapper``: ``functions.{name}:{n}`` with one counter over the request.

    V864 pre-scans only ``ai`` messages; HEAD scans every message but skips calls without an id or
    a name. A repeated id overwrites its earlier mapping while the counter still advances, so both
    calls get the later id (llxprt's behaviour). Unknown calls and results get a fallback from the
    same counter, continuing after the last pre-scanned call.
    """

    def __init__(self, messages: Sequence[Message], version: Version) -> None:
        self.ids: dict[str, str] = {}
        self.index = 0
        for message in messages:
            if version == "v864" and message.speaker != "ai":
                continue
            for call in message.tool_calls():
                if version == "head" and not (call.id and call.name):
                    continue
                self.ids[call.id] = f"functions.{call.name}:{self.index}"
                self.index += 1

    def _fallback(self, name: str) -> str:
        out = f"functions.{name}:{self.index}"
        self.index += 1
        return out

    def call(self, block: ToolCallBlock) -> str:
        """``resolveToolCallId``."""
        return self.ids.get(block.id) or self._fallback(block.name)

    def response(self, block: ToolResponseBlock) -> str:
        """``resolveToolResponseId``: the call's id, else a fallback named after the result's tool."""
        return self.ids.get(block.call_id) or self._fallback(block.tool_name or "")


def mistral_id_v864(raw: str) -> str:
    """V864 ``toMistralToolId``: a valid id unchanged, else 9 "random" characters (seeded by ``raw``).

    llxprt draws them from ``Math.random`` with no collision check; seeding by the id keeps the
    shape and the absence of a check while giving the same body every run.
    """
    if MISTRAL_ID.fullmatch(raw):
        return raw
    rng = random.Random(raw)
    return "".join(rng.choice(_MISTRAL_ALPHABET) for _ in range(9))


def _base62(hex_digest: str) -> str:
    number = int(hex_digest, 16)
    digits = ""
    while number:
        number, rest = divmod(number, 62)
        digits = _MISTRAL_ALPHABET[rest] + digits
    return digits or _MISTRAL_ALPHABET[0]


def mistral_id_head(raw: str, used: set[str]) -> str:
    """HEAD ``toMistralToolId``: base62 of ``sha256(id|salt)``, salt raised while the id is taken.

    The hex digest is read as one big number and written in base62 most significant digit first
    (alphabet ``a-zA-Z0-9``), padded with ``a`` to 9 and cut to 9. A valid id is kept even if in use.
    """
    if MISTRAL_ID.fullmatch(raw):
        return raw
    salt = 0
    while True:
        digest = hashlib.sha256(f"{raw}|{salt}".encode()).hexdigest()
        candidate = _base62(digest).rjust(9, "a")[:9]
        if candidate not in used:
            return candidate
        salt += 1


class MistralMapper:
    """``mistralStrategy.createMapper``: one Mistral id per history id, first occurrence first.

    V864 pre-scans ``ai`` messages; HEAD all messages. Ids met later (a result whose call was not
    scanned) are mapped then and remembered.
    """

    def __init__(self, messages: Sequence[Message], version: Version) -> None:
        self.version = version
        self.ids: dict[str, str] = {}
        self.used: set[str] = set()
        for message in messages:
            if version == "v864" and message.speaker != "ai":
                continue
            for call in message.tool_calls():
                self._get(call.id)

    def _get(self, raw: str) -> str:
        if raw not in self.ids:
            new = mistral_id_v864(raw) if self.version == "v864" else mistral_id_head(raw, self.used)
            self.ids[raw] = new
            self.used.add(new)
        return self.ids[raw]

    def call(self, block: ToolCallBlock) -> str:
        """``resolveToolCallId``."""
        return self._get(block.id)

    def response(self, block: ToolResponseBlock) -> str:
        """``resolveToolResponseId``."""
        return self._get(block.call_id)


# --- V864 per-provider normalisers (§4.2) ---------------------------------------------------------


def _sanitize(text: str) -> str:
    return _NOT_OPENAI.sub("", text)


def responses_id_v864(raw: str) -> str:
    """``providers/utils/toolIdNormalization.ts normalizeToOpenAIToolId`` (Responses provider).

    Deterministic fallback ``call_`` + 24 hex of SHA-256 when nothing usable is left; ``toolu_`` is
    not stripped and ``call_call…`` is not collapsed.
    """

    def fallback() -> str:
        return "call_" + hashlib.sha256(raw.encode()).hexdigest()[:24]

    def checked(candidate: str) -> str:
        return fallback() if candidate in ("", "call_") else candidate

    if raw.startswith("call_"):
        return checked(_sanitize(raw))
    if raw.startswith("call"):
        suffix = raw[4:]
        for prefix in ("_", "call_", "call", "_"):
            suffix = suffix.removeprefix(prefix)
        return checked(_sanitize("call_" + suffix))
    if raw.startswith(HIST):
        suffix = _sanitize(raw[len(HIST) :])
        return "call_" + suffix if suffix else fallback()
    return checked(_sanitize("call_" + raw))


def vercel_id_v864(raw: str) -> str:
    """``openai-vercel/toolIdUtils.ts normalizeToOpenAIToolId`` (Vercel conversion, ``standardStrategy``).

    ``call_`` is sanitised; ``hist_tool_``/``toolu_`` are swapped for ``call_``; anything else is
    prefixed. An empty sanitised id gets ``call_<randomUUID without dashes>``, seeded here.
    """
    if raw.startswith("call_"):
        body = _sanitize(raw[5:])
    elif raw.startswith(HIST):
        body = _sanitize(raw[len(HIST) :])
    elif raw.startswith("toolu_"):
        body = _sanitize(raw[6:])
    else:
        body = _sanitize(raw)
    return "call_" + (body or _uuid4(raw).hex)


def provider_openai_id_v864(raw: str) -> str:
    """The private ``normalizeToOpenAIToolId`` of ``OpenAIProvider``/``OpenAIVercelProvider``.

    Always ``sanitize('call_' + X)``, so the result is never empty and the random fallback never
    fires; ``hist_tool_`` alone gives ``call_``.
    """
    if raw.startswith("call_"):
        return _sanitize(raw)
    for prefix in (HIST, "toolu_"):
        if raw.startswith(prefix):
            return _sanitize("call_" + raw[len(prefix) :])
    return _sanitize("call_" + raw)


def anthropic_id_v864(raw: str) -> str:
    """V864 ``AnthropicProvider.normalizeToAnthropicToolId``: prefix swap, **no sanitising**."""
    if raw.startswith("toolu_"):
        return raw
    for prefix in (HIST, "call_"):
        if raw.startswith(prefix):
            return "toolu_" + raw[len(prefix) :]
    return "toolu_" + raw


def synthetic_patch_id_v864(raw: str) -> str:
    """``SyntheticToolResponseHandler.patchMessageHistory``'s id rewrite (Responses, before building).

    ``call_``/``toolu_`` are swapped for ``hist_tool_``; other non-``hist_tool_`` ids are prefixed.
    """
    if raw.startswith(HIST):
        return raw
    for prefix in ("call_", "toolu_"):
        if raw.startswith(prefix):
            return HIST + raw[len(prefix) :]
    return HIST + raw


# --- HEAD shared normalisers (§4.3) ----------------------------------------------------------------


def _head_suffix(raw: str) -> str:
    for prefix in ("call_", HIST, "toolu_"):
        if raw.startswith(prefix):
            return raw[len(prefix) :]
    return raw


def openai_id_head(raw: str) -> str:
    """HEAD ``normalizeToOpenAIToolId``: one known prefix off, ``call_`` on, hyphens kept."""
    return "call_" + _NOT_HEAD.sub("", _head_suffix(raw)) if raw else "call_"


def history_id_head(raw: str) -> str:
    """HEAD ``normalizeToHistoryToolId``: as `openai_id_head` with a ``hist_tool_`` prefix."""
    return HIST + _NOT_HEAD.sub("", _head_suffix(raw)) if raw else HIST


def anthropic_id_head(raw: str) -> str:
    """HEAD ``normalizeToAnthropicToolId``: invalid characters become ``-`` (not removed)."""
    if not raw:
        return "toolu_empty"
    if raw.startswith("toolu_"):
        return raw
    body = raw
    for prefix in (HIST, "call_"):
        if raw.startswith(prefix):
            body = raw[len(prefix) :]
            break
    return "toolu_" + re.sub(r"[^a-zA-Z0-9_-]", "-", body)


# --- the edge: which normaliser each provider gets (§4, §5) ----------------------------------------


def model_name(session: Session) -> str:
    """The model llxprt would be talking to: the request's, else the latest message's, else ``""``."""
    model = session.request.get("model")
    if isinstance(model, str):
        return model
    for message in reversed(session.messages):
        if message.metadata.model:
            return message.metadata.model
    return ""


_Resolver = tuple[Callable[[ToolCallBlock], str], Callable[[ToolResponseBlock], str]]


def _plain(normalise: Callable[[str], str]) -> _Resolver:
    return (lambda c: normalise(c.id)), (lambda r: normalise(r.call_id))


def resolver(session: Session, provider: str, version: Version) -> _Resolver:
    """How llxprt writes call and result ids for ``provider`` (see the module docstring for Bedrock).

    ``kimi`` and ``mistral`` always take their ToolIdStrategy mapper (llxprt reaches them through
    its OpenAI provider with a Kimi or Mistral model); ``openai-chat`` picks one by the model name,
    as ``detectToolFormat`` does, so a Kimi model on an OpenAI-compatible endpoint gets Kimi ids.
    """
    fmt: ToolFormat = "openai"
    if provider in ("kimi", "mistral"):
        fmt = "kimi" if provider == "kimi" else "mistral"
    elif provider == "openai-chat":
        fmt = detect_tool_format(model_name(session))
    if fmt == "kimi":
        kimi = KimiMapper(session.messages, version)
        return kimi.call, kimi.response
    if fmt == "mistral":
        mistral = MistralMapper(session.messages, version)
        return mistral.call, mistral.response
    if provider == "gemini":
        return _plain(lambda raw: raw)
    if provider in ("anthropic", "bedrock"):
        return _plain(anthropic_id_v864 if version == "v864" else anthropic_id_head)
    if version == "head":
        return _plain(openai_id_head)
    if provider == "openai-responses":
        return _plain(lambda raw: responses_id_v864(synthetic_patch_id_v864(raw)))
    return _plain(vercel_id_v864)


def edge_ids(session: Session, provider: str, version: Version) -> tuple[Session, dict[str, str]]:
    """The curated session with the ids llxprt writes into ``provider``'s payload, and old → new.

    Blocks are resolved in payload order (mappers with a counter depend on it). A block whose source
    had no id gets ``raw_id`` set to the id sent, because llxprt always sends one (Gemini renders
    ``functionCall.id`` only when the source had it). The mapping keeps each old id's first new id.
    """
    on_call, on_response = resolver(session, provider, version)
    mapping: dict[str, str] = {}
    messages: list[Message] = []
    for message in session.messages:
        blocks: list[Block] = []
        for block in message.blocks:
            if isinstance(block, ToolCallBlock):
                new = on_call(block)
                mapping.setdefault(block.id, new)
                if new != block.id or block.raw_id is None:
                    block = block.model_copy(update={"id": new, "raw_id": block.raw_id or new})  # noqa: PLW2901
            elif isinstance(block, ToolResponseBlock):
                new = on_response(block)
                mapping.setdefault(block.call_id, new)
                if new != block.call_id or block.raw_call_id is None:
                    update = {"call_id": new, "raw_call_id": block.raw_call_id or new}
                    block = block.model_copy(update=update)  # noqa: PLW2901
            blocks.append(block)
        same = all(a is b for a, b in zip(blocks, message.blocks, strict=True))
        messages.append(message if same else message.model_copy(update={"blocks": tuple(blocks)}))
    return session.model_copy(update={"messages": tuple(messages)}), mapping
