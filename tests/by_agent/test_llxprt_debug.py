"""llxprt debug log reader: history from HistoryService lines, snapshots as requests, streaming, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.agents.llxprt.debug import NOT_LOGGED, requests
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock


def entry(namespace: str, message: str, *args: Any, level: str = "debug") -> dict[str, Any]:
    line: dict[str, Any] = {
        "timestamp": "2025-12-19T10:45:15.000Z",
        "namespace": namespace,
        "level": level,
        "message": message,
    }
    if args:
        line["args"] = list(args)
    return line


def add(
    speaker: str, types: list[str], calls: tuple[str, ...] = (), resps: tuple[tuple[str, str], ...] = ()
) -> dict[str, Any]:
    return entry(
        "llxprt:history:service",
        "Adding content to history:",
        {
            "speaker": speaker,
            "blockTypes": types,
            "toolCallIds": list(calls),
            "toolResponseIds": [{"callId": c, "toolName": n} for c, n in resps],
            "contentId": None,
            "modelName": "gpt-4.1",
        },
    )


def jsonl(*lines: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(line).encode() + b"\n" for line in lines)


HISTORY = (
    add("human", ["text"]),
    add(
        "ai",
        ["thinking", "text", "tool_call", "tool_call"],
        calls=(
            "call_a",
            "call_b",
        ),
    ),
    add(
        "tool",
        ["tool_response", "tool_response"],
        resps=(
            ("call_a", "read_file"),
            ("call_b", "glob"),
        ),
    ),
    add("ai", ["text"]),
)


def test_history_rebuilt_from_history_service_lines() -> None:
    session = toolhist.load(jsonl(entry("llxprt:cli", "start", level="log"), *HISTORY))
    assert session.source.format == "llxprt-debug"
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai"]
    ai = session.messages[1]
    assert [b.type for b in ai.blocks] == ["thinking", "text", "tool_call", "tool_call"]
    calls = [b for b in ai.blocks if isinstance(b, ToolCallBlock)]
    assert [(c.id, c.name) for c in calls] == [("call_a", "read_file"), ("call_b", "glob")]
    assert calls[0].provider_data == {"_not_logged": True}
    text = ai.blocks[1]
    assert isinstance(text, TextBlock)
    assert text.text == NOT_LOGGED
    responses = list(session.messages[2].tool_responses())
    assert [(r.call_id, r.tool_name) for r in responses] == [("call_a", "read_file"), ("call_b", "glob")]
    assert [loc.line for loc in session.source.locations] == [2, 3, 4, 5]
    assert session.messages[1].metadata.model == "gpt-4.1"
    assert session.metadata["lines"] == 5
    assert session.metadata["namespaces"] == {"llxprt:cli": 1, "llxprt:history:service": 4}


def test_head_chronology_kept_on_the_message() -> None:
    line = add("human", ["text"])
    line["args"].append({"chronology": {"seq": 7, "userTurn": 2, "step": 0, "recordedAt": 1766141115000}})
    session = toolhist.load(jsonl(line, add("ai", ["text"])))
    assert session.messages[0].metadata.extra["chronology"] == {
        "seq": 7,
        "userTurn": 2,
        "step": 0,
        "recordedAt": 1766141115000,
    }


def test_call_without_any_named_response_is_unknown() -> None:
    session = toolhist.load(jsonl(add("human", ["text"]), add("ai", ["tool_call"], calls=("call_z",))))
    (call,) = session.messages[1].tool_calls()
    assert call.name == "unknown"


def vercel_snapshot(*messages: dict[str, Any]) -> dict[str, Any]:
    return entry(
        "llxprt:provider:openaivercel",
        "[OpenAIVercelProvider] Chat payload snapshot",
        {"messageCount": len(messages), "messages": list(messages)},
    )


def tool_call(cid: str, name: str) -> str:
    return json.dumps(
        {"type": "tool-call", "toolCallId": cid, "toolName": name, "input": {"p": 1}}, separators=(",", ":")
    )


def tool_result(cid: str, name: str, value: str) -> str:
    part = {
        "type": "tool-result",
        "toolCallId": cid,
        "toolName": name,
        "output": {"type": "text", "value": value},
    }
    return json.dumps(part, separators=(",", ":"))


def test_vercel_snapshot_rebuilt_as_a_complete_openai_chat_body(tmp_path: Path) -> None:
    snapshot = vercel_snapshot(
        {"role": "user", "contentPreview": "list the files"},
        {"role": "assistant", "contentPreview": tool_call("c1", "glob")},
        {"role": "tool", "contentPreview": tool_result("c1", "glob", "a.py")},
    )
    path = tmp_path / "llxprt-debug-2025-12-19-10-45-15.jsonl"
    path.write_bytes(jsonl(*HISTORY, snapshot))
    (request,) = list(requests(str(path)))
    assert request.line == 5
    assert request.provider == "openai-chat"
    assert request.complete is True
    assert request.truncated == ()
    assert request.body == {
        "messages": [
            {"role": "user", "content": "list the files"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "c1", "type": "function", "function": {"name": "glob", "arguments": '{"p": 1}'}}
                ],
            },
            {"role": "tool", "tool_call_id": "c1", "content": "a.py"},
        ]
    }
    assert toolhist.validate_payload(request.body, "openai-chat") == []
    session = toolhist.load(path)
    assert session.metadata["requests"] == [
        {
            "line": 5,
            "provider": "openai-chat",
            "source": "OpenAIVercelProvider",
            "messages": 3,
            "complete": True,
            "truncated": [],
        }
    ]


def test_cut_preview_marks_the_request_incomplete() -> None:
    long_text = "x" * 190
    preview = (long_text + "\n" + tool_call("c1", "glob"))[:200] + "\u2026"
    snapshot = vercel_snapshot(
        {"role": "user", "contentPreview": "go"}, {"role": "assistant", "contentPreview": preview}
    )
    (request,) = list(requests(jsonl(*HISTORY, snapshot)))
    assert request.complete is False
    assert request.truncated == ("args[0].messages[1].contentPreview",)
    # the cut tool call is not invented: the body keeps only the text the log kept
    assert request.body["messages"][1] == {"role": "assistant", "content": long_text}


def test_openai_provider_snapshot_uses_raw_content_and_flags_cut_arguments() -> None:
    args = '{"path": "' + "a" * 600 + '"}'
    snapshot = entry(
        "llxprt:provider:openai",
        "[OpenAIProvider] Chat payload snapshot",
        {
            "messageCount": 3,
            "messages": [
                {"role": "system", "contentPreview": "You are", "contentLength": 5000, "toolCallCount": 0},
                {
                    "role": "assistant",
                    "contentPreview": "",
                    "rawContent": None,
                    "toolCallCount": 1,
                    "toolCalls": [
                        {"id": "call_1", "name": "read_file", "argumentsPreview": args[:500] + "\u2026"}
                    ],
                },
                {"role": "tool", "contentPreview": "ok", "rawContent": "ok", "toolCallId": "call_1"},
            ],
        },
    )
    (request,) = list(requests(jsonl(*HISTORY, snapshot)))
    assert request.source == "OpenAIProvider"
    assert request.complete is False
    assert request.truncated == (
        "args[0].messages[0].contentPreview",
        "args[0].messages[1].toolCalls[0].argumentsPreview",
    )
    assert request.body["messages"][1]["tool_calls"][0]["id"] == "call_1"
    assert request.body["messages"][2] == {"role": "tool", "content": "ok", "tool_call_id": "call_1"}


def test_snapshot_of_an_unknown_provider_is_not_a_request() -> None:
    snapshot = entry("llxprt:x", "[SomeOtherProvider] Chat payload snapshot", {"messages": []})
    assert list(requests(jsonl(*HISTORY, snapshot))) == []


def test_error_lines_kept_for_explain() -> None:
    error = entry(
        "llxprt:provider:openaivercel",
        "[OpenAIVercelProvider] streamText failed: 400",
        {"error": {}},
        level="error",
    )
    session = toolhist.load(jsonl(*HISTORY, error))
    assert session.metadata["errors"] == [
        {
            "line": 5,
            "namespace": "llxprt:provider:openaivercel",
            "message": "[OpenAIVercelProvider] streamText failed: 400",
        }
    ]
    assert session.metadata["error_count"] == 1


def test_progress_reports_bytes_read_of_total(tmp_path: Path) -> None:
    path = tmp_path / "debug.jsonl"
    data = jsonl(*HISTORY)
    path.write_bytes(data)
    seen: list[tuple[int, int]] = []
    toolhist.load(path, progress=lambda done, total: seen.append((done, total)))
    assert seen == [(0, len(data)), (len(data), len(data))]


def test_a_streamed_log_is_read_exactly_as_written(tmp_path: Path) -> None:
    """Secrets are redacted in what is shared, not on the way in (`toolhist.redact`)."""
    path = tmp_path / "debug.jsonl"
    leak = entry(
        "llxprt:provider:openai", "request headers", {"Authorization": "Bearer abcdefghijklmnopqrstuvwxyz"}
    )
    path.write_bytes(jsonl(*HISTORY, leak))
    session = toolhist.load(path)
    assert not any(note.startswith("redacted") for note in session.source.notes)


@pytest.mark.parametrize(
    ("line", "reason", "json_path"),
    [
        (
            {"timestamp": "t", "level": "debug", "message": "x"},
            "log entry has no string 'namespace'",
            "namespace",
        ),
        (
            {**add("ai", ["tool_call", "tool_call"], calls=("c1",))},
            "2 tool_call blocks but 1 tool call ids",
            "args[0].toolCallIds",
        ),
        (
            {**add("robot", ["text"])},
            "unknown speaker 'robot'; expected human, ai or tool",
            "args[0].speaker",
        ),
        (
            {**add("ai", ["text"]), "args": ["oops"]},
            "expected the history entry description (an object)",
            "args[0]",
        ),
    ],
)
def test_malformed_lines_name_file_line_and_field(
    tmp_path: Path, line: dict[str, Any], reason: str, json_path: str
) -> None:
    path = tmp_path / "debug.jsonl"
    path.write_bytes(jsonl(*HISTORY, line))
    for fmt in (None, "llxprt-debug"):  # named, and sniffed: the broken line does not hide the format
        with pytest.raises(LoadError) as info:
            toolhist.load(path, format=fmt)
        assert (info.value.file, info.value.line, info.value.json_path) == (str(path), 5, json_path)
        assert info.value.reason == f"not a valid llxprt-debug log: {reason}"


def test_broken_json_line_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "debug.jsonl"
    path.write_bytes(jsonl(*HISTORY) + b'{"timestamp": "t", "namespace": \n')
    with pytest.raises(LoadError) as info:
        toolhist.load(path)
    assert (info.value.line, info.value.reason.split(":")[0]) == (5, "not valid JSON Lines")


speakers = st.sampled_from(["human", "ai", "tool"])


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(speakers, st.integers(0, 3)), min_size=2, max_size=12))
def test_streamed_read_equals_in_memory_read(
    tmp_path_factory: pytest.TempPathFactory, shape: list[tuple[str, int]]
) -> None:
    lines = []
    for i, (speaker, n) in enumerate(shape):
        if speaker == "ai":
            lines.append(add("ai", ["text", *["tool_call"] * n], calls=tuple(f"c{i}_{k}" for k in range(n))))
        elif speaker == "tool":
            lines.append(
                add("tool", ["tool_response"] * n, resps=tuple((f"c{i - 1}_{k}", "t") for k in range(n)))
            )
        else:
            lines.append(add("human", ["text"]))
    path = tmp_path_factory.mktemp("debug") / "d.jsonl"
    data = jsonl(*lines)
    path.write_bytes(data)
    streamed = toolhist.load(path)
    in_memory = toolhist.load(data)
    assert streamed.messages == in_memory.messages
    assert len(streamed.messages) == len(shape)
    assert sum(1 for m in streamed.messages for b in m.blocks if isinstance(b, ToolResponseBlock)) == sum(
        n for s, n in shape if s == "tool"
    )
