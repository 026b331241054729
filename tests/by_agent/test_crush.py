"""Crush's ``crush.db`` read as ``preparePrompt`` sends it (toolhist/agents/crush/reader.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import toolhist
from toolhist.agents.crush.reader import INTERRUPTED, REMINDER
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs" / "crush" / "crush-migrations.fixture.db"
NEWEST = "0a1b2c3d-4e5f-4a6b-9c8d-7e6f5a4b3c2d"
OLDER = "6f1e2d3c-4b5a-4978-8a6b-5c4d3e2f1a0b"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "crush.db"
    shutil.copyfile(CORPUS, path)
    return path


def test_the_newest_session_as_crush_sends_it() -> None:
    session = toolhist.load(CORPUS)
    first, user, answer, synthetic, last = session.messages
    assert first.blocks == (TextBlock(text=REMINDER),)
    assert first.metadata.synthetic
    assert user.blocks == (
        TextBlock(
            text="The ci job fails sometimes, have a look.\n\n$ go test ./internal/app/...\n--- FAIL: TestRace (0.02s)\nFAIL\n(exit code 1)"
        ),
    )
    call = answer.blocks[1]
    assert isinstance(call, ToolCallBlock)
    assert (call.name, call.parameters, call.raw_arguments) == (
        "bash",
        {"command": "go test -race ./internal/app/..."},
        '{"command":"go test -race ./internal/app/..."}',
    )
    result = synthetic.blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert result.call_id == call.id
    assert result.error == INTERRUPTED
    assert last.speaker == "human"
    assert [u.kind for u in session.unsent] == ["cancelled assistant message", "orphaned tool result"]
    assert (answer.metadata.provider, answer.metadata.model) == ("openai", "gpt-5.2")


def test_text_comes_before_reasoning_and_is_trimmed() -> None:
    session = toolhist.load(f"{CORPUS}#{OLDER}")
    assert [b.type for b in session.messages[2].blocks] == ["text", "thinking", "tool_call"]
    assert session.messages[2].blocks[0] == TextBlock(text="Let me search for it.")


def test_a_summary_starts_the_history_as_a_user_message_and_subagents_get_no_reminder(store: Path) -> None:
    conn = sqlite3.connect(store)
    conn.execute(
        "UPDATE sessions SET summary_message_id = 'a2', parent_session_id = 'x' WHERE id = ?", (OLDER,)
    )
    conn.commit()
    conn.close()
    session = toolhist.load(f"{store}#{OLDER}")
    # the summary (an assistant row) is sent as the first user message; its calls are then no one's,
    # so their result is dropped as Crush drops an orphan
    assert [(m.speaker, m.metadata.source_role) for m in session.messages] == [
        ("human", "assistant"),
        ("ai", "assistant"),
    ]
    assert session.messages[0].blocks == (TextBlock(text="Let me search for it."),)
    assert [u.kind for u in session.unsent] == ["summarised", "orphaned tool result"]


def test_a_bad_parts_column_is_one_line(store: Path) -> None:
    conn = sqlite3.connect(store)
    conn.execute(
        'UPDATE messages SET parts = \'[{"type": "tool_call", "data": {"id": 3}}]\' WHERE id = \'a2\''
    )
    conn.commit()
    conn.close()
    with pytest.raises(LoadError) as caught:
        toolhist.load(f"{store}#{OLDER}")
    assert str(caught.value) == (
        f"{store}#{OLDER}: at messages[a2].parts[0].data.id: not a valid crush session: expected a string, got number"
    )
    conn = sqlite3.connect(store)
    conn.execute(
        "UPDATE messages SET parts = ? WHERE id = 'a2'", (json.dumps([{"type": "hologram", "data": {}}]),)
    )
    conn.commit()
    conn.close()
    session = toolhist.load(f"{store}#{OLDER}")
    assert session.source.skipped == {"part type 'hologram'": 1}
