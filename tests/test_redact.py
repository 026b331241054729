"""Secrets are replaced in what is shared, JSON stays valid, and a loaded session stays exact."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import toolhist
from toolhist.redact import redact_session, redact_text

OPENAI = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2"
ANTHROPIC = "sk-ant-api03-" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2"
GOOGLE = "AIza" + "SyA1234567890abcdefghijklmnopqrstuv"  # AIza + 35
AWS = "AKIA" + "IOSFODNN7EXAMPLE"
MISTRAL_LIKE = "Qw3rTy8uIo9pAs2dFg4hJk6lZx7cVb1n"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (f"key {OPENAI} here", "key [REDACTED:openai-key] here"),
        (f"use {ANTHROPIC}", "use [REDACTED:anthropic-key]"),
        (f"g={GOOGLE}", "g=[REDACTED:google-key]"),
        (f"aws {AWS}", "aws [REDACTED:aws-access-key]"),
        ("Authorization: Bearer eyJhbGciOi.JIUzI1NiJ9x", "Authorization: Bearer [REDACTED:bearer-token]"),
        (f"x-api-key: {MISTRAL_LIKE}", "x-api-key: [REDACTED:credential]"),
        (f'{{"api_key": "{MISTRAL_LIKE}"}}', '{"api_key": "[REDACTED:credential]"}'),
        ("the task-runner skips keys", "the task-runner skips keys"),
        ("max_tokens: 4096, token budget", "max_tokens: 4096, token budget"),
    ],
)
def test_key_shapes(text: str, expected: str) -> None:
    assert redact_text(text)[0] == expected


def test_load_keeps_secrets_and_redact_session_replaces_them() -> None:
    body = {
        "model": "gpt-4o",
        "messages": [
            {"role": "user", "content": f"my key is {OPENAI}"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {
                            "name": "curl",
                            "arguments": json.dumps({"header": f"Authorization: Bearer {OPENAI}"}),
                        },
                    }
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": "401"},
        ],
    }
    for source in (body, json.dumps(body).encode()):
        s = toolhist.load(source)
        assert OPENAI in s.to_json()
        assert toolhist.render(s, "openai-chat").body == body
        redacted, counts = redact_session(s)
        assert redacted.messages[0].blocks[0].model_dump()["text"] == "my key is [REDACTED:openai-key]"
        call = redacted.messages[1].blocks[0].model_dump()
        assert call["parameters"] == {"header": "Authorization: Bearer [REDACTED:bearer-token]"}
        assert set(counts) == {"openai-key", "bearer-token"}
        assert OPENAI not in redacted.to_json()


@pytest.mark.parametrize(
    "code",
    [
        "DEBUG_API_KEY: process.env.DEBUG_API_KEY",
        "api_key=os.environ['OPENAI_API_KEY']",
        "apiKey: config.apiKey",
        "password=${DB_PASSWORD}",
        "login(user, password=password)",
        'headers = {"x-api-key": self.api_key}',
        "postgres://admin:${DB_PASS}@db:5432/app",
        "AWS_SECRET_ACCESS_KEY=$AWS_SECRET_ACCESS_KEY",
        "Authorization: Bearer <token>",
    ],
)
def test_code_that_names_a_variable_is_not_a_secret(code: str) -> None:
    assert redact_text(code) == (code, {})


json_text = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.lists(st.sampled_from([*'ab "\\:=-_kKsS', OPENAI, "Bearer ", "api_key", "\n"])).map("".join),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
    max_leaves=10,
)


@given(json_text)
@example("api_key:\n" + OPENAI)  # found by hypothesis: the value began inside the escape ``\n``
@example("apikey=\tabcdefghijklmnop")
def test_redacted_json_text_is_still_json(value: Any) -> None:
    text = json.dumps(value)
    redacted, _ = redact_text(text)
    json.loads(redacted)
    assert OPENAI not in redacted


def test_a_credential_after_an_escaped_blank_in_json_text_is_redacted_and_the_escape_kept() -> None:
    text = json.dumps({"log": "api_key:\n  ABCDEFGHIJKLMNOP and x-api-key=\t'QRSTUVWXYZ123456'"})
    redacted, counts = redact_text(text)
    assert json.loads(redacted) == {
        "log": "api_key:\n  [REDACTED:credential] and x-api-key=\t'[REDACTED:credential]'"
    }
    assert counts == {"credential": 2}
