"""Codex rollout reader: response items grouped as Responses input, local shell calls, compaction, errors."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.model import ThinkingBlock, ToolCallBlock


def rec(kind: str, payload: dict[str, Any]) -> dict[str, Any]:
    return {"timestamp": "2025-10-02T09:12:00.000Z", "type": kind, "payload": payload}


def item(payload: dict[str, Any]) -> dict[str, Any]:
    return rec("response_item", payload)


def user(text: str) -> dict[str, Any]:
    return item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})


def call(cid: str, name: str = "shell") -> dict[str, Any]:
    return item({"type": "function_call", "name": name, "arguments": '{"command":["ls"]}', "call_id": cid})


def output(cid: str, text: str = "ok") -> dict[str, Any]:
    return item({"type": "function_call_output", "call_id": cid, "output": text})


META = rec(
    "session_meta", {"id": "0199", "cwd": "/repo", "originator": "codex_cli_rs", "cli_version": "0.44.0"}
)
TURN = rec("turn_context", {"cwd": "/repo", "model": "gpt-5-codex", "approval_policy": "on-request"})


def write(tmp_path: Path, *lines: dict[str, Any]) -> Path:
    path = tmp_path / "rollout-2025-10-02T09-12-00-0199.jsonl"
    path.write_bytes(b"".join(json.dumps(x).encode() + b"\n" for x in lines))
    return path


def test_items_grouped_into_turns_with_reasoning_and_calls(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        META,
        TURN,
        user("fix the build"),
        item(
            {
                "type": "reasoning",
                "summary": [{"type": "summary_text", "text": "**Looking**"}],
                "encrypted_content": "gAAA",
            }
        ),
        call("call_1"),
        rec("event_msg", {"type": "exec_command_end", "call_id": "call_1", "exit_code": 0}),
        output("call_1"),
        item(
            {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Fixed."}]}
        ),
    )
    session = toolhist.load(path)
    assert session.source.format == "codex"
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai"]
    thinking, fc = session.messages[1].blocks
    assert isinstance(thinking, ThinkingBlock)
    assert (thinking.text, thinking.data) == ("**Looking**", "gAAA")
    assert isinstance(fc, ToolCallBlock)
    assert (fc.id, fc.name, fc.parameters) == (
        "call_1",
        "shell",
        {"command": ["ls"]},
    )
    assert [loc.line for loc in session.source.locations] == [3, 4, 7, 8]
    assert session.request == {"model": "gpt-5-codex"}
    assert session.metadata["session_meta"] == {
        "id": "0199",
        "cwd": "/repo",
        "originator": "codex_cli_rs",
        "cli_version": "0.44.0",
    }
    assert session.metadata["events"] == {"event_msg:exec_command_end": 1}
    assert toolhist.validate(session, "openai-responses") == []


def test_local_shell_call_pairs_with_its_function_call_output(tmp_path: Path) -> None:
    shell = {
        "type": "local_shell_call",
        "call_id": "call_sh",
        "status": "completed",
        "action": {"type": "exec", "command": ["pwd"]},
    }
    path = write(tmp_path, user("where am I"), item(shell), output("call_sh", "/repo"))
    session = toolhist.load(path)
    (fc,) = session.messages[1].tool_calls()
    assert (fc.id, fc.name, fc.parameters) == ("call_sh", "local_shell", {"type": "exec", "command": ["pwd"]})
    assert fc.provider_data["codex_item"] == shell
    assert [r.tool_name for r in session.messages[2].tool_responses()] == ["local_shell"]
    assert "1 local_shell_call item(s) read as calls named 'local_shell'" in session.source.notes


def test_compaction_with_replacement_history_resets_the_items(tmp_path: Path) -> None:
    replacement = [
        {"type": "message", "role": "user", "content": [{"type": "input_text", "text": "summary"}]}
    ]
    path = write(
        tmp_path,
        user("one"),
        call("call_1"),
        output("call_1"),
        rec("compacted", {"message": "", "replacement_history": replacement}),
        user("two"),
    )
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "human"]
    assert [loc.line for loc in session.source.locations] == [4, 5]
    assert session.metadata["compactions"] == [{"line": 4, "replaced_items": 3, "kept_items": 1}]
    assert (
        "line 4: compaction replaced 3 items with 1 (earlier items are not in the history Codex sends after it)"
        in (session.source.notes)
    )


def test_compaction_without_replacement_keeps_user_messages_and_the_summary(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        user("one"),
        call("call_1"),
        output("call_1"),
        rec("compacted", {"message": "we listed files"}),
    )
    session = toolhist.load(path)
    texts = [b.text for m in session.messages for b in m.blocks if b.type == "text"]
    assert texts == ["one", "we listed files"]


@pytest.mark.parametrize(
    ("bad", "note"),
    [
        (
            rec("compacted", {}),
            "line 2: skipped a record of kind `compacted` whose `payload.message` is missing: "
            "a compaction needs a string 'message'",
        ),
        (
            rec("event_msg", {"type": "thread_rolled_back", "num_turns": "one"}),
            "line 2: skipped a record of kind `event_msg` whose `payload.num_turns` is a string: "
            "expected a non-negative integer",
        ),
    ],
)
def test_a_line_codex_could_not_parse_is_skipped_and_named(
    tmp_path: Path, bad: dict[str, Any], note: str
) -> None:
    """Codex's RolloutRecorder::load_rollout_items skips a line that does not parse as a RolloutLine
    (serde refuses a CompactedItem without ``message``, a rollback whose ``num_turns`` is a string),
    so the reader does too, and says so."""
    path = write(tmp_path, META, bad)
    for fmt in (None, "codex"):  # named, and sniffed: the broken line does not hide the format
        session = toolhist.load(path, format=fmt)
        assert note in session.source.notes
        assert session.source.skipped == {f"unreadable {bad['type']}": 1}


@pytest.mark.parametrize(
    ("bad", "note"),
    [
        (
            item({"type": "function_call", "name": "shell", "arguments": "{}"}),
            "line 3: skipped a record of kind `response_item` whose `payload.call_id` is missing: "
            "expected a string, got null",
        ),
        (
            item({"type": "function_call", "name": "shell", "call_id": "call_1", "arguments": None}),
            "line 3: skipped a record of kind `response_item` whose `payload.arguments` is null: "
            "expected a string, got null",
        ),
    ],
)
def test_an_item_its_reader_refuses_is_skipped_and_named(
    tmp_path: Path, bad: dict[str, Any], note: str
) -> None:
    """One bad record of a known kind does not make the rollout unreadable (Codex's own
    RolloutRecorder::load_rollout_items skips what it cannot parse)."""
    path = write(
        tmp_path,
        META,
        item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hi"}]}),
        bad,
    )
    for fmt in (None, "codex"):
        session = toolhist.load(path, format=fmt)
        assert session.source.skipped == {"unreadable response_item": 1}
        assert [m.speaker for m in session.messages] == ["human"]
        assert note in session.source.notes


# Shapes below follow real rollouts: ghost_snapshot lines as Codex 0.5x-0.6x wrote them each turn
# (ghost_commit id/parent/preexisting_untracked_*), custom_tool_call/_output as codex-rs's own
# ResponseItem tests spell them; content is ours.
META_NEW = rec(
    "session_meta", {"id": "019a", "cwd": "/repo", "originator": "codex_cli_rs", "cli_version": "0.63.0"}
)


def ghost(commit: str) -> dict[str, Any]:
    return item(
        {
            "type": "ghost_snapshot",
            "ghost_commit": {
                "id": commit,
                "parent": "4272a68a",
                "preexisting_untracked_files": [],
                "preexisting_untracked_dirs": [],
            },
        }
    )


PATCH = "*** Begin Patch\n*** Update File: app.js\n@@\n-const a = 1;\n+const a = 2;\n*** End Patch\n"


def patch_call(cid: str, patch: str = PATCH) -> dict[str, Any]:
    return item(
        {
            "type": "custom_tool_call",
            "status": "completed",
            "call_id": cid,
            "name": "apply_patch",
            "input": patch,
        }
    )


def patch_output(cid: str) -> dict[str, Any]:
    return item(
        {
            "type": "custom_tool_call_output",
            "call_id": cid,
            "output": '{"output":"Success. Updated the following files:\\nM app.js\\n","metadata":{"exit_code":0}}',
        }
    )


def test_ghost_snapshots_are_kept_unsent_not_rendered(tmp_path: Path) -> None:
    path = write(tmp_path, META_NEW, TURN, ghost("aaa"), user("bump a"), ghost("bbb"), patch_call("call_p"))
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "ai"]
    assert [(u.kind, u.before, u.line, u.data["ghost_commit"]["id"]) for u in session.unsent] == [  # type: ignore[index,call-overload]
        ("ghost_snapshot", 0, 3, "aaa"),
        ("ghost_snapshot", 1, 5, "bbb"),
    ]
    assert "2 item(s) Codex keeps but never sends (session.unsent): ghost_snapshot x2" in session.source.notes
    for provider in toolhist.PROVIDERS:
        body = json.dumps(toolhist.render(session, provider).body)
        assert "ghost" not in body, provider


def test_a_lone_snapshot_is_no_empty_assistant_message(tmp_path: Path) -> None:
    path = write(tmp_path, META_NEW, user("hi"), ghost("aaa"), user("again"))
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "human"]
    body = toolhist.render(session, "openai-chat").body
    assert body["messages"] == [{"role": "user", "content": "hi"}, {"role": "user", "content": "again"}]


def _strings(value: Any) -> list[str]:
    """Every string in a body, argument strings (JSON text) opened too."""
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    if isinstance(value, str) and value.startswith("{"):
        try:
            return [value, *_strings(json.loads(value))]
        except ValueError:
            return [value]
    return [value] if isinstance(value, str) else []


def test_freeform_patches_are_kept_byte_for_byte_for_every_provider(tmp_path: Path) -> None:
    path = write(tmp_path, META_NEW, user("bump a"), patch_call("call_p"), patch_output("call_p"))
    session = toolhist.load(path)
    fc = session.messages[1].blocks[0]
    assert isinstance(fc, ToolCallBlock)
    assert (fc.name, fc.freeform_input, fc.parameters) == ("apply_patch", PATCH, {"input": PATCH})
    responses = toolhist.render(session, "openai-responses")
    assert responses.body["input"][1:] == [  # type: ignore[index]
        {"type": "custom_tool_call", "call_id": "call_p", "name": "apply_patch", "input": PATCH},
        {
            "type": "custom_tool_call_output",
            "call_id": "call_p",
            "output": '{"output":"Success. Updated the following files:\\nM app.js\\n","metadata":{"exit_code":0}}',
        },
    ]
    assert responses.omitted == ()
    chat: Any = toolhist.render(session, "openai-chat").body
    assert json.loads(chat["messages"][1]["tool_calls"][0]["function"]["arguments"]) == {"input": PATCH}
    anthropic = toolhist.render(session, "anthropic")
    ant_body: Any = anthropic.body
    assert ant_body["messages"][1]["content"][0]["input"] == {"input": PATCH}
    assert anthropic.omitted[-1:] == (
        "1 freeform tool call(s) ('apply_patch' x1) sent as {\"input\": <text>}: anthropic has no freeform tools; "
        "the text is carried whole",
    )
    for provider in toolhist.PROVIDERS:
        assert _strings(toolhist.render(session, provider).body).count(PATCH) == 1, provider
        if provider != "openai-responses":
            assert sum("freeform" in line for line in toolhist.render(session, provider).omitted) == 1


def test_unknown_record_kinds_are_skipped_counted_and_named(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        META_NEW,
        user("hi"),
        rec("inter_agent_communication_metadata", {"agent": "worker-1"}),
        rec("token_usage_record", {"input_tokens": 10}),
        rec("token_usage_record", {"input_tokens": 12}),
        item({"type": "agent_message", "content": "x"}),
        {"timestamp": "t", "type": "response_item", "payload": []},
        user("again"),
    )
    session = toolhist.load(path)
    assert [m.speaker for m in session.messages] == ["human", "human"]
    assert session.source.skipped == {
        "line type 'inter_agent_communication_metadata'": 1,
        "line type 'token_usage_record'": 2,
        "response_item line whose payload is not an object": 1,
        "response_item type 'agent_message'": 1,
    }
    assert session.metadata["cli_version"] == "0.63.0"
    assert session.source.notes[-1] == (
        "skipped 5 record(s) this reader does not know: line type 'inter_agent_communication_metadata' x1 "
        "(first on line 3), line type 'token_usage_record' x2 (first on line 4), response_item line whose "
        "payload is not an object x1 (first on line 7), response_item type 'agent_message' x1 (first on line 6); "
        "Codex skips what it cannot parse too (RolloutRecorder::load_rollout_items); written by Codex CLI "
        "0.63.0, which has record kinds this reader does not know"
    )


def test_check_shows_skipped_and_unsent_and_reads_the_rollout(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from toolhist.cli import cli

    path = write(
        tmp_path,
        META_NEW,
        ghost("aaa"),
        user("hi"),
        rec("inter_agent_communication_metadata", {"agent": "worker-1"}),
    )
    human = CliRunner().invoke(cli, ["check", str(path), "--provider", "anthropic"])
    assert human.exit_code == 0, human.output
    notes = [f"note: {n}" for n in toolhist.load(path).source.notes]
    assert len(notes) == 2
    assert human.output.splitlines() == [
        f"{path}: codex, 1 messages",
        "judged as the next request the agent would send: its history as logged (it ends with the new input)",
        "ran on openai-responses (session_meta without model_provider: Codex's default)",
        "anthropic         ok",
        "kept, not sent: ghost_snapshot x1",
        "skipped (the reader does not know it): line type 'inter_agent_communication_metadata' x1",
        *notes,
    ]
    data = json.loads(
        CliRunner().invoke(cli, ["check", str(path), "--provider", "anthropic", "--json"]).output
    )
    assert (data["skipped"], data["unsent"]) == (
        {"line type 'inter_agent_communication_metadata'": 1},
        {"ghost_snapshot": 1},
    )
    assert data["notes"][-1].startswith("skipped 1 record(s) this reader does not know")


def test_the_canonical_json_keeps_unsent_skipped_and_freeform(tmp_path: Path) -> None:
    path = write(
        tmp_path,
        META_NEW,
        ghost("aaa"),
        user("hi"),
        rec("wrapper_meta", {}),
        patch_call("call_p"),
        ghost("bbb"),
    )
    session = toolhist.load(path)
    assert [u.before for u in session.unsent] == [0, 2]
    again = toolhist.load(session.to_json())
    assert (again.unsent, again.source.skipped, again.messages) == (
        session.unsent,
        {"line type 'wrapper_meta'": 1},
        session.messages,
    )


def test_a_system_item_is_kept_unsent(tmp_path: Path) -> None:
    system = item(
        {"type": "message", "role": "system", "content": [{"type": "input_text", "text": "be terse"}]}
    )
    session = toolhist.load(write(tmp_path, META, system, user("hi")))
    assert [m.speaker for m in session.messages] == ["human"]
    assert [(u.kind, u.before, u.text, u.data) for u in session.unsent] == [
        ("system message", 0, "be terse", {"type": "message", "role": "system"})
    ]


def test_a_file_with_no_rollout_line_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, rec("token_usage_record", {}), {"x": 1})
    with pytest.raises(LoadError) as info:
        toolhist.load(path, format="codex")
    assert info.value.reason == (
        "not a valid codex log: no Codex rollout line (types compacted, event_msg, response_item, "
        "session_meta, turn_context, world_state) in this file"
    )


def test_a_rollback_drops_the_newest_user_turns_as_codex_replays_it(tmp_path: Path) -> None:
    """``thread_rolled_back`` cuts at the n-th user turn from the end (Codex's
    ``drop_last_n_user_turns``); Codex's own context messages are not turns."""
    env = user("<environment_context><cwd>/repo</cwd></environment_context>")
    rollback = rec("event_msg", {"type": "thread_rolled_back", "num_turns": 1})
    lines = (META, env, user("one"), call("c1"), output("c1"), user("two"), call("c2"), rollback)
    path = write(tmp_path, *lines)
    session = toolhist.load(path)
    texts = [b.text for m in session.messages for b in m.blocks if b.type == "text"]
    assert texts == ["<environment_context><cwd>/repo</cwd></environment_context>", "one"]
    assert [c.name for m in session.messages for c in m.tool_calls()] == ["shell"]
    assert [(u.kind, u.line, u.before) for u in session.unsent] == [
        ("rolled back message", 6, len(session.messages)),
        ("rolled back function_call", 7, len(session.messages)),
    ]
    assert session.unsent[0].text == "two"
    assert (
        "line 8: thread rolled back 1 user turn(s); 2 item(s) dropped from the history Codex sends "
        "(shown as unsent)" in session.source.notes
    )


def test_a_rollback_past_the_first_turn_keeps_what_came_before_it(tmp_path: Path) -> None:
    env = user("<environment_context><cwd>/repo</cwd></environment_context>")
    rollback = rec("event_msg", {"type": "thread_rolled_back", "num_turns": 5})
    path = write(tmp_path, env, user("one"), user("two"), rollback, user("three"))
    session = toolhist.load(path)
    texts = [b.text for m in session.messages for b in m.blocks if b.type == "text"]
    assert texts == ["<environment_context><cwd>/repo</cwd></environment_context>", "three"]
    assert [u.text for u in session.unsent] == ["one", "two"]


def test_a_rollback_without_user_turns_changes_nothing(tmp_path: Path) -> None:
    rollback = rec("event_msg", {"type": "thread_rolled_back", "num_turns": 1})
    path = write(tmp_path, call("c1"), output("c1"), rollback)
    session = toolhist.load(path)
    assert len(session.messages) == 2
    assert session.unsent == ()


def test_tool_search_items_are_replayed_whole_and_a_compaction_trigger_is_unsent(tmp_path: Path) -> None:
    """Codex's ``is_api_message`` is true for ToolSearchCall/ToolSearchOutput, false for
    CompactionTrigger; the shapes are those Codex 0.146 writes (execution ``local``)."""
    search = {"type": "tool_search_call", "call_id": "ts", "execution": "local", "arguments": {"query": "x"}}
    found = {"type": "tool_search_output", "call_id": "ts", "execution": "local", "tools": []}
    trigger = {"type": "compaction_trigger"}
    path = write(
        tmp_path, user("find a tool"), item(search), item(found), item(trigger), call("c1"), output("c1")
    )
    session = toolhist.load(path)
    body: Any = toolhist.render(session, "openai-responses").body
    assert [i.get("type", "message") for i in body["input"]] == [
        "message",
        "tool_search_call",
        "tool_search_output",
        "function_call",
        "function_call_output",
    ]
    assert body["input"][1] == search
    assert body["input"][2] == found
    assert [(u.kind, u.line) for u in session.unsent] == [("compaction_trigger", 4)]
    assert session.source.skipped == {}


def test_a_call_left_without_output_before_a_new_turn_is_answered_aborted(tmp_path: Path) -> None:
    """Codex's ``ensure_call_outputs_present`` inserts ``"aborted"`` right after such a call before
    sending; a call of the last turn stays pending for the judgement."""
    custom = item({"type": "custom_tool_call", "call_id": "p1", "name": "apply_patch", "input": "*** Begin"})
    path = write(tmp_path, user("one"), call("c1"), custom, user("never mind"), call("c2"))
    session = toolhist.load(path)
    body: Any = toolhist.render(session, "openai-responses").body
    assert [(i.get("type", "message"), i.get("call_id"), i.get("output")) for i in body["input"]] == [
        ("message", None, None),
        ("function_call", "c1", None),
        ("function_call_output", "c1", "aborted"),
        ("custom_tool_call", "p1", None),
        ("custom_tool_call_output", "p1", "aborted"),
        ("message", None, None),
        ("function_call", "c2", None),
    ]
    assert (
        "Codex answers 2 call(s) that have no output with 'aborted' before sending "
        "(ensure_call_outputs_present): c1, p1" in session.source.notes
    )
    marked = [
        b.call_id for m in session.messages for b in m.tool_responses() if "_synthetic" in b.provider_data
    ]
    assert marked == ["c1", "p1"]


def test_an_output_without_its_call_is_dropped_unsent(tmp_path: Path) -> None:
    path = write(tmp_path, user("one"), output("gone"), call("c1"), output("c1"))
    session = toolhist.load(path)
    assert [(u.kind, u.line, u.before) for u in session.unsent] == [("orphan function_call_output", 2, 1)]
    assert sum(len(list(m.tool_responses())) for m in session.messages) == 1


def test_a_legacy_rollout_without_envelopes_is_read(tmp_path: Path) -> None:
    """Codex before session_meta lines (codex-rs/core/src/rollout.rs, mid-2025): a bare SessionMeta
    header, bare ResponseItems and ``record_type: state`` lines, which are state, not history."""
    header = {
        "id": "0c8d",
        "timestamp": "2025-07-20T10:00:00.000Z",
        "instructions": None,
        "git": {"branch": "m"},
    }
    state = {"record_type": "state"}
    bare = [
        {"type": "message", "id": None, "role": "user", "content": [{"type": "input_text", "text": "ls"}]},
        {
            "type": "function_call",
            "id": "fc_1",
            "name": "shell",
            "arguments": '{"command":["ls"]}',
            "call_id": "c1",
        },
        {"type": "function_call_output", "call_id": "c1", "output": "a"},
        {
            "type": "message",
            "id": "msg_1",
            "role": "assistant",
            "content": [{"type": "output_text", "text": "a"}],
        },
    ]
    path = tmp_path / "rollout-2025-07-20T10-00-00-0c8d.jsonl"
    path.write_text("".join(json.dumps(x) + "\n" for x in [header, state, *bare, state]))
    session = toolhist.load(path)
    assert session.source.format == "codex"
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai"]
    assert session.metadata["session_meta"] == header
    assert "event lines (not sent to the model): record_type:state x2" in session.source.notes
    assert session.source.skipped == {}


def test_a_kept_record_stays_where_it_was_logged_when_codex_drops_or_inserts_outputs(tmp_path: Path) -> None:
    # Codex inserts an 'aborted' output after an interrupted call and drops an output without its call
    # (normalize): a snapshot logged after either stays before the message it was logged before (it
    # was counted among the items as logged: one message early per output inserted, one late per drop)
    path = write(
        tmp_path,
        META_NEW,
        TURN,
        user("one"),
        call("c1"),  # interrupted: Codex answers it 'aborted' at the next user turn
        ghost("aaa"),
        user("two"),
        output("gone"),  # no call: dropped
        ghost("bbb"),
        user("three"),
    )
    session = toolhist.load(path)
    texts = [m.speaker for m in session.messages]
    assert texts == ["human", "ai", "tool", "human", "human"]
    assert [(u.kind, u.line, u.before) for u in session.unsent] == [
        ("ghost_snapshot", 5, 3),  # after the call and Codex's output for it, before "two"
        ("orphan function_call_output", 7, 4),
        ("ghost_snapshot", 8, 4),  # before "three"
    ]
    logged = path.read_text().splitlines()
    for u in session.unsent:
        assert u.line is not None
        line = logged[u.line - 1]
        assert json.loads(line)["payload"]["type"] in {"ghost_snapshot", "function_call_output"}
