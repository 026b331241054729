"""The ``kimi-cli`` reader: context.jsonl records, normalize_history, the Kimi converter, wire.jsonl named."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.agents.kimi_cli.reader import looks_kimi
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock
from toolhist.ran_on import ran_on


def load(*records: dict[str, Any]) -> toolhist.Session:
    return toolhist.load("".join(json.dumps(r) + "\n" for r in records))


CALL = {
    "type": "function",
    "id": "functions.Shell:0",
    "function": {"name": "Shell", "arguments": '{"command":"ls"}'},
}


def test_context_records_are_the_messages_kimi_sends() -> None:
    s = load(
        {"role": "_system_prompt", "content": "Be brief."},
        {"role": "_checkpoint", "id": 0},
        {"role": "user", "content": "list"},
        {
            "role": "assistant",
            "content": [{"type": "think", "think": "ls it", "encrypted": None}],
            "tool_calls": [CALL],
        },
        {"role": "tool", "content": "<system>ERROR: no shell</system>", "tool_call_id": "functions.Shell:0"},
        {"role": "_usage", "token_count": 99},
    )
    assert s.source.format == "kimi-cli"
    assert [m.speaker for m in s.messages] == ["system", "human", "ai", "tool"]
    assert s.messages[2].blocks == (
        ThinkingBlock(
            text="ls it", source_provider="openai-chat", provider_data={"field": "reasoning_content"}
        ),
        ToolCallBlock(
            id="functions.Shell:0",
            name="Shell",
            parameters={"command": "ls"},
            raw_id="functions.Shell:0",
            raw_arguments='{"command":"ls"}',
            provider_data={"type": "function"},
        ),
    )
    result = s.messages[3].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert result.error == "<system>ERROR: no shell</system>"
    assert s.metadata == {"checkpoints": 1, "token_count": 99}
    body: Any = toolhist.render(s, "kimi").body
    # Kimi omits an empty visible content beside calls; toolhist's Chat render writes it as null
    assert body["messages"][2]["content"] is None
    assert body["messages"][2]["reasoning_content"] == "ls it"
    ran = ran_on(s)
    assert ran is not None
    assert (ran.named, ran.provider) == ("kimi", "kimi")


def test_adjacent_user_messages_are_merged_but_notifications_are_not() -> None:
    s = load(
        {"role": "_checkpoint", "id": 0},
        {"role": "user", "content": "one"},
        {"role": "user", "content": [{"type": "text", "text": "two"}]},
        {"role": "user", "content": '<notification id="n1">done</notification>'},
        {"role": "assistant", "content": "ok"},
    )
    assert [[b.text for b in m.blocks if isinstance(b, TextBlock)] for m in s.messages] == [
        ["one", "two"],
        ['<notification id="n1">done</notification>'],
        ["ok"],
    ]
    assert (
        "1 user message(s) merged into the one before, as Kimi CLI's normalize_history does" in s.source.notes
    )


def test_lines_kimi_cannot_validate_are_skipped_and_named() -> None:
    s = load(
        {"role": "_usage", "token_count": 1},
        {"role": "user", "content": [{"type": "hologram"}]},
        {"role": "_future", "x": 1},
        {"role": "assistant", "content": "fine"},
    )
    assert [m.speaker for m in s.messages] == ["ai"]
    assert s.source.skipped == {
        "invalid message (content part type 'hologram')": 1,
        "record role '_future'": 1,
    }
    assert not ran_on(s)


def test_a_plain_chat_list_is_not_claimed() -> None:
    plain = [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]
    assert looks_kimi(plain) == 0
    assert looks_kimi([{"role": "_usage", "token_count": 1}, *plain]) == 2


def test_wire_jsonl_is_named_with_the_file_to_open(tmp_path: Path) -> None:
    wire = tmp_path / "wire.jsonl"
    lines = [
        {"type": "metadata", "protocol_version": "1.9"},
        {"timestamp": 1.0, "message": {"type": "TurnBegin", "payload": {}}},
    ]
    wire.write_text("".join(json.dumps(v) + "\n" for v in lines))
    with pytest.raises(LoadError) as info:
        toolhist.load(wire)
    assert str(info.value) == (
        f"{wire}: not a conversation history: this is Kimi CLI's wire.jsonl (the Wire event log it replays "
        "on screen, not what it sends); open context.jsonl in the same session folder"
    )


def test_a_line_that_is_not_an_object_is_skipped_as_kimi_skips_it() -> None:
    text = '{"role": "_usage", "token_count": 1}\n[42]\n{"role": "assistant", "content": "fine"}\n'
    s = toolhist.load(text, format="kimi-cli")  # detection wants objects; the reader skips as Kimi does
    assert [m.speaker for m in s.messages] == ["ai"]
    assert s.source.skipped == {"line that is not an object": 1}


def test_nothing_kimi_would_restore_is_one_line_naming_what_was_skipped(tmp_path: Path) -> None:
    f = tmp_path / "context.jsonl"
    f.write_text('{"role": "_future"}\n{"role": []}\n')
    with pytest.raises(LoadError) as info:
        toolhist.load(f, format="kimi-cli")
    assert str(info.value) == (
        f"{f}: at role: not a valid kimi-cli log: no Kimi CLI context record (role _system_prompt, "
        "user, assistant…); skipped 2 record(s) this reader does not know: record role '_future' x1 "
        "(first on line 1), record whose role is not a string x1 (first on line 2)"
    )
