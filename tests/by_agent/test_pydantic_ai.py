"""pydantic-ai: histories made by the real pydantic-ai (TestModel, FunctionModel), live and dumped.

The detection fix of issue 28: ``ModelMessagesTypeAdapter`` JSON used to read as a Gemini contents
list with no tool calls; it reads as ``pydantic-ai`` with its calls, results and retries.
"""

from __future__ import annotations

import json
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent, ModelRetry
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ModelResponse,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.test import TestModel

import toolhist
from toolhist.model import TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock


def weather_agent(model: Any) -> Agent[None, str]:
    agent = Agent(model, system_prompt="Be brief.")

    @agent.tool_plain
    def get_weather(city: str) -> str:
        """Weather in a city."""
        return f"sunny in {city}"

    return agent


def ran(agent: Agent[None, str], prompt: str) -> Any:
    """``agent.run_sync(prompt)`` on a thread of its own, as `toolhist.agents.pydantic_ai.send` runs it.

    ``run_sync`` needs an event loop of its own; in the same pytest process the browser tests'
    Playwright (sync API) keeps one running on the main thread, as Jupyter does for a user.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(agent.run_sync, prompt).result()


def shape(session: toolhist.Session) -> list[tuple[str, list[str]]]:
    return [(m.speaker, [b.type for b in m.blocks]) for m in session.messages]


RUN = [
    ("system", ["text"]),
    ("human", ["text"]),
    ("ai", ["tool_call"]),
    ("tool", ["tool_response"]),
    ("ai", ["text"]),
]


def test_a_live_run_result_and_its_messages_read_alike() -> None:
    result = ran(weather_agent(TestModel()), "Weather in Paris?")
    from_messages = toolhist.load(result.all_messages())
    from_result = toolhist.load(result)
    assert from_messages.source.format == "pydantic-ai"
    assert shape(from_messages) == RUN
    assert shape(from_result) == RUN
    call = from_messages.messages[2].blocks[0]
    answer = from_messages.messages[3].blocks[0]
    assert isinstance(call, ToolCallBlock)
    assert isinstance(answer, ToolResponseBlock)
    assert (call.name, call.id) == ("get_weather", answer.call_id)
    assert answer.result == "sunny in a"


def test_the_dumped_json_is_pydantic_ai_not_a_gemini_body(tmp_path: Path) -> None:
    result = ran(weather_agent(TestModel()), "Weather in Paris?")
    path = tmp_path / "history.json"
    path.write_bytes(ModelMessagesTypeAdapter.dump_json(result.all_messages()))
    session = toolhist.load(str(path))
    assert session.source.format == "pydantic-ai"
    assert toolhist.summarize(session).tool_calls == 1
    assert toolhist.summarize(session).tool_results == 1
    assert toolhist.load(result.all_messages_json()).source.format == "pydantic-ai"


def test_validate_takes_the_live_messages() -> None:
    result = ran(weather_agent(TestModel()), "Weather in Paris?")
    assert toolhist.validate(result.all_messages(), "anthropic") == []
    cut = result.all_messages()[:2]  # the call without its result
    assert [v.rule for v in toolhist.validate(cut, "anthropic")] == ["ant.result_missing"]


def test_a_retry_answers_its_call_with_an_error() -> None:
    calls = {"n": 0}

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        calls["n"] += 1
        if calls["n"] <= 2:
            return ModelResponse(
                parts=[ToolCallPart("flaky", {"x": calls["n"]}, tool_call_id=f"c{calls['n']}")]
            )
        return ModelResponse(parts=[TextPart("done")])

    agent = Agent(FunctionModel(model))

    @agent.tool_plain
    def flaky(x: int) -> str:
        """Fails once."""
        if x == 1:
            raise ModelRetry("try again")
        return "ok"

    session = toolhist.load(ran(agent, "go").all_messages())
    results = [b for m in session.messages for b in m.blocks if isinstance(b, ToolResponseBlock)]
    assert [(r.call_id, r.error is not None) for r in results] == [("c1", True), ("c2", False)]
    assert results[0].result is not None
    assert "try again" in str(results[0].result)


def test_thinking_keeps_its_signature_and_provider() -> None:
    history = [
        ModelRequest(parts=[UserPromptPart("hi")]),
        ModelResponse(
            parts=[ThinkingPart("hmm", signature="sig", provider_name="anthropic"), TextPart("hello")],
            provider_name="anthropic",
            model_name="claude-sonnet-4-5",
        ),
    ]
    session = toolhist.load(history)
    thinking = session.messages[1].blocks[0]
    assert isinstance(thinking, ThinkingBlock)
    assert (thinking.text, thinking.signature, thinking.source_provider) == ("hmm", "sig", "anthropic")
    assert session.messages[1].metadata.provider == "anthropic"
    assert session.messages[1].metadata.model == "claude-sonnet-4-5"


def test_instructions_are_the_first_message_and_parts_that_are_not_said_are_named() -> None:
    value = json.loads(ModelMessagesTypeAdapter.dump_json([ModelRequest(parts=[UserPromptPart("hi")])]))
    value[0]["instructions"] = "Answer in French."
    value[0]["parts"].append({"part_kind": "tool-availability-delta", "tools_added": []})
    session = toolhist.load(value)
    first = session.messages[0]
    assert first.speaker == "system"
    assert first.blocks == (TextBlock(text="Answer in French."),)
    assert session.source.skipped == {"part_kind 'tool-availability-delta'": 1}
    assert any("tool-availability-delta" in note for note in session.source.notes)


def test_user_content_lists_keep_every_item() -> None:
    value = [
        {
            "kind": "request",
            "parts": [
                {
                    "part_kind": "user-prompt",
                    "content": ["look", {"kind": "image-url", "url": "https://example.invalid/a.png"}],
                }
            ],
        }
    ]
    session = toolhist.load(value)
    assert shape(session) == [("human", ["text", "media"])]


def test_a_bad_part_names_its_place() -> None:
    value = [{"kind": "response", "parts": [{"part_kind": "tool-call", "args": {}}]}]
    with pytest.raises(toolhist.LoadError) as caught:
        toolhist.load(value, name="h.json")
    assert "[0].parts[0]" in str(caught.value)
    assert "tool_name" in str(caught.value)


@pytest.mark.parametrize(
    "provider", ["anthropic", "openai-chat", "openai-responses", "gemini", "mistral", "kimi"]
)
def test_the_pydantic_ai_strategy_is_what_pydantic_ai_sends(provider: str) -> None:
    result = ran(weather_agent(TestModel()), "Weather in Paris?")
    curation = toolhist.curate(result.all_messages(), provider, strategy="pydantic-ai")
    assert curation.library is not None
    assert curation.library.startswith("pydantic-ai ")
    assert toolhist.summarize(curation.session).tool_calls == 1
    assert toolhist.summarize(curation.session).tool_results == 1


def test_the_pydantic_ai_strategy_names_what_its_mapping_leaves_broken() -> None:
    result = ran(weather_agent(TestModel()), "Weather in Paris?")
    cut = result.all_messages()[:2]
    assert [v.rule for v in toolhist.validate(cut, "openai-chat", strategy="pydantic-ai")] == [
        "oai.call_unanswered"
    ]
    kept = toolhist.curate(cut, "bedrock", strategy="pydantic-ai")
    assert [c.action for c in kept.changes] == ["keep"]
    assert "bedrock" in kept.changes[0].reason


def test_the_cli_curates_a_pydantic_ai_file_with_its_strategy() -> None:
    from test_cli import run

    path = Path(__file__).parents[1] / "corpus" / "logs" / "pydantic-ai" / "pydantic-ai-testmodel.json"
    out = run("curate", str(path), "--provider", "anthropic", "--strategy", "pydantic-ai")
    # The history ends on the run's answer, and AnthropicModel sends it so (pydantic-ai's Agent sends this
    # body too, run on it with instructions and no new prompt): claude-sonnet-5-5 refuses the prefill.
    assert (out.returncode, out.stderr) == (1, "")
    lines = out.stdout.splitlines()
    assert lines[0] == f"{path}: pydantic-ai, 5 messages"
    assert lines[1].startswith("library  pydantic-ai ")
    # the framework's installed extra runs: no peer version line (those are litellm's and the Agents SDK's)
    assert lines[2] == (
        "strategy pydantic-ai for anthropic: 5 → 5 messages (3 same, 2 changed, 0 inserted, 0 deleted, 0 moved)"
    )
    assert lines[3:] == [
        "changes  0",
        "left     1 error(s), 1 warning(s)",
        "  warning ant.tools_required       messages.1.content.0 (message 2)",
        "          Requests which include `tool_use` or `tool_result` blocks must define tools.",
        "  error   ant.prefill_unsupported  messages.3 (message 4)",
        "          This model does not support assistant message prefill. The conversation must end with a user "
        "message.",
    ]


def test_the_pydantic_ai_agent_sends_what_the_strategy_renders_for_a_history_ending_on_its_answer() -> None:
    """The agent, run on a history that ends on its answer with instructions and no prompt, sends the prefill.

    The ground of the CLI test's ant.prefill_unsupported: the body `send.sent_body` renders (the
    ``AnthropicModel`` request) is the one the Agent sends; with no instructions it sends nothing.
    """
    from contextlib import suppress

    import httpx2
    from anthropic import AsyncAnthropic
    from pydantic_ai.exceptions import ModelHTTPError
    from pydantic_ai.models.anthropic import AnthropicModel
    from pydantic_ai.providers.anthropic import AnthropicProvider

    from toolhist.agents.pydantic_ai.send import MODEL_NAMES, sent_body

    path = Path(__file__).parents[1] / "corpus" / "logs" / "pydantic-ai" / "pydantic-ai-testmodel.json"
    history = ModelMessagesTypeAdapter.validate_json(path.read_bytes())

    def sent(**settings: Any) -> list[Any]:
        bodies: list[Any] = []

        def handler(request: Any) -> Any:
            bodies.append(json.loads(request.content))
            return httpx2.Response(418, json={"error": {"type": "captured", "message": "captured"}})

        client = httpx2.AsyncClient(transport=httpx2.MockTransport(handler))
        sdk = AsyncAnthropic(api_key="offline", http_client=client, max_retries=0)
        model = AnthropicModel(MODEL_NAMES["anthropic"], provider=AnthropicProvider(anthropic_client=sdk))
        agent: Agent[None, str] = Agent(model, **settings)
        with ThreadPoolExecutor(1) as pool, suppress(ModelHTTPError):  # the mock's 418
            pool.submit(agent.run_sync, None, message_history=history).result()
        return bodies

    assert sent() == []  # no prompt, no instructions: the run ends on the history's answer, nothing sent
    (body,) = sent(instructions="Be brief.")
    rendered, _, _ = sent_body(toolhist.load(path), "anthropic")
    assert rendered is not None
    assert body["messages"] == rendered["messages"]
    assert body["messages"][-1] == {
        "role": "assistant",
        "content": [{"text": '{"get_weather":"sunny in a"}', "type": "text"}],
    }
