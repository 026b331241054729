"""``botocore``: the Bedrock Runtime ``Converse`` operation.

Types: botocore ships the service models, so the check is botocore's own ``ParamValidator`` on the
``Converse`` input shape — the same validation ``client.converse(...)`` runs before it sends anything
(unknown keys, missing required members, wrong types, tagged unions with more than one member set).
Capture: a ``bedrock-runtime`` client with dummy credentials and a ``before-send`` handler that keeps
the signed request and stops it there, so nothing is sent. Documented difference: ``modelId`` moves
into the URL path (``/model/{modelId}/converse``).
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib.metadata import version
from typing import Any

import botocore.session
from botocore.config import Config
from botocore.exceptions import ParamValidationError
from botocore.validate import ParamValidator

from toolhist.sdk.strict import Issue, Loc
from toolhist.sdk.transport import CAPTURE_BASE, Captured, SdkRejected, split_headers

SDK = "botocore"
VERSION = version(SDK)
TYPE = "botocore bedrock-runtime Converse input shape (ConverseRequest)"
REGION = "us-east-1"

TYPE_NAMES = {"check": TYPE}

VOLATILE = frozenset({"user-agent", "x-amz-date", "authorization", "amz-sdk-invocation-id"})
"""The machine (user-agent), the clock (date and the signature over it) and a per-call UUID."""


class _Stop(Exception):
    """Raised by the before-send handler so the signed request goes no further."""


@cache
def _client() -> Any:
    session = botocore.session.Session()
    return session.create_client(
        "bedrock-runtime",
        region_name=REGION,
        endpoint_url=CAPTURE_BASE,
        aws_access_key_id="AKIDTOOLHISTDUMMY",
        aws_secret_access_key="toolhist-dummy-secret",  # a placeholder, never a credential
        config=Config(retries={"max_attempts": 1, "mode": "standard"}),
    )


def _path(name: str) -> Loc:
    """The path tuple of botocore's ``.messages[0].content[1]``."""
    out: list[str | int] = []
    for key, index in re.findall(r"\.?([^.\[\]]+)|\[(\d+)\]", name):
        out.append(int(index) if index else key)
    return tuple(out)


def check(body: dict[str, Any]) -> list[Issue]:
    """Issues of a Converse body, as botocore's ParamValidator reports them."""
    shape = _client().meta.service_model.operation_model("Converse").input_shape
    report = ParamValidator().validate(body, shape)
    issues: list[Issue] = []
    for err in report._errors:  # one (kind, name, details) per error; the report only joins them
        kind, name, details = err
        path = _path(name)
        if kind == "unknown field":
            path = (*path, details["unknown_param"])
        elif kind == "missing required field":
            path = (*path, details["required_name"])
        issues.append(Issue(path, kind.replace(" ", "_"), report._format_error(err)))
    return issues


def capture(body: dict[str, Any]) -> Captured:
    """The signed request ``client.converse(**body)`` would send."""
    client = _client()
    sink: list[Any] = []

    def before_send(request: Any, **_: Any) -> None:
        sink.append(request)
        raise _Stop

    event = "before-send.bedrock-runtime.Converse"
    client.meta.events.register(event, before_send)
    try:
        client.converse(**body)
    except _Stop:
        pass
    except (ParamValidationError, TypeError, ValueError) as exc:
        raise SdkRejected.of(SDK, VERSION, exc) from None
    finally:
        client.meta.events.unregister(event, before_send)
    request = sink[0]
    raw = [
        (name, value.decode() if isinstance(value, bytes) else value)
        for name, value in request.headers.items()
    ]
    headers, dropped = split_headers(raw, VOLATILE)
    data = request.body if isinstance(request.body, bytes) else str(request.body).encode()
    json.loads(data)  # a Converse body is JSON: fail here, not in a caller, if that ever changes
    return Captured(
        method=request.method,
        url=request.url,
        headers=headers,
        body_bytes=data,
        sdk=SDK,
        version=VERSION,
        dropped_headers=dropped,
    )
