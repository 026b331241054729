"""OpenAI Responses API (``openai-responses``): rules, checks and the provider entry.

Responses pairs ``function_call_output`` with ``function_call`` by ``call_id`` anywhere in
``input`` (OpenAI tolerates items in between; DeepSeek's Responses endpoint does not). Item ids
(``fc_…``, ``rs_…``, ``msg_…``) are optional on input, but when sent they must carry their type's
prefix, be unique, and, for reasoning models, a call the server knows came after a reasoning item
must be replayed with it. Texts and sources: ``research/providers.md`` §2 and §10.

With ``previous_response_id`` (or ``conversation``, or ``item_reference`` items) part of the
history lives on the server, so an output whose call is not in ``input`` is not flagged.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolhist.formats.openai_responses import AI_SIDE
from toolhist.providers.base import Finding, Provider, Rule, bracketed, drained, model_of, rule_in
from toolhist.providers.openai_responses_render import render
from toolhist.providers.responses_items import RULES as ITEM_RULES
from toolhist.providers.responses_items import check as check_items

NAME = "openai-responses"
ID_PREFIX = {"function_call": "fc", "reasoning": "rs", "message": "msg"}
"""Item type → the prefix its ``id`` must start with (``msg`` only for assistant messages)."""
CALL_ID_MAX = 64
_REASONING_MODEL = re.compile(r"(^|/)(o[134]([-.]|$)|gpt-5)|codex")


def _deepseek(body: dict[str, Any]) -> bool:
    """DeepSeek's Responses endpoint: strict adjacency and its own missing-output text."""
    return "deepseek" in model_of(body)


def _reasoning_model(body: dict[str, Any]) -> bool:
    """o1/o3/o4, gpt-5*, codex models, unless reasoning is switched off (``effort: none``)."""
    reasoning = body.get("reasoning")
    off = isinstance(reasoning, dict) and reasoning.get("effort") == "none"
    return bool(_REASONING_MODEL.search(model_of(body))) and not off


RULES: tuple[Rule, ...] = (
    Rule(
        "resp.call_unanswered",
        NAME,
        "error",
        "every function_call (and freeform custom_tool_call) needs an output with the same call_id",
        "No tool output found for {what} {call_id}.",
        "openai/openai-agents-python#673; tjardoo/openai-client PR#124; a custom_tool_call (Codex's freeform "
        "apply_patch) the same way, 'No tool output found for custom tool call call_…': Soju06/codex-lb#1168 "
        "(2026), diegosouzapw/OmniRoute#8946"
        "; dates: tjardoo/openai-client PR#124 2025-04; diegosouzapw/OmniRoute#8946 (Codex desktop, "
        "2026-07)",
        "close_orphans (synthetic output)",
        applies=lambda body: not _deepseek(body),
        since="2025-04",
        observed="2026-07",
    ),
    Rule(
        "resp.output_orphan",
        NAME,
        "error",
        "every function_call_output (and custom_tool_call_output) call_id must match a call in input (or the "
        "stored chain)",
        "No tool call found for {what} output with call_id {call_id}.",
        "microsoft/vscode#320060; leookun/cursor-byok#307; binaricat/Netcatty#684; the custom tool call form, "
        "'No tool call found for custom tool call output with call_id …', is quoted in codex-lb's replay code "
        "(Soju06/codex-lb#1168)"
        "; dates: continuedev/continue#10092 (gpt-5, 2026-02); agentscope-ai/AgentTeams#299 (2026-03); "
        "binaricat/Netcatty#684 (2026-04); james-6-23/codex2api#414 (gpt-5.6 behind a gateway, 2026-07)",
        "synthesize_calls (or drop the output with a Change)",
        since="2026-02",
        observed="2026-07",
    ),
    Rule(
        "resp.fc_needs_reasoning",
        NAME,
        "warning",
        "reasoning models: a function_call sent with its item id must be preceded, in its turn, by the "
        "reasoning item it came from",
        "Item '{id}' of type 'function_call' was provided without its required 'reasoning' item: '{reasoning}'.",
        "cline/cline#12242; continuedev/continue#10018, #10880. Checked conservatively: only a call with an "
        "`id`, for o1/o3/o4/gpt-5/codex models, when the request shows reasoning is replayed (other reasoning "
        "items, or include `reasoning.encrypted_content`). The server names the reasoning id it stored; a body "
        "cannot show it, so the text says `rs_…`. A warning: a body cannot show whether the model reasoned "
        "before that call (reasoning is optional per step); the traffic corpus has 181 accepted requests with "
        "id'd calls and no reasoning item before them (gpt-5, gpt-5-mini, gpt-5.2/5.4/5.6, 2025-09..2026-08: "
        "pydantic/pydantic-ai tests/models/cassettes/test_tool_choice_vcr, tests/cassettes/test_tool_search) "
        "and no recorded rejection"
        "; dates: 0xPlaygrounds/rig#751 (gpt-5-mini, 2025-08); continuedev/continue#10018 (gpt-5, 2026-01), "
        "#10880 (gpt-5.2, 2026-02); cline/cline#12242 (gpt-5.5, 2026-07)",
        "drop_item_ids (a call sent without `id` needs no reasoning item) or replay the reasoning item",
        applies=_reasoning_model,
        since="2025-08",
        observed="2026-07",
    ),
    Rule(
        "resp.reasoning_dangling",
        NAME,
        "error",
        "a reasoning item must be followed by the model item it produced (not be last, not precede a user "
        "message or an output)",
        "Item '{id}' of type 'reasoning' was provided without its required following item.",
        "continuedev/continue#8933; vercel/ai#7099; openai/openai-node#1567; traffic corpus: a stored reasoning "
        "item (with `id`, `store` not false) followed by an assistant message without `id` is rejected with this "
        "text (gpt-5, 2025-09..2026-02, pydantic/pydantic-ai tests/models/cassettes/test_openai_responses/"
        "test_openai_responses_thinking_with_modified_history.yaml), since the server pairs the reasoning with "
        "the item it produced by id; DeepSeek's Responses endpoint accepts that (2026-08); a reasoning item "
        "before a hosted tool call (tool_search_call, 2026) is followed by a model item and accepted"
        "; dates: openai/openai-node#1567 (2025-07); vercel/ai#8031 (gpt-5, 2025-08); "
        "continuedev/continue#8933 (2025-11), #10428 (GPT-5.2 Codex, 2026-02); mastra-ai/mastra#14048 "
        "(gpt-5-mini, 2026-03)",
        "drop_dangling_reasoning",
        since="2025-07",
        observed="2026-03",
    ),
    Rule(
        "resp.dup_item",
        NAME,
        "error",
        "item ids must be unique across input",
        "Duplicate item found with id {id}. Remove duplicate items from your input and try again.",
        "vercel/ai#13307; github/app#540"
        "; dates: vercel/ai#7883 (gpt-5, a reasoning item sent twice, 2025-08); "
        "OpenRouterTeam/ai-sdk-provider#254 (gpt-5-codex, 2025-11); vercel/ai PR#15492 (items repeated next "
        "to previous_response_id, 2026-05)",
        "dedupe_items",
        since="2025-08",
        observed="2026-05",
    ),
    Rule(
        "resp.item_id_prefix",
        NAME,
        "error",
        "an item id must start with its type's prefix: fc (function_call), rs (reasoning), msg (assistant message)",
        "Invalid 'input[{index}].id': '{id}'. Expected an ID that begins with '{prefix}'.",
        "jlcodes99/cockpit-tools#2090 (rs); openai-agents `__fake_id__` placeholder (fc, repo not identified); "
        "msg per proxies' notes (unverified). OpenAI's own ids only: DeepSeek's Responses endpoint issues and "
        "accepts uuid item ids (traffic corpus, deepseek-v4-flash, 2026-08)"
        "; dates: mastra-ai/mastra#10815 (an rs_ id where msg was expected, 2025-12); openai/codex#33176 "
        "(msg, 2026-07); farion1231/cc-switch#5338 (msg, 2026-07); jlcodes99/cockpit-tools#2090 (rs, "
        "2026-08), #2543 (rs, 2026-09)",
        "drop_item_ids (ids are optional on input)",
        applies=lambda body: not _deepseek(body),
        since="2025-12",
        observed="2026-09",
    ),
    Rule(
        "resp.call_id_len",
        NAME,
        "error",
        "call_id is at most 64 characters",
        "Invalid 'input[{index}].call_id': string too long. Expected a string with maximum length 64, but got a string with length {length} instead.",
        "AnswerDotAI/fastllm#45 (code string_above_max_length)"
        "; dates: decolua/9router#393 (2026-03); AnswerDotAI/fastllm#45 (ChatGPT Codex backend, 2026-06); "
        "orchidfiles/ungate#26 (gpt-5.6-sol via the Codex backend, 2026-07); "
        "V1ki/dsh-plugin-subscriptions#29 (Codex backend, 2026-08)",
        "map_ids (canonical ids are shorter)",
        since="2026-03",
        observed="2026-08",
    ),
    Rule(
        "resp.adjacency",
        NAME,
        "error",
        "DeepSeek: the outputs of a run of function_calls must come right after it",
        "No tool output found for tool call {call_id}",
        "deepseek-ai/awesome-deepseek-integration#740; MayDay-wpf/snow-app PR#9; kolega-ai/kolega-code PR#403"
        "; traffic corpus: pydantic/pydantic-ai "
        "tests/models/cassettes/test_deepseek_responses/test_deepseek_responses_rejects_interleaved_function_calls.yaml "
        "@c5e16a7841 (deepseek-v4-flash, rejected with this text); deepseek-ai/DeepSeek-V3#1588 "
        "(deepseek-v4-pro, a developer message between a call and its output, 2026-08)",
        "move_results (or close_orphans when the output is missing)",
        applies=_deepseek,
        since="2026-08",
        observed="2026-08",
    ),
    Rule(
        "resp.reasoning_summary",
        NAME,
        "warning",
        "a replayed reasoning item needs `summary` (OpenAI's schema requires it; non-OpenAI Responses servers "
        "reject it with this text)",
        "Input[{index}] missing required field `summary`",
        "newo-ether/Agora#141"
        "; dates: newo-ether/Agora#141 is Meta's Muse Spark 1.3 behind a Responses server (2026-09); no "
        "OpenAI rejection found",
        "fill_reasoning_summary (`summary: []`)",
        since="2026-09",
        observed="2026-09",
    ),
    *ITEM_RULES,
)


def _kind(item: dict[str, Any]) -> str:
    kind = item.get("type")
    return kind if isinstance(kind, str) else "message"


def _model_side(item: Any) -> bool:
    """An item the model produced (reasoning, calls, assistant messages)."""
    if not isinstance(item, dict):
        return False
    kind = _kind(item)
    return (
        kind in AI_SIDE
        or kind.endswith("_call")  # every call item the model emits (tool_search_call, shell_call, …)
        or (kind == "message" and item.get("role") == "assistant")
    )


def _bare_assistant_message(item: dict[str, Any]) -> bool:
    """An assistant message sent without its ``msg_`` id: the server cannot match it to a stored reasoning item."""
    return _kind(item) == "message" and item.get("role") == "assistant" and not item.get("id")


_PAIRED = {"function_call": "function call", "custom_tool_call": "custom tool call"}
"""Client-side call items whose output the request must carry, and how OpenAI's error text names them."""


def _kind_facts(kind: str) -> tuple[bool, bool, str | None]:
    """A call item type, an output item type, and how an unpaired one is named (`_PAIRED`), of ``kind``.

    `check_walk` asks once per item type it meets, not three suffix tests per item (134,000 at 100k).
    """
    return kind.endswith("_call"), kind.endswith("_output"), _PAIRED.get(kind.removesuffix("_output"))


def check_walk(  # noqa: PLR0915 - three passes in one walk: split, it pays the per-item call it saves
    body: dict[str, Any], items: list[Any]
) -> tuple[list[Finding], list[Finding], list[Finding]]:
    """The pairing, reasoning and id rules in one walk over the items, each pass's findings apart.

    Pairing: calls without outputs and outputs without calls. Reasoning: reasoning items without
    their following item, id'd calls without their reasoning item. Ids: duplicate item ids, id
    prefixes and call_id length. They were four walks over every item (pairing took two); what a
    rule needs of the whole list (every call and output id, whether reasoning is replayed, whether
    part of the history is stored server-side) is gathered on the way and applied after it.
    """
    calls: set[str] = set()
    outputs: set[str] = set()
    paired: list[tuple[int, str, bool, str]] = []  # (index, call_id, an output, how the error names it)
    reasoning: list[Finding] = []
    found: list[Finding] = []
    seen: set[str] = set()  # item ids
    referenced = False  # an item_reference: part of the history is stored server-side
    reasoned = False  # a reasoning item: reasoning is replayed
    stored = body.get("store") is not False and not _deepseek(body)
    seen_reasoning = False  # a reasoning item earlier in the current run of model items
    kinds: dict[str, tuple[bool, bool, str | None]] = {}  # `_kind_facts` per item type met
    count = len(items)
    for i, item in enumerate(items):
        if not isinstance(item, dict):
            seen_reasoning = False
            continue
        raw = item.get("type")
        kind = raw if isinstance(raw, str) else "message"  # `_kind`, inline: every item
        try:
            is_call, is_output, what = kinds[kind]
        except KeyError:
            is_call, is_output, what = kinds[kind] = _kind_facts(kind)
        cid = item.get("call_id")
        if isinstance(cid, str):
            if is_call:  # an output answers any call item by call_id (a client tool_search_call)
                calls.add(cid)
            elif is_output:
                outputs.add(cid)
            if what is not None:
                paired.append((i, cid, is_output, what))
        if kind in AI_SIDE or is_call or (kind == "message" and item.get("role") == "assistant"):
            if kind == "reasoning":
                reasoned = seen_reasoning = True
                if "summary" not in item:
                    reasoning.append(Finding("resp.reasoning_summary", ("input", i), {"index": i}))
                following = items[i + 1] if i + 1 < count else None
                if (
                    following is None
                    or not _model_side(following)
                    or (stored and isinstance(item.get("id"), str) and _bare_assistant_message(following))
                ):
                    values: dict[str, Any] = {"id": str(item.get("id", ""))}
                    reasoning.append(Finding("resp.reasoning_dangling", ("input", i), values))
            elif kind == "function_call" and isinstance(item.get("id"), str) and not seen_reasoning:
                # kept when reasoning turns out replayed (below)
                values = {"id": item["id"], "reasoning": "rs_…"}
                ids = (cid,) if isinstance(cid, str) else ()
                reasoning.append(Finding("resp.fc_needs_reasoning", ("input", i), values, ids))
        else:
            seen_reasoning = False
        if kind == "item_reference":
            referenced = True
            continue
        item_id = item.get("id")
        if isinstance(item_id, str):
            if item_id in seen:
                found.append(Finding("resp.dup_item", ("input", i), {"id": item_id}))
            seen.add(item_id)
            prefix = ID_PREFIX.get(kind) if kind != "message" or item.get("role") == "assistant" else None
            if prefix is not None and not item_id.startswith(prefix):
                values = {"index": i, "id": item_id, "prefix": prefix}
                found.append(Finding("resp.item_id_prefix", ("input", i, "id"), values))
        if isinstance(cid, str) and len(cid) > CALL_ID_MAX:
            values = {"index": i, "length": len(cid)}
            found.append(Finding("resp.call_id_len", ("input", i, "call_id"), values, (cid,)))
    include = body.get("include")
    if not (reasoned or (isinstance(include, list) and "reasoning.encrypted_content" in include)):
        reasoning = [f for f in reasoning if f.rule != "resp.fc_needs_reasoning"]
    stateful = (
        referenced or body.get("previous_response_id") is not None or body.get("conversation") is not None
    )
    return _unpaired(paired, calls, outputs, stateful=stateful), reasoning, found


def _unpaired(
    paired: list[tuple[int, str, bool, str]], calls: set[str], outputs: set[str], *, stateful: bool
) -> list[Finding]:
    """Calls without outputs and outputs without calls among ``paired`` (`check_walk`'s)."""
    pairing: list[Finding] = []
    for i, cid, output, what in paired:
        if not output and cid not in outputs:
            pairing.append(
                Finding("resp.call_unanswered", ("input", i), {"call_id": cid, "what": what}, (cid,))
            )
        elif output and cid not in calls and not stateful:
            pairing.append(
                Finding("resp.output_orphan", ("input", i), {"call_id": cid, "what": what}, (cid,))
            )
    return pairing


def check_adjacency(items: list[Any]) -> Iterator[Finding]:
    """Each run of calls must be followed directly by its outputs (DeepSeek)."""
    # ``item.get("type") == "function_call"`` is ``_kind(item) == "function_call"``, inline: every item.
    i = 0
    n = len(items)
    while i < n:
        item = items[i]
        if not (isinstance(item, dict) and item.get("type") == "function_call"):
            i += 1
            continue
        end = i
        while end < n and isinstance(items[end], dict) and items[end].get("type") == "function_call":
            end += 1
        stop = end
        while stop < n and isinstance(items[stop], dict) and _kind(items[stop]).endswith("_output"):
            stop += 1
        answered = {items[k].get("call_id") for k in range(end, stop)}
        for k in range(i, end):
            cid = items[k].get("call_id")
            if isinstance(cid, str) and cid not in answered:
                yield Finding("resp.adjacency", ("input", k), {"call_id": cid}, (cid,))
        i = stop


_ADJACENCY = rule_in(RULES, "resp.adjacency")


def check(body: dict[str, Any]) -> Iterator[Finding]:
    """Every Responses rule over a body (model-dependent ones are filtered by their ``applies``)."""
    raw = body.get("input")
    items = raw if isinstance(raw, list) else []
    pairing, reasoning, ids = check_walk(body, items)
    yield from drained(pairing)
    if _ADJACENCY.applies_to(body):  # (DeepSeek only) else `violations` drops what it finds
        yield from check_adjacency(items)
    yield from drained(reasoning)
    yield from drained(ids)
    yield from check_items(items)


PROVIDER = Provider(
    name=NAME,
    title="OpenAI Responses",
    rules=RULES,
    render=render,
    check=check,
    path_format=bracketed,
    freeform_tools=True,
)
