"""Bad input: each case is a LoadError naming the file and where, never another exception."""

from __future__ import annotations

from pathlib import Path

import pytest

import toolhist
from toolhist.errors import LoadError, UsageError
from toolhist.readers import FORMATS


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


def test_truncated_json_names_line_and_column(tmp_path: Path) -> None:
    f = write(tmp_path, "t.json", b'{"messages": [\n  {"role": "user", "content": "hi"},\n  {"role": "assis')
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == f"{f}:3:18: not valid JSON: unexpected end of data"
    assert (info.value.file, info.value.line, info.value.column) == (f, 3, 18)


def test_invalid_utf8_names_line_column_and_offset(tmp_path: Path) -> None:
    f = write(tmp_path, "u.json", b'[\n {"role": "user", "content": "caf\xe9"}]')
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == f"{f}:2:34: not valid UTF-8 (byte 0xe9 at offset 35)"
    assert info.value.offset == 35


def test_empty_and_whitespace_files(tmp_path: Path) -> None:
    for data in (b"", b"  \n\t\n"):
        f = write(tmp_path, "e.json", data)
        with pytest.raises(LoadError) as info:
            toolhist.load(f)
        assert str(info.value) == f"{f}: file is empty"


def test_wrong_shape_names_json_path_and_line(tmp_path: Path) -> None:
    f = write(
        tmp_path,
        "w.json",
        b'{"model": "m",\n "messages": [\n  {"role": "user", "content": "hi"},\n  {"role": "assistant", "tool_calls": [{"id": "c", "function": "oops"}]}]}',
    )
    with pytest.raises(LoadError) as info:
        toolhist.load(f, format="openai-chat")
    assert str(info.value) == (
        f"{f}:4:64: at messages[1].tool_calls[0].function: not a valid openai-chat session: expected an object, got string"
    )
    assert info.value.json_path == "messages[1].tool_calls[0].function"


def test_wrong_shape_when_sniffing_names_the_closest_format(tmp_path: Path) -> None:
    f = write(
        tmp_path,
        "r.json",
        b'{"messages": [{"role": "user", "content": "hi"},\n {"role": "robot", "content": "x"}]}',
    )
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == (
        f"{f}:2:11: at messages[1].role: unknown format: a JSON object with keys messages; no reader recognises it "
        f"(formats: {', '.join(FORMATS)}). "
        "Closest: openai-chat (also anthropic), which stops here: unknown role 'robot'; "
        "expected one of system, developer, user, assistant, tool, function"
    )


def test_unknown_format(tmp_path: Path) -> None:
    f = write(tmp_path, "x.json", b'{"foo": 1, "bar": [2]}')
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == (
        f"{f}: unknown format: a JSON object with keys bar, foo; no reader recognises it "
        f"(formats: {', '.join(FORMATS)})"
    )


def test_every_format_of_the_design_is_registered() -> None:
    # DESIGN §6 reader ids (contracts), plus toolhist's own canonical JSON.
    assert set(FORMATS) == {
        "openai-chat", "openai-responses", "anthropic", "gemini", "bedrock", "icontent", "llxprt-debug",
        "llxprt-checkpoint", "kilo", "claude-code", "codex", "gemini-cli", "vscode", "otel-genai", "toolhist",
        # agents added by issue 27 (toolhist/agents/registry.py)
        "opencode", "crush", "goose", "zed",
        "vscode-jsonl", "copilot-cli", "continue", "cursor", "cursor-transcript",
        "pi", "kimi-cli", "qwen-code", "openhands", "codex-exec", "amp",
        # frameworks added by issue 28 (toolhist/agents/registry.py)
        "pydantic-ai", "langchain", "langgraph", "openai-agents", "inspect-ai", "swe-agent", "mini-swe-agent",
        "atif", "smolagents",
    }  # fmt: skip


def test_ambiguous_content_asks_for_format() -> None:
    with pytest.raises(LoadError) as info:
        toolhist.load(b'{"messages": [{"role": "user", "content": "hi"}]}')
    assert str(info.value) == (
        "<bytes>: ambiguous format: this content reads as openai-chat and as anthropic; choose one with --format"
    )
    assert (
        toolhist.load(b'{"messages": [{"role": "user", "content": "hi"}]}', format="anthropic").source.format
        == "anthropic"
    )


def test_unknown_format_name_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match=r"unknown format 'nope'; choose one of: openai-chat, "):
        toolhist.load(b"[]", format="nope")


def test_bom_is_accepted_and_nul_is_refused(tmp_path: Path) -> None:
    body = b'[{"role": "tool", "tool_call_id": "c", "content": "x"}]'
    assert toolhist.load(write(tmp_path, "bom.json", b"\xef\xbb\xbf" + body)).source.format == "openai-chat"
    f = write(tmp_path, "bin.json", b"\x00\x01\x02")
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == f"{f}:1: contains a NUL character: this looks like a binary file, not JSON"


def test_jsonl_bad_line_is_named(tmp_path: Path) -> None:
    f = write(
        tmp_path,
        "l.jsonl",
        b'{"role": "user", "content": "a"}\n{"role": "tool", "tool_call_id": "c", "content": "b"}\n{"role": \n',
    )
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == f"{f}:3:10: not valid JSON Lines: unexpected end of data"


def test_missing_file_and_directory(tmp_path: Path) -> None:
    with pytest.raises(LoadError, match=r"nope\.json: no such file$"):
        toolhist.load(str(tmp_path / "nope.json"))
    with pytest.raises(LoadError, match=r": is a directory, not a session file$"):
        toolhist.load(tmp_path)


def test_nan_is_not_json(tmp_path: Path) -> None:
    f = write(tmp_path, "n.json", b'[{"role": "user", "content": NaN}]')
    with pytest.raises(LoadError, match=r"n\.json:1:30: not valid JSON"):
        toolhist.load(f)


API_HISTORY = "open api_conversation_history.json in the same task folder"
CLAUDE_SESSIONS = "the .jsonl files under ~/.claude/projects/<project>/"


@pytest.mark.parametrize(
    ("name", "data", "said"),
    [
        (
            "ui_messages.json",
            b'[{"ts": 1760000000000, "type": "say", "say": "task", "text": "Fix add()"},'
            b' {"ts": 1760000002000, "type": "ask", "ask": "tool", "text": "{}"}]',
            "this is a Cline/Roo/Kilo ui_messages.json (the chat the extension shows, not what it sends); "
            + API_HISTORY,
        ),
        (
            "task_metadata.json",
            b'{"files_in_context": [], "model_usage": [], "environment_history": []}',
            "this is a Cline task_metadata.json (files and models used, no messages); " + API_HISTORY,
        ),
        (
            "context_history.json",
            b'[[2, [0, [[1760000000000, "text", ["x"], []]]]]]',
            "this is a Cline context_history.json (context-window edits, no messages); " + API_HISTORY,
        ),
        (
            "cline_mcp_settings.json",
            b'{"mcpServers": {}}',
            "this is an MCP server settings file (mcpServers), not a conversation",
        ),
        (
            "settings.json",
            b'{"permissions": {"allow": ["Bash(npm test:*)"]}, "model": "sonnet"}',
            "this is a Claude Code settings file (settings.json), not a conversation; Claude Code sessions are "
            + CLAUDE_SESSIONS,
        ),
        (
            "history.jsonl",
            b'{"display": "fix the tests", "pastedContents": {}, "timestamp": 1, "project": "/p"}\n',
            "this is Claude Code's prompt history (~/.claude/history.jsonl: what you typed, no replies); "
            "sessions are " + CLAUDE_SESSIONS,
        ),
        (
            "codex_history.jsonl",
            b'{"session_id": "0199", "ts": 1760000000, "text": "fix the tests"}\n',
            "this is Codex's prompt history (~/.codex/history.jsonl: what you typed, no replies); "
            "open a rollout under ~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl",
        ),
        (
            "logs.json",
            b'[{"sessionId": "s", "messageId": 0, "type": "user", "message": "hi", "timestamp": "t"}]',
            "this is Gemini CLI's prompt log (logs.json: what you typed, no replies); "
            "open a chat under ~/.gemini/tmp/<project hash>/chats/session-*.json",
        ),
    ],
)
def test_a_known_non_history_file_names_the_file_to_open(
    tmp_path: Path, name: str, data: bytes, said: str
) -> None:
    f = write(tmp_path, name, data)
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == f"{f}: not a conversation history: {said}"


def test_a_reader_that_got_nowhere_is_not_blamed(tmp_path: Path) -> None:
    """A chat-recording-like file: OpenAI's reader finds no ``role`` in the first message; it is not closest."""
    f = write(
        tmp_path,
        "session.json",
        b'{"messages": [{"id": "1", "timestamp": "t", "type": "user", "content": "hi"},'
        b' {"id": "2", "type": "gemini", "content": 5}]}',
    )
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert str(info.value) == (
        f"{f}:1:120: at messages[1].content: unknown format: a JSON object with keys messages; "
        f"no reader recognises it (formats: {', '.join(FORMATS)}). "
        "Closest: gemini-cli, which stops here: expected an object, got number"
    )
    g = write(tmp_path, "events.json", b'[{"ts": 1, "kind": "note", "text": "x"}]')
    with pytest.raises(LoadError) as info:
        toolhist.load(g)
    assert str(info.value) == (
        f"{g}: unknown format: a JSON array of objects with keys kind, text, ts; "
        f"no reader recognises it (formats: {', '.join(FORMATS)})"
    )


def test_python_input_that_json_cannot_hold_is_named() -> None:
    """Readers trust parsed values; Python input is checked first, the place named by its JSON path."""
    import datetime

    body = {
        "messages": [
            {"role": "user", "content": "hi"},
            {
                "role": "assistant",
                "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {"a": (1, 2)}}}],
            },
        ]
    }
    with pytest.raises(
        LoadError, match=r"^<json>: at messages\[1\]\.tool_calls\[0\]\.function\.arguments\.a: a tuple"
    ):
        toolhist.load(body)
    with pytest.raises(LoadError, match=r"at messages\[0\]\.when: a date is not a JSON value"):
        toolhist.load({"messages": [{"role": "user", "content": "x", "when": datetime.date(2020, 1, 1)}]})
    with pytest.raises(LoadError, match=r"at messages\[0\]: object key 3 is not a string"):
        toolhist.load({"messages": [{"role": "user", "content": "x", 3: "y"}]})


@pytest.mark.parametrize(
    ("body", "at"),
    [
        # The dropped value holds ``:`` and keys: the fast count differs, the full parse names it.
        ('{"messages": [], "x": {"a": "b:c"}, "x": 1}', "x"),
        # ``\u003a`` spells a ``:`` the text does not hold: without the escape check the counts
        # would be equal (three in the text, three written back) and the repeat would pass.
        ('{"a": "\\u003a", "b": 1, "b": 2}', "b"),
        ('{"a": "\\u003A", "b": 1, "b": 2}', "b"),
    ],
)
def test_repeated_key_found_past_the_fast_check(tmp_path: Path, body: str, at: str) -> None:
    """`toolhist.formats.document._keys_all_kept` never clears a document that repeats a key."""
    f = write(tmp_path, "d.json", body.encode())
    with pytest.raises(LoadError) as info:
        toolhist.load(f)
    assert info.value.json_path == at
    assert "occurs twice in one object" in str(info.value)


def test_colon_escapes_without_repeats_load(tmp_path: Path) -> None:
    """A ``\\u003a`` with no repeated key only sends the check to the full parse: the file loads."""
    f = write(tmp_path, "c.json", b'[{"role": "system", "content": "a\\u003ab: c"}]')
    assert toolhist.load(f, "openai-chat").messages[0].blocks[0].text == "a:b: c"  # type: ignore[union-attr]
