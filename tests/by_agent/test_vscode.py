"""The ``vscode`` reader: tool rounds as the model sees them, and a rejected turn (seed 002)."""

from __future__ import annotations

from typing import Any

import pytest

import toolhist
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock


def _request(text: str, **more: Any) -> dict[str, Any]:
    return {
        "requestId": f"request_{text[:3]}",
        "message": {"text": text, "parts": []},
        "timestamp": 1764676812000,
        **more,
    }


ROUNDS = {
    "metadata": {
        "toolCallRounds": [
            {
                "response": "",
                "toolCalls": [{"name": "grep_search", "arguments": '{"query": "retry"}', "id": "t1"}],
            },
            {"response": "In config/webhooks.yaml.", "toolCalls": []},
        ],
        "toolCallResults": {"t1": {"$mid": 20, "content": [{"$mid": 21, "value": "1 match"}]}},
    }
}
REJECTED: dict[str, Any] = {
    "response": [
        {
            "kind": "toolInvocationSerialized",
            "toolCallId": "inv-1",
            "toolId": "copilot_replaceString",
            "isConfirmed": False,
            "isComplete": True,
            "invocationMessage": {"value": 'Using "Replace String in File"'},
        }
    ],
    "result": {"errorDetails": {"message": "Canceled"}},
    "isCanceled": True,
}


def _session(*requests: dict[str, Any]) -> dict[str, Any]:
    return {"version": 3, "sessionId": "s", "requests": list(requests)}


def test_rounds_become_calls_and_results() -> None:
    s = toolhist.load(_session(_request("where is retry?", result=ROUNDS, modelId="copilot/gpt-4.1")))
    assert s.source.format == "vscode"
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool", "ai"]
    assert s.messages[1].blocks == (
        ToolCallBlock(
            id="t1",
            name="grep_search",
            parameters={"query": "retry"},
            raw_id="t1",
            raw_arguments='{"query": "retry"}',
        ),
    )
    assert s.messages[2].blocks == (
        ToolResponseBlock(call_id="t1", tool_name="grep_search", result="1 match", raw_call_id="t1"),
    )
    assert s.messages[3].blocks == (TextBlock(text="In config/webhooks.yaml."),)
    assert s.messages[1].metadata.model == "copilot/gpt-4.1"
    assert s.messages[0].metadata.timestamp == 1764676812.0


def test_rejected_turn_is_invisible_to_the_model_and_said() -> None:
    s = toolhist.load(_session(_request("edit it", **REJECTED), _request("try another way")))
    assert [m.speaker for m in s.messages] == ["human", "human"]
    assert s.messages[0].metadata.extra == {
        "unsent_tool_invocations": [
            {
                "toolCallId": "inv-1",
                "toolId": "copilot_replaceString",
                "isConfirmed": False,
                "invocationMessage": 'Using "Replace String in File"',
            }
        ],
        "isCanceled": True,
    }
    assert s.source.notes == (
        "requests[0]: the turn was cancelled; its tool invocation(s) inv-1 were shown in the chat but are not "
        "in the history the model sees next",
    )


def test_text_streamed_before_a_cancel_is_kept() -> None:
    streamed = {**REJECTED, "response": [{"value": "I'll edit the file."}, *REJECTED["response"]]}
    s = toolhist.load(_session(_request("edit it", **streamed)))
    assert [m.speaker for m in s.messages] == ["human", "ai"]
    assert s.messages[1].blocks == (TextBlock(text="I'll edit the file."),)


def test_copilot_cancelled_result_is_incomplete() -> None:
    result = {
        "metadata": {
            "toolCallRounds": [
                {"response": "", "toolCalls": [{"name": "run", "arguments": "{}", "id": "t9"}]}
            ],
            "toolCallResults": {"t9": {"content": [{"value": "The user cancelled the tool call."}]}},
        }
    }
    s = toolhist.load(_session(_request("run it", result=result)))
    block = s.messages[2].blocks[0]
    assert isinstance(block, ToolResponseBlock)
    assert (block.is_complete, block.error) == (False, "The user cancelled the tool call.")


def test_missing_call_id_names_the_field() -> None:
    bad = {
        "metadata": {"toolCallRounds": [{"response": "", "toolCalls": [{"name": "x", "arguments": "{}"}]}]}
    }
    with pytest.raises(LoadError) as err:
        toolhist.load(_session(_request("x", result=bad)), format="vscode")
    assert str(err.value).endswith(
        "at requests[0].result.metadata.toolCallRounds[0].toolCalls[0].id: "
        "not a valid vscode session: expected a string, got null"
    )


# The failed request's shape: errorDetails as Copilot Chat writes it (commonTypes.ts: "Sorry, your
# request failed…\n\nCopilot Request id: …\n\nReason: …", the reason from nodeFetcher.ts "Please
# check your firewall rules…Error Code: net::ERR_NETWORK_CHANGED."), a tool round with no text and
# no calls in the metadata; ids are ours.
NETWORK_ERROR = (
    "Sorry, your request failed. Please try again.\n\nCopilot Request id: 5a7c0e2b-0000-4000-8000-000000000001"
    "\n\nReason: Please check your firewall rules and network connection then try again. "
    "Error Code: net::ERR_NETWORK_CHANGED."
)
FAILED: dict[str, Any] = {
    "response": [{"value": "", "supportThemeIcons": False, "supportHtml": False}],
    "result": {
        "errorDetails": {"message": NETWORK_ERROR, "responseIsIncomplete": True},
        "timings": {"totalElapsed": 1503},
        "metadata": {
            "toolCallRounds": [{"response": "", "toolCalls": [], "toolInputRetry": 0, "id": "round_1"}],
            "toolCallResults": {},
        },
    },
}


def test_failed_request_is_kept_visible_but_not_sent() -> None:
    s = toolhist.load(_session(_request("where is retry?", **FAILED), _request("try again", result=ROUNDS)))
    assert [m.speaker for m in s.messages] == ["human", "human", "ai", "tool", "ai"]
    (failed,) = s.unsent
    assert (failed.kind, failed.before, failed.text, failed.json_path) == (
        "failed_request",
        1,
        NETWORK_ERROR,
        "requests[0].result.metadata.toolCallRounds[0]",
    )
    assert failed.data == {"errorDetails": {"message": NETWORK_ERROR, "responseIsIncomplete": True}}
    assert (
        "requests[0].result.metadata.toolCallRounds[0]: request failed (Reason: Please check your firewall "
        "rules and network connection then try again. Error Code: net::ERR_NETWORK_CHANGED.); "
        "its answer is not sent"
    ) in s.source.notes
    # Before: an empty assistant message at 1 (issue 17: four providers reject it). Now none is sent.
    found = {p: [(v.rule, v.message_index) for v in toolhist.validate(s, p)] for p in toolhist.PROVIDERS}
    assert found == {
        "openai-chat": [],
        "openai-responses": [],
        "anthropic": [],
        "gemini": [],
        "mistral": [("mis.last_role", 4), ("mis.id_format", 2), ("mis.id_format", 3)],
        "kimi": [("kimi.id_format", 2)],
        "bedrock": [("brk.prefill_tools", 4)],  # as it stands it ends on the answer after a tool result
    }
    chat: Any = toolhist.render(s, "openai-chat").body
    assert [m["role"] for m in chat["messages"]] == ["user", "user", "assistant", "tool", "assistant"]


def test_failed_request_without_rounds_is_kept_too() -> None:
    failed = {"response": [], "result": {"errorDetails": {"message": NETWORK_ERROR}}}
    s = toolhist.load(_session(_request("hello", **failed)))
    assert [m.speaker for m in s.messages] == ["human"]
    assert [(u.kind, u.before, u.text) for u in s.unsent] == [("failed_request", 1, NETWORK_ERROR)]
