"""Anthropic Messages: rules on the final turn, server tool ids and replayed thinking.

The pairing and block rules are in `toolhist.providers.anthropic`. These are the ones about what a
request may end with and what a replayed block may be:

- Claude 4.6 and later models take no assistant prefill: the request must end with a user message
  (older models continue a final assistant message);
- a server tool call (``srvtoolu_…`` id) replayed as a plain ``tool_use`` block is not paired with the
  ``tool_result`` after it: the API answers with ant.result_missing's text (a recorded 400);
- an assistant message that holds thinking blocks must start with one (thinking on);
- the thinking blocks of the latest assistant message must be sent as the model returned them: a body
  cannot show the original, but a signature carried by two blocks with different text shows that one
  of them was changed.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolhist.providers.anthropic_rules import MISSING_TEXT, thinking_enabled
from toolhist.providers.base import Finding, PathT, Rule

NAME = "anthropic"
PREFILL_REMOVED = (
    r"claude-(opus|sonnet|haiku)-4[-.][6-9]",
    r"claude-(opus|sonnet|haiku)-([5-9]|[1-9]\d)",
    r"claude-fable",
)
"""Claude 4.6 and later (``claude-opus-4-6``, ``claude-sonnet-4-6``, ``us.anthropic.claude-opus-4-6-v1``,
``claude-sonnet-5``, Fable): the models that answer 400 to a final assistant message. ``*-4-5`` and
earlier accept prefill (ericc-ch/copilot-api PR#261)."""
PREFILL_TEXT = (
    "This model does not support assistant message prefill. The conversation must end with a user message."
)
PREFILL_SOURCE = (
    "platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-6#prefill-removal ('Prefilling "
    "assistant messages returns a 400 error on Claude 4.6 models'); strands-agents/sdk-python#1694 "
    "(us.anthropic.claude-opus-4-6-v1 on Bedrock; Sonnet 4.5 works); Tarquinen/"
    "opencode-dynamic-context-pruning#520 (claude-sonnet-4-6, 2026-04); ericc-ch/copilot-api PR#261 "
    "(opus-4-6/4-7/4-8 and sonnet-4-6 reject, *-4-5 accept, 2026-06); cortexkit/magic-context#511 (Sonnet "
    "4.6, Sonnet 5, 2026-09); vybestack/llxprt-code PR#3695 (Fable 5, 2026-09). Mixed for older models: "
    "ash-project/ash_ai#191 saw a prefill error on claude-sonnet-4-5 and claude-opus-4-1 with a forced tool "
    "(2026-04), so older models are not flagged"
)


RULES: tuple[Rule, ...] = (
    Rule(
        "ant.thinking_not_first",
        NAME,
        "error",
        "with thinking on, an assistant message that holds thinking blocks starts with one",
        "messages.{index}.content.0: If an assistant message contains any thinking blocks, the first block "
        "must be `thinking` or `redacted_thinking`. Found `{found}`.",
        "anthropics/claude-code#20705 (2026-01); the same text, for any assistant message of the history "
        "(messages.1, messages.3), is quoted in agents' fix notes and code comments from 2025-11 on (search "
        "index: reordering stored blocks thinking, text, tool_use fixed it); the extended-thinking docs "
        "state the requirement. Checked only with thinking on, the mode every report ran in [U: whether a "
        "request with thinking off is held to it]",
        "put the thinking blocks back at the start of the message, in the order the model returned them",
        applies=thinking_enabled,
        since="2025-11",
        observed="2026-01",
        condition="a thinking or redacted_thinking block comes after another block of the same assistant message",
    ),
    Rule(
        "ant.prefill_unsupported",
        NAME,
        "error",
        "Claude 4.6 and later: the request ends with a user message (no assistant prefill)",
        PREFILL_TEXT,
        PREFILL_SOURCE,
        "append_user_turn (a user turn asks the model to continue)",
        models=PREFILL_REMOVED,
        since="2026-02",
        observed="2026-09",
        condition="the last message is an assistant message without tool_use (a final tool_use is "
        "ant.result_missing) or server tool blocks (a pause_turn continuation)",
    ),
    Rule(
        "ant.server_tool_as_tool_use",
        NAME,
        "error",
        "a server tool call (srvtoolu_ id) is not replayed as a plain tool_use block: the API does not pair it "
        "with a tool_result",
        MISSING_TEXT,
        "corpus pydantic/pydantic-ai:tests/models/cassettes/test_anthropic/test_anthropic_web_search_tool.yaml "
        "@0b43f6544c #1 (claude-3-5-sonnet-latest, 2025-05-24: a tool_use with a srvtoolu_ id answered by a "
        "tool_result in the next message, rejected with this text; /work/wt/reports/traffic.md); BerriAI/litellm "
        "PR#30486 (generic OpenAI clients replay Anthropic web search as a tool call and a tool message keyed to "
        "the srvtoolu_ id, 2026-06); BerriAI/litellm#33546 (server_tool_use surfaced as function_call, 2026-07)",
        "map_ids (a client id for the call and its result), or replay the server_tool_use block with its "
        "result block",
        since="2025-05",
        observed="2026-07",
    ),
    Rule(
        "ant.thinking_immutable",
        NAME,
        "warning",
        "the thinking blocks of the latest assistant message go back exactly as returned; a signature on two "
        "blocks with different text shows one was changed",
        "messages.{index}.content.{block}: `thinking` or `redacted_thinking` blocks in the latest assistant "
        "message cannot be modified. These blocks must remain as they were in the original response.",
        "anthropics/claude-code#19539 (2026-01), #63404, #63203 (2026-05); vybestack/llxprt-code#1653 "
        "(claude-opus-4-6, 2026-03). A warning: the API compares the blocks with the response it signed, which "
        "a body cannot show; only a signature seen on two blocks with different text is checked [U: which "
        "copy the API kept]",
        "replay the thinking block byte for byte (drop_foreign_thinking when it cannot be)",
        since="2026-01",
        observed="2026-05",
    ),
)


_THINKING = ("thinking", "redacted_thinking")
_NONE = object()


def _blocks(message: Any) -> list[tuple[int, dict[str, Any]]]:
    content = message.get("content") if isinstance(message, dict) else None
    if not isinstance(content, list):
        return []
    return [(j, b) for j, b in enumerate(content) if isinstance(b, dict)]


def _role(message: Any) -> Any:
    return message.get("role") if isinstance(message, dict) else None


def _tool_block(kind: Any) -> bool:
    """A tool_use (ant.result_missing's case) or a server tool block (a pause_turn continuation).

    A paused server-tool turn is sent back as the final assistant message, as the server-tools docs say.
    """
    return isinstance(kind, str) and (kind.endswith("tool_use") or kind.endswith("_tool_result"))


def check(messages: list[Any]) -> Iterator[Finding]:
    """The rules above over an Anthropic body's messages, in one walk over the blocks."""
    if messages and _role(messages[-1]) == "assistant":
        last = len(messages) - 1
        if not any(_tool_block(b.get("type")) for _, b in _blocks(messages[last])):
            yield Finding("ant.prefill_unsupported", ("messages", last))
    latest = None  # the latest assistant message, whose thinking blocks ant.thinking_immutable compares
    texts: dict[str, set[str]] = {}  # thinking text per signature, over the whole body
    for i, message in enumerate(messages):
        assistant = _role(message) == "assistant"
        if assistant:
            latest = i
        content = message.get("content") if isinstance(message, dict) else None
        if not isinstance(content, list):
            continue
        first: Any = _NONE  # the type of the message's first block, for ant.thinking_not_first
        misplaced = False
        for j, block in enumerate(content):
            if not isinstance(block, dict):
                continue
            kind = block.get("type")
            if first is _NONE:
                first = kind
            elif kind in _THINKING and first not in _THINKING:
                misplaced = True
            if kind == "thinking":
                signature = block.get("signature")
                if isinstance(signature, str) and signature:
                    texts.setdefault(signature, set()).add(str(block.get("thinking")))
            elif kind == "tool_use" and assistant:
                raw = block.get("id")
                if isinstance(raw, str) and raw.startswith("srvtoolu_"):
                    yield Finding(
                        "ant.server_tool_as_tool_use",
                        ("messages", i, "content", j),
                        {"index": i, "ids": raw},
                        (raw,),
                    )
        if misplaced and assistant:
            yield Finding(
                "ant.thinking_not_first", ("messages", i, "content", 0), {"index": i, "found": first}
            )
    if latest is not None and texts:
        yield from _check_immutable(messages, latest, texts)


def _check_immutable(messages: list[Any], latest: int, texts: dict[str, set[str]]) -> Iterator[Finding]:
    for j, block in _blocks(messages[latest]):
        signature = block.get("signature")
        if (
            block.get("type") == "thinking"
            and isinstance(signature, str)
            and len(texts.get(signature, ())) > 1
        ):
            path: PathT = ("messages", latest, "content", j)
            yield Finding("ant.thinking_immutable", path, {"index": latest, "block": j})
