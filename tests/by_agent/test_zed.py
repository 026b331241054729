"""Zed's ``threads.db`` read as Zed sends a thread (toolhist/agents/zed/reader.py)."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

import toolhist
from toolhist.agents.zed.reader import EMPTY_RESULT, RESUME
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock

CORPUS = Path(__file__).resolve().parents[1] / "corpus" / "logs" / "zed" / "zed-threads-db.fixture.db"


@pytest.fixture
def store(tmp_path: Path) -> Path:
    path = tmp_path / "threads.db"
    shutil.copyfile(CORPUS, path)
    return path


def test_a_use_without_result_is_not_sent_and_an_empty_result_is_replaced() -> None:
    session = toolhist.load(CORPUS)
    call = session.messages[1].blocks[1]
    assert isinstance(call, ToolCallBlock)
    assert call.provider_data == {"thoughtSignature": "CiQB0e2Kb7c8d9e0f1a2b3c4d5e6f7a8b9"}
    result = session.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert result.result == EMPTY_RESULT
    assert session.messages[3].blocks == (TextBlock(text=RESUME),)
    assert [(u.kind, u.data["tool_use"]["name"]) for u in session.unsent] == [  # type: ignore[call-overload,index]
        ("tool use without a result", "read_file")
    ]


def test_a_mention_is_its_link_and_its_context() -> None:
    session = toolhist.load(f"{CORPUS}#4f7a1c2e-8b3d-4e9f-a0b1-c2d3e4f5a6b7")
    texts = [b.text for b in session.messages[0].blocks if isinstance(b, TextBlock)]
    assert texts[:2] == ["Rename `total` to `sum` in ", "[@total.rs](file:///home/dev/shop/src/total.rs)"]
    assert texts[2].startswith("<context>\n")
    assert texts[2].endswith("</context>")


def test_a_first_agent_thread_stored_as_json_is_upgraded(store: Path) -> None:
    old = {
        "version": "0.2.0",
        "summary": "old",
        "updated_at": "2025-05-01T00:00:00Z",
        "messages": [
            {
                "id": 0,
                "role": "system",
                "segments": [{"type": "text", "text": "sys"}],
                "tool_uses": [],
                "tool_results": [],
                "context": "",
            },
            {
                "id": 1,
                "role": "user",
                "segments": [{"type": "text", "text": "list"}],
                "tool_uses": [],
                "tool_results": [],
                "context": "",
            },
            {
                "id": 2,
                "role": "assistant",
                "segments": [{"type": "text", "text": "ok"}],
                "tool_uses": [{"id": "t1", "name": "ls", "input": {}}],
                "tool_results": [{"tool_use_id": "t1", "is_error": False, "content": "a\nb", "output": None}],
                "context": "",
            },
        ],
        "model": {"provider": "anthropic", "model": "claude-3-7-sonnet-latest"},
    }
    conn = sqlite3.connect(store)
    conn.execute(
        "INSERT INTO threads (id, summary, updated_at, data_type, data) VALUES ('old', 'old', '2025-05-01T00:00:00Z', 'json', ?)",
        (json.dumps(old).encode(),),
    )
    conn.execute(
        "INSERT INTO threads (id, summary, updated_at, data_type, data) VALUES ('bad', 'b', '2025-05-01T00:00:00Z', 'zstd', x'00010203')"
    )
    conn.commit()
    conn.close()
    session = toolhist.load(f"{store}#old")
    assert [(m.speaker, [b.type for b in m.blocks]) for m in session.messages] == [
        ("human", ["text"]),
        ("ai", ["text", "tool_call"]),
        ("tool", ["tool_response"]),
    ]
    result = session.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert (result.tool_name, result.result) == ("ls", "a\nb")
    with pytest.raises(LoadError) as caught:
        toolhist.load(f"{store}#bad")
    assert str(caught.value).startswith(
        f"{store}#bad: at threads[bad].data: not a valid zed session: not valid zstd data:"
    )
