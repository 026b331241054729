"""The guard around the real SDK clients, against a fake provider on 127.0.0.1 (no network).

For each SDK, a broken history (a tool call never answered) is sent in each mode:

- ``warn``: the body reaches the provider unchanged, the SDK raises its own 400 error, a bundle
  holds the body as sent and the answer, and its rule is the one toolhist predicted;
- ``repair``: the provider receives the ``toolhist`` curation, accepts it (its own check, not
  toolhist's), every field outside the history is as given, and no bundle is written;
- ``raise``: `GuardRejected` with the violations, and nothing reaches the provider.

Sync and async clients, and streaming where the SDK streams over HTTP.
"""

from __future__ import annotations

import copy
import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import orjson
import pytest
from fake_provider import serve
from guard_calls import BODIES, CASES, CHAT, HISTORY, RULE, STREAM, send

from toolhist import guard
from toolhist.guard import bundle as bundles


def _history(provider: str, body: dict[str, Any]) -> Any:
    return body[HISTORY[provider]]


def _only_bundle(folder: Path) -> dict[str, Any]:
    found = sorted(folder.glob(f"*{bundles.SUFFIX}"))
    assert len(found) == 1, found
    return dict(orjson.loads(found[0].read_bytes()))


@pytest.mark.parametrize(("provider", "aio"), CASES)
def test_warn_sends_unchanged_and_bundles_the_400(
    provider: str, aio: bool, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with (
        serve(mistral=provider == "mistral") as (base, recorder),
        caplog.at_level(logging.WARNING, "toolhist.guard"),
        pytest.raises(Exception, match=r"tool|function") as raised,
    ):
        send(provider, "warn", base, tmp_path, aio=aio)
    assert type(raised.value).__name__ in {
        "BadRequestError",
        "ClientError",
        "SDKError",
        "MistralError",
        "ValidationException",
    }, raised.value
    [(_, received, status)] = recorder.calls
    assert status == 400
    bundle = _only_bundle(tmp_path)
    assert bundle["request"]["body"] == received  # what the SDK built is what was sent, unchanged
    if provider != "mistral":  # mistralai serialises messages its own way (drops content: null)
        assert _history(provider, received) == _history(provider, BODIES[provider])
    assert bundle["toolhist_bundle"] == 1
    assert bundle["provider"] == provider
    assert bundle["mode"] == "warn"
    assert bundle["response"]["status"] == 400
    assert RULE[provider] in {v["rule"] for v in bundle["violations"]}
    assert "authorization" not in bundle["request"]["headers"]
    assert "x-api-key" not in bundle["request"]["headers"]
    assert any(RULE[provider] in r.getMessage() for r in caplog.records)
    info = bundles.info(Path("b"), bundle)
    assert (info.provider, info.status, info.rule) == (provider, 400, RULE[provider])


@pytest.mark.parametrize(("provider", "aio"), CASES)
def test_repair_sends_the_curation_and_the_provider_accepts_it(
    provider: str, aio: bool, tmp_path: Path
) -> None:
    with serve(mistral=provider == "mistral") as (base, recorder):
        send(provider, "repair", base, tmp_path, aio=aio)
    [(_, received, status)] = recorder.calls
    assert status == 200, received
    given = BODIES[provider]
    assert _history(provider, received) != _history(provider, given)
    # every field outside the history is exactly as given
    outside = {k: v for k, v in received.items() if k != HISTORY[provider]}
    if provider == "gemini":
        assert outside["tools"][0]["functionDeclarations"][0]["name"] == "read_file"
    elif provider == "bedrock":
        assert outside == {k: v for k, v in given.items() if k not in (HISTORY[provider], "modelId")}
    elif provider == "mistral":
        assert {k: outside[k] for k in ("model", "tools")} == {k: given[k] for k in ("model", "tools")}
    else:
        assert {k: outside[k] for k in given if k != HISTORY[provider]} == {
            k: v for k, v in given.items() if k != HISTORY[provider]
        }
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(("provider", "aio"), CASES)
def test_raise_sends_nothing(provider: str, aio: bool, tmp_path: Path) -> None:
    with (
        serve(mistral=provider == "mistral") as (base, recorder),
        pytest.raises(guard.GuardRejected) as raised,
    ):
        send(provider, "raise", base, tmp_path, aio=aio)
    assert recorder.calls == []
    assert raised.value.provider == provider
    assert RULE[provider] in {v.rule for v in raised.value.violations}
    assert str(raised.value).startswith(f"toolhist guard: {provider} would reject this request")


@pytest.mark.parametrize("provider", STREAM)
def test_streaming_repair_and_raise(provider: str, tmp_path: Path) -> None:
    with serve() as (base, recorder):
        events = send(provider, "repair", base, tmp_path, stream=True)
        with pytest.raises(guard.GuardRejected):
            send(provider, "raise", base, tmp_path, stream=True)
    assert len(events) >= 1
    assert [status for _, _, status in recorder.calls] == [200]
    assert recorder.calls[0][1]["stream"] is True


@pytest.mark.parametrize("provider", STREAM)
def test_an_error_inside_a_2xx_stream_is_bundled(provider: str, tmp_path: Path) -> None:
    import anthropic
    import openai

    sound = copy.deepcopy(BODIES[provider])
    key = HISTORY[provider]
    sound[key] = [sound[key][0]]
    with serve() as (base, _):
        http = guard.http_client("warn", capture=tmp_path, headers={"x-fake-stream-error": "1"})
        raised: list[BaseException] = []
        try:
            if provider == "anthropic":
                list(
                    anthropic.Anthropic(
                        api_key="k", base_url=base, max_retries=0, http_client=http
                    ).messages.create(**sound, stream=True)
                )
            else:
                client = openai.OpenAI(api_key="k", base_url=f"{base}/v1", max_retries=0, http_client=http)
                api: Callable[..., Any] = (
                    client.responses.create
                    if provider == "openai-responses"
                    else client.chat.completions.create
                )
                list(api(**sound, stream=True))
        except Exception as exc:  # the SDK may raise on the error event; the bundle is what is tested
            raised.append(exc)
    assert all(type(exc).__module__.split(".")[0] in {"openai", "anthropic"} for exc in raised), raised
    bundle = _only_bundle(tmp_path)
    assert bundle["response"]["status"] == 200
    assert bundle["response"]["stream_error"] is True
    assert "error" in bundle["response"]["body"]


def test_keep_last_rotates_the_captured_requests(tmp_path: Path) -> None:
    import openai

    sound: dict[str, Any] = {**CHAT, "messages": [CHAT["messages"][0]]}
    with serve() as (base, _):
        http = guard.http_client("warn", capture=tmp_path, keep_last=2)
        client = openai.OpenAI(api_key="k", base_url=f"{base}/v1", max_retries=0, http_client=http)
        for n in range(4):
            client.chat.completions.create(
                **{**sound, "messages": [{"role": "user", "content": f"turn {n}"}]}
            )
    kept = sorted(tmp_path.glob(f"*{bundles.SUFFIX}"))
    assert len(kept) == 2
    texts = sorted(orjson.loads(p.read_bytes())["request"]["body"]["messages"][0]["content"] for p in kept)
    assert texts == ["turn 2", "turn 3"]


def test_a_key_in_the_history_is_redacted_in_the_bundle(tmp_path: Path) -> None:
    body = copy.deepcopy(CHAT)
    body["messages"][0]["content"] = "my key is sk-proj-ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
    import openai

    with serve() as (base, _):
        http = guard.http_client("warn", capture=tmp_path)
        client = openai.OpenAI(
            api_key="sk-proj-SECRETSECRETSECRETSECRET0123",
            base_url=f"{base}/v1",
            max_retries=0,
            http_client=http,
        )
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(**body)
    text = next(tmp_path.iterdir()).read_text()
    assert "sk-proj-ABCDEFGHIJ" not in text
    assert "SECRETSECRET" not in text
    assert "[REDACTED:openai-key]" in text
