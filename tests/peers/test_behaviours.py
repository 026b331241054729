"""What the real libraries do to small histories, exactly: the behaviours issue 18 measured the old
ports missing, now read off the libraries' own request bodies (Changes and curated history)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from builders import ai, call, human, result, session, tool
from peers_env import peers_env  # noqa: F401  # the session fixture

from toolhist.curation import Curation, curate
from toolhist.errors import UsageError
from toolhist.model import Message, TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock
from toolhist.peers import run
from toolhist.peers.env import PeersMissing, env_dir
from toolhist.peers.strategies import job
from toolhist.providers import render
from toolhist.readers import load

LITELLM = "litellm 1.106.2"
AGENTS = "openai-agents 0.24.0"

pytestmark = pytest.mark.usefixtures("peers_env")


def system(text: str) -> Message:
    return Message(speaker="system", blocks=(TextBlock(text=text),))


def shape(curation: Curation) -> list[tuple[str, list[str]]]:
    out: list[tuple[str, list[str]]] = []
    for message in curation.session.messages:
        blocks = []
        for block in message.blocks:
            if isinstance(block, TextBlock):
                blocks.append(f"text:{block.text}")
            elif isinstance(block, ToolCallBlock):
                blocks.append(f"call:{block.id}")
            elif isinstance(block, ToolResponseBlock):
                blocks.append(f"result:{block.call_id}")
            elif isinstance(block, ThinkingBlock):
                blocks.append("thinking")
            else:
                blocks.append(block.type)
        out.append((message.speaker, blocks))
    return out


def changes(curation: Curation) -> list[tuple[Any, ...]]:
    def at(p: Any) -> Any:
        return None if p is None else (p.message, p.block)

    return [(c.pass_, c.action, c.call_id, at(c.before), at(c.after)) for c in curation.changes]


def test_litellm_merges_consecutive_user_turns_for_anthropic() -> None:
    c = curate(session(human("a"), human("b"), ai("c")), "anthropic", strategy="litellm")
    assert c.library == LITELLM
    assert shape(c) == [("human", ["text:a", "text:b"]), ("ai", ["text:c"])]
    assert changes(c) == [("litellm", "merge", None, (1, None), (0, None))]


def test_litellm_rewrites_anthropic_ids_and_declares_a_dummy_tool() -> None:
    s = session(human("go"), ai(call("a|1.x")), tool(result("a|1.x")), ai("done"))
    c = curate(s, "anthropic", strategy="litellm")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["call:a_1_x"]),
        ("tool", ["result:a_1_x"]),
        ("ai", ["text:done"]),
    ]
    assert changes(c) == [
        ("litellm", "rewrite_id", "a|1.x", (1, 0), (1, 0)),
        ("litellm", "insert", None, None, None),
    ]
    assert c.changes[0].detail == {"old_id": "a|1.x", "new_id": "a_1_x"}
    assert c.changes[1].detail["tool"] == {
        "name": "dummy_tool",
        "description": "This is a dummy tool call",
        "parameters": {"type": "object", "properties": {}},
    }
    body: Any = render(s, "anthropic", strategy="litellm").body
    assert body["messages"][1]["content"] == [
        {"type": "tool_use", "id": "a_1_x", "name": "read_file", "input": {}}
    ]


def test_litellm_adds_a_placeholder_result_for_anthropic() -> None:
    s = session(human("go"), ai(call("a"), call("b", "grep")), tool(result("a")), human("next"))
    c = curate(s, "anthropic", strategy="litellm")
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["call:a", "call:b"]),
        ("tool", ["result:a", "result:b", "text:next"]),
    ]
    assert changes(c)[0] == ("litellm", "synthesize", "b", None, (2, 1))
    placeholder = c.session.messages[2].blocks[1]
    assert isinstance(placeholder, ToolResponseBlock)
    assert placeholder.result == (
        "[System: Tool execution skipped/interrupted by user. No result provided for tool 'grep'.]"
    )


def test_litellm_writes_calls_as_text_for_bedrock_without_tools() -> None:
    c = curate(
        session(human("go"), ai(call("a|1")), tool(result("a|1")), ai("done")), "bedrock", strategy="litellm"
    )
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["text:[tool call a|1: read_file({})]"]),
        ("human", ["text:[tool result for a|1: ok]"]),
        ("ai", ["text:done"]),
        ("human", ["text:Please continue."]),
    ]
    assert [(a, b) for _, a, *_, b in changes(c)] == [
        ("rewrite", (1, 0)),
        ("rewrite", (2, 0)),
        ("insert", (4, 0)),
    ]
    assert "bedrock_neutralize_orphaned_tool_blocks" in c.changes[0].reason


def test_litellm_turns_a_mid_conversation_system_message_into_an_operator_note_for_anthropic() -> None:
    c = curate(session(human("go"), ai("x"), system("be brief"), human("y")), "anthropic", strategy="litellm")
    note = "Operator note (not from the user): the following was originally a mid-conversation system-role reminder."
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["text:x"]),
        ("human", [f"text:{note}", "text:be brief", "text:y"]),
    ]


def test_litellm_moves_a_mid_conversation_system_message_to_gemini_system_instruction() -> None:
    c = curate(session(human("go"), ai("x"), system("be brief"), human("y")), "gemini", strategy="litellm")
    assert shape(c)[0] == ("system", ["text:be brief"])
    assert changes(c) == [("litellm", "move", None, (2, 0), (0, 0))]
    assert render(c.session, "gemini").body["system_instruction"] == {"parts": [{"text": "be brief"}]}


def test_litellm_raises_on_a_gemini_result_with_no_call_and_sends_nothing() -> None:
    s = session(human("go"), tool(result("zz")), ai("done"))
    c = curate(s, "gemini", strategy="litellm")
    assert c.session == s
    assert changes(c) == [("litellm", "keep", None, None, None)]
    assert c.changes[0].detail["error"] == "APIConnectionError"
    assert "Missing corresponding tool call for tool response message" in str(
        c.changes[0].detail["error_text"]
    )


def test_agents_sdk_keeps_the_latest_of_duplicate_outputs() -> None:
    s = session(
        human("go"), ai(call("c1")), tool(result("c1", "first")), tool(result("c1", "second")), human("n")
    )
    c = curate(s, "openai-responses", strategy="openai-agents")
    assert c.library == AGENTS
    assert changes(c) == [("openai-agents", "conflict", "c1", (2, 0), None)]
    kept = c.session.messages[2].blocks[0]
    assert isinstance(kept, ToolResponseBlock)
    assert kept.result == "second"


def test_agents_sdk_drops_an_orphan_call_on_resume() -> None:
    c = curate(
        session(human("go"), ai(call("c1"), call("c2")), tool(result("c1")), human("n")),
        "openai-responses",
        strategy="openai-agents",
    )
    assert changes(c) == [("openai-agents", "drop", "c2", (1, 1), None)]


def test_agents_sdk_chat_adapter_sends_text_and_calls_as_separate_messages() -> None:
    c = curate(
        session(human("go"), ai("let me", call("c1")), tool(result("c1")), human("n")),
        "openai-chat",
        strategy="openai-agents",
    )
    assert shape(c) == [
        ("human", ["text:go"]),
        ("ai", ["text:let me"]),
        ("ai", ["call:c1"]),
        ("tool", ["result:c1"]),
        ("human", ["text:n"]),
    ]
    assert changes(c) == [("openai-agents", "split", None, (1, None), (1, None))]


def test_agents_sdk_reaches_anthropic_through_litellm() -> None:
    c = curate(
        session(human("go"), ai(call("c1")), tool(result("c1")), human("n")),
        "anthropic",
        strategy="openai-agents",
    )
    assert c.library == "openai-agents 0.24.0 via LitellmModel (litellm 1.106.2)"
    assert shape(c) == [("human", ["text:go"]), ("ai", ["call:c1"]), ("tool", ["result:c1", "text:n"])]


def test_a_request_litellm_cannot_make_is_kept_in_the_change() -> None:
    # Arguments that are not JSON: LiteLLM's Anthropic route refuses to build the request (it raises
    # before sending), so the history is kept as it was and the Change holds LiteLLM's own error.
    s = load(
        {
            "model": "gpt-4.1",
            "messages": [
                {"role": "user", "content": "run it"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {
                            "id": "call_1",
                            "type": "function",
                            "function": {"name": "shell", "arguments": "ls -la {not json"},
                        }
                    ],
                },
                {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
                {"role": "user", "content": "thanks"},
            ],
        }
    )
    c = curate(s, "anthropic", strategy="litellm")
    assert c.session == s
    assert [(x.pass_, x.action) for x in c.changes] == [("litellm", "keep")]
    detail: Any = c.changes[0].detail
    assert detail["error"] == "BadRequestError"
    assert "Failed to parse tool call arguments for tool 'shell'" in detail["error_text"]


def test_a_codex_freeform_call_reaches_litellm_as_an_object() -> None:
    # The Codex sample's apply_patch is freeform text: toolhist carries it as {"input": text} (issue 17),
    # so LiteLLM builds a valid Anthropic body from it and curates as usual.
    sample = Path(__file__).resolve().parents[2] / "sample_logs" / "codex_rollout_interrupted.jsonl"
    c = curate(load(sample), "anthropic", strategy="litellm")
    # No "synthesize": the interrupted call already has the "aborted" output Codex sends for it.
    assert [x.action for x in c.changes] == ["drop", "drop", "merge", "merge", "insert"]
    assert {x.pass_ for x in c.changes} == {"litellm"}


def test_an_unknown_route_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"^the 'litellm' strategy has no nope route$"):
        job("litellm", session(human("x")), "nope")


def test_without_the_environment_the_strategy_says_how_to_install_it(
    tmp_path: Path, monkeypatch: Any
) -> None:
    monkeypatch.setenv("TOOLHIST_PEERS_HOME", str(tmp_path))
    monkeypatch.setattr(run, "_WORKERS", {})
    expected = (
        f"the 'litellm' strategy runs the real litellm 1.106.2, which is not installed (looked in "
        f"{env_dir('litellm')}); run `toolhist peers install` (it makes a cached virtual environment with "
        "the pinned versions)"
    )
    with pytest.raises(PeersMissing) as raised:
        curate(session(human("x")), "anthropic", strategy="litellm")
    assert str(raised.value) == expected
    history = tmp_path / "chat.json"
    history.write_text(
        json.dumps(
            {
                "model": "gpt-4.1",
                "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "x"}],
            }
        )
    )
    cli = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolhist",
            "curate",
            str(history),
            "--provider",
            "anthropic",
            "--strategy",
            "litellm",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "TOOLHIST_PEERS_HOME": str(tmp_path)},
        check=False,
    )
    assert (cli.returncode, cli.stdout, cli.stderr) == (2, "", f"toolhist: error: {expected}\n")
    compared = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolhist",
            "compare",
            str(history),
            "--provider",
            "anthropic",
            "--strategy",
            "litellm",
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "TOOLHIST_PEERS_HOME": str(tmp_path)},
        check=False,
    )
    assert compared.returncode == 0
    # compare: a strategy whose library is not installed did not run (issue 24), and has no counts
    assert compared.stdout.splitlines()[-2:] == [
        "litellm   not run: litellm 1.106.2 is not installed; install it with `toolhist peers install`",
        "versions litellm: litellm 1.106.2 (the pin)",
    ]
