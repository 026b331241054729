"""Cline's ``api_conversation_history.json`` read as Cline sends it, and migrated to real results.

The history below is hand-made in the shapes Cline's code writes (cline/cline at
9ee618111d58630fea30b27439216448225458e0): native ``tool_use`` blocks whose results went through
``ToolResultUtils.pushToolResult``'s ``"cline"`` fallback (one text block ``[desc] Result:\\n…``),
``modelInfo``/``metrics``/``ts`` on messages, ``<environment_details>`` on every user turn.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from test_cli import run

import toolhist
from toolhist.agents.cline.send_path import INSERTED, RESULT_MISSING, cline_send_path
from toolhist.check import check
from toolhist.migrate import migrate
from toolhist.model import MessageMetadata, TextBlock, ToolResponseBlock
from toolhist.providers import PROVIDERS, render
from toolhist.ran_on import RanOn, ran_on

ENV = {"type": "text", "text": "<environment_details>\n# Current Mode\nACT MODE\n</environment_details>"}
INFO = {"modelId": "claude-sonnet-4-5-20250929", "providerId": "anthropic", "mode": "act"}
READ = "[read_file for 'calc.py'] Result:\ndef add(a, b):\n    return a - b\n"
SAVED = "[replace_in_file for 'calc.py'] Result:\nThe content was successfully saved to calc.py."
DIFF = "------- SEARCH\n    return a - b\n=======\n    return a + b\n+++++++ REPLACE"
CLINE: list[Any] = [
    {
        "role": "user",
        "content": [{"type": "text", "text": "<task>\nFix add() in calc.py\n</task>"}, ENV],
        "ts": 1,
    },
    {
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Reading the file."},
            {"type": "tool_use", "id": "toolu_01A", "name": "read_file", "input": {"path": "calc.py"}},
        ],
        "modelInfo": INFO,
        "metrics": {"tokens": {"prompt": 1200, "completion": 40, "cached": 0}, "cost": 0.004},
        "ts": 2,
    },
    {"role": "user", "content": [{"type": "text", "text": READ}, ENV], "ts": 3},
    {
        "role": "assistant",
        "content": [
            {
                "type": "tool_use",
                "id": "toolu_01B",
                "name": "replace_in_file",
                "input": {"path": "calc.py", "diff": DIFF},
            }
        ],
        "modelInfo": INFO,
        "ts": 4,
    },
    {"role": "user", "content": [{"type": "text", "text": SAVED}, ENV], "ts": 5},
    {
        "role": "assistant",
        "content": [{"type": "text", "text": "Fixed: add() now adds."}],
        "modelInfo": INFO,
        "ts": 6,
    },
]
NOTE = (
    "cline: 2 tool_use block(s) have no tool_result (their results, if any, are '[name …] Result:' text); "
    "Cline sends a tool_result 'result missing' for each, first in the next user message "
    "(ContextManager.ensureToolResultsFollowToolUse), and toolhist reads them so; "
    "`toolhist migrate FILE --to native` moves the result texts into the tool_result blocks"
)


def test_cline_text_results_read_as_cline_sends_them() -> None:
    session = toolhist.load(CLINE)
    assert (session.source.format, session.metadata["agent"], session.metadata["tool_style"]) == (
        "kilo",
        "cline",
        "native",
    )
    assert session.source.notes == (NOTE,)
    assert [m.speaker for m in session.messages] == ["human", "ai", "tool", "ai", "tool", "ai"]
    assert session.messages[2].blocks == (
        ToolResponseBlock(
            call_id="toolu_01A",
            tool_name="read_file",
            result=RESULT_MISSING,
            raw_call_id="toolu_01A",
            provider_data={INSERTED: True},
        ),
        TextBlock(text=READ),
        TextBlock(text=ENV["text"]),
    )
    body: Any = render(session, "anthropic").body
    assert body["messages"][2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "result missing"},
        {"type": "text", "text": READ},
        ENV,
    ]
    assert session.messages[1].metadata.provider == "anthropic"
    assert session.messages[1].metadata.model == "claude-sonnet-4-5-20250929"
    assert ran_on(session) == RanOn(
        "anthropic", "anthropic", "claude-sonnet-4-5-20250929", "message 5 metadata"
    )


def test_the_provider_cline_ran_on_accepts_it() -> None:
    result = check(CLINE)
    assert (result.judged, result.appended) == (
        "next-request",
        "a placeholder user turn (the log ends with the model's answer)",
    )
    assert {p: [v.rule for v in vs if v.severity == "error"] for p, vs in result.results.items()} == {
        "openai-chat": [],
        "openai-responses": [],
        "anthropic": [],
        "gemini": [],
        # Mistral would reject Anthropic's ids; a user turn right after tool messages is only a warning
        # now (mis.user_after_tool: recorded traffic shows Mistral accepting it, issue 16).
        "mistral": ["mis.id_format", "mis.id_format", "mis.id_format", "mis.id_format"],
        "kimi": [],
        "bedrock": [],
    }


def test_roo_and_kilo_files_are_not_replayed_through_clines_send_path() -> None:
    roo = [{k: v for k, v in m.items() if k not in ("modelInfo", "metrics")} for m in CLINE[:3]]
    roo[2] = {"role": "user", "content": [{"type": "text", "text": "what next?"}, ENV], "ts": 3}
    session = toolhist.load(roo)
    assert session.metadata["agent"] == "kilo"
    assert session.source.notes == ()
    assert [v.rule for v in check(roo, ["anthropic"]).results["anthropic"]] == ["ant.result_missing"]


def test_send_path_quirks_follow_clines_code() -> None:
    """Results reordered to the calls' order, unknown results dropped, string content emptied."""
    answers = [
        ENV,
        {"type": "tool_result", "tool_use_id": "toolu_01A", "content": "ok"},
        {"type": "tool_result", "tool_use_id": "toolu_zz", "content": "stray"},
    ]
    messages = [
        *CLINE[:2],
        {"role": "user", "content": answers},
        CLINE[3],
        {"role": "user", "content": "go on"},
    ]
    session = toolhist.load(messages)  # the reader replays the send path…
    out, notes = session.messages, list(session.source.notes)
    assert cline_send_path(list(out)) == (list(out), [])  # …once: replaying it again changes nothing
    assert [type(b).__name__ for b in out[2].blocks] == ["ToolResponseBlock", "TextBlock"]
    assert out[4].blocks == (
        ToolResponseBlock(
            call_id="toolu_01B",
            tool_name="replace_in_file",
            result=RESULT_MISSING,
            raw_call_id="toolu_01B",
            provider_data={INSERTED: True},
        ),
    )
    assert out[4].metadata == MessageMetadata(source_role="user", extra={"_content_form": "parts"})
    assert notes[1:] == [
        "cline: 1 tool_result block(s) answer no call of the assistant message before them and are not "
        "sent (ensureToolResultsFollowToolUse): toolu_zz",
        "cline: the text of message(s) 4 follows tool calls as a string and is not sent "
        "(ensureToolResultsFollowToolUse replaces string content with the results)",
    ]


def test_migrate_moves_the_result_texts_into_tool_results(tmp_path: Path) -> None:
    migration = migrate(CLINE)
    assert (migration.calls, migration.results, migration.issues, migration.changed) == (0, 2, (), True)
    history = migration.history
    assert isinstance(history[2], dict)
    assert isinstance(history[4], dict)
    assert history[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_01A", "content": READ},
        ENV,
    ]
    assert history[4]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_01B", "content": SAVED},
        ENV,
    ]
    migrated = toolhist.load(history)
    assert migrated.source.notes == ()
    assert migrated.messages[2].blocks[0] == ToolResponseBlock(
        call_id="toolu_01A", tool_name="read_file", result=READ, raw_call_id="toolu_01A"
    )
    assert migrate(history).changed is False
    f = tmp_path / "api_conversation_history.json"
    f.write_text(json.dumps(CLINE))
    out = run("migrate", str(f), "--to", "native", "-o", str(tmp_path / "out.json"))
    assert out.returncode == 0, out.stderr
    assert (
        out.stdout == f"{f}: 0 call(s) and 2 result(s) restored as native blocks -> {tmp_path / 'out.json'}\n"
    )
    assert {p for p in PROVIDERS if check(str(tmp_path / "out.json"), [p]).errors()} == {"mistral"}


def test_migrate_reports_a_call_no_text_answers() -> None:
    history = copy.deepcopy(CLINE[:5])
    history[1]["content"].append({"type": "tool_use", "id": "toolu_01C", "name": "list_files", "input": {}})
    migration = migrate(history)
    assert migration.results == 2
    assert [(i.kind, i.message_index, i.tool_name, i.call_id, i.detail) for i in migration.issues] == [
        (
            "unrecoverable",
            2,
            "list_files",
            "toolu_01C",
            "no result text answers this call: Cline sends 'result missing' in its place",
        )
    ]
    migrated: Any = migration.history
    assert migrated[2]["content"] == [
        {"type": "tool_result", "tool_use_id": "toolu_01A", "content": READ},
        ENV,
    ]


def test_cline_xml_era_results_are_one_text_block_with_the_marker() -> None:
    """Before native calls Cline wrote ``${description} Result:\\n${resultText}`` as one text block."""
    xml = [
        {"role": "user", "content": [{"type": "text", "text": "<task>\nread a.py\n</task>"}, ENV]},
        {
            "role": "assistant",
            "content": [{"type": "text", "text": "Reading.\n\n<read_file>\n<path>a.py</path>\n</read_file>"}],
        },
        {
            "role": "user",
            "content": [{"type": "text", "text": "[read_file for 'a.py'] Result:\nprint(1)"}, ENV],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "Done."}]},
    ]
    session = toolhist.load(xml)
    assert (session.metadata["agent"], session.metadata["tool_style"]) == ("kilo", "xml")
    migration = migrate(xml)
    assert (migration.calls, migration.results, migration.issues) == (1, 1, ())
    history: Any = migration.history
    call_id = history[1]["content"][1]["id"]
    assert history[1]["content"][1] == {
        "type": "tool_use",
        "id": call_id,
        "name": "read_file",
        "input": {"path": "a.py"},
    }
    assert history[2]["content"] == [
        {
            "type": "tool_result",
            "tool_use_id": call_id,
            "content": [{"type": "text", "text": "[read_file for 'a.py'] Result:\nprint(1)"}],
        },
        ENV,
    ]
