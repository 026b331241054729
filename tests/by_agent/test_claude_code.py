"""Claude Code reader: parentUuid threading, forks, merged split responses, sidechains, compaction, errors."""

from __future__ import annotations

import gc
import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.agents.claude_code.reader import read_sidechain
from toolhist.errors import LoadError
from toolhist.formats import jsonl_stream
from toolhist.formats.document import read_input
from toolhist.model import TextBlock
from toolhist.readers import READERS


def line(kind: str, uuid: str, parent: str | None, content: Any, **extra: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"role": kind, "content": content}
    if kind == "assistant":
        message = {"id": extra.pop("mid", f"msg_{uuid}"), "model": "claude-sonnet-4-5", **message}
    return {
        "parentUuid": parent,
        "isSidechain": False,
        "sessionId": "s-1",
        "cwd": "/repo",
        "version": "2.0.37",
        "type": kind,
        "message": message,
        "uuid": uuid,
        "timestamp": "2025-11-18T14:10:00.000Z",
        **extra,
    }


def use(tid: str, name: str = "Bash") -> dict[str, Any]:
    return {"type": "tool_use", "id": tid, "name": name, "input": {"command": "ls"}}


def res(tid: str, text: str = "ok") -> dict[str, Any]:
    return {"type": "tool_result", "tool_use_id": tid, "content": text}


def jsonl(*lines: dict[str, Any]) -> bytes:
    return b"".join(json.dumps(x).encode() + b"\n" for x in lines)


def write(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "session.jsonl"
    path.write_bytes(jsonl(*lines))
    return path


def test_split_response_and_parallel_results_are_merged(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        line("user", "u1", None, "list files"),
        line("assistant", "a1", "u1", [{"type": "text", "text": "Checking."}], mid="msg_1"),
        line("assistant", "a2", "a1", [use("toolu_1")], mid="msg_1"),
        line("assistant", "a3", "a2", [use("toolu_2", "Glob")], mid="msg_1"),
        line("user", "u2", "a3", [res("toolu_1")]),
        line("user", "u3", "u2", [res("toolu_2")]),
        line("assistant", "a4", "u3", [{"type": "text", "text": "Done."}], mid="msg_2"),
    )
    session = toolhist.load(path)
    assert session.source.format == "claude-code"
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai"]
    assert [b.type for b in session.messages[1].blocks] == ["text", "tool_call", "tool_call"]
    assert [r.call_id for r in session.messages[2].tool_responses()] == ["toolu_1", "toolu_2"]
    assert [r.tool_name for r in session.messages[2].tool_responses()] == ["Bash", "Glob"]
    assert session.messages[1].metadata.extra["lines"] == [2, 3, 4]
    assert [loc.line for loc in session.source.locations] == [1, 2, 5, 7]
    assert session.metadata["sessionId"] == "s-1"
    assert toolhist.validate(session, "anthropic") == []


def test_thread_follows_parent_uuid_from_latest_leaf_not_file_order(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        line("user", "u1", None, "hi"),
        line("assistant", "a1", "u1", [{"type": "text", "text": "first try"}]),
        line("assistant", "a1b", "u1", [{"type": "text", "text": "retry"}]),
        line("user", "u2", "a1b", "thanks"),
    )
    session = toolhist.load(path)
    texts = [b.text for m in session.messages for b in m.blocks if b.type == "text"]
    assert texts == ["hi", "retry", "thanks"]
    assert (
        "1 message lines are on abandoned branches (retries, edits), not on the thread of the latest message: "
        "line 2" in (session.source.notes)
    )


def test_sidechains_are_listed_apart_and_loadable(tmp_path: Path) -> None:
    side = {"isSidechain": True, "agentId": "agent42"}
    path = write(
        tmp_path,
        line("user", "u1", None, "audit"),
        line("assistant", "a1", "u1", [use("toolu_t", "Task")]),
        {**line("user", "s1", None, "subtask"), **side},
        {**line("assistant", "s2", "s1", [use("toolu_g", "Grep")]), **side},
        {**line("user", "s3", "s2", [res("toolu_g", "3 hits")]), **side},
        line("user", "u2", "a1", [res("toolu_t", "3 hits")]),
    )
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool"]
    assert session.metadata["sidechains"] == [{"key": "agent42", "root": "s1", "first_line": 3, "lines": 3}]
    assert session.metadata["thread"] == "main"
    # Kept visible, not sent: one record, before the main message that follows it (the Task result).
    assert [(u.kind, u.before, u.line, u.data) for u in session.unsent] == [
        ("sidechain", 2, 3, {"key": "agent42", "root": "s1", "first_line": 3, "lines": 3})
    ]
    sub = read_sidechain(str(path), "agent42")
    assert sub.unsent == ()
    assert [m.speaker for m in sub.messages] == ["human", "ai", "tool"]
    assert sub.metadata["thread"] == "sidechain"
    assert [c.name for m in sub.messages for c in m.tool_calls()] == ["Grep"]
    with pytest.raises(LoadError, match="no sidechain 'nope' in this file"):
        read_sidechain(str(path), "nope")


def test_subagent_file_on_its_own_loads_as_its_thread(tmp_path: Path) -> None:
    side = {"isSidechain": True, "agentId": "agent42"}
    path = write(
        tmp_path,
        {**line("user", "s1", None, "subtask"), **side},
        {**line("assistant", "s2", "s1", [{"type": "text", "text": "done"}]), **side},
    )
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "ai"]
    assert session.metadata["thread"] == "sidechain"


def test_compaction_keeps_only_the_summary_and_what_follows(tmp_path: Path) -> None:
    boundary = {
        "type": "system",
        "subtype": "compact_boundary",
        "uuid": "b1",
        "parentUuid": None,
        "logicalParentUuid": "a1",
        "compactMetadata": {"trigger": "auto", "preTokens": 155000},
    }
    path = write(
        tmp_path,
        line("user", "u1", None, "run tests"),
        line("assistant", "a1", "u1", [use("toolu_1")]),
        boundary,
        line("user", "u2", "b1", "Summary: tests were started.", isCompactSummary=True),
        line("user", "u3", "u2", [res("toolu_1", "1 failed")]),
        {"type": "summary", "summary": "Test run", "leafUuid": "u3"},
    )
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "tool"]
    assert session.messages[0].metadata.extra["isCompactSummary"] is True
    assert session.metadata["compactions"] == [
        {
            "line": 3,
            "uuid": "b1",
            "logicalParentUuid": "a1",
            "compactMetadata": {"trigger": "auto", "preTokens": 155000},
        }
    ]
    assert session.metadata["summaries"] == [{"line": 6, "summary": "Test run", "leafUuid": "u3"}]
    assert (
        "2 message lines before a compaction are not in the history sent after it (a compaction summary replaced them)"
        in (session.source.notes)
    )
    # no tool_use is left in the history, so no tool declaration can be inferred either
    assert [v.rule for v in toolhist.validate(session, "anthropic")] == [
        "ant.result_orphan",
        "ant.tools_required",
    ]


def test_claude_code_is_not_read_as_another_format_and_vice_versa() -> None:
    doc = read_input(
        jsonl(line("user", "u1", None, "hi"), line("assistant", "a1", "u1", [{"type": "text", "text": "x"}]))
    )
    assert {rid for rid, r in READERS.items() if r.recognise(doc.value) > 0} == {"claude-code"}
    anthropic_list = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": [{"type": "text", "text": "x"}]},
    ]
    assert READERS["claude-code"].recognise(anthropic_list) == 0


@pytest.mark.parametrize(
    ("bad", "note"),
    [
        (
            {k: v for k, v in line("user", "u9", "u1", "x").items() if k != "parentUuid"},
            "line 2: skipped a record of kind `user` whose `parentUuid` is missing: required field 'parentUuid' is missing",
        ),
        (
            {**line("user", "u9", "u1", "x"), "message": "x"},
            "line 2: skipped a record of kind `user` whose `message` is a string: a user line needs a 'message' object",
        ),
        (
            {**line("user", "u9", "u1", "x"), "uuid": 9},
            "line 2: skipped a record of kind `user` whose `uuid` is a number: a user line needs a string 'uuid'",
        ),
        (
            line("assistant", "u9", "u1", [{"type": "tool_use", "name": "Bash"}]),
            "line 2: skipped a record of kind `assistant` whose `message.content[0].id` is missing: "
            "expected a string, got null",
        ),
        (
            {**line("user", "u9", "u1", "x"), "parentUuid": ["u1"]},
            "line 2: skipped a record of kind `user` whose `parentUuid` is an array: 'parentUuid' must be a string or null",
        ),
    ],
)
def test_a_malformed_line_is_skipped_and_named(tmp_path: Path, bad: dict[str, Any], note: str) -> None:
    """The line's message is left out, the rest read; a line that cannot be threaded (no uuid, a
    bad parentUuid) takes the thread's start with it, which a note says too."""
    path = write(tmp_path, line("user", "u1", None, "hi"), bad, line("assistant", "a1", "u9", "hello"))
    for fmt in (None, "claude-code"):  # named, and sniffed: the broken line does not hide the format
        s = toolhist.load(path, format=fmt)
        assert note in s.source.notes
        assert s.source.skipped == {f"unreadable {bad['type']}": 1}
        texts = [b.text for m in s.messages for b in m.blocks if isinstance(b, TextBlock)]
        if bad["type"] == "assistant":  # read when threaded, left out when converted
            assert texts == ["hi", "hello"]
        else:
            assert texts == ["hello"]
            assert "line 3: parent 'u9' is not in this file; the thread starts after it" in s.source.notes


def test_a_line_without_a_kind_is_skipped_as_unknown(tmp_path: Path) -> None:
    path = write(tmp_path, line("user", "u1", None, "hi"), {**line("user", "u9", "u1", "x"), "type": 7})
    s = toolhist.load(path, format="claude-code")
    assert s.source.skipped == {"line without a string 'type'": 1}
    assert [m.speaker for m in s.messages] == ["human"]


def test_unknown_line_types_are_skipped_and_counted(tmp_path: Path) -> None:
    # Known bookkeeping kinds stay "not sent"; a kind newer than the reader is skipped and named.
    path = write(
        tmp_path,
        line("user", "u1", None, "hi"),
        {"type": "file-history-snapshot", "messageId": "u1", "snapshot": {}},
        {"type": "worktree-state", "sessionId": "s-1", "state": {}},
        line("assistant", "a1", "u1", [{"type": "text", "text": "Hello."}]),
    )
    s = toolhist.load(path)
    assert [m.speaker for m in s.messages] == ["human", "ai"]
    assert s.source.skipped == {"line type 'worktree-state'": 1}
    assert s.source.notes[-2:] == (
        "lines not sent to the model: file-history-snapshot x1",
        "skipped 1 record(s) this reader does not know: line type 'worktree-state' x1 (first on line 3); "
        "written by Claude Code 2.0.37",
    )


def test_parallel_results_on_a_side_branch_are_sent_with_the_others(tmp_path: Path) -> None:
    # The shape of a real session (drmaciver coverage-test-fix, corpus): two parallel Read calls
    # streamed as two assistant lines of one message, each result parented on its own call's line.
    path = write(
        tmp_path,
        line("user", "u1", None, "cover multiply"),
        line("assistant", "a1", "u1", [use("toolu_1", "Read")], mid="msg_2"),
        line("assistant", "a2", "a1", [use("toolu_2", "Read")], mid="msg_2"),
        line("user", "r1", "a1", [res("toolu_1", "file one")]),
        line("user", "r2", "a2", [res("toolu_2", "file two")]),
    )
    s = toolhist.load(path)
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert [b.call_id for b in s.messages[2].tool_responses()] == ["toolu_1", "toolu_2"]
    assert s.messages[2].metadata.extra["lines"] == [4, 5]
    assert not any("abandoned branches" in note for note in s.source.notes)
    assert toolhist.validate(s, "anthropic") == []


def test_a_retried_branch_is_still_left_out(tmp_path: Path) -> None:
    # A result answering a call that is not on the thread (an abandoned attempt) stays out.
    path = write(
        tmp_path,
        line("user", "u1", None, "go"),
        line("assistant", "old", "u1", [use("toolu_old")], mid="msg_old"),
        line("user", "rold", "old", [res("toolu_old")]),
        line("assistant", "a1", "u1", [{"type": "text", "text": "Done."}], mid="msg_new"),
    )
    s = toolhist.load(path)
    assert [m.speaker for m in s.messages] == ["human", "ai"]


def _ours(block: object) -> bool:
    """A content block of this test's log (other tests' parses may be alive in the same process)."""
    if not isinstance(block, dict):
        return False
    ident = block.get("id", block.get("tool_use_id"))
    return isinstance(ident, str) and ident.startswith("toolu_freed_")


def test_converted_lines_are_freed_before_the_session_is_built(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Memory: a line's parsed ``message`` dies once the line is a Message (its strings live on in blocks).

    Counted, not timed: when the reader builds the Session (every line converted, the index still
    alive), no parsed message dict of a converted line is left, so the parse and the blocks made
    from it are never all in memory at once (issue 26: the load's peak of a gigabyte log).
    """
    n = 40
    lines: list[dict[str, Any]] = [line("user", "u0", None, "start")]
    for k in range(n):
        lines.append(line("assistant", f"a{k}", lines[-1]["uuid"], [use(f"toolu_freed_{k}")]))
        result = line("user", f"r{k}", f"a{k}", [res(f"toolu_freed_{k}", "x" * 50)])
        lines.append({**result, "toolUseResult": {"stdout": ["x" * 50], "agentId": None}})
    path = write(tmp_path, *lines)
    del lines, result  # only the reader's parse is counted
    alive: list[int] = []
    original = jsonl_stream.Collector.session

    def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        gc.collect()
        alive.append(
            sum(
                1
                for o in gc.get_objects()
                if type(o) is dict
                and o.get("role") in ("user", "assistant")
                and isinstance(o.get("content"), list)
                and any(_ours(block) for block in o["content"])
            )
        )
        return original(self, *args, **kwargs)

    monkeypatch.setattr(jsonl_stream.Collector, "session", counting)
    session = toolhist.load(path)
    assert len(session.messages) == 2 * n + 1
    # of 2n + 1 converted lines, only the last ones read stay (the reading loop's and the error
    # tracker's current line, `jsonl_stream._Tracked.value`): a constant, where all 81 stayed before
    assert len(alive) == 1
    assert alive[0] <= 2
    assert session.messages[2].metadata.extra["toolUseResult"] == {"agentId": None}


def test_tool_use_result_keeps_no_long_string(tmp_path: Path) -> None:
    """Memory: a line's ``toolUseResult`` (the tool's output again) keeps only scalars and short strings.

    Counted, not timed: Claude Code repeats a tool's whole output there (``stdout``, ``file.content``,
    an Edit's ``originalFile``); kept whole it doubled a log's content in memory (issue 26). The
    views' ``agentId`` and short flags stay; nothing longer than `RESULT_KEPT_CHARS` is reachable.
    """
    from toolhist.agents.claude_code.kept import RESULT_KEPT_CHARS

    big = "y" * (RESULT_KEPT_CHARS + 1)
    results = [
        {"stdout": big, "stderr": "", "interrupted": False, "isImage": False},
        {"type": "text", "file": {"filePath": "/a.py", "content": big}, "numLines": 3},
        {
            "filePath": "/a.py",
            "originalFile": big,
            "structuredPatch": [{"lines": [big]}],
            "userModified": False,
        },
        {"status": "completed", "agentId": "a2898e3", "content": [{"type": "text", "text": big}]},
        "Error: " + big,
        "Error: short",
        None,
    ]
    lines: list[dict[str, Any]] = [line("user", "u0", None, "start")]
    for k, result in enumerate(results):
        lines.append(line("assistant", f"a{k}", lines[-1]["uuid"], [use(f"toolu_{k}")]))
        lines.append({**line("user", f"r{k}", f"a{k}", [res(f"toolu_{k}")]), "toolUseResult": result})
    session = toolhist.load(write(tmp_path, *lines))
    kept = [m.metadata.extra.get("toolUseResult", "absent") for m in session.messages[2::2]]
    assert kept == [
        {"stderr": "", "interrupted": False, "isImage": False},
        {"type": "text", "numLines": 3},
        {"filePath": "/a.py", "userModified": False},
        {"status": "completed", "agentId": "a2898e3"},
        "absent",
        "Error: short",
        None,
    ]

    def strings(value: object) -> list[str]:
        if isinstance(value, str):
            return [value]
        if isinstance(value, dict):
            return [s for k, v in value.items() for s in (*strings(k), *strings(v))]
        if isinstance(value, list | tuple):
            return [s for v in value for s in strings(v)]
        return []

    longest = max(len(s) for m in session.messages for s in strings(m.metadata.extra))
    assert longest <= RESULT_KEPT_CHARS
