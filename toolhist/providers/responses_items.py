"""OpenAI Responses: rules on the kind and identity of input items.

The pairing and reasoning-order rules are in `toolhist.providers.openai_responses`. These are about
what an item is and how it is identified:

- a Chat-style ``role: "tool"`` message is not a Responses input item (results are
  ``function_call_output`` items); the API answers with the role enum it accepts;
- with ``store: false`` nothing is kept on the server, so an item sent by its server id alone (an
  ``item_reference``, or a reasoning item without its ``encrypted_content``) is not found (a 404, not a
  400). An id beside the item's content was accepted (a recorded Codex round trip), so it is not flagged;
- encrypted reasoning made by another provider or organization cannot be decrypted
  (``resp.encrypted_foreign``). Who made a token is not in the body, so `check` never yields it: the
  switch what-if (`toolhist.switch.foreign`) does, from its ledger of who made each token.

The renderer writes results as ``function_call_output`` and sends item ids only where the source had
them, so these come from raw bodies (or a source that kept the server's ids).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from toolhist.providers.base import Finding, Rule

NAME = "openai-responses"


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
        "has held since the Responses API launched (2025-03); neither thread is dated in the index"
        "; Chevey339/kelivo PR#281 (OpenAI Responses with built-in tools, 2026-01)",
        "none in the body: send each result as a function_call_output item with its call_id (the renderer "
        "does)",
        since="2025-03",
        observed="2026-01",
    ),
    Rule(
        "resp.item_not_persisted",
        NAME,
        "warning",
        "with store: false the server keeps no items: an item_reference, or a reasoning item sent by its id "
        "without its encrypted_content, is looked up and not found (HTTP 404)",
        "Item with id '{id}' not found. Items are not persisted when `store` is set to false. Try again with "
        "`store` set to true, or remove this item from your input.",
        "vercel/ai#7543 (a reasoning item with its id and encrypted_content null, o3, 2025-07); "
        "can1357/oh-my-pi#41 (gpt-5.2-codex, 2026-02); anomalyco/opencode#7724, #8987 (2026-01); smixs/iva-agent "
        "PR#19 (item_reference under store: false, 2026-07). Mixed for other ids: corpus pydantic/pydantic-ai:"
        "tests/models/cassettes/test_codex/test_codex_tool_call_round_trip.yaml @203e70510c #1 (gpt-5.5, "
        "2026-08) was accepted with store: false, an id'd reasoning item carrying encrypted_content and an id'd "
        "function_call, while NousResearch/hermes-agent PR#10217 (GPT-5.4 via a proxy, 2026-04) and vercel/ai "
        "PR#12689 (Azure, 2026-02) report ids rejected there; those are not flagged. A warning: a 404, seen "
        "through clients",
        "drop_item_ids (ids are optional on input; send the reasoning with its encrypted_content)",
        since="2025-07",
        observed="2026-07",
        condition="store is false",
        applies=_store_off,
    ),
    Rule(
        "resp.encrypted_foreign",
        NAME,
        "error",
        "a reasoning item's encrypted_content goes back only to the provider, organization and model family "
        "that made it; another one cannot decrypt it (a body cannot show who made it: toolhist switch does)",
        "The encrypted content {id} could not be verified.",
        "openai/codex#17541 (switching models mid-conversation, Azure gpt-5.4-mini to gpt-5.4: "
        "'encrypted_content from the previous model's Reasoning and Compaction items is sent verbatim to "
        "the new model, which cannot decrypt it', 2026-04); openclaw/openclaw#70654 (gpt-5.4 after "
        "claude-opus-4.6: 'Reason: Encrypted content item_id did not match the target item id', 2026-04); "
        "miuuyy/codex-chatgpt-web#249 (another backend's encrypted item, 'Encrypted content could not be "
        "decrypted or parsed', 2026-08); Wei-Shaw/sub2api#2863 (through a gateway, 2026-05); the bare text "
        "was also answered during an OpenAI incident without a switch: openai/codex#8119, #8132 (2025-12)",
        "drop_foreign_thinking (a reasoning item made elsewhere is left out; its summary can go as text)",
        since="2025-12",
        observed="2026-08",
        condition="found by provenance only (the switch what-if): the encrypted_content was made by another "
        "provider",
    ),
)


def check(items: list[Any]) -> Iterator[Finding]:
    """The rules above over a Responses body's input items (conditions are filtered by the rule)."""
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        kind = item.get("type")  # "message" when it has no str type
        if not isinstance(kind, str):
            kind = "message"
        if kind == "message" and item.get("role") == "tool":
            cid = item.get("tool_call_id")
            yield Finding(
                "resp.role_tool", ("input", i, "role"), call_ids=(cid,) if isinstance(cid, str) else ()
            )
        item_id = item.get("id")
        by_id_only = kind == "reasoning" and isinstance(item_id, str) and not item.get("encrypted_content")
        if kind == "item_reference" or by_id_only:
            yield Finding("resp.item_not_persisted", ("input", i, "id"), {"id": str(item_id)})
