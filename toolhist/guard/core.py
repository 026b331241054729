"""What the guard does to one request body, whatever the SDK that carries it.

The SDK adapters (`toolhist.guard.transport` for the httpx-based SDKs, `toolhist.guard.bedrock` for
botocore) hand this module the URL and body bytes of a request about to leave, and the status and
body of the answer; `Guard` decides:

- which provider the request is for (from the URL: ``/chat/completions``, ``/responses``,
  ``/v1/messages``, ``:generateContent``, Bedrock's ``Converse``), unless the caller named one;
- what toolhist predicts for the body *as sent* (`toolhist.validate_payload`);
- per mode: ``warn`` logs each violation and sends the body unchanged; ``repair`` sends the
  ``toolhist`` curation of the history, every field outside the history byte for byte as given, and
  logs the Changes; ``raise`` sends nothing and raises `GuardRejected` carrying the violations;
- when the provider answers 4xx (or an error arrives inside a 2xx stream), a bundle
  (`toolhist.guard.bundle`) with the request as sent and the answer.

Only error-level violations change what is sent (``repair``) or stop it (``raise``): a warning is
logged in every mode, since the provider accepts it.

The guard never changes what the user's call returns or raises, except the block ``raise`` asks
for, and only on an error-level violation of a body toolhist reads as the provider's own format
(``sure``). Anything else toolhist cannot do (a body it cannot read, a shape it does not know, a
capture that cannot be written, its own bug) is said once on the logger (`Guard.fault`) and the
request goes ahead exactly as the SDK built it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import orjson

from toolhist.errors import ToolhistError, UsageError
from toolhist.formats.wire import own_reader
from toolhist.providers import PROVIDERS, validate_payload
from toolhist.providers.base import Violation

Mode = Literal["warn", "repair", "raise"]
MODES: tuple[Mode, ...] = ("warn", "repair", "raise")

log = logging.getLogger("toolhist.guard")

HISTORY_KEYS: dict[str, tuple[str, ...]] = {
    "openai-chat": ("messages",),
    "kimi": ("messages",),
    "mistral": ("messages",),
    "openai-responses": ("input",),
    "anthropic": ("messages",),
    "gemini": ("contents",),
    "bedrock": ("messages",),
}
"""The body keys that hold the history: the only ones ``repair`` may replace (besides `TOOL_KEYS`)."""

TOOL_KEYS: dict[str, tuple[str, ...]] = {
    "openai-chat": ("tools",),
    "kimi": ("tools",),
    "mistral": ("tools",),
    "openai-responses": ("tools",),
    "anthropic": ("tools",),
    "gemini": ("tools",),
    "bedrock": ("toolConfig",),
}
"""Tool declarations: ``repair`` replaces them only when a curation pass changed them (and said so)."""


class GuardRejected(ToolhistError):
    """``raise`` mode: the body breaks a rule the provider enforces, so it was not sent."""

    def __init__(self, provider: str, violations: list[Violation]) -> None:
        self.provider = provider
        self.violations = violations
        errors = [v for v in violations if v.severity == "error"]
        first = errors[0]
        super().__init__(
            f"toolhist guard: {provider} would reject this request ({len(errors)} error(s)); "
            f"first: {first.rule} at {first.path}: {first.error_text}"
        )


def provider_of_url(url: str) -> str | None:
    """The toolhist provider a request URL is for, or None when it is not a generation call.

    Mistral and Kimi speak Chat Completions: their hosts decide (``api.mistral.ai``,
    ``api.moonshot.ai``/``.cn``); every other ``/chat/completions`` host is OpenAI-compatible.
    """
    path = url.split("?", 1)[0]
    host = re.sub(r"^[a-z]+://", "", url).split("/", 1)[0].lower()
    if path.endswith("/chat/completions"):
        if "mistral" in host:
            return "mistral"
        if "moonshot" in host or "kimi" in host:
            return "kimi"
        return "openai-chat"
    if path.endswith("/responses"):
        return "openai-responses"
    if path.endswith("/v1/messages") or path.endswith("/messages"):
        return "anthropic"
    if path.endswith((":generateContent", ":streamGenerateContent")):
        return "gemini"
    if path.endswith(("/converse", "/converse-stream")):
        return "bedrock"
    return None


@dataclass(frozen=True)
class Outcome:
    """What the guard did with one request body before it left."""

    provider: str
    """The provider the body was checked for."""
    body: bytes
    """The bytes to send (the given ones unless ``repair`` changed the history)."""
    violations: list[Violation]
    """toolhist's prediction for the body as given."""
    changes: list[dict[str, Any]] = field(default_factory=list)
    """``repair``: each Change of the curation, as JSON."""

    @property
    def repaired(self) -> bool:
        """Whether the body sent differs from the body given."""
        return bool(self.changes)


@dataclass
class Guard:
    """The guard's settings, shared by every adapter.

    ``provider`` overrides the URL's answer (a gateway with its own paths); ``capture`` is the folder
    bundles are written to (None: none written); ``keep_last`` > 0 also writes every request, 4xx or
    not, keeping only the newest that many in ``capture`` (the history before a failure);
    ``sdk`` names the client in bundles (read from the User-Agent when not given).
    """

    mode: Mode = "warn"
    provider: str | None = None
    capture: Path | None = None
    keep_last: int = 0
    sdk: str | None = None
    logger: logging.Logger = field(default=log)

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise UsageError(f"unknown guard mode {self.mode!r}; choose one of: {', '.join(MODES)}")
        if self.provider is not None and self.provider not in PROVIDERS:
            raise UsageError(f"unknown provider {self.provider!r}; choose one of: {', '.join(PROVIDERS)}")
        if self.capture is not None:
            self.capture = Path(self.capture)

    def provider_for(self, url: str) -> str | None:
        """The provider this request is checked for (None: not a generation call, passed through)."""
        return self.provider or provider_of_url(url)

    def fault(self, what: str, exc: BaseException) -> None:
        """Say, in one log record, what toolhist could not do; the request goes ahead as given.

        A fault of the machine (``OSError``: a full disk, a folder that is a file, no permission) or
        of the input (a `ToolhistError`: a body toolhist cannot read) is one line; anything else is
        toolhist's own bug, and its record carries the traceback to report.
        """
        expected = isinstance(exc, OSError | ToolhistError)
        self.logger.warning(
            "toolhist guard: %s (%s: %s); the request went ahead as the SDK built it",
            what,
            type(exc).__name__,
            exc,
            exc_info=None if expected else exc,
        )

    def before(self, provider: str, body: bytes) -> Outcome:
        """Check a body about to be sent; per mode, log, repair or raise.

        Only `GuardRejected` leaves this method: any other failure is a `fault` and the body given.
        """
        try:
            return self._before(provider, body)
        except GuardRejected:
            raise
        except Exception as exc:
            self.fault(f"could not check the {provider} request", exc)
            return Outcome(provider, body, [])

    def _before(self, provider: str, body: bytes) -> Outcome:
        try:
            parsed = orjson.loads(body)
        except orjson.JSONDecodeError:
            return Outcome(provider, body, [])
        if not isinstance(parsed, dict):
            return Outcome(provider, body, [])
        found = validate_payload(parsed, provider)
        for v in found:
            self.logger.warning("%s %s %s at %s: %s", provider, v.severity, v.rule, v.path, v.error_text)
        errors = [v for v in found if v.severity == "error"]
        if not errors or self.mode == "warn":
            return Outcome(provider, body, found)
        if self.mode == "raise":
            if self._sure(parsed, provider):
                raise GuardRejected(provider, found)
            return Outcome(provider, body, found)
        try:
            repaired, changes = repair_body(parsed, provider)
            sent = orjson.dumps(repaired)
        except Exception as exc:
            self.fault(f"could not repair the {provider} request", exc)
            return Outcome(provider, body, found)
        for change in changes:
            self.logger.warning(
                "%s repair %s %s: %s", provider, change["pass"], change["action"], change["reason"]
            )
        return Outcome(provider, sent, found, changes)

    def _sure(self, body: dict[str, Any], provider: str) -> bool:
        """Whether toolhist reads ``body`` as ``provider``'s own format, so its errors may block it.

        A body its reader refuses is a shape toolhist does not know: the provider may well accept
        it, so ``raise`` lets it go (and says so) rather than stop a request on a guess.
        """
        from toolhist.readers import load

        try:
            load(body, format=own_reader(provider))
        except ToolhistError as exc:
            self.fault(f"could not read the request as {own_reader(provider)}, so it was not refused", exc)
            return False
        return True


def repair_body(body: dict[str, Any], provider: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The ``toolhist`` curation of ``body``'s history; every other field as given.

    The history key (and the tool declarations, when a pass changed them) come from the curated
    render; every other key keeps the caller's value object, so it serialises exactly as it came.
    """
    from toolhist.curation import curate
    from toolhist.providers import render_curation
    from toolhist.readers import load

    session = load(body, format=own_reader(provider))
    curation = curate(session, provider)
    curated = render_curation(curation).body
    out = dict(body)
    for key in HISTORY_KEYS[provider]:
        if key in curated:
            out[key] = curated[key]
    for key in TOOL_KEYS[provider]:
        if key in curated and curated[key] != body.get(key):
            out[key] = curated[key]
    changes = [change.to_json() for change in curation.changes]
    return out, changes


def sdk_of(headers: Mapping[str, str]) -> str:
    """The client named by a request's User-Agent (``openai/3.54.0``), or ``unknown``."""
    agent = headers.get("user-agent", "") + " " + headers.get("x-goog-api-client", "")
    for pattern, name in (
        (r"OpenAI/Python ([\w.]+)", "openai"),
        (r"Anthropic/Python ([\w.]+)", "anthropic"),
        (r"google-genai-sdk/([\w.]+)", "google-genai"),
        (r"mistral-client-python/([\w.]+)", "mistralai"),
        (r"Botocore/([\w.]+)", "botocore"),
    ):
        match = re.search(pattern, agent)
        if match:
            return f"{name} {match.group(1)}"
    return agent.strip().split(" ", 1)[0] or "unknown"
