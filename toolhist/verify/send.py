"""Send a planned request and read the provider's answer: the one place `toolhist verify` touches the network.

Why plain ``urllib`` and not the official SDKs for six providers: a verdict is about one exact body,
and the SDKs do not send the body they are given. ``mistralai`` adds ``prefix``, ``index`` and
``stream``, ``google-genai`` renames schema keys and moves the model, ``anthropic`` re-sorts keys
(`toolhist.sdk.BINDINGS` lists each documented rewrite); ``urllib`` sends the plan's bytes as they
are, with the key and base URL read from the variables each SDK reads (`toolhist.verify.endpoints`),
needs no extra, and honours ``HTTPS_PROXY`` as the SDKs do. Bedrock is the exception: its requests
are SigV4-signed, so it goes through ``botocore`` (the ``[sdk]`` extra) with the user's own AWS
credential chain, region and ``AWS_ENDPOINT_URL_BEDROCK_RUNTIME``; without botocore only a Bedrock API
key (``AWS_BEARER_TOKEN_BEDROCK``) can be sent, by ``urllib``. One request, no retry, no streaming.

Every failure to get an answer (no key, no route to the host, a timeout, botocore refusing the body)
is a `VerifyFailed` with one line; an HTTP error status is an answer, not a failure.
"""

from __future__ import annotations

import json
import os
import ssl
import urllib.error
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from toolhist.errors import ToolhistError
from toolhist.redact import redact_text
from toolhist.verify.plan import Plan

TIMEOUT = 60.0
"""Seconds to wait for the answer (``--timeout``)."""

TEXT_LIMIT = 8000
"""Characters of an error body kept in the ledger (the rule is read from the whole)."""


class VerifyFailed(ToolhistError):
    """No answer from the provider: the reason in one line (nothing was recorded)."""


@dataclass(frozen=True)
class Answer:
    """What the provider answered."""

    status: int
    """The HTTP status."""
    text: str
    """The error body as text, redacted (empty for a 2xx answer): what the SDK would have shown."""
    error_type: str | None
    """The provider's error kind from its envelope (``invalid_request_error``, ``INVALID_ARGUMENT``,
    ``ValidationException``…), None for a 2xx answer or an envelope without one."""


def send(plan: Plan, *, environ: Mapping[str, str] | None = None, timeout: float = TIMEOUT) -> Answer:
    """Send ``plan`` once and return the answer (`VerifyFailed` when there is none)."""
    env = os.environ if environ is None else environ
    if plan.transport == "botocore":
        return _botocore(plan, env, timeout)
    if plan.key_var is None:
        raise VerifyFailed(
            f"no API key for {plan.provider}: set {' or '.join(plan.endpoint.key_vars)}"
            + (" (or install botocore: pip install 'toolhist[sdk]')" if plan.endpoint.auth == "aws" else "")
        )
    if "REGION" in plan.url.split("/")[2]:
        raise VerifyFailed("no AWS region is set: set AWS_REGION")
    return _urllib(plan, env[plan.key_var], timeout)


def _headers(plan: Plan, key: str) -> dict[str, str]:
    from toolhist import __version__

    headers = {"content-type": "application/json", "user-agent": f"toolhist/{__version__} verify"}
    auth = plan.endpoint.auth
    if auth == "anthropic":
        headers["anthropic-version"] = "2023-06-01"
        if plan.key_var == "ANTHROPIC_API_KEY":
            headers["x-api-key"] = key
        else:
            headers["authorization"] = f"Bearer {key}"
    elif auth == "x-goog-api-key":
        headers["x-goog-api-key"] = key
    else:
        headers["authorization"] = f"Bearer {key}"
    return headers


def _urllib(plan: Plan, key: str, timeout: float) -> Answer:
    request = urllib.request.Request(plan.url, data=plan.data, headers=_headers(plan, key), method="POST")
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            response.read()
            return Answer(status=int(response.status), text="", error_type=None)
    except urllib.error.HTTPError as exc:
        raw = exc.read()
        header = exc.headers.get("x-amzn-ErrorType") if exc.headers is not None else None
        return _error(int(exc.code), raw.decode("utf-8", "replace"), header)
    except urllib.error.URLError as exc:
        raise VerifyFailed(f"could not reach {plan.url}: {_reason(exc.reason)}") from None
    except TimeoutError:
        raise VerifyFailed(f"no answer from {plan.url} within {timeout:g} s") from None
    except (ConnectionError, ssl.SSLError, OSError) as exc:
        raise VerifyFailed(f"could not reach {plan.url}: {_reason(exc)}") from None


def _reason(reason: object) -> str:
    if isinstance(reason, ConnectionRefusedError):
        return "connection refused"
    if isinstance(reason, TimeoutError):
        return "timed out"
    text = str(getattr(reason, "strerror", None) or reason)
    return text.splitlines()[0] if text else type(reason).__name__


def _error(status: int, text: str, amzn: str | None = None) -> Answer:
    try:
        parsed: Any = json.loads(text)
    except ValueError:
        parsed = None
    kind: Any = None
    if isinstance(parsed, dict):
        inner = parsed.get("error")
        if isinstance(inner, dict):
            kind = inner.get("type") or inner.get("status")
        if kind is None and parsed.get("type") not in (None, "error"):
            kind = parsed["type"]  # Mistral's envelope: the kind at the top
    if kind is None and amzn:
        kind = amzn.split(":")[0]
    redacted, _ = redact_text(text[:TEXT_LIMIT])
    return Answer(status=status, text=redacted, error_type=str(kind) if kind else None)


def _botocore(plan: Plan, env: Mapping[str, str], timeout: float) -> Answer:
    """Bedrock through botocore: the user's credential chain, region and endpoint variables, SigV4."""
    import botocore.session
    from botocore.config import Config
    from botocore.exceptions import (
        BotoCoreError,
        ClientError,
        ConnectTimeoutError,
        EndpointConnectionError,
        NoCredentialsError,
        NoRegionError,
        ParamValidationError,
        ReadTimeoutError,
    )

    session = botocore.session.Session()
    config = Config(
        retries={"max_attempts": 1, "mode": "standard"}, connect_timeout=timeout, read_timeout=timeout
    )
    try:
        client = session.create_client("bedrock-runtime", config=config, region_name=_env_region(env))
        client.converse(modelId=plan.model, **plan.body)
    except ClientError as exc:
        meta = exc.response.get("ResponseMetadata", {})
        status = int(meta.get("HTTPStatusCode") or 0)
        code = exc.response.get("Error", {}).get("Code")
        redacted, _ = redact_text(str(exc)[:TEXT_LIMIT])
        return Answer(status=status, text=redacted, error_type=str(code) if code else None)
    except NoRegionError:
        raise VerifyFailed("no AWS region is set: set AWS_REGION") from None
    except NoCredentialsError:
        raise VerifyFailed(f"no AWS credentials for bedrock: set {' or '.join(_AWS_HINT)}") from None
    except ParamValidationError as exc:
        first = str(exc).splitlines()[1] if len(str(exc).splitlines()) > 1 else str(exc)
        raise VerifyFailed(f"botocore refused the body before sending: {first.strip()}") from None
    except (ConnectTimeoutError, ReadTimeoutError):
        raise VerifyFailed(f"no answer from {plan.url} within {timeout:g} s") from None
    except EndpointConnectionError:
        raise VerifyFailed(f"could not reach {plan.url}: connection failed") from None
    except BotoCoreError as exc:
        raise VerifyFailed(f"botocore: {str(exc).splitlines()[0]}") from None
    return Answer(status=200, text="", error_type=None)


_AWS_HINT = ("AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY", "AWS_PROFILE", "AWS_BEARER_TOKEN_BEDROCK")


def _env_region(env: Mapping[str, str]) -> str | None:
    return env.get("AWS_REGION") or env.get("AWS_DEFAULT_REGION") or None
