"""Cursor's state.vscdb and agent transcripts (toolhist/agents/cursor/)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import toolhist
from toolhist.agents.cursor.transcript import NOT_KEPT
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs"
STORE = CORPUS / "cursor" / "cursor-state-vscdb.fixture.db"
NEWEST = "98251e54-8aed-4515-b2b4-08895453eedd"
OLDER = "fbd30712-94fd-48d3-b674-ed162dbf56ab"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "state.vscdb"
    shutil.copyfile(STORE, path)
    return path


def test_the_bubbles_become_turns_in_header_order() -> None:
    session = toolhist.load(f"{STORE}#{NEWEST}")
    kinds = [(m.speaker, [type(b).__name__ for b in m.blocks]) for m in session.messages]
    assert kinds == [
        ("human", ["TextBlock"]),
        ("ai", ["ThinkingBlock", "TextBlock", "ToolCallBlock"]),
        ("tool", ["ToolResponseBlock"]),
        ("ai", ["ToolCallBlock"]),
        ("tool", ["ToolResponseBlock"]),
        ("ai", ["TextBlock"]),
    ]
    thinking, _, call = session.messages[1].blocks
    assert isinstance(thinking, ThinkingBlock)
    assert isinstance(call, ToolCallBlock)
    assert (call.id, call.name, call.parameters) == (
        "toolu_01PF2T6yfpMUiWfxwZ8ywghr",
        "read_file_v2",
        {"targetFile": "src/app.py"},
    )
    result = session.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert json.loads(str(result.result))["totalLinesInFile"] == 4
    assert [u.kind for u in session.unsent] == ["empty assistant bubble"]
    assert session.request == {"model": "claude-4.5-sonnet-thinking"}


def test_an_older_composer_with_inline_bubbles_reads_too() -> None:
    session = toolhist.load(f"{STORE}#{OLDER}")
    assert [(m.speaker, m.blocks) for m in session.messages] == [
        ("human", (TextBlock(text="What does PR10 change?"),)),
        ("ai", (TextBlock(text="It moves the retry loop into the client."),)),
    ]


def test_a_missing_bubble_row_is_kept_unsent_and_bad_json_names_the_row(store: Path) -> None:
    conn = sqlite3.connect(store)
    conn.execute(f"DELETE FROM cursorDiskKV WHERE key LIKE 'bubbleId:{NEWEST}:5c7d8e9f%'")
    conn.commit()
    session = toolhist.load(f"{store}#{NEWEST}")
    assert [u.kind for u in session.unsent] == ["missing bubble", "empty assistant bubble"]
    conn.execute(
        "UPDATE cursorDiskKV SET value = '{oops' WHERE key = ?",
        (f"bubbleId:{NEWEST}:6d8e9fa0-4d5e-4f60-9b72-a3c4d5e6f704",),
    )
    conn.commit()
    conn.close()
    with pytest.raises(LoadError) as caught:
        toolhist.load(f"{store}#{NEWEST}")
    assert str(caught.value).startswith(
        f"{store}#{NEWEST}: at cursorDiskKV[bubbleId:{NEWEST}:6d8e9fa0-4d5e-4f60-9b72-a3c4d5e6f704]: "
        "not a valid cursor session: not valid JSON"
    )


def test_the_store_given_as_bytes_reads_the_composer_asked_for(store: Path) -> None:
    from toolhist.readers import load_document

    _, session = load_document(store.read_bytes(), name="state.vscdb", session=OLDER)
    assert len(session.messages) == 2


def test_a_transcript_result_answers_its_call_and_a_missing_one_is_synthetic() -> None:
    lines = [
        {
            "role": "user",
            "message": {"content": [{"type": "text", "text": "<user_query>\nls\n</user_query>"}]},
        },
        {
            "role": "assistant",
            "message": {"content": [{"type": "tool_use", "name": "Shell", "input": {"c": 1}}]},
        },
        {
            "role": "user",
            "message": {"content": [{"type": "tool_result", "content": [{"type": "text", "text": "a"}]}]},
        },
        {"role": "assistant", "message": {"content": [{"type": "tool_use", "name": "Read", "input": {}}]}},
        {"type": "turn_ended", "status": "aborted"},
        {"role": "user", "message": {"content": [{"type": "text", "text": "next"}]}},
        {"type": "mystery"},
    ]
    session = toolhist.load(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    assert session.source.format == "cursor-transcript"
    results = [b for m in session.messages for b in m.blocks if isinstance(b, ToolResponseBlock)]
    assert [(r.tool_name, r.result, r.is_complete) for r in results] == [
        ("Shell", "a", True),
        ("Read", NOT_KEPT, False),
    ]
    assert session.source.skipped == {"line kind 'mystery'": 1}
