"""Hypothesis generators for broken tool histories: the failure modes of the seeds, mixed at random.

A clean conversation is drawn first (user turns, assistant turns with text, thinking and parallel
calls, their results), then damaged the ways real agents damage it: duplicate results (equal or
conflicting), results moved early or late, unanswered calls, calls compacted away, call and result
stored together in one tool message (seed 000 A), empty and foreign ids (Kimi's turn-local
``functions.x:0`` repeating), blank text, thinking from another provider, MCP-style tool names.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from toolhist.model import (
    Block,
    Message,
    Session,
    SessionSource,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

NAMES = ["read_file", "run_shell_command", "glob", "mcp.github.search", "write-file", "search files"]
FORMATS = ["openai-chat", "anthropic", "gemini", "openai-responses", "bedrock", "icontent", "toolhist"]
texts = st.text(alphabet="abc xyz<>&\"'é\n", max_size=20)


def _id(style: str, turn: int, index: int, serial: int) -> str:
    return {
        "openai": f"call_{serial:04d}abcdefgh",
        "anthropic": f"toolu_01{serial:06d}",
        "kimi": f"functions.read_file:{index}",  # turn-local: repeats across turns
        "empty": "",
        "mistral": f"abc{serial:06d}",
        "weird": f"id|{turn}.{index}:x",
    }[style]


STYLES = ("openai", "anthropic", "kimi", "empty", "mistral", "weird")
"""Id styles a generated call may have (`_id`)."""


@st.composite
def clean_history(draw: st.DrawFn, styles: tuple[str, ...] = STYLES, thinking: bool = True) -> list[Message]:
    """A valid-looking conversation: human, then assistant turns with 0-3 parallel calls and their results.

    ``styles`` limits the id styles drawn; ``thinking=False`` draws no thinking blocks.
    """
    messages: list[Message] = []
    if draw(st.booleans()):
        messages.append(Message(speaker="system", blocks=(TextBlock(text="You are a coding agent."),)))
    serial = 0
    for turn in range(draw(st.integers(1, 4))):
        messages.append(Message(speaker="human", blocks=(TextBlock(text=draw(texts) or "hi"),)))
        for _ in range(draw(st.integers(0, 2))):
            blocks: list[Block] = []
            if thinking and draw(st.booleans()):
                blocks.append(
                    ThinkingBlock(
                        text=draw(texts),
                        signature=draw(st.none() | st.just("sig-abc")),
                        source_provider=draw(st.none() | st.sampled_from(FORMATS)),
                    )
                )
            if draw(st.booleans()):
                blocks.append(TextBlock(text=draw(texts)))
            calls = []
            for index in range(draw(st.integers(0, 3))):
                serial += 1
                style = draw(st.sampled_from(styles))
                cid = _id(style, turn, index, serial)
                call = ToolCallBlock(
                    id=cid,
                    name=draw(st.sampled_from(NAMES)),
                    parameters={"path": f"src/{serial}.py"},
                    raw_id=cid or None,
                )
                calls.append(call)
                blocks.append(call)
            if not blocks:
                blocks.append(TextBlock(text="done"))
            messages.append(Message(speaker="ai", blocks=tuple(blocks)))
            if calls:
                results = tuple(
                    ToolResponseBlock(
                        call_id=c.id,
                        tool_name=c.name,
                        result=draw(st.sampled_from(["ok", {"lines": 3}, [{"type": "text", "text": "out"}]])),
                        error=draw(st.none() | st.just("exit 1")),
                        raw_call_id=c.id or None,
                    )
                    for c in calls
                )
                if draw(st.booleans()):
                    messages.append(Message(speaker="tool", blocks=results))
                else:
                    messages.extend(Message(speaker="tool", blocks=(r,)) for r in results)
    return messages


def _damage(draw: st.DrawFn, messages: list[Message]) -> list[Message]:
    kind = draw(
        st.sampled_from(
            [
                "dup_result",
                "conflict",
                "move_early",
                "move_late",
                "orphan",
                "compacted",
                "mode_a",
                "blank",
                "tool_text",
                "none",
            ]
        )
    )
    tool_at = [i for i, m in enumerate(messages) if m.speaker == "tool"]
    ai_calls = [i for i, m in enumerate(messages) if m.speaker == "ai" and any(True for _ in m.tool_calls())]
    if kind in ("dup_result", "conflict") and tool_at:
        i = draw(st.sampled_from(tool_at))
        result = next(messages[i].tool_responses(), None)
        if result is None:
            return messages
        # A stored copy is its own object (readers never share blocks between positions).
        copy = (
            result.model_copy() if kind == "dup_result" else result.model_copy(update={"result": "different"})
        )
        where = draw(st.integers(i + 1, len(messages)))
        messages.insert(where, Message(speaker="tool", blocks=(copy,)))
    elif kind == "move_early" and tool_at:
        i = draw(st.sampled_from(tool_at))
        moved = messages.pop(i)
        messages.insert(draw(st.integers(0, i)), moved)
    elif kind == "move_late" and tool_at:
        i = draw(st.sampled_from(tool_at))
        moved = messages.pop(i)
        messages.insert(draw(st.integers(i, len(messages))), moved)
    elif kind == "orphan" and tool_at:
        messages.pop(draw(st.sampled_from(tool_at)))
    elif kind == "compacted" and ai_calls:
        messages.pop(draw(st.sampled_from(ai_calls)))
    elif kind == "mode_a" and ai_calls:
        i = draw(st.sampled_from(ai_calls))
        calls = tuple(messages[i].tool_calls())
        j = i + 1
        if j < len(messages) and messages[j].speaker == "tool":
            messages[j] = Message(speaker="tool", blocks=(*calls, *messages[j].blocks))
            if draw(st.booleans()):
                messages.pop(i)  # the model turn was never stored (llxprt cancellation)
    elif kind == "blank":
        messages.insert(
            draw(st.integers(0, len(messages))),
            Message(speaker=draw(st.sampled_from(["human", "ai"])), blocks=(TextBlock(text=" "),)),
        )
    elif kind == "tool_text" and tool_at:
        i = draw(st.sampled_from(tool_at))
        messages[i] = Message(speaker="tool", blocks=(*messages[i].blocks, TextBlock(text="user note")))
    return messages


@st.composite
def broken_sessions(draw: st.DrawFn) -> Session:
    """A clean history with one to three kinds of damage, read as if from a random source format."""
    messages = draw(clean_history())
    for _ in range(draw(st.integers(1, 3))):
        messages = _damage(draw, messages)
    fmt = draw(st.sampled_from(FORMATS))
    roles = ROLES.get(fmt, {})
    messages = [
        m.model_copy(update={"metadata": m.metadata.model_copy(update={"source_role": roles.get(m.speaker)})})
        for m in messages
    ]
    source: Any = SessionSource(format=fmt)
    model = draw(st.sampled_from(MODELS))
    request: dict[str, Any] = {"model": model} if model else {}
    if model and draw(st.booleans()):
        request["thinking"] = {"type": "enabled", "budget_tokens": 1024}
    return Session(messages=tuple(messages), source=source, request=request)


MODELS = [
    None,
    "gpt-4.1",
    "deepseek-reasoner",
    "kimi-k2-thinking",
    "gemini-3-pro-preview",
    "gemini-3.5-flash",
    "claude-sonnet-4-5",
    "claude-opus-4-6",
    "o1-mini",
    "sonar",
]
"""Models whose rules differ: DeepSeek and Kimi thinking, Gemini 3 signatures, Gemini 3.5 trailing turns,
Claude 4.6 prefill, o1-mini and Perplexity system messages."""


ROLES = {
    "openai-chat": {"system": "system", "human": "user", "ai": "assistant", "tool": "tool"},
    "anthropic": {"human": "user", "ai": "assistant", "tool": "user"},
    "bedrock": {"human": "user", "ai": "assistant", "tool": "user"},
    "gemini": {"human": "user", "ai": "model", "tool": "user"},
}
"""The role each format writes for each speaker, as its reader records it in ``source_role``."""


@st.composite
def plain_sessions(draw: st.DrawFn) -> Session:
    """A clean history with OpenAI- and Anthropic-style ids and no thinking, as a provider's own body.

    The shape most real agent logs have; most providers take it as it is, so it tests that the
    repair passes themselves leave what a provider accepts alone.
    """
    messages = draw(clean_history(styles=("openai", "anthropic"), thinking=False))
    fmt = draw(st.sampled_from(["openai-chat", "anthropic", "gemini", "openai-responses"]))
    roles = ROLES.get(fmt, {})
    messages = [
        m.model_copy(update={"metadata": m.metadata.model_copy(update={"source_role": roles.get(m.speaker)})})
        for m in messages
    ]
    return Session(messages=tuple(messages), source=SessionSource(format=fmt))
