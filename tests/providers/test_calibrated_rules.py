"""Calibrated rules (issue 16): applicability by model and condition, evidence lists, and the rules added
for real 400s toolhist missed, each broken by the smallest body with the provider's own text.

The Chat, Anthropic and Bedrock additions have their cases in those providers' test files; the Responses
and Gemini ones are here.
"""

from __future__ import annotations

from typing import Any

import pytest

from toolhist.providers import provider_for, validate_payload
from toolhist.providers.base import Evidence, Rule, evidence_of

Body = dict[str, Any]


def found(body: Body, provider: str) -> list[tuple[str, str, str, str]]:
    return [(v.rule, v.severity, v.path, v.error_text) for v in validate_payload(body, provider)]


# --- applicability ----------------------------------------------------------------------------------

RULE = Rule("x.rule", "openai-chat", "error", "s", "t", "a/b#1", "f", models=(r"(^|/)o1-mini",))


@pytest.mark.parametrize(
    ("model", "expected"),
    [
        ("o1-mini", True),
        ("O1-Mini-2024-09-12", True),  # model names are compared lower-cased
        ("openai/o1-mini", True),
        ("o1", False),
        ("gpt-4o-mini", False),
        (None, False),  # no model named: a model-restricted rule does not apply…
    ],
)
def test_a_rule_applies_to_the_models_it_names(model: str | None, expected: bool) -> None:
    body: Body = {"messages": []} if model is None else {"model": model, "messages": []}
    assert RULE.applies_to(body) is expected


def test_unknown_model_and_condition() -> None:
    lenient = Rule("x.r", "bedrock", "error", "s", "t", "src", "f", models=("claude",), unknown_model=True)
    assert lenient.applies_to({"messages": []}) is True  # …unless it says so
    assert lenient.applies_to({"modelId": "amazon.nova-pro-v1:0"}) is False
    gated = Rule(
        "x.r", "openai-chat", "error", "s", "t", "src", "f", applies=lambda b: b.get("store") is False
    )
    assert gated.applies_to({"store": False}) is True
    assert gated.applies_to({}) is False
    assert (gated.model_dependent, lenient.model_dependent, RULE.model_dependent) == (True, True, True)
    assert Rule("x.r", "p", "error", "s", "t", "src", "f").model_dependent is False


def test_evidence_is_the_source_split_by_kind() -> None:
    source = (
        "platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-6#prefill-removal ('400'); "
        "strands-agents/sdk-python#1694 (a; b); ericc-ch/copilot-api PR#261; research/providers.md §3; "
        "tests/traffic/corpus.jsonl line 4; mistralai/mistral-common src/mistral_common/validator.py; "
        "a remark [U]"
    )
    assert evidence_of(source) == (
        Evidence(
            "docs",
            "platform.claude.com/docs/en/about-claude/models/whats-new-claude-4-6#prefill-removal ('400')",
        ),
        Evidence("issue", "strands-agents/sdk-python#1694 (a; b)"),
        Evidence("issue", "ericc-ch/copilot-api PR#261"),
        Evidence("research", "research/providers.md §3"),
        Evidence("corpus", "tests/traffic/corpus.jsonl line 4"),
        Evidence("code", "mistralai/mistral-common src/mistral_common/validator.py"),
        Evidence("note", "a remark [U]"),
    )


# --- Claude 4.6+ prefill: which model names ----------------------------------------------------------


@pytest.mark.parametrize(
    ("model", "rejects"),
    [
        ("claude-opus-4-6", True),
        ("claude-sonnet-4-6", True),
        ("claude-opus-4-7", True),
        ("claude-opus-4-8", True),
        ("claude-opus-4.6", True),  # Copilot's spelling
        (
            "us.anthropic.claude-opus-4-6-v1",
            True,
        ),  # Bedrock inference profile (strands-agents/sdk-python#1694)
        ("claude-sonnet-5", True),
        ("claude-opus-5-5", True),
        ("claude-fable-5", True),
        ("claude-sonnet-4-5", False),
        ("claude-sonnet-4-5-20250929", False),
        ("claude-haiku-4-5", False),
        ("claude-opus-4-1-20250805", False),
        ("claude-3-5-sonnet-20241022", False),
    ],
)
def test_prefill_is_refused_by_claude_4_6_and_later(model: str, rejects: bool) -> None:
    messages = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "{"}]
    body: Body = {"model": model, "max_tokens": 64, "messages": messages}
    assert [r for r, *_ in found(body, "anthropic")] == (["ant.prefill_unsupported"] if rejects else [])


def test_a_paused_server_tool_turn_is_not_prefill() -> None:
    # pause_turn: the paused assistant message goes back last, with its server tool blocks.
    paused = [
        {"type": "server_tool_use", "id": "srvtoolu_01", "name": "web_search", "input": {"query": "q"}},
        {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_01", "content": []},
    ]
    body = {
        "model": "claude-opus-4-6",
        "max_tokens": 64,
        "tools": [{"type": "web_search_20250305", "name": "web_search"}],
        "messages": [{"role": "user", "content": "search"}, {"role": "assistant", "content": paused}],
    }
    assert found(body, "anthropic") == []


def test_bedrock_prefill_only_right_after_the_tool_round() -> None:
    """crewAI's Bedrock cassettes: a prefill right after the toolResult turn rejected (structured_output_with_tools
    @7e09e01215 #2; kickoff_with_tools_mocked @89e961e08e #5), one after a later plain exchange accepted (#6)."""

    def msg(role: str, *blocks: Body) -> Body:
        return {"role": role, "content": list(blocks)}

    tool_round = [
        msg("user", {"text": "What is 2 + 2?"}),
        msg("assistant", {"toolUse": {"toolUseId": "tooluse_1", "name": "add", "input": {"a": 2, "b": 2}}}),
        msg("user", {"toolResult": {"toolUseId": "tooluse_1", "content": [{"text": "4"}]}}),
    ]
    config = {"tools": [{"toolSpec": {"name": "add", "inputSchema": {"json": {"type": "object"}}}}]}
    rejected = {"toolConfig": config, "messages": [*tool_round, msg("assistant", {"text": "Final Answer:"})]}
    assert found(rejected, "bedrock") == [
        (
            "brk.prefill_tools",
            "error",
            "messages.3",
            "Your API request included an `assistant` message in the final position, which would pre-fill the "
            "`assistant` response. When using tools, pre-filling the `assistant` response is not supported.",
        )
    ]
    later = [
        msg("assistant", {"text": "It is 4."}),
        msg("user", {"text": "Sure?"}),
        msg("assistant", {"text": "Yes:"}),
    ]
    assert found({"toolConfig": config, "messages": [*tool_round, *later]}, "bedrock") == []
    nova = {**rejected, "modelId": "us.amazon.nova-2-lite-v1:0"}  # the recordings are Claude's
    assert found(nova, "bedrock") == []


# --- OpenAI Responses -------------------------------------------------------------------------------

ROLE_TOOL = "Invalid value: 'tool'. Supported values are: 'assistant', 'system', 'developer', and 'user'."


def test_responses_role_tool() -> None:
    bad = {
        "model": "gpt-4.1",
        "input": [
            {"role": "user", "content": "Read a.py"},
            {"type": "function_call", "call_id": "call_1", "name": "read_file", "arguments": "{}"},
            {"role": "tool", "tool_call_id": "call_1", "content": "x = 1"},
        ],
    }
    assert [(r, s, p, t) for r, s, p, t in found(bad, "openai-responses") if r == "resp.role_tool"] == [
        ("resp.role_tool", "error", "input[2].role", ROLE_TOOL)
    ]
    good = {
        **bad,
        "input": [*bad["input"][:2], {"type": "function_call_output", "call_id": "call_1", "output": "x"}],
    }
    assert found(good, "openai-responses") == []


def test_responses_server_ids_with_store_false() -> None:
    items: list[Body] = [
        {"role": "user", "content": "hi"},
        {"type": "reasoning", "id": "rs_04962823", "summary": [], "encrypted_content": None},
        {"type": "function_call", "id": "fc_1", "call_id": "call_1", "name": "ls", "arguments": "{}"},
        {"type": "function_call_output", "call_id": "call_1", "output": "a.py"},
        {"type": "item_reference", "id": "msg_2"},
    ]
    text = (
        "Item with id '{}' not found. Items are not persisted when `store` is set to false. Try again with "
        "`store` set to true, or remove this item from your input."
    )
    bad = {"model": "gpt-5", "store": False, "input": items}
    # The reasoning item is sent by its id alone (vercel/ai#7543); an id beside the content is accepted.
    assert found(bad, "openai-responses") == [
        ("resp.item_not_persisted", "warning", "input[1].id", text.format("rs_04962823")),
        ("resp.item_not_persisted", "warning", "input[4].id", text.format("msg_2")),
    ]
    assert found({**bad, "store": True}, "openai-responses") == []
    store_default = {k: v for k, v in bad.items() if k != "store"}  # store defaults to true
    assert found(store_default, "openai-responses") == []
    # The recorded Codex round trip's shape (gpt-5.5, store: false): ids beside encrypted reasoning, accepted.
    carried = [items[0], {**items[1], "encrypted_content": "gAAAAABq"}, items[2], items[3]]
    assert found({**bad, "input": carried}, "openai-responses") == []


# --- Gemini -----------------------------------------------------------------------------------------

MIXED = (
    "Please ensure that function call turn contains at least one function_call part which can not be mixed with "
    "function_response parts."
)


def test_gemini_call_and_response_parts_in_one_content() -> None:
    call = {"functionCall": {"name": "read_file", "args": {"path": "a.py"}}}
    response = {"functionResponse": {"name": "read_file", "response": {"content": "x = 1"}}}
    bad = {
        "contents": [
            {"role": "user", "parts": [{"text": "read a.py"}]},
            {"role": "model", "parts": [call, response]},
        ]
    }
    assert [(r, s, p, t) for r, s, p, t in found(bad, "gemini") if r == "gem.fc_fr_mixed"] == [
        ("gem.fc_fr_mixed", "error", "contents[1]", MIXED)
    ]
    good = {
        "contents": [
            *bad["contents"][:1],
            {"role": "model", "parts": [call]},
            {"role": "user", "parts": [response]},
        ]
    }
    assert found(good, "gemini") == []


@pytest.mark.parametrize(
    ("signature", "flagged"),
    [
        ("CiQBcsjafQ0P2vYt8w+Lk3yY1xN1QmE4Zk9sK0xq5wHh2kqg3n4=", False),
        ("CiQBcsjafQ0P2vYt8w-Lk3yY1xN1QmE4Zk9sK0xq5wHh2kqg3n4", False),  # URL-safe (Python SDK dump)
        ("skip_thought_signature_validator", False),  # Google's documented sentinel
        ("sig from another provider: {'id': 1}", True),
        ("", False),  # an empty signature is gem.thought_sig's (missing)
    ],
)
def test_gemini_malformed_thought_signature(signature: str, flagged: bool) -> None:
    call = {"functionCall": {"name": "ls", "args": {}}, "thoughtSignature": signature}
    body = {
        "model": "gemini-3-pro-preview",
        "contents": [
            {"role": "user", "parts": [{"text": "list"}]},
            {"role": "model", "parts": [call]},
            {
                "role": "user",
                "parts": [{"functionResponse": {"name": "ls", "response": {"content": "a.py"}}}],
            },
        ],
    }
    got = [(r, s, p, t) for r, s, p, t in found(body, "gemini") if r == "gem.thought_sig_invalid"]
    assert got == (
        [("gem.thought_sig_invalid", "warning", "contents[1].parts[0]", "Corrupted thought signature.")]
        if flagged
        else []
    )
    assert [
        r for r, *_ in found({**body, "model": "gemini-2.5-pro"}, "gemini")
    ] == []  # not validated before 3


def test_the_new_rules_are_registered_with_their_severity() -> None:
    expected = {
        ("openai-responses", "resp.role_tool"): "error",
        ("openai-responses", "resp.item_not_persisted"): "warning",
        ("gemini", "gem.fc_fr_mixed"): "error",
        ("gemini", "gem.thought_sig_invalid"): "warning",
        ("anthropic", "ant.prefill_unsupported"): "error",
        ("anthropic", "ant.server_tool_as_tool_use"): "error",
        ("anthropic", "ant.thinking_immutable"): "warning",
        ("bedrock", "brk.tool_use_name"): "error",
        ("bedrock", "brk.prefill_tools"): "error",
        ("bedrock", "brk.prefill_unsupported"): "error",
        ("openai-chat", "oai.system_role_unsupported"): "error",
        ("openai-chat", "oai.function_name_missing"): "error",
        ("openai-chat", "oai.user_tool_calls"): "warning",
        ("openai-chat", "oai.call_type_missing"): "warning",
        ("openai-chat", "ds.alternate"): "warning",
        ("openai-chat", "oai.image_outside_user"): "warning",
        ("openai-chat", "pplx.alternate"): "error",
    }
    assert {key: provider_for(key[0]).rule(key[1]).severity for key in expected} == expected
