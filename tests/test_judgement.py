"""The two judgements (DESIGN §2): request bodies as sent, agent logs as the next request."""

from __future__ import annotations

import json
from pathlib import Path

from builders import ai, call, human, result, session, tool
from test_cli import run

from toolhist.check import check, judged_verdict
from toolhist.judgement import (
    NEXT_TURN_TEXT,
    PENDING_RESULT_TEXT,
    describe,
    judge,
    judgement_of,
)
from toolhist.model import Session, SessionSource, TextBlock, ToolResponseBlock
from toolhist.readers import FORMATS

SAMPLES = Path(__file__).parent.parent / "sample_logs"


def _as(fmt: str, s: Session) -> Session:
    return s.model_copy(update={"source": SessionSource(format=fmt)})


def test_every_format_has_its_judgement() -> None:
    assert {f: judgement_of(_as(f, session())) for f in FORMATS} == {
        "openai-chat": "as-sent",
        "openai-responses": "as-sent",
        "anthropic": "as-sent",
        "gemini": "as-sent",
        "bedrock": "as-sent",
        "icontent": "next-request",
        "kilo": "next-request",
        "gemini-cli": "next-request",
        "vscode": "next-request",
        "otel-genai": "next-request",
        "llxprt-debug": "next-request",
        "llxprt-checkpoint": "next-request",
        "claude-code": "next-request",
        "codex": "next-request",
        "toolhist": "as-sent",
        # agents added by issue 27: their logs are judged as the next request
        **dict.fromkeys(("opencode", "crush", "goose", "zed"), "next-request"),
        **dict.fromkeys(
            ("vscode-jsonl", "copilot-cli", "continue", "cursor", "cursor-transcript"), "next-request"
        ),
        **dict.fromkeys(("pi", "kimi-cli", "qwen-code", "openhands", "codex-exec", "amp"), "next-request"),
        # frameworks added by issue 28: a history the application keeps, judged as its next request
        **dict.fromkeys(
            (
                "pydantic-ai",
                "langchain",
                "langgraph",
                "openai-agents",
                "inspect-ai",
                "swe-agent",
                "mini-swe-agent",
                "atif",
                "smolagents",
            ),
            "next-request",
        ),
    }


def test_a_request_body_is_judged_as_it_stands() -> None:
    s = _as("anthropic", session(human("hi"), ai("hello")))
    judged = judge(s)
    assert (judged.judgement, judged.session, judged.appended, judged.tail) == ("as-sent", s, None, ())
    assert judged.describe() == "judged as sent (a request body)"


def test_a_finished_log_gets_a_placeholder_user_turn() -> None:
    s = _as("claude-code", session(human("hi"), ai(call("c1")), tool(result("c1")), ai("done")))
    judged = judge(s)
    assert judged.judgement == "next-request"
    assert judged.session.messages[:4] == s.messages
    (turn,) = judged.tail
    assert judged.session.messages[4] == turn
    assert (turn.speaker, turn.blocks, turn.metadata.synthetic) == (
        "human",
        (TextBlock(text=NEXT_TURN_TEXT),),
        True,
    )
    assert judged.describe() == (
        "judged as the next request the agent would send: its history + a placeholder user turn "
        "(the log ends with the model's answer)"
    )


def test_pending_calls_get_placeholder_results() -> None:
    s = _as("codex", session(human("hi"), ai(call("c1"), call("c2", "grep"))))
    judged = judge(s)
    (results,) = judged.tail
    assert results.speaker == "tool"
    assert results.blocks == (
        ToolResponseBlock(call_id="c1", tool_name="read_file", result=PENDING_RESULT_TEXT, raw_call_id="c1"),
        ToolResponseBlock(call_id="c2", tool_name="grep", result=PENDING_RESULT_TEXT, raw_call_id="c2"),
    )
    assert judged.appended == "placeholder results for 2 pending call(s): c1, c2"


def test_results_logged_so_far_are_completed_in_their_message() -> None:
    s = _as("gemini-cli", session(human("hi"), ai(call("c1"), call("c2")), tool(result("c1"))))
    judged = judge(s)
    assert judged.tail == ()
    assert len(judged.session.messages) == 3
    assert [b.call_id for b in judged.session.messages[2].tool_responses()] == ["c1", "c2"]
    assert judged.appended == "placeholder results for 1 pending call(s): c2"


def test_a_call_answered_anywhere_in_the_log_is_not_pending() -> None:
    """A result earlier in the log answers a reused id (the scan from the end stops only when all are found)."""
    s = _as(
        "gemini-cli",
        session(
            human("hi"),
            ai(call("c1")),
            tool(result("c1")),
            ai(call("c1"), call("c2"), call("c3")),
            tool(result("c3")),
        ),
    )
    judged = judge(s)
    assert judged.appended == "placeholder results for 1 pending call(s): c2"
    assert [b.call_id for b in judged.session.messages[-1].tool_responses()] == ["c3", "c2"]


def test_a_log_ending_with_new_input_is_sent_as_logged() -> None:
    for tail in (human("and now?"), tool(result("c1"))):
        s = _as("kilo", session(human("hi"), ai(call("c1")), tail))
        judged = judge(s)
        assert (judged.session, judged.appended, judged.tail) == (s, None, ())
        assert judged.describe() == (
            "judged as the next request the agent would send: its history as logged (it ends with the new input)"
        )


def test_check_says_the_judgement_and_a_finished_log_passes_mistral_last_role() -> None:
    path = SAMPLES / "gemini_cli_session.jsonl"
    result = check(str(path), ["gemini", "mistral"])
    assert (result.judged, result.appended) == (
        "next-request",
        "a placeholder user turn (the log ends with the model's answer)",
    )
    assert result.results["gemini"] == []
    assert "mis.last_role" not in {v.rule for v in result.results["mistral"]}
    out = run("check", str(path), "--provider", "gemini", "--json")
    assert out.returncode == 0, out.stdout
    data = json.loads(out.stdout)
    assert (data["judged"], data["appended"]) == ("next-request", result.appended)
    assert data["ran_on"] == {
        "named": "gemini",
        "provider": "gemini",
        "model": "gemini-2.5-pro",
        "evidence": "message 8 metadata",
    }
    text = run("check", str(path), "--provider", "gemini")
    assert text.returncode == 0
    assert text.stdout.splitlines() == [
        f"{path}: gemini-cli, 9 messages",
        describe("next-request", result.appended),
        "ran on gemini (gemini-2.5-pro; message 8 metadata)",
        "gemini            ok",
        "kept, not sent: info record x1",
        "note: 1 info/error/warning record(s) are shown to the user only and never sent to the model: "
        "kept in session.unsent, not made messages",
    ]


def test_a_violation_in_the_placeholder_tail_is_located_in_no_message() -> None:
    """Mistral rejects the pending call's Anthropic id in the placeholder result too: path kept, no message."""
    s = _as("claude-code", session(human("hi"), ai(call("toolu_01A"))))
    found = judged_verdict(judge(s), "mistral")
    assert [(v.rule, v.path, v.message_index) for v in found if v.rule == "mis.id_format"] == [
        ("mis.id_format", "messages[1].tool_calls[0].id", 1),
        ("mis.id_format", "messages[2].tool_call_id", None),
    ]
