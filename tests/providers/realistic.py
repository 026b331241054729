"""A realistic multi-turn coding session: system prompt, parallel calls, an error result, text
before and after calls, a follow-up turn. Valid for every provider once ids are mapped at the edge."""

from __future__ import annotations

from pydantic import JsonValue

from toolhist.model import (
    Block,
    Message,
    MessageMetadata,
    Session,
    SessionSource,
    Speaker,
    TextBlock,
    ToolCallBlock,
    ToolResponseBlock,
    ToolSpec,
)


def _call(cid: str, name: str, **params: JsonValue) -> ToolCallBlock:
    return ToolCallBlock(id=cid, name=name, parameters=dict(params), raw_id=cid)


def _result(cid: str, name: str, value: JsonValue, error: str | None = None) -> ToolResponseBlock:
    return ToolResponseBlock(call_id=cid, tool_name=name, result=value, error=error, raw_call_id=cid)


def _msg(speaker: Speaker, *blocks: Block) -> Message:
    return Message(speaker=speaker, blocks=tuple(blocks), metadata=MessageMetadata())


TOOLS = (
    ToolSpec(
        name="read_file",
        description="Read a file from the workspace.",
        parameters={"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]},
    ),
    ToolSpec(
        name="run_tests",
        description="Run the test suite and return its output.",
        parameters={"type": "object", "properties": {"target": {"type": "string"}}, "required": ["target"]},
    ),
)

REALISTIC = Session(
    messages=(
        _msg(
            "system", TextBlock(text="You are a careful coding agent. Use tools to inspect the repository.")
        ),
        _msg("human", TextBlock(text="The login test fails. Can you find out why?")),
        _msg(
            "ai",
            TextBlock(text="Let me read the test and the module it covers."),
            _call("call_Qm1xWv9aKd2R", "read_file", path="tests/test_login.py"),
            _call("call_Lp7TzN0bYc4E", "read_file", path="app/auth.py"),
        ),
        _msg(
            "tool",
            _result(
                "call_Qm1xWv9aKd2R", "read_file", "def test_login():\n    assert login('ann', 'pw') is True\n"
            ),
            _result("call_Lp7TzN0bYc4E", "read_file", None, error="FileNotFoundError: app/auth.py"),
        ),
        _msg(
            "ai",
            TextBlock(
                text="auth.py is not where the test expects it; running the suite to see the import error."
            ),
            _call("call_Vb3NsE8uHw5J", "run_tests", target="tests/test_login.py"),
        ),
        _msg(
            "tool",
            _result(
                "call_Vb3NsE8uHw5J",
                "run_tests",
                "E   ModuleNotFoundError: No module named 'app.auth'\n1 failed",
            ),
        ),
        _msg(
            "ai", TextBlock(text="The module moved to app/security/auth.py; the test still imports app.auth.")
        ),
        _msg("human", TextBlock(text="Thanks. Please fix the import.")),
    ),
    tools=TOOLS,
    request={"model": "test-model"},
    source=SessionSource(format="toolhist"),
)
