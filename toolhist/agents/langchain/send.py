"""How LangChain sends a history: its chat model integrations map the messages, and we keep the body.

The history becomes LangChain messages (`to_messages`: ``SystemMessage``, ``HumanMessage``,
``AIMessage`` with ``tool_calls`` and, for Anthropic, its thinking blocks in ``content``,
``ToolMessage``), and the integration a LangChain application uses for the provider
(``ChatAnthropic``; ``ChatOpenAI`` for Chat Completions, with ``use_responses_api=True`` for the
Responses API, and on Moonshot's OpenAI-compatible API for Kimi) is invoked with the declared
tools bound, against a capture server on 127.0.0.1 (`toolhist.agents.capture`). The body it POSTs
is what LangChain sends: ``_format_messages`` of langchain-anthropic, ``_convert_message_to_dict``
and ``_construct_responses_api_input`` of langchain-openai, quirks included.

Needs the ``langchain`` extra (langchain-core, langchain-anthropic, langchain-openai). Gemini,
Mistral and Bedrock have integrations of their own (langchain-google-genai, -mistralai, -aws) that
the extra does not bring: not run.
"""

from __future__ import annotations

from typing import Any, Final

from toolhist.agents.capture import capturing
from toolhist.extras import require
from toolhist.model import Session, TextBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock

MODEL_NAMES: Final = {
    "anthropic": "claude-sonnet-5-5",
    "openai-chat": "gpt-4.1",
    "openai-responses": "gpt-4.1",
    "kimi": "kimi-k2-0905-preview",
}
"""The model LangChain is asked for on each provider: Claude Sonnet 5.5, as in
`toolhist.agents.pydantic_ai.send.MODEL_NAMES` (Sonnet 4.5 is deprecated, end of life 2026-11-30)."""
ROUTES: Final = tuple(MODEL_NAMES)
KEY: Final = "toolhist-offline"


def to_messages(session: Session, provider: str) -> list[Any]:
    """The history as a LangChain application keeps it."""
    from langchain_core import messages as m

    out: list[Any] = []
    for message in session.messages:
        texts = [b.text for b in message.blocks if isinstance(b, TextBlock)]
        if message.speaker == "system":
            out.append(m.SystemMessage("\n".join(texts)))
        elif message.speaker == "human":
            out.append(m.HumanMessage("\n".join(texts)))
        elif message.speaker == "tool":
            for block in message.blocks:
                if isinstance(block, ToolResponseBlock):
                    result = (
                        block.result
                        if isinstance(block.result, str)
                        else str(block.result or block.error or "")
                    )
                    status = "error" if block.error is not None else "success"
                    out.append(
                        m.ToolMessage(result, tool_call_id=block.call_id, name=block.tool_name, status=status)
                    )
        else:
            calls = [
                {"name": b.name, "args": b.parameters if isinstance(b.parameters, dict) else {}, "id": b.id}
                for b in message.blocks
                if isinstance(b, ToolCallBlock)
            ]
            thinking = [
                {"type": "thinking", "thinking": b.text, "signature": b.signature}
                for b in message.blocks
                if isinstance(b, ThinkingBlock) and b.signature and provider == "anthropic"
            ]
            content: Any = (
                [*thinking, *({"type": "text", "text": t} for t in texts)] if thinking else "\n".join(texts)
            )
            out.append(m.AIMessage(content=content, tool_calls=calls))
    return out


def _tools(session: Session) -> list[dict[str, Any]]:
    return [
        {
            "type": "function",
            "function": {
                "name": t.name,
                "description": t.description or "",
                "parameters": t.parameters if isinstance(t.parameters, dict) else {"type": "object"},
            },
        }
        for t in session.tools or ()
        if t.kind == "function"
    ]


def _model(provider: str, base: str) -> Any:
    name = MODEL_NAMES[provider]
    if provider == "anthropic":
        from langchain_anthropic import ChatAnthropic

        return ChatAnthropic(model=name, api_key=KEY, base_url=base, max_retries=0)
    from langchain_openai import ChatOpenAI

    return ChatOpenAI(
        model=name,
        api_key=KEY,
        base_url=base + "/v1",
        max_retries=0,
        use_responses_api=provider == "openai-responses",
    )


def version() -> str:
    """The installed langchain-core and integration versions."""
    from importlib.metadata import version as installed

    integrations = ", ".join(
        f"{name} {installed(name)}" for name in ("langchain-anthropic", "langchain-openai")
    )
    return f"{installed('langchain-core')} ({integrations})"


def sent_body(session: Session, provider: str) -> tuple[dict[str, Any] | None, str | None, str | None]:
    """(the JSON body LangChain sent, its path, None) or (None, None, what it raised before sending)."""
    require(
        "the langchain strategy", "langchain", ["langchain_core", "langchain_anthropic", "langchain_openai"]
    )
    raised: str | None = None
    with capturing() as (base, seen):
        model = _model(provider, base)
        tools = _tools(session)
        try:
            (model.bind_tools(tools) if tools else model).invoke(to_messages(session, provider))
        except Exception as exc:  # the capture server's 400, or LangChain's refusal before sending
            text = str(exc).strip().splitlines()
            raised = f"{type(exc).__name__}: {text[0] if text else ''}"
    if not seen or not isinstance(seen[0][1], dict):
        return None, None, raised or "LangChain returned without sending a request"
    return seen[0][1], seen[0][0], None
