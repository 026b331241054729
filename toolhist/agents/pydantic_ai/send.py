"""How pydantic-ai sends a history: its own model classes map the messages, offline, and we keep the body.

The history becomes pydantic-ai ``ModelMessage``s (`to_messages`), and the model class pydantic-ai
uses for the provider (``AnthropicModel``, ``OpenAIChatModel``, ``OpenAIResponsesModel``,
``GoogleModel``, ``MistralModel``; Kimi is ``OpenAIChatModel`` on Moonshot's OpenAI-compatible API)
is asked for a response through the provider's official SDK client whose HTTP transport is a mock
(`httpx2.MockTransport`): the request is recorded and answered 418, so nothing leaves the process.
What that request carries is what pydantic-ai sends: its ``_map_message`` for that provider,
quirks included (e.g. ``GoogleModel`` adds a placeholder ``thoughtSignature`` to the first call of a
turn that has none; each model drops the thinking parts another provider made).

Needs the ``pydantic-ai`` extra (``pydantic-ai-slim`` with its anthropic, openai, google and
mistral clients). Bedrock (``BedrockConverseModel`` needs boto3) is not run.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
from typing import Any, Final

import orjson

from toolhist.extras import require
from toolhist.model import (
    MediaBlock,
    Message,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

MODEL_NAMES: Final = {
    "anthropic": "claude-sonnet-5-5",
    "openai-chat": "gpt-4.1",
    "openai-responses": "gpt-4.1",
    "gemini": "gemini-2.5-pro",
    "mistral": "mistral-large-latest",
    "kimi": "kimi-k2-0905-preview",
}
"""The model pydantic-ai is asked for on each provider (a fixed, current model).

Claude Sonnet 5.5: Sonnet 4.5 is deprecated, end of life 2026-11-30 (the anthropic SDK's
``_data/deprecated_models.py``, 2.14.0, which warns on every request; platform.claude.com
models/sonnet-4-5/overview: "retires on November 30, 2026. Recommended replacement: Claude Sonnet 5.5");
Sonnet 4.6 is Legacy there. Like every Claude from 4.6 on it refuses a request that ends on an
assistant message (ant.prefill_unsupported), and `AnthropicModel` sends a history that ends on the
model's answer as it is: pydantic-ai's Agent sends that same body when run on such a history with
instructions and no new prompt (with a prompt it appends the user turn; with neither it sends nothing).
"""
ROUTES: Final = tuple(MODEL_NAMES)
KEY: Final = "toolhist-offline"


class Captured(Exception):
    """What the mock transport answered for: the request pydantic-ai made."""


def _block_parts(message: Message) -> list[Any]:
    from pydantic_ai import messages as m

    parts: list[Any] = []
    for block in message.blocks:
        if isinstance(block, TextBlock):
            parts.append(m.TextPart(content=block.text))
        elif isinstance(block, ToolCallBlock):
            args: Any = block.raw_arguments if block.arguments_error else block.parameters
            parts.append(m.ToolCallPart(tool_name=block.name, args=args, tool_call_id=block.id))
        elif isinstance(block, ThinkingBlock):
            parts.append(
                m.ThinkingPart(
                    content=block.text,
                    signature=block.signature,
                    provider_name=block.source_provider,
                )
            )
    return parts


def _request_parts(message: Message) -> list[Any]:
    from pydantic_ai import messages as m

    parts: list[Any] = []
    for block in message.blocks:
        if isinstance(block, TextBlock):
            kind = m.SystemPromptPart if message.speaker == "system" else m.UserPromptPart
            parts.append(kind(content=block.text))
        elif isinstance(block, ToolResponseBlock):
            content = block.result if block.result is not None else (block.error or "")
            if block.error is not None:
                parts.append(
                    m.RetryPromptPart(
                        content=block.error, tool_name=block.tool_name or "", tool_call_id=block.call_id
                    )
                )
            else:
                parts.append(
                    m.ToolReturnPart(
                        tool_name=block.tool_name or "", content=content, tool_call_id=block.call_id
                    )
                )
        elif isinstance(block, MediaBlock) and block.url:
            parts.append(m.UserPromptPart(content=[m.ImageUrl(url=block.url)]))
    return parts


def to_messages(session: Session) -> list[Any]:
    """The history as pydantic-ai keeps it: consecutive non-model messages are one ``ModelRequest``."""
    from pydantic_ai import messages as m

    out: list[Any] = []
    pending: list[Any] = []
    for message in session.messages:
        if message.speaker == "ai":
            if pending:
                out.append(m.ModelRequest(parts=pending))
                pending = []
            out.append(m.ModelResponse(parts=_block_parts(message), model_name=message.metadata.model))
        else:
            pending += _request_parts(message)
    if pending:
        out.append(m.ModelRequest(parts=pending))
    return out


def _tools(session: Session) -> Any:
    from pydantic_ai.models import ModelRequestParameters
    from pydantic_ai.tools import ToolDefinition

    tools = [
        ToolDefinition(
            name=t.name,
            description=t.description,
            parameters_json_schema=t.parameters if isinstance(t.parameters, dict) else {"type": "object"},
        )
        for t in session.tools or ()
        if t.kind == "function"
    ]
    return ModelRequestParameters(function_tools=tools, allow_text_output=True)


def _model(provider: str, transport: Any) -> Any:
    import httpx2

    client = httpx2.AsyncClient(transport=transport)
    name = MODEL_NAMES[provider]
    if provider == "anthropic":
        from anthropic import AsyncAnthropic
        from pydantic_ai.models.anthropic import AnthropicModel
        from pydantic_ai.providers.anthropic import AnthropicProvider

        anthropic_sdk = AsyncAnthropic(api_key=KEY, http_client=client, max_retries=0)
        return AnthropicModel(name, provider=AnthropicProvider(anthropic_client=anthropic_sdk))
    if provider in ("openai-chat", "openai-responses", "kimi"):
        from openai import AsyncOpenAI
        from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
        from pydantic_ai.providers.openai import OpenAIProvider

        base = "https://api.moonshot.ai/v1" if provider == "kimi" else None
        sdk = AsyncOpenAI(api_key=KEY, base_url=base, http_client=client, max_retries=0)
        kind = OpenAIResponsesModel if provider == "openai-responses" else OpenAIChatModel
        return kind(name, provider=OpenAIProvider(openai_client=sdk))
    if provider == "gemini":
        from google.genai import Client
        from google.genai.types import HttpOptions
        from pydantic_ai.models.google import GoogleModel
        from pydantic_ai.providers.google import GoogleProvider

        genai = Client(api_key=KEY, http_options=HttpOptions(async_client_args={"transport": transport}))
        return GoogleModel(name, provider=GoogleProvider(client=genai))
    from mistralai.client import Mistral
    from pydantic_ai.models.mistral import MistralModel
    from pydantic_ai.providers.mistral import MistralProvider

    return MistralModel(
        name, provider=MistralProvider(mistral_client=Mistral(api_key=KEY, async_client=client))
    )


def version() -> str:
    """The installed pydantic-ai-slim's version."""
    from importlib.metadata import version as installed

    return installed("pydantic-ai-slim")


def sent_body(session: Session, provider: str) -> tuple[dict[str, Any] | None, str | None, str | None]:
    """(the JSON body pydantic-ai sent, its path, None) or (None, None, what it raised before sending)."""
    require("the pydantic-ai strategy", "pydantic-ai", ["pydantic_ai", "httpx2"])
    import httpx2

    seen: list[tuple[str, bytes]] = []

    def handler(request: Any) -> Any:
        seen.append((request.url.path, request.content))
        return httpx2.Response(418, json={"error": {"type": "captured", "message": "captured by toolhist"}})

    async def ask() -> str | None:
        model = _model(provider, httpx2.MockTransport(handler))
        try:
            await model.request(to_messages(session), None, _tools(session))
        except Exception as exc:  # the 418, or pydantic-ai's own refusal before sending
            return f"{type(exc).__name__}: {str(exc).strip().splitlines()[0] if str(exc).strip() else ''}"
        return None

    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:  # safe inside a running loop too
        raised = pool.submit(asyncio.run, ask()).result()
    if not seen:
        return None, None, raised or "pydantic-ai returned without sending a request"
    path, content = seen[0]
    return orjson.loads(content), path, None
