"""``toolhist verify`` against the fake provider on 127.0.0.1: every provider, an accepted and a rejected
request, the request the fake received and the ledger row, exactly."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from bodies import body
from fake_provider import judge, serve
from offline import KEYS, aws, bases, verify_env_fixture  # noqa: F401  # the fixture "verify_env"

from toolhist import __version__
from toolhist.cli import main
from toolhist.tokens import counter_for

pytestmark = pytest.mark.usefixtures("verify_env")

PROVIDERS = ("openai-chat", "openai-responses", "anthropic", "gemini", "mistral", "kimi", "bedrock")

# provider → (path on the fake, the fields set for the least cost, the base-URL variable, the fake's kind)
EXPECTED: dict[str, tuple[str, dict[str, Any], str, str]] = {
    "openai-chat": ("/v1/chat/completions", {"max_completion_tokens": 1}, "OPENAI_BASE_URL", "chat"),
    "openai-responses": ("/v1/responses", {"max_output_tokens": 16}, "OPENAI_BASE_URL", "responses"),
    "anthropic": ("/v1/messages", {"max_tokens": 1}, "ANTHROPIC_BASE_URL", "anthropic"),
    "gemini": (
        "/v1beta/models/gemini-2.5-pro:generateContent",
        {"generationConfig.maxOutputTokens": 1},
        "GOOGLE_GEMINI_BASE_URL",
        "gemini",
    ),
    "mistral": ("/v1/chat/completions", {"max_tokens": 1}, "MISTRAL_BASE_URL", "mistral"),
    "kimi": ("/v1/chat/completions", {"max_tokens": 1}, "MOONSHOT_BASE_URL", "chat"),
    "bedrock": (
        "/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
        {"inferenceConfig.maxTokens": 1},
        "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
        "bedrock",
    ),
}
# provider → (rule predicted and answered for the broken body, its payload path, the envelope's error kind)
BROKEN: dict[str, tuple[str, str, str]] = {
    "openai-chat": ("oai.call_unanswered", "messages[1].role", "invalid_request_error"),
    "openai-responses": ("resp.call_unanswered", "input[1]", "invalid_request_error"),
    "anthropic": ("ant.result_missing", "messages.1", "invalid_request_error"),
    "gemini": ("gem.fr_count", "contents[2]", "INVALID_ARGUMENT"),
    "mistral": ("mis.count", "messages[1].tool_calls", "invalid_request_message_order"),
    "kimi": ("oai.call_unanswered", "messages[1].role", "invalid_request_error"),
    "bedrock": ("brk.result_missing", "messages.2.content", "ValidationException"),
}
KEY_VAR = {
    "openai-chat": "OPENAI_API_KEY",
    "openai-responses": "OPENAI_API_KEY",
    "anthropic": "ANTHROPIC_API_KEY",
    "gemini": "GEMINI_API_KEY",
    "mistral": "MISTRAL_API_KEY",
    "kimi": "MOONSHOT_API_KEY",
    "bedrock": "AWS credentials (botocore's chain: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, AWS_PROFILE, SSO…)",
}
TIME = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$")


def wire(provider: str, sent: dict[str, Any]) -> dict[str, Any]:
    """The body the fake must receive: the one given, at the least cost, the model in the URL for two."""
    out = {
        k: v for k, v in sent.items() if k not in ("modelId",) and not (provider == "gemini" and k == "model")
    }
    if provider == "openai-chat":
        out["max_completion_tokens"] = 1
    elif provider == "openai-responses":
        out["max_output_tokens"] = 16
    elif provider in ("mistral", "kimi", "anthropic"):
        out["max_tokens"] = 1
    elif provider == "gemini":
        out["generationConfig"] = {"maxOutputTokens": 1}
    else:
        out["inferenceConfig"] = {"maxTokens": 1}
    return out


def shape_hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, list[Any], str]:
    code = main(args)
    out, err = capsys.readouterr()
    docs: list[Any] = []
    decoder = json.JSONDecoder()
    rest = out.strip()
    while rest:
        value, end = decoder.raw_decode(rest)
        docs.append(value)
        rest = rest[end:].strip()
    return code, docs, err


@pytest.mark.parametrize("answered", [True, False], ids=["200", "400"])
@pytest.mark.parametrize("provider", PROVIDERS)
def test_verify_sends_the_request_and_records_the_answer_beside_the_prediction(
    provider: str,
    answered: bool,
    verify_env: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    given = body(provider, answered)
    source = tmp_path / f"{provider}.json"
    source.write_text(json.dumps(given))
    path, cost, base_var, kind = EXPECTED[provider]
    with serve(mistral=provider == "mistral") as (fake, recorder):
        for name, value in bases(fake).items():
            monkeypatch.setenv(name, value)
        if provider == "bedrock":
            aws(monkeypatch, fake)
        code, docs, err = run(["verify", str(source), "--provider", provider, "--yes", "--json"], capsys)
    sent = wire(provider, given)
    assert [(p, b) for p, b, _ in recorder.calls] == [(path, sent)]
    data = json.dumps(sent, ensure_ascii=False, separators=(",", ":")).encode()
    model = given.get("model") or given.get("modelId")
    assert isinstance(model, str)
    verdict = None if answered else judge(kind, sent)
    if verdict is None:
        answer = {"status": 200, "error_type": None, "error_text": "", "rule": None}
        predicted: dict[str, Any] = {"errors": [], "warnings": [], "violations": []}
    else:
        rule, at, error_type = BROKEN[provider]
        status, payload, _ = verdict
        text = (
            "An error occurred (ValidationException) when calling the Converse operation: "
            + payload["message"]
            if provider == "bedrock"
            else json.dumps(payload)
        )
        answer = {"status": status, "error_type": error_type, "error_text": text, "rule": rule}
        predicted = {
            "errors": [rule],
            "warnings": [],
            "violations": [{"rule": rule, "severity": "error", "path": at}],
        }
    rows = [json.loads(line) for line in verify_env.read_text().splitlines()]
    assert len(rows) == 1
    assert TIME.match(rows[0].pop("time"))
    assert rows[0] == {
        "ledger": 1,
        "toolhist_version": __version__,
        "file": str(source),
        "format": "openai-chat" if provider in ("mistral", "kimi") else provider,
        "judged": "as-sent",
        "provider": provider,
        "strategy": "none",
        "model": model,
        "route": "generate",
        "url": fake + path,
        "base": base_var,
        "transport": "botocore" if provider == "bedrock" else "urllib",
        "cost": cost,
        "request": {
            "bytes": len(data),
            "tokens": counter_for(provider, model).count(data.decode()),
            "shape": {
                "messages": 3,
                "tool_calls": 1,
                "tool_results": 1 if answered else 0,
                "hash": shape_hash(
                    "human:text|ai:call1|tool:result1" if answered else "human:text|ai:call1|human:text"
                ),
            },
        },
        "predicted": predicted,
        "answer": answer,
        "outcome": "confirmed",
    }
    assert code == 0, err
    assert err == ""
    plan, result = docs
    assert result == {"row": {**rows[0], "time": result["row"]["time"]}, "ledger": str(verify_env)}
    assert plan["plan"]["url"] == fake + path
    assert plan["plan"]["key"] == KEY_VAR[provider]
    for key in KEYS.values():  # the key is a header, never in the plan, the output or the ledger
        assert key not in json.dumps(docs)
        assert key not in verify_env.read_text()
