"""``toolhist explain`` from the command line, with and without the session file."""

from __future__ import annotations

import json
from pathlib import Path

from test_cli import run

ORPHAN_BODY = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "hi"},
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {"id": "call_1", "type": "function", "function": {"name": "ls", "arguments": "{}"}}
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "a"},
        {"role": "tool", "tool_call_id": "call_2", "content": "b"},
    ],
}
WRAPPED = (
    'litellm.BadRequestError: OpenAIException - Error code: 400 - {"error": {"message": '
    "\"Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.\", "
    '"type": "invalid_request_error", "param": "messages.[3].tool_call_id", "code": null}}'
)


def test_explain_points_at_the_culprit(tmp_path: Path) -> None:
    f = tmp_path / "body.json"
    f.write_text(json.dumps(ORPHAN_BODY))
    out = run("explain", "--text", WRAPPED, str(f), "--json")
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert (data["provider"], data["rule"], data["message_index"]) == (
        "openai-chat",
        "oai.tool_id_unknown",
        3,
    )
    assert (
        data["error_text"]
        == "Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message."
    )
    assert data["call_ids"] == ["call_2"]
    text = run("explain", "--text", WRAPPED, str(f))
    assert text.stdout.splitlines()[:4] == [
        "provider  openai-chat",
        "rule      oai.tool_id_unknown",
        "error     Invalid parameter: 'tool_call_id' of 'call_2' not found in 'tool_calls' of previous message.",
        "culprit   message 3, block 0",
    ]


def test_explain_unknown_text_and_usage(tmp_path: Path) -> None:
    out = run("explain", "--text", "the server is on fire")
    assert (out.returncode, out.stdout.strip()) == (0, "unknown: no known provider error pattern matched")
    both = run("explain", "--text", "x", "--text-file", __file__)
    assert both.returncode == 2
    assert (
        both.stderr.strip()
        == "toolhist: error: give the error text with exactly one of --text or --text-file"
    )
    neither = run("explain")
    assert neither.returncode == 2


GEMINI_FC = "Please ensure that function call turn comes immediately after a user turn or after a function response turn."
SAMPLES = Path(__file__).parent.parent / "sample_logs"


def test_a_text_that_names_no_message_is_led_to_the_files_own_error() -> None:
    # Gemini's texts name no message: the file's gemini verdict says where (`toolhist.explain.in_verdict`)
    out = run("explain", "--text", GEMINI_FC, str(SAMPLES / "llxprt_icontent.json"))
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines()[:4] == [
        "provider  gemini",
        "rule      gem.fc_position",
        f"error     {GEMINI_FC}",
        "in file   message 4 (the first of 1 gem.fc_position error(s) in this file's gemini verdict; "
        "the text names no message)",
    ]
    elsewhere = run("explain", "--text", GEMINI_FC, str(SAMPLES / "openai_chat_request.json"))
    assert elsewhere.stdout.splitlines()[3] == (
        "in file   no gem.fc_position error in this file's gemini verdict "
        "(the text names no message: the 400 may be about another history)"
    )
    alone = run("explain", "--text", GEMINI_FC)  # no file: nothing to look in
    assert [line[:9] for line in alone.stdout.splitlines()] == [
        "provider ",
        "rule     ",
        "error    ",
        "meaning  ",
        "fix      ",
    ]
