"""Pass ``conform_to_sdk``: what the provider's official SDK request types refuse, carried over from the source.

Every strategy but ``none`` runs it first (`toolhist.curation.base.run_passes`): the repairs after it
and toolhist's renderers then write only shapes the SDK types accept (issue 8, `toolhist.sdk`).
``none`` keeps these values, because it sends the history as the source had it (DESIGN §5 round trip).
Each removal is a Change holding what was removed:

- ``openai-chat`` and ``kimi``: ``name`` on a tool message. The OpenAI cookbook once sent it and
  the OpenAI API ignores it, but ``ChatCompletionToolMessageParam`` has no ``name`` and some
  OpenAI-compatible servers refuse the key. The result still answers its call by ``tool_call_id``.
- ``openai-responses``: a reasoning item without ``id``. Codex replays reasoning this way (its
  ``ResponseItem::Reasoning`` never serialises the id), but ``ResponseReasoningItemParam`` requires
  ``id``, and clients report that the public API refuses a stateless replay of encrypted reasoning
  without it (dotnet/extensions#7628). The AI SDK skips such a reasoning part too. The item's
  summary and encrypted content are in the Change.
- ``openai-responses``: ``"content": null`` on a reasoning item (Codex again). The SDK types
  ``content`` as a list that may be absent, never null; leaving the key out means the same.
"""

from __future__ import annotations

from toolhist.curation.base import Change, Pass, Trace, block_json
from toolhist.model import Block, Message, ThinkingBlock

PASS = "conform_to_sdk"
CHAT_LIKE = frozenset({"openai-chat", "kimi"})
RESPONSES = "openai-responses"


def conform_to_sdk(provider: str) -> Pass:
    """The pass for ``provider``; a no-op (no copies) for providers it has nothing to remove for."""

    def run(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
        if provider in CHAT_LIKE:
            return _tool_names(messages, trace)
        if provider == RESPONSES:
            return _reasoning(messages, trace)
        return messages, []

    return run


def _tool_names(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        if message.speaker != "tool" or "name" not in message.metadata.extra:
            out.append(message)
            continue
        name = message.metadata.extra["name"]
        extra = {k: v for k, v in message.metadata.extra.items() if k != "name"}
        new = message.model_copy(update={"metadata": message.metadata.model_copy(update={"extra": extra})})
        trace.derive(new, message)
        out.append(new)
        call_ids = [getattr(b, "call_id", None) for b in message.blocks]
        changes.append(
            Change(
                pass_=PASS,
                action="strip",
                reason="the openai SDK's tool message (ChatCompletionToolMessageParam) has no 'name'; "
                "the result answers its call by tool_call_id",
                call_id=next((c for c in call_ids if isinstance(c, str)), None),
                before=trace.origin(message),
                dropped={"name": name},
            ).with_subject(new)
        )
    return tuple(out), changes


def _reasoning(messages: tuple[Message, ...], trace: Trace) -> tuple[tuple[Message, ...], list[Change]]:
    out: list[Message] = []
    changes: list[Change] = []
    for message in messages:
        blocks: list[Block] = []
        for block in message.blocks:
            if not isinstance(block, ThinkingBlock) or block.source_provider != RESPONSES:
                blocks.append(block)
                continue
            data = block.provider_data
            if "id" not in data:
                changes.append(
                    Change(
                        pass_=PASS,
                        action="drop",
                        reason="a reasoning item without 'id' cannot be replayed: the openai SDK's "
                        "ResponseReasoningItemParam requires it (Codex leaves it out)",
                        before=trace.origin(block),
                        dropped=block_json(block),
                    )
                )
                continue
            if "content" in data and data["content"] is None:
                new = block.model_copy(
                    update={"provider_data": {k: v for k, v in data.items() if k != "content"}}
                )
                trace.derive(new, block)
                changes.append(
                    Change(
                        pass_=PASS,
                        action="strip",
                        reason="the openai SDK types a reasoning item's 'content' as a list or absent, "
                        "never null; absent means the same",
                        before=trace.origin(block),
                        dropped={"content": None},
                    ).with_subject(new)
                )
                block = new  # noqa: PLW2901
            blocks.append(block)
        if len(blocks) != len(message.blocks) or any(
            a is not b for a, b in zip(blocks, message.blocks, strict=True)
        ):
            new_message = message.model_copy(update={"blocks": tuple(blocks)})
            trace.derive(new_message, message)
            out.append(new_message)
        else:
            out.append(message)
    return tuple(out), changes
