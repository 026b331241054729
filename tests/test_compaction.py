"""Compaction units: categories, facts, summary lines, tiers, both renderings, the fallback decision."""

from __future__ import annotations

import pytest
from builders import ai, call, human, result, session, tool

from toolhist.compaction import compact, should_fall_back
from toolhist.compaction.categories import CATEGORIES, categorize, exit_code, facts, named_facts
from toolhist.compaction.summaries import call_line
from toolhist.errors import UsageError
from toolhist.model import Message, TextBlock, ToolCallBlock, ToolResponseBlock


@pytest.mark.parametrize(
    ("name", "category"),
    [
        ("read_file", "read"),
        ("list_dir", "read"),
        ("grep_search", "read"),  # Kilo's order: read is checked first
        ("Glob", "read"),
        ("ls", "read"),
        ("create_file", "write"),
        ("apply_patch", "write"),
        ("str_replace_editor", "write"),
        ("write-file", "write"),
        ("run_in_terminal", "execution"),
        ("run_shell_command", "execution"),
        ("Bash", "execution"),
        ("semantic_search", "query"),
        ("file_search", "query"),
        ("list_code_usages", "query"),
        ("mcp.github.search", "query"),
        ("get_weather", "other"),
        ("list_tools", "other"),  # "ls" only as a whole word
    ],
)
def test_categorize(name: str, category: str) -> None:
    assert categorize(name) == category


def test_facts_paths_lines_commands_exit_codes() -> None:
    found = facts({"path": "/src/foo.ts", "start_line": 1, "end_line": 50}, "…")
    assert (found.path, found.lines) == ("/src/foo.ts", "1-50")
    assert facts({"file_path": "a.py", "offset": 10, "limit": 20}, "").lines == "11-30"
    assert facts({"command": ["npm", "test"]}, {"exit_code": 1}).command == "npm test"
    assert exit_code({"exit_code": 1}) == 1
    assert exit_code("1 error in 0.09s\n[exit code 2]") == 2
    assert exit_code("Exit code: 0") == 0
    assert exit_code("all good") is None


NAMED = {  # the facts each category's summary line names (`call_line`)
    "read": ("path", "lines", "query"),
    "write": ("path",),
    "execution": ("command", "exit_code"),
    "query": ("query",),
    "other": (),
}


@pytest.mark.parametrize("category", CATEGORIES)
@pytest.mark.parametrize(
    ("parameters", "result"),
    [
        ({"path": "/src/foo.ts", "start_line": 1, "end_line": 50, "pattern": "x"}, "read\nexit code 3"),
        ({"command": ["npm", "test"], "query": "q", "limit": 4}, {"exit_code": 1}),
        ({"cmd": "ls", "file": "a.py"}, ["exit code 2"]),
        ("not a dict", "Exit code: 0"),
        (None, None),
    ],
)
def test_named_facts_are_the_facts_a_line_names(category: str, parameters: object, result: object) -> None:
    whole, named = facts(parameters, result), named_facts(category, parameters, result)  # type: ignore[arg-type]
    for field in ("path", "lines", "command", "query", "exit_code"):
        expected = getattr(whole, field) if field in NAMED[category] else None
        assert getattr(named, field) == expected, field


def test_call_lines_in_the_rfc_form() -> None:
    read = call_line("read_file", "read", {"path": "/src/foo.ts", "start_line": 1, "end_line": 50}, "x", "x")
    assert read == "[Earlier: Read /src/foo.ts lines 1-50 with read_file (1 line, 1 chars)]"
    ran = call_line(
        "run_in_terminal", "execution", {"command": "npm test"}, "ok\nexit code 0", "ok\nexit code 0"
    )
    assert ran == "[Earlier: Ran `npm test` - exit 0 (2 lines, 14 chars)]"
    wrote = call_line("apply_patch", "write", {"path": "src/a.py", "patch": "@@"}, "done", "done")
    assert wrote == "[Earlier: Changed src/a.py with apply_patch]"
    searched = call_line("semantic_search", "query", {"query": "login flow"}, [1, 2], "[1,2]")
    assert searched == "[Earlier: Searched 'login flow' with semantic_search]"
    other = call_line("get_weather", "other", {"city": "Oslo"}, "4°C", "4°C")
    assert other == '[Earlier: Called get_weather({"city":"Oslo"})]'


BIG = "x = 1\n" * 400


def agent_history() -> tuple[Message, ...]:
    """System, intent, four read/run pairs (one failing), a final human turn."""
    return (
        Message(speaker="system", blocks=(TextBlock(text="You are a coding agent."),)),
        human("Fix the login test."),
        ai("Reading.", call("c1", "read_file", path="src/auth.py", start_line=1, end_line=400)),
        tool(result("c1", BIG)),
        ai(call("c2", "run_shell", command="pytest -q")),
        tool(
            ToolResponseBlock(
                call_id="c2", tool_name="run_shell", result="E   ImportError\n[exit code 2]", raw_call_id="c2"
            )
        ),
        ai(call("c3", "write_file", path="src/auth.py", content=BIG)),
        tool(result("c3", "written", name="write_file")),
        ai(call("c4", "read_file", path="tests/test_login.py")),
        tool(result("c4", "def test_login(): ...")),
        ai("Fixed: the import moved."),
        human("Thanks, now run the suite."),
    )


def test_native_compaction_tiers_and_replacements() -> None:
    original = session(*agent_history())
    frozen = original.model_dump()
    c = compact(original, "openai-chat", keep=1, threshold=0)
    assert original.model_dump() == frozen  # the input is untouched
    assert c.triggered
    assert c.message_tiers_before == (1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 4, 4)
    assert [(r.call_id, r.category, r.is_error, r.result_replaced) for r in c.replacements] == [
        ("c1", "read", False, True),
        ("c2", "execution", True, False),  # a non-zero exit is an error: kept in full
        ("c3", "write", False, False),  # "written" is shorter than its summary: kept
    ]
    after = c.session.messages
    assert len(after) == len(original.messages)
    read_result = after[3].blocks[0]
    assert isinstance(read_result, ToolResponseBlock)
    assert (
        read_result.result == "[Earlier: Read src/auth.py lines 1-400 with read_file (401 lines, 2400 chars)]"
    )
    assert after[5] == original.messages[5]  # the failing run, verbatim
    write_call = after[6].blocks[0]
    assert isinstance(write_call, ToolCallBlock)
    assert write_call.parameters == {"path": "src/auth.py", "content": "[2400 chars elided]"}
    assert after[8:] == original.messages[8:]  # recent pair and current turn verbatim
    tiers = {t.tier: t for t in c.tiers}
    assert tiers[1].tokens_before == tiers[1].tokens_after
    assert tiers[3].tokens_before == tiers[3].tokens_after
    assert tiers[4].tokens_before == tiers[4].tokens_after
    assert tiers[2].tokens_after < tiers[2].tokens_before
    assert sum(t.tokens_before for t in c.tiers) == c.tokens_before
    assert sum(t.tokens_after for t in c.tiers) == c.tokens_after
    assert c.summary.splitlines() == [
        "[Earlier in this session:]",
        "- Read: 1 call(s)",
        "  [Earlier: Read src/auth.py lines 1-400 with read_file (401 lines, 2400 chars)]",
        "- Changed: 1 call(s)",
        "  [Earlier: Changed src/auth.py with write_file]",
        "",
        "[Errors encountered:]",
        "- run_shell: E   ImportError",
        "[exit code 2]",
    ]


def test_threshold_and_count_both_gate_compaction() -> None:
    original = session(*agent_history())
    under = compact(original, "anthropic", keep=1, threshold=100_000)
    assert not under.triggered
    assert under.session.messages == original.messages
    assert under.reason.startswith("tool history is ")
    assert under.reason.endswith(" tokens, not over the 100,000-token threshold")
    few = compact(original, "anthropic", keep=4, threshold=0)
    assert not few.triggered
    assert few.reason == "4 tool pair(s), not more than the 4 kept verbatim: nothing to compact"


def test_parallel_calls_are_never_split() -> None:
    original = session(
        human("go"),
        ai(call("a", path="1.py"), call("b", path="2.py")),
        tool(result("a", BIG), result("b", BIG)),
    )
    c = compact(original, "openai-chat", keep=1, threshold=0)
    assert not c.replacements  # keeping b keeps its sibling a
    assert c.message_tiers_before == (1, 3, 3)


def test_text_embed_omits_calls_and_marks_results() -> None:
    original = session(*agent_history())
    c = compact(original, "bedrock", keep=1, threshold=0, rendering="text-embed")
    speakers = [m.speaker for m in c.session.messages]
    assert speakers == ["system", "human", "ai", "human", "ai", "human"]
    assert not any(
        isinstance(b, ToolCallBlock | ToolResponseBlock) for m in c.session.messages for b in m.blocks
    )
    texts = [b.text for m in c.session.messages for b in m.blocks if isinstance(b, TextBlock)]
    assert c.summary in texts
    assert "<!-- prior-tool-result: c4 read_file -->\ndef test_login(): ..." in texts
    assert "E   ImportError\n[exit code 2]" in c.summary
    assert "message 4: ai message without text left after its calls were omitted, dropped" not in c.notes
    assert "message 2 block 1: call read_file (c1) omitted (text-embed)" in c.notes


@pytest.mark.parametrize(
    ("text", "fall_back"),
    [
        ('{"error":{"message":"input: Invalid input"}}', True),
        ('400 Bad Request {"error":{"message":"input: Invalid input"}}', True),
        ("input: Invalid input", True),
        ("Invalid input: expected object, received string", False),
        ("No tool output found for function call call_1.", False),
        ("", False),
    ],
)
def test_should_fall_back(text: str, fall_back: bool) -> None:
    assert should_fall_back(text) is fall_back


def test_bad_arguments() -> None:
    with pytest.raises(UsageError, match="unknown provider 'nope'"):
        compact(session(human("hi")), "nope")
    with pytest.raises(UsageError, match="keep and threshold must be 0 or more"):
        compact(session(human("hi")), "anthropic", keep=-1)
