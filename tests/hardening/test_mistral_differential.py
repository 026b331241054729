"""Our ``mistral`` rules against mistral_common's own validator, on thousands of generated bodies.

mistral_common (``mistralai/mistral-common``, tested on 1.13.1) is the validator the hosted API
runs. It stops at the first error, so for each generated chat body we check:

- accept/reject agree: mistral_common accepts exactly when we find no error among the rules it
  covers;
- when it rejects, the rule its exception names is among our errors.

The reference is ``MistralRequestValidatorV11`` in serving mode: 9-character ``[a-zA-Z0-9]`` ids
(V3), calls and content together allowed (V5), results paired by id (V11) — the combination our
rules encode (``toolhist/providers/mistral.py``). Requests are built with
``ChatCompletionRequest.from_openai``, as vLLM and the SDK do.

Not compared (documented drift or rules only one side has):

- *user after tool*: 1.13.1 allows it; the hosted API answered ``Unexpected role 'user' after role
  'tool'`` in 2025 (research/providers.md §12) and accepted it in 2026-08 (recorded traffic), so ours
  is the warning ``mis.user_after_tool``, outside the comparison;
- function names on the history's ``tool_calls``: 1.13.1 checks them, the hosted API accepted a
  malformed one the model had produced (mistral-large-latest, 2026-01, recorded traffic), so ours
  checks names in declarations and tool messages only; mistral_common sees those calls renamed;
- ``mis.content_xor_calls``: a warning for V3-era models only (V5 and later allow both);
- mistral_common-only checks the generator avoids: ``prefix: true`` on a message that is not last,
  content chunk types, ``null`` system content, tool schemas that are not Draft 7, the model name,
  ``reasoning_effort``;
- the last-role text: 1.13.1 says ``(or Assistant with prefix)``, our rule quotes the newer
  ``(or Assistant with prefix or continue_final_message set to True)``; texts are not compared.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from toolhist.providers import validate_payload

mistral_common = pytest.importorskip("mistral_common")

from mistral_common.protocol.instruct.request import ChatCompletionRequest  # noqa: E402
from mistral_common.protocol.instruct.validator import (  # noqa: E402
    MistralRequestValidatorV11,
    ValidationMode,
)

VALIDATOR = MistralRequestValidatorV11(ValidationMode.serving)

EXCEPTION_RULES: tuple[tuple[re.Pattern[str], str], ...] = tuple(
    (re.compile(pattern), rule)
    for pattern, rule in (
        (r"^Conversation must have at least one message$", "mis.empty"),
        (r"^Conversation must start with a user message or system message$", "mis.first"),
        (r"^Expected last role User or Tool \(or Assistant with prefix", "mis.last_role"),
        (r"^Unexpected role '\w+' after role '\w+'$", "mis.order"),
        (r"^Not the same number of function calls and responses$", "mis.count"),
        (r"^Duplicate tool call id .* in tool results$", "mis.dup_result"),
        (r"^Unexpected tool call id .* in tool results$", "mis.unexpected_result"),
        (r"^Duplicate tool call id .* in assistant message$", "mis.dup_call"),
        (r"^Tool call id has to be defined\.$", "mis.id_missing"),
        (r"^Tool call id has to be defined in serving mode\.$", "mis.call_id_missing"),
        (r"^Tool call id was .* but must be a-z, A-Z, 0-9, with a length of 9\.$", "mis.id_format"),
        (r"^Function name was .* but must be a-z, A-Z, 0-9", "mis.name_format"),
    )
)
"""mistral_common's exception texts (validator.py, 1.13.1) and the rule of ours each one is."""

NOT_COMPARED = {"mis.content_xor_calls"}


_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def _valid_call_names(message: dict[str, Any]) -> dict[str, Any]:
    """The message with malformed names on its tool_calls replaced (the documented drift above)."""
    calls = message.get("tool_calls")
    if not isinstance(calls, list):
        return message
    fixed = []
    for c in calls:
        fn = c.get("function") if isinstance(c, dict) else None
        if isinstance(fn, dict) and isinstance(fn.get("name"), str) and not _NAME.match(fn["name"]):
            fixed.append({**c, "function": {**fn, "name": "renamed"}})
        else:
            fixed.append(c)
    return {**message, "tool_calls": fixed}


def theirs(body: dict[str, Any]) -> str | None:
    """The rule mistral_common rejects ``body`` for, or None when it accepts it."""
    messages = [_valid_call_names(m) for m in body["messages"]]
    # from_openai reads no per-message ``prefix``; its continue_final_message sets it on the last one
    prefix = bool(messages) and messages[-1].get("prefix") is True
    try:
        request = ChatCompletionRequest.from_openai(
            messages, tools=body.get("tools"), continue_final_message=prefix, model="m"
        )
    except KeyError as exc:  # from_openai indexes message["tool_call_id"] on tool messages
        if exc.args != ("tool_call_id",):
            raise
        return "mis.id_missing"
    try:
        VALIDATOR.validate_request(request)
    except Exception as exc:
        text = str(exc)
        if text == "Duplicate tool call id null in assistant message":
            # two calls without an id both read as "null": we report the missing ids themselves
            return "mis.call_id_missing"
        for pattern, rule in EXCEPTION_RULES:
            if pattern.search(text):
                return rule
        raise AssertionError(f"unmapped mistral_common error {type(exc).__name__}: {text}") from exc
    return None


def ours(body: dict[str, Any]) -> set[str]:
    """Our error rules for ``body``, less the documented drift."""
    found = set()
    for v in validate_payload(body, "mistral"):
        if v.severity != "error" or v.rule in NOT_COMPARED:
            continue
        found.add(v.rule)
    return found


IDS = st.sampled_from(
    [
        "abcDEF123",  # valid: 9 alphanumerics
        "Zx9Yw8Vu7",
        "000000000",
        "call_8fJx2LmQ0pV4tR7wN1sYb3Kd",  # OpenAI
        "toolu_01A09q90qw90lq917835lq9",  # Anthropic
        "functions.read:0",  # Kimi
        "abcdefgh",  # 8
        "abcdefghij",  # 10
        "abc-ef_12",  # 9 with punctuation
        "",
        "null",
    ]
)
NAMES = st.sampled_from(["read_file", "grep", "run-shell", "a" * 64, "a" * 65, "read file", "f.x", ""])


@st.composite
def call(draw: st.DrawFn) -> dict[str, Any]:
    c: dict[str, Any] = {"type": "function", "function": {"name": draw(NAMES), "arguments": "{}"}}
    if draw(st.integers(0, 9)):  # one in ten has no id
        c["id"] = draw(IDS)
    return c


@st.composite
def message(draw: st.DrawFn, ids: list[str]) -> dict[str, Any]:
    role = draw(st.sampled_from(["system", "user", "assistant", "assistant", "tool", "tool"]))
    if role in ("system", "user"):
        return {"role": role, "content": "hi"}
    if role == "assistant":
        keep_empty: bool = draw(st.booleans())
        calls: list[dict[str, Any]] = draw(st.lists(call(), max_size=3))
        ids.extend(c["id"] for c in calls if "id" in c)
        m: dict[str, Any] = {"role": "assistant", "content": draw(st.sampled_from([None, "", "ok"]))}
        if calls or keep_empty:
            m["tool_calls"] = calls
        return m
    m = {"role": "tool", "content": "result"}
    choice = draw(st.integers(0, 9))
    if choice < 7 and ids:
        m["tool_call_id"] = draw(st.sampled_from(ids))  # answers a call made so far
    elif choice < 9:
        m["tool_call_id"] = draw(IDS)  # answers no call, or a later one
    if draw(st.booleans()):
        m["name"] = draw(NAMES)
    return m


@st.composite
def body(draw: st.DrawFn) -> dict[str, Any]:
    ids: list[str] = []
    messages = [draw(message(ids)) for _ in range(draw(st.integers(0, 8)))]
    if messages and messages[-1]["role"] == "assistant" and messages[-1]["content"] and draw(st.booleans()):
        messages[-1]["prefix"] = True
    out: dict[str, Any] = {"model": "mistral-large-latest", "messages": messages}
    if draw(st.booleans()):
        out["tools"] = [
            {"type": "function", "function": {"name": n, "parameters": {"type": "object", "properties": {}}}}
            for n in draw(st.lists(NAMES, max_size=2))
        ]
    return out


VALID_IDS = st.text("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=9, max_size=9)


@st.composite
def plausible(draw: st.DrawFn) -> dict[str, Any]:
    """A conversation an agent would send: turns of calls and results, with the usual slips.

    Ids are mostly valid; results go missing, repeat, answer an unknown id or come in another
    order; the body ends on a user or tool message (or a prefixed assistant).
    """
    messages: list[dict[str, Any]] = []
    if draw(st.booleans()):
        messages.append({"role": "system", "content": "be brief"})
    messages.append({"role": "user", "content": "go"})
    for _ in range(draw(st.integers(0, 4))):
        ids = draw(st.lists(st.one_of(VALID_IDS, VALID_IDS, VALID_IDS, IDS), min_size=0, max_size=3))
        calls = [
            {"id": i, "type": "function", "function": {"name": draw(NAMES), "arguments": "{}"}} for i in ids
        ]
        content = draw(st.sampled_from([None, "ok"])) if calls else "ok"
        messages.append({"role": "assistant", "content": content, **({"tool_calls": calls} if calls else {})})
        answers = [i for i in ids if draw(st.integers(0, 9))]  # one in ten unanswered
        if answers and not draw(st.integers(0, 9)):
            answers.append(answers[0])  # a duplicate result
        if not draw(st.integers(0, 9)):
            answers.append(draw(VALID_IDS))  # a result for no call
        answers = draw(st.permutations(answers))
        messages.extend({"role": "tool", "tool_call_id": i, "content": "r"} for i in answers)
        if draw(st.integers(0, 3)) == 0:
            messages.append({"role": "user", "content": "next"})
    if messages[-1]["role"] == "assistant":
        if draw(st.booleans()):
            messages[-1]["prefix"] = True
        else:
            messages.append({"role": "user", "content": "and?"})
    return {"model": "mistral-large-latest", "messages": messages}


@settings(max_examples=1500, deadline=None)
@given(st.one_of(body(), plausible()))
def test_ours_and_mistral_common_agree(b: dict[str, Any]) -> None:
    mine = ours(b)
    their = theirs(b)
    if their is None:
        assert mine == set(), f"mistral_common accepts; we report {sorted(mine)}"
    else:
        assert their in mine, f"mistral_common rejects for {their}; we report {sorted(mine)}"


@pytest.mark.parametrize(
    ("messages", "rule"),
    [
        ([], "mis.empty"),
        ([{"role": "assistant", "content": "hi"}], "mis.first"),
        ([{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}], "mis.last_role"),
        (
            [{"role": "user", "content": "a"}, {"role": "tool", "tool_call_id": "abcDEF123", "content": "r"}],
            "mis.order",
        ),
        (
            [
                {"role": "user", "content": "a"},
                {
                    "role": "assistant",
                    "content": None,
                    "tool_calls": [
                        {"id": "abcDEF12", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                    ],
                },
                {"role": "tool", "tool_call_id": "abcDEF12", "content": "r"},
            ],
            "mis.id_format",
        ),
        ([{"role": "user", "content": "a"}, {"role": "tool", "content": "r"}], "mis.id_missing"),
    ],
)
def test_each_mapping_is_exercised(messages: list[dict[str, Any]], rule: str) -> None:
    """The mapping is not vacuous: each of these is rejected by both, for the same rule."""
    b = {"model": "m", "messages": messages}
    assert theirs(b) == rule
    assert rule in ours(b)


def test_user_after_tool_is_the_documented_drift() -> None:
    b = {
        "model": "m",
        "messages": [
            {"role": "user", "content": "a"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {"id": "abcDEF123", "type": "function", "function": {"name": "f", "arguments": "{}"}}
                ],
            },
            {"role": "tool", "tool_call_id": "abcDEF123", "content": "r"},
            {"role": "user", "content": "b"},
        ],
    }
    assert theirs(b) is None  # 1.13.1 accepts
    # the hosted API rejected it in 2025 and accepted it in 2026-08: a warning
    assert [(v.rule, v.severity) for v in validate_payload(b, "mistral")] == [
        ("mis.user_after_tool", "warning")
    ]
