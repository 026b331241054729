"""The switch what-if (`toolhist.switch`): seed 000's "switch, then back to Anthropic", provenance of tokens."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from builders import ai, call, human, result, session, tool
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.errors import UsageError
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock
from toolhist.switch import hand_over, one_leg, switch
from toolhist.switch.foreign import foreign_tokens
from toolhist.switch.made_by import Token, as_made_by, ledger, mint

ROOT = Path(__file__).parent.parent.parent
SAMPLE = ROOT / "sample_logs" / "switch_back_thinking.json"
OURS = ["none", "toolhist", "llxprt-v864", "vercel-ai"]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolhist", *args], capture_output=True, text=True, cwd=ROOT, check=False
    )


def test_seed_000_switch_then_back_to_anthropic_shows_the_400_and_the_strategy_that_avoids_it() -> None:
    """Sonnet with thinking on (llxprt's sonnetthinking profile), a tool round made on Gemini, back to Claude.

    The tool round still open when the session returns was made on Gemini: its assistant message has
    no Anthropic thinking block, so with thinking on Anthropic answers ant.thinking_first. The
    toolhist strategy sends that request without thinking (the repair the error text names); the AI
    SDK port sends Gemini's thought as an Anthropic thinking block, and its signature is Gemini's.
    """
    report = switch(
        toolhist.load(SAMPLE),
        5,
        "gemini",
        back_to="anthropic",
        back_at=7,
        to_model="gemini-3-pro-preview",
        strategies=OURS,
    )
    there, back = report.legs
    assert report.origin == "anthropic"
    assert (there.kind, there.provider, there.at, there.made) == (
        "switch",
        "gemini",
        5,
        (("anthropic", 0, 4),),
    )
    assert there.avoiding() == OURS
    assert (back.kind, back.provider, back.at) == ("return", "anthropic", 7)
    assert back.made == (("anthropic", 0, 4), ("gemini", 5, 6))
    verdicts = {name: s.errors for name, s in back.strategies.items()}
    assert verdicts == {
        "none": {"ant.thinking_first": 1},
        "toolhist": {},
        "llxprt-v864": {"ant.thinking_first": 1},
        "vercel-ai": {"ant.thinking_signature": 1},
    }
    assert back.avoiding() == ["toolhist"]
    (foreign,) = back.strategies["vercel-ai"].foreign
    assert (foreign.path, foreign.kind, foreign.made_by, foreign.message, foreign.verdict) == (
        "messages.5.content.0.signature",
        "thought_signature",
        "gemini",
        5,
        "rejected",
    )
    assert foreign.error_text == "messages.5.content.0: Invalid `signature` in `thinking` block"
    assert back.strategies["toolhist"].body is not None
    assert "thinking" not in back.strategies["toolhist"].body


def test_back_at_the_end_closes_the_round_and_only_the_foreign_signature_is_a_400() -> None:
    report = switch(toolhist.load(SAMPLE), 5, "gemini", back_to="anthropic", strategies=OURS)
    back = report.legs[1]
    assert back.at == 9
    assert {n: s.errors for n, s in back.strategies.items()} == {
        "none": {},
        "toolhist": {},
        "llxprt-v864": {},
        "vercel-ai": {"ant.thinking_signature": 2},
    }


def test_one_strategy_s_hand_over_alone_is_the_switch_s() -> None:
    """What the Switch page downloads: one body made again, on either leg, as the whole what-if made it."""
    session = toolhist.load(SAMPLE)
    settings = {"back_to": "anthropic", "back_at": 7, "to_model": "gemini-3-pro-preview"}
    report = switch(session, 5, "gemini", strategies=OURS, **settings)  # type: ignore[arg-type]
    for n, leg in enumerate(report.legs):
        for name, expected in leg.strategies.items():
            alone = hand_over(session, 5, "gemini", name, leg=n, **settings)  # type: ignore[arg-type]
            assert alone.to_json() == expected.to_json()
    with pytest.raises(UsageError, match="leg 1"):
        hand_over(session, 5, "gemini", "none", leg=1)


@pytest.mark.parametrize(
    "path",
    [
        SAMPLE,
        ROOT / "tests" / "corpus" / "logs" / "codex" / "simonw-sample-codex-session.jsonl",
        ROOT
        / "tests"
        / "corpus"
        / "logs"
        / "claude-code"
        / "claude-code-log-sidechain-integrated.fixture.jsonl",
    ],
    ids=lambda p: p.name,
)
def test_each_leg_alone_is_the_switch_s_and_legs_done_elsewhere_are_taken_as_they_are(path: Path) -> None:
    """The Switch page computes the return in a second process (`one_leg`) and hands it to `switch`."""
    session = toolhist.load(path)
    at = max(1, len(session.messages) // 2)
    settings = {"back_to": "anthropic", "to_model": "gemini-3-pro-preview"}
    whole = switch(session, at, "gemini", strategies=OURS, **settings)  # type: ignore[arg-type]
    alone = [one_leg(session, at, "gemini", leg=n, strategies=OURS, **settings) for n in (0, 1)]  # type: ignore[arg-type]
    assert [leg.to_json() for leg in alone] == [leg.to_json() for leg in whole.legs]
    for done in ({0: alone[0]}, {1: alone[1]}, {0: alone[0], 1: alone[1]}):
        assembled = switch(session, at, "gemini", strategies=OURS, done=done, **settings)  # type: ignore[arg-type]
        assert assembled.to_json() == whole.to_json()
        assert all(assembled.legs[n] is leg for n, leg in done.items())  # taken, not computed again
    with pytest.raises(UsageError, match="leg 1"):
        one_leg(session, at, "gemini", leg=1)


def test_the_return_s_ledger_goes_on_from_the_switch_s() -> None:
    messages, _ = as_made_by(toolhist.load(SAMPLE).messages, 5, "gemini")
    makers = ["anthropic"] * 5 + ["gemini"] * (len(messages) - 5)
    whole = ledger(messages, makers)
    assert ledger(messages, makers, known=ledger(messages[:5], makers[:5]), start=5) == whole
    assert {t.made_by for t in whole.values()} == {"anthropic", "gemini"}


def test_messages_after_the_switch_are_made_by_the_provider_switched_to() -> None:
    messages = toolhist.load(SAMPLE).messages
    made, ids = as_made_by(messages, 5, "mistral")
    assert made[:5] == messages[:5]
    (new_call,) = made[5].tool_calls()
    assert re.fullmatch(r"[a-zA-Z0-9]{9}", new_call.id)
    assert ids == {"toolu_01Ps4XcDq8VnL2wR7yTb3mKa": new_call.id}
    (answer,) = made[6].tool_responses()
    assert (answer.call_id, answer.raw_call_id) == (new_call.id, new_call.id)
    assert [type(b).__name__ for b in made[5].blocks] == ["ThinkingBlock", "ToolCallBlock"]
    thought = made[5].blocks[0]
    assert isinstance(thought, ThinkingBlock)
    assert (thought.source_provider, thought.signature, thought.provider_data) == (
        "openai-chat",
        None,
        {"field": "reasoning_content"},
    )
    assert made[5].metadata.provider == "mistral"


def test_minted_ids_match_each_provider_s_own_pattern() -> None:
    assert re.fullmatch(r"toolu_01[a-zA-Z0-9]{22}", mint("s", "anthropic", "call_id"))
    assert re.fullmatch(r"tooluse_[a-zA-Z0-9]{22}", mint("s", "bedrock", "call_id"))
    assert re.fullmatch(r"call_[a-zA-Z0-9]{24}", mint("s", "openai-chat", "call_id"))
    assert re.fullmatch(r"functions\.grep:\d", mint("s", "kimi", "call_id", "grep"))
    assert mint("s", "anthropic", "call_id") == mint("s", "anthropic", "call_id")
    assert mint("s", "anthropic", "call_id") != mint("t", "anthropic", "call_id")


@settings(max_examples=60, deadline=None)
@given(
    provider=st.sampled_from(
        ["anthropic", "bedrock", "gemini", "openai-responses", "openai-chat", "mistral", "kimi"]
    ),
    rounds=st.integers(min_value=1, max_value=4),
    start=st.integers(min_value=0, max_value=12),
)
def test_made_by_keeps_texts_and_arguments_and_every_result_follows_its_call(
    provider: str, rounds: int, start: int
) -> None:
    messages = [human("go")]
    for n in range(rounds):
        messages += [
            ai(f"step {n}", call(f"c{n}", path=f"f{n}")),
            tool(result(f"c{n}", f"r{n}")),
            human("next"),
        ]
    start = min(start, len(messages))
    made, ids = as_made_by(messages, start, provider)
    assert len(made) == len(messages)
    calls = {c.id for m in made for c in m.tool_calls()}
    for before, after in zip(messages, made, strict=True):
        assert [b.text for b in after.blocks if isinstance(b, TextBlock)] == [
            b.text for b in before.blocks if isinstance(b, TextBlock)
        ]
        assert [c.parameters for c in after.tool_calls()] == [c.parameters for c in before.tool_calls()]
        assert all(r.call_id in calls for r in after.tool_responses())
    assert set(ids) == {c.id for m in messages[start:] for c in m.tool_calls()}


def test_a_gateway_carrier_holding_another_provider_s_signature_is_found_by_value() -> None:
    """OpenRouter's reasoning_details, Copilot's reasoning_opaque: the token is looked up wherever it is."""
    gem = Token("CiQBgemini", "thought_signature", "gemini", 3)
    own = Token("EuClaude", "signature", "anthropic", 1)
    tokens = {t.value: t for t in (gem, own)}
    body = {
        "messages": [
            {
                "role": "assistant",
                "reasoning_details": [{"type": "reasoning.text", "signature": "CiQBgemini"}],
            },
            {"role": "assistant", "reasoning_opaque": "EuClaude"},
        ]
    }
    (found,) = foreign_tokens(body, "anthropic", tokens)
    assert (found.path, found.made_by, found.verdict, found.rule) == (
        "messages.0.reasoning_details.0.signature",
        "gemini",
        "rejected",
        "ant.thinking_signature",
    )
    (chat,) = foreign_tokens(body, "openai-chat", tokens)[:1]
    assert chat.verdict == "unverified"
    (bedrock,) = [f for f in foreign_tokens(body, "bedrock", tokens) if f.made_by == "anthropic"]
    assert bedrock.verdict == "unverified"  # both serve Claude: undocumented, not a predicted 400


def test_responses_encrypted_reasoning_made_elsewhere_is_the_encrypted_content_400() -> None:
    tokens = {"gAAAAAx": Token("gAAAAAx", "encrypted_content", "openai-responses", 2)}
    body = {"input": [{"type": "reasoning", "encrypted_content": "gAAAAAx", "summary": []}]}
    assert foreign_tokens(body, "openai-responses", tokens) == []
    moved = {"gAAAAAx": Token("gAAAAAx", "encrypted_content", "anthropic", 2)}
    (found,) = foreign_tokens(body, "openai-responses", moved)
    assert (found.rule, found.error_text) == (
        "resp.encrypted_foreign",
        "The encrypted content gAAAAAx could not be verified.",
    )


_KEYS = st.sampled_from(["signature", "thoughtSignature", "data", "content", "parts", "x"])
_VALUES = st.sampled_from(["CiQBgem", "EuAnt", "gAAAAAr", "plain", ""])
_BODIES = st.recursive(
    st.one_of(_VALUES, st.integers(0, 3), st.none()),
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(_KEYS, inner, max_size=4)),
    max_leaves=30,
)


def _plain_walk(value: object, path: tuple[str | int, ...] = ()) -> list[tuple[tuple[str | int, ...], str]]:
    """The walk as first written: every carrier key holding a string, in the body's order."""
    found: list[tuple[tuple[str | int, ...], str]] = []
    if isinstance(value, dict):
        for key, inner in value.items():
            if key in ("signature", "thoughtSignature", "data") and isinstance(inner, str):
                found.append(((*path, key), inner))
            else:
                found.extend(_plain_walk(inner, (*path, key)))
    elif isinstance(value, list):
        for n, inner in enumerate(value):
            found.extend(_plain_walk(inner, (*path, n)))
    return found


@settings(max_examples=300, deadline=None)
@given(body=_BODIES, target=st.sampled_from(["anthropic", "gemini", "openai-responses", "openai-chat"]))
def test_foreign_tokens_are_every_carrier_the_plain_walk_finds(body: object, target: str) -> None:
    """The walk recurses into containers only and skips bodies whose ledger holds no foreign token:
    the findings, their paths and their order stay those of a walk over every value."""
    tokens = {
        "CiQBgem": Token("CiQBgem", "thought_signature", "gemini", 1),
        "EuAnt": Token("EuAnt", "signature", "anthropic", 2),
        "gAAAAAr": Token("gAAAAAr", "call_id", "openai-responses", 3),
    }
    wrapped = {"messages": body}
    expected = [
        (".".join(str(p) for p in path), tokens[value].message)
        for path, value in _plain_walk(wrapped)
        if value in tokens and tokens[value].kind != "call_id" and tokens[value].made_by != target
    ]
    found = foreign_tokens(wrapped, target, tokens)
    assert [(f.path, f.message) for f in found] == expected
    own_only = {v: t for v, t in tokens.items() if t.made_by == target or t.kind == "call_id"}
    assert foreign_tokens(wrapped, target, own_only) == []


def test_ledger_keeps_each_value_s_first_maker() -> None:
    messages = [human("x"), ai(call("toolu_1")), tool(result("toolu_1")), ai(call("toolu_1"))]
    found = ledger(messages, ["anthropic", "anthropic", "gemini", "gemini"])
    assert found["toolu_1"].made_by == "anthropic"
    assert found["toolu_1"].kind == "call_id"


def test_an_unknown_origin_is_the_provider_returned_to() -> None:
    plain = session(human("hi"), ai(call("a1")), tool(result("a1")), ai("done"), human("more"))
    report = switch(plain, 3, "openai-chat", back_to="anthropic", strategies=["none"])
    assert (report.origin, report.origin_evidence) == (
        "anthropic",
        "the provider the session returns to (the session does not say)",
    )
    only = switch(plain, 3, "openai-chat", strategies=["none"])
    assert only.origin == "unknown"
    assert only.legs[0].made == (("unknown", 0, 2),)


def test_cli_prints_each_leg_and_exits_0() -> None:
    out = run(
        "switch", str(SAMPLE), "--at", "5", "--to", "gemini", "--back-to", "anthropic", "--at", "7",
        "--strategy", "none", "--strategy", "toolhist",
    )  # fmt: skip
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[2] == "switch to gemini at message 5: messages 0-4 anthropic"
    assert "back to anthropic at message 7: messages 0-4 anthropic, 5-6 gemini" in lines
    assert any(line.strip().startswith("none") and "400 ant.thinking_first" in line for line in lines)
    assert lines[-1] == "  accepted by: toolhist"


def test_cli_json_carries_bodies_and_verdicts() -> None:
    out = run("switch", str(SAMPLE), "--at", "5", "--to", "openai-chat", "--strategy", "none", "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [leg["kind"] for leg in data["legs"]] == ["switch"]
    none = data["legs"][0]["strategies"]["none"]
    assert none["verdict"] == "accepted"
    assert none["body"]["messages"][0] == {
        "role": "user",
        "content": "Read package.json and tell me the test command.",
    }


def test_cli_bad_arguments_are_one_line_and_exit_2() -> None:
    for args, text in (
        (["--at", "0", "--to", "gemini"], "--at 0: the switch must come after message 0"),
        (
            ["--at", "5", "--to", "gemini", "--back-to", "anthropic", "--at", "4"],
            "--at 4: the return must come after the switch (5)",
        ),
        (["--at", "5", "--to", "gemini", "--at", "7"], "a second --at needs --back-to"),
        (["--at", "5", "--to", "nope"], "unknown provider 'nope'"),
    ):
        out = run("switch", str(SAMPLE), *args)
        assert out.returncode == 2
        assert out.stdout == ""
        assert len(out.stderr.splitlines()) == 1
        assert text in out.stderr


def test_call_blocks_made_by_b_keep_b_fields_out_of_a_s_body() -> None:
    """A B-made call's thought signature or item id is B's field: A's renderer must not send it as its own."""
    made, _ = as_made_by(toolhist.load(SAMPLE).messages, 5, "openai-responses")
    (new_call,) = made[5].tool_calls()
    assert isinstance(new_call, ToolCallBlock)
    assert set(new_call.provider_data) == {"_id"}
    back = switch(toolhist.load(SAMPLE), 5, "openai-responses", back_to="anthropic", strategies=["none"])
    body = back.legs[1].strategies["none"].body
    assert body is not None
    assert body["messages"][5]["content"] == [
        {"type": "tool_use", "id": new_call.id, "name": "run_shell_command", "input": {"command": "npm test"}}
    ]
    assert isinstance(made[6].blocks[0], ToolResponseBlock)


def test_a_strategy_that_edits_the_prefix_of_anthropic_thinking_is_named_for_the_models_that_check_it() -> (
    None
):
    """Claude Fable 5.1 and Opus 5.5 check a replayed thinking block's prefix (preserved-thinking docs)."""
    sample = toolhist.load(SAMPLE)
    checked = switch(
        sample,
        5,
        "gemini",
        back_to="anthropic",
        back_model="claude-opus-5-5",
        strategies=["none", "toolhist", "canonical"],
    )
    back = checked.legs[1]
    assert back.strategies["none"].rebound is None
    # toolhist changes nothing Anthropic takes (issue 24), so the prefix goes back as it was;
    # canonical's full normalisation rewrites messages.1 and is named
    assert back.strategies["toolhist"].rebound is None
    rebound = back.strategies["canonical"].rebound
    assert rebound is not None
    assert (rebound.path, rebound.changed) == ("messages.3.content.0", "messages.1")
    assert rebound.error_text.startswith(
        "messages.3.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation."
    )
    assert toolhist.explain(rebound.error_text).rule == "ant.thinking_signature"
    older = switch(sample, 5, "gemini", back_to="anthropic", strategies=["canonical"])  # claude-sonnet-4-5
    assert older.legs[1].strategies["canonical"].rebound is None


def test_a_gateway_carrier_in_the_session_is_in_the_ledger_and_followed_across_the_switch() -> None:
    """An OpenRouter chat body: Claude's signature rides in reasoning_details on the assistant message."""
    body = {
        "model": "anthropic/claude-sonnet-4.5",
        "messages": [
            {"role": "user", "content": "list the files"},
            {
                "role": "assistant",
                "content": None,
                "reasoning_details": [{"type": "reasoning.text", "text": "plan", "signature": "EuRouterSig"}],
                "tool_calls": [
                    {"id": "toolu_01A", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "toolu_01A", "content": "a.txt"},
            {"role": "user", "content": "thanks"},
        ],
    }
    report = switch(toolhist.load(body), 4, "openai-chat", origin="anthropic", strategies=["none"])
    (found,) = report.legs[0].strategies["none"].foreign
    assert (found.path, found.made_by, found.verdict) == (
        "messages.1.reasoning_details.0.signature",
        "anthropic",
        "unverified",
    )


def test_the_origin_of_an_agent_log_names_the_field_that_says_so() -> None:
    """One parenthesis, as the Switch page writes it: "made on X (the log ran on it, per FIELD)"."""
    rollout = toolhist.load(
        ROOT / "tests" / "corpus" / "logs" / "codex" / "simonw-sample-codex-session.jsonl"
    )
    report = switch(rollout, 1, "openai-chat", strategies=["none"])
    assert (report.origin, report.origin_evidence) == (
        "openai-responses",
        "the log ran on it, per session_meta.model_provider",
    )
