"""OpenAI Responses: rules on the kind and identity of input items.

The pairing and reasoning-order rules are in `toolhist.providers.openai_responses`. These are about
what an item is and how it is identified:

- a Chat-style ``role: "tool"`` message is not a Responses input item (results are
  ``function_call_output`` items); the API answers with the role enum it accepts;
- a reasoning item sent with its server id must be followed by the item it produced, and an
  assistant message without an ``id`` is not recognised as that item;
- with ``store: false`` nothing is kept on the server, so an item sent by its server id alone is not
  found (a 404, not a 400), and some servers reject any server id under ``store: false``.

The renderer writes results as ``function_call_output`` and sends item ids only where the source had
them, so these come from raw bodies (or a source that kept the server's ids).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolhist.providers.base import Finding, Rule

NAME = "openai-responses"
REASONING_MODELS = (r"(^|/)o[134]([-.]|$)", r"gpt-5", r"codex")
"""o1/o3/o4, gpt-5*, codex models (the ones that produce reasoning items)."""


def _reasoning_on(body: dict[str, Any]) -> bool:
    reasoning = body.get("reasoning")
    return not (isinstance(reasoning, dict) and reasoning.get("effort") == "none")


def _store_off(body: dict[str, Any]) -> bool:
    return body.get("store") is False


RULES: tuple[Rule, ...] = (
    Rule(
        "resp.role_tool",
        NAME,
        "error",
        "input messages have role user, assistant, system or developer: a tool result is a "
        "function_call_output item, not a role tool message",
        "Invalid value: 'tool'. Supported values are: 'assistant', 'system', 'developer', and 'user'.",
        "openai/openai-python#2677 (param input[3], code invalid_value: a Chat history sent to /v1/responses); "
        "NousResearch/hermes-agent#5709 (role=tool leaked into Codex-backed Responses paths). The role enum "
        "has held since the Responses API launched (2025-03); neither thread is dated in the index",
        "none in the body: send each result as a function_call_output item with its call_id (the renderer "
        "does)",
        since="2025-03",
    ),
    Rule(
        "resp.reasoning_next_idless",
        NAME,
        "warning",
        "reasoning models: a reasoning item sent with its id must be followed by the item it produced, "
        "identified by its id; an id-less assistant message after it is not that item",
        "Item '{id}' of type 'reasoning' was provided without its required following item.",
        "openai/openai-agents-python#1660 and BittnerPierre/AI-Agent-Casebook#128 (gpt-5, 2025-08: this text); "
        "NousResearch/hermes-agent#97427 and PR#97777 (gpt-5.6, 2026-08: the server links reasoning and "
        "message items by id, and rejects a replay that identifies one but not the other). A warning: which "
        "following item the server wants was not seen in a recorded body [U]",
        "drop_item_ids (send neither id) or send the message with its msg_ id",
        models=REASONING_MODELS,
        since="2025-08",
        observed="2026-08",
        condition="reasoning not switched off (reasoning.effort none)",
        applies=_reasoning_on,
    ),
    Rule(
        "resp.item_not_persisted",
        NAME,
        "warning",
        "with store: false the server keeps no items, so an input item sent with a server id may be looked up "
        "and not found (HTTP 404)",
        "Item with id '{id}' not found. Items are not persisted when `store` is set to false. Try again with "
        "`store` set to true, or remove this item from your input.",
        "vercel/ai#7543 (reasoning item with id and encrypted_content null, 2025-07); can1357/oh-my-pi#41 "
        "(gpt-5.2-codex, 2026-02); anomalyco/opencode#7724, #8987 (2026-01); NousResearch/hermes-agent "
        "PR#10217 (reasoning ids replayed with encrypted content, GPT-5.4 via a proxy, 2026-04); "
        "smixs/iva-agent PR#19 (item_reference and echoed ids, 2026-07); vercel/ai PR#12689 (Azure rejects an id "
        "on a reasoning item under store: false, 2026-02). A warning: a 404, and not every server looks every "
        "id up",
        "drop_item_ids (ids are optional on input; encrypted_content carries the reasoning)",
        since="2025-07",
        observed="2026-07",
        condition="store is false",
        applies=_store_off,
    ),
)


def _kind(item: dict[str, Any]) -> str:
    kind = item.get("type")
    return kind if isinstance(kind, str) else "message"


def check(items: list[Any]) -> Iterator[Finding]:
    """The rules above over a Responses body's input items (conditions are filtered by the rule)."""
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        kind = _kind(item)
        if kind == "message" and item.get("role") == "tool":
            cid = item.get("tool_call_id")
            yield Finding(
                "resp.role_tool", ("input", i, "role"), call_ids=(cid,) if isinstance(cid, str) else ()
            )
        item_id = item.get("id")
        if kind == "reasoning" and isinstance(item_id, str) and i + 1 < len(items):
            nxt = items[i + 1]
            if (
                isinstance(nxt, dict)
                and _kind(nxt) == "message"
                and nxt.get("role") == "assistant"
                and not nxt.get("id")
            ):
                yield Finding("resp.reasoning_next_idless", ("input", i), {"id": item_id})
        if kind == "item_reference" or isinstance(item_id, str):
            yield Finding("resp.item_not_persisted", ("input", i, "id"), {"id": str(item_id)})
