"""Continue sessions read as constructMessages sends them (toolhist/agents/continuedev/reader.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.agents.continuedev.reader import CANCELLED, ERRORED, NO_OUTPUT
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock
from toolhist.ran_on import ran_on


def session(*history: dict[str, Any]) -> bytes:
    value = {"sessionId": "s", "title": "t", "workspaceDirectory": "file:///w", "history": list(history)}
    return json.dumps(value).encode()


def item(role: str, content: Any, **extra: Any) -> dict[str, Any]:
    return {
        "message": {"role": role, "content": content, **extra.pop("message", {})},
        "contextItems": [],
        **extra,
    }


def call(cid: str, name: str = "search") -> dict[str, Any]:
    return {"id": cid, "type": "function", "function": {"name": name, "arguments": '{"q": 1}'}}


def state(
    cid: str, status: str, output: list[dict[str, Any]] | None = None, name: str = "search"
) -> dict[str, Any]:
    found = {"toolCallId": cid, "toolCall": call(cid, name), "status": status, "parsedArgs": {}}
    return {**found, "output": output} if output is not None else found


def test_the_newest_summary_cuts_the_history_into_the_system_message() -> None:
    read = toolhist.load(
        session(
            item("user", "old"),
            item("assistant", "old answer", conversationSummary="We talked about X."),
            item("user", "new"),
        )
    )
    assert [(m.speaker, m.blocks[0].text) for m in read.messages] == [  # type: ignore[union-attr]
        ("system", "Previous conversation summary:\n\n We talked about X."),
        ("human", "new"),
    ]
    assert [(u.kind, u.text) for u in read.unsent] == [
        ("summarized item", "old"),
        ("summarized item", "old answer"),
    ]


def test_each_tool_state_is_one_tool_message_with_continues_own_text() -> None:
    terminal = [
        {"content": "3 passed", "name": "Terminal", "status": "exit 0"},
        {"content": "done", "name": "x"},
    ]
    read = toolhist.load(
        session(
            item("user", "go"),
            item(
                "assistant",
                "",
                message={"toolCalls": [call("a"), call("b"), call("c"), call("d", "run_terminal_command")]},
                toolCallStates=[
                    state("a", "canceled", [{"content": "ignored"}]),
                    state("b", "errored"),
                    state("c", "generated"),
                    state("d", "done", terminal, name="run_terminal_command"),
                ],
            ),
        )
    )
    results = [m.blocks[0] for m in read.messages if m.speaker == "tool"]
    assert all(isinstance(r, ToolResponseBlock) for r in results)
    assert [r.result for r in results] == [  # type: ignore[union-attr]
        CANCELLED,
        ERRORED,
        NO_OUTPUT,
        "3 passed\n[Status: exit 0]\n\ndone",
    ]
    calls = [b for b in read.messages[1].blocks if isinstance(b, ToolCallBlock)]
    assert [c.id for c in calls] == ["a", "b", "c", "d"]
    assert calls[0].parameters == {"q": 1}


def test_thinking_goes_into_the_next_answer_and_context_items_before_the_prompt() -> None:
    context = [
        {"content": "file body", "name": "f", "description": "d", "id": {"providerTitle": "p", "itemId": "i"}}
    ]
    read = toolhist.load(
        session(
            {**item("user", "explain"), "contextItems": context},
            item("thinking", "hmm", message={"signature": "sig"}),
            item("assistant", "because"),
        )
    )
    assert [b.text for b in read.messages[0].blocks if isinstance(b, TextBlock)] == ["file body\n", "explain"]
    thinking, text = read.messages[1].blocks
    assert thinking == ThinkingBlock(text="hmm", signature="sig", source_provider="continue")
    assert text == TextBlock(text="because")


def test_the_prompt_logs_provider_says_where_it_ran() -> None:
    logs = [{"modelTitle": "Claude", "modelProvider": "anthropic", "prompt": "", "completion": ""}]
    read = toolhist.load(session(item("user", "q"), item("assistant", "a", promptLogs=logs)))
    ran = ran_on(read)
    assert ran is not None
    assert (ran.provider, ran.model) == ("anthropic", "Claude")


def test_a_malformed_field_names_its_path(tmp_path: Path) -> None:
    path = tmp_path / "s.json"
    path.write_bytes(session(item("user", [{"type": "text", "text": 3}])))
    with pytest.raises(LoadError) as caught:
        toolhist.load(path)
    assert str(caught.value) == (
        f"{path}:1:147: at history[0].message.content[0].text: not a valid continue session: "
        "expected a string, got number"
    )
