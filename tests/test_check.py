"""``toolhist check``: the verdict per provider, a captured body validated as sent, exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import run

from toolhist.check import check
from toolhist.providers import PROVIDERS

STUCK = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "list files"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
            ],
        },
        {"role": "user", "content": "never mind"},
        {"role": "tool", "tool_call_id": "call_1", "content": "a.py"},
    ],
}


def test_captured_body_is_checked_as_sent(tmp_path: Path) -> None:
    f = tmp_path / "stuck.json"
    f.write_text(json.dumps(STUCK))
    result = check(str(f), ["openai-chat"])
    assert result.as_sent == ("openai-chat",)
    assert [(v.rule, v.path, v.message_index, v.call_ids) for v in result.results["openai-chat"]] == [
        ("oai.call_unanswered", "messages[1].role", 1, ("call_1",)),
        ("oai.tool_orphan", "messages[3].role", 3, ("call_1",)),
    ]
    assert result.results["openai-chat"][0].error_text == (
        "An assistant message with 'tool_calls' must be followed by tool messages responding to each "
        "'tool_call_id'. The following tool_call_ids did not have response messages: call_1"
    )
    assert result.errors() == 2


def test_check_cli_json_shape_and_exit_codes(tmp_path: Path) -> None:
    f = tmp_path / "stuck.json"
    f.write_text(json.dumps(STUCK))
    out = run("check", str(f), "--provider", "openai-chat", "--json")
    assert out.returncode == 1
    data = json.loads(out.stdout)
    # DESIGN §6's four keys, plus what the reader said (issue 17: skipped and unsent records) and the
    # judgement (added, none renamed): a request body is judged as sent.
    assert set(data) == {
        "file",
        "format",
        "messages",
        "results",
        "notes",
        "skipped",
        "unsent",
        "judged",
        "appended",
        "ran_on",
    }
    assert (data["file"], data["format"], data["messages"]) == (str(f), "openai-chat", 4)
    assert (data["notes"], data["skipped"], data["unsent"]) == ([], {}, {})
    assert (data["judged"], data["appended"], data["ran_on"]) == ("as-sent", None, None)
    violation = data["results"]["openai-chat"]["violations"][1]
    assert violation == {
        "provider": "openai-chat",
        "rule": "oai.tool_orphan",
        "severity": "error",
        "path": "messages[3].role",
        "message_index": 3,
        "block_index": 0,
        "call_ids": ["call_1"],
        "error_text": "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        "source": "miurla/morphic#136; smarter-sh/smarter#264; microsoft/autogen PR#3178; dates: "
        "miurla/morphic#136 2024-05 (gpt-4-turbo), smarter-sh/smarter#264 2025-01 (gpt-4-turbo); "
        "Chevey339/kelivo#298 (OpenAI behind OpenRouter, 2026-01); sdcb/chats PR#132 (2026-04); "
        "itmisx/deepx-code#94 (DeepSeek's capitalised wording, 2026-06)",
        "fix": "move_results (or synthesize_calls when the call is gone)",
    }
    fixed = dict(STUCK, messages=[STUCK["messages"][0], STUCK["messages"][1], STUCK["messages"][3]])
    f.write_text(json.dumps(fixed))
    out = run("check", str(f), "--provider", "openai-chat")
    assert out.returncode == 0, out.stdout
    assert out.stdout.splitlines() == [
        f"{f}: openai-chat, 3 messages",
        "judged as sent (a request body)",
        "openai-chat       ok (the body as sent)",
    ]


def test_check_bad_provider_and_bad_file_exit_2(tmp_path: Path) -> None:
    f = tmp_path / "ok.json"
    f.write_text(json.dumps(STUCK))
    out = run("check", str(f), "--provider", "nope")
    assert (out.returncode, out.stderr.strip()) == (
        2,
        "toolhist: error: unknown provider 'nope'; choose one of: " + ", ".join(PROVIDERS),
    )
    f.write_text("{")
    assert run("check", str(f)).returncode == 2


def test_render_prints_the_exact_body(tmp_path: Path) -> None:
    f = tmp_path / "stuck.json"
    f.write_text(json.dumps(STUCK))
    out = run("render", str(f), "--provider", "openai-chat")
    assert out.returncode == 0
    assert json.loads(out.stdout) == STUCK
    payload = json.loads(run("render", str(f), "--provider", "openai-chat", "--json").stdout)
    assert payload["provider"] == "openai-chat"
    assert payload["body"] == STUCK
    assert payload["source_map"]["messages[1].tool_calls[0]"] == [1, 0]
    assert payload["omitted"] == []


def test_rules_lists_slugs_with_texts() -> None:
    out = run("rules", "--provider", "openai-chat", "--json")
    assert out.returncode == 0
    rules = {r["rule"]: r for r in json.loads(out.stdout)}
    assert rules["oai.dup_tool_result"]["error_text"] == (
        "Invalid parameter: Duplicate value for 'tool_call_id' of '{id}', in messages[{first}] and messages[{second}]."
    )
    assert rules["ds.reasoning_required"]["model_dependent"] is True
