"""The guard as a LiteLLM callback, for the LiteLLM SDK and the LiteLLM proxy.

LiteLLM translates an OpenAI-format request for the provider the model names (``anthropic/…``,
``bedrock/…``, ``gemini/…``) and calls its callbacks on the way (``litellm/integrations/
custom_logger.py``, LiteLLM 1.106):

- ``async_pre_call_deployment_hook(kwargs, call_type)`` runs before an async call (``acompletion``,
  and every proxy request) with the OpenAI-format ``messages`` it may change: ``raise`` and
  ``repair`` act here. The history is judged as toolhist renders it for the target provider, since
  LiteLLM's own translation has not run yet;
- ``log_pre_api_call(model, messages, kwargs)`` runs in every call, sync or async, with the body LiteLLM
  is about to send in ``kwargs["additional_args"]["complete_input_dict"]``: ``warn`` logs what
  toolhist predicts for that body, as sent. LiteLLM swallows exceptions from logging callbacks, so
  a synchronous ``completion`` can be warned about and captured, not stopped or repaired;
- ``log_failure_event`` / ``async_log_failure_event`` see the exception of a failed call: a 4xx
  answer becomes a bundle (`toolhist.guard.bundle`) with the body as sent.

Use (SDK)::

    import litellm
    from toolhist.guard.litellm import ToolhistGuard

    litellm.callbacks = [ToolhistGuard(mode="repair", capture="bundles/")]

Use (proxy ``config.yaml``; mode and folder from ``TOOLHIST_GUARD_MODE`` and
``TOOLHIST_GUARD_CAPTURE``)::

    litellm_settings:
      callbacks: toolhist.guard.litellm_proxy.guard

litellm itself is not a toolhist dependency: this module is imported where LiteLLM runs.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from litellm.integrations.custom_logger import CustomLogger

from toolhist.guard import bundle as bundles
from toolhist.guard.core import Guard, GuardRejected, Mode

PROVIDERS = {
    "openai": "openai-chat",
    "text-completion-openai": "openai-chat",
    "azure": "openai-chat",
    "anthropic": "anthropic",
    "bedrock": "bedrock",
    "gemini": "gemini",
    "vertex_ai": "gemini",
    "vertex_ai_beta": "gemini",
    "mistral": "mistral",
    "moonshot": "kimi",
}
"""LiteLLM's ``custom_llm_provider`` → the toolhist provider whose rules apply; any other
OpenAI-compatible provider (deepseek, groq, openrouter, xai…) is judged as ``openai-chat``."""

CHAT_CALLS = {"completion", "acompletion"}


def toolhist_provider(litellm_provider: str | None) -> str:
    """The toolhist provider for LiteLLM's provider name."""
    return PROVIDERS.get(litellm_provider or "openai", "openai-chat")


def _litellm_provider(model: str, kwargs: dict[str, Any]) -> str | None:
    given = kwargs.get("custom_llm_provider") or (kwargs.get("litellm_params") or {}).get(
        "custom_llm_provider"
    )
    if given:
        return str(given)
    try:
        import litellm

        return str(litellm.get_llm_provider(model)[1])
    except Exception:  # an unknown model name: judged as OpenAI-compatible
        return None


class ToolhistGuard(CustomLogger):  # type: ignore[misc]  # litellm ships no type hints
    """warn / repair / raise and 4xx capture inside LiteLLM (see the module doc)."""

    def __init__(self, mode: Mode = "warn", capture: str | Path | None = None, keep_last: int = 0) -> None:
        super().__init__()
        self.guard = Guard(
            mode=mode, capture=Path(capture) if capture else None, keep_last=keep_last, sdk=_version()
        )
        self.log = logging.getLogger("toolhist.guard")

    # --- before the call: raise or repair the OpenAI-format history (async calls and the proxy) ---

    async def async_pre_call_deployment_hook(
        self, kwargs: dict[str, Any], call_type: Any
    ) -> dict[str, Any] | None:
        """Check the history for the target provider; ``raise`` refuses it, ``repair`` curates it."""
        name = getattr(call_type, "value", call_type)
        if self.guard.mode == "warn" or (name is not None and str(name) not in CHAT_CALLS):
            return None
        messages = kwargs.get("messages")
        if not isinstance(messages, list):
            return None
        provider = toolhist_provider(_litellm_provider(str(kwargs.get("model", "")), kwargs))
        try:
            found, curated = _judge(
                messages, kwargs.get("tools"), provider, repair=self.guard.mode == "repair"
            )
        except Exception as exc:  # a history toolhist cannot read, or its own bug: the call goes on
            self.guard.fault(f"could not check the {provider} request", exc)
            return None
        errors = [v for v in found if v.severity == "error"]
        for v in found:
            self.log.warning("%s %s %s at %s: %s", provider, v.severity, v.rule, v.path, v.error_text)
        if not errors:
            return None
        if self.guard.mode == "raise":
            raise GuardRejected(provider, found)
        assert curated is not None
        new_messages, changes = curated
        for change in changes:
            self.log.warning(
                "%s repair %s %s: %s", provider, change["pass"], change["action"], change["reason"]
            )
        return {**kwargs, "messages": new_messages}

    # --- as sent: what LiteLLM is about to send, every call ---

    def log_pre_api_call(self, model: str, messages: Any, kwargs: dict[str, Any]) -> None:
        """Log what toolhist predicts for the body LiteLLM is about to send, as sent."""
        body = (kwargs.get("additional_args") or {}).get("complete_input_dict")
        if not isinstance(body, dict):
            return
        provider = toolhist_provider(_litellm_provider(model, kwargs))
        from toolhist.providers import validate_payload

        try:
            found = validate_payload(body, provider)
        except Exception as exc:
            self.guard.fault(f"could not check the {provider} request", exc)
            return
        for v in found:
            self.log.warning("%s %s %s at %s: %s", provider, v.severity, v.rule, v.path, v.error_text)

    # --- after a failed call: a bundle ---

    def log_failure_event(
        self, kwargs: dict[str, Any], response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        """Write a bundle when the provider answered 4xx."""
        self._capture(kwargs)

    async def async_log_failure_event(
        self, kwargs: dict[str, Any], response_obj: Any, start_time: Any, end_time: Any
    ) -> None:
        """Write a bundle when the provider answered 4xx."""
        self._capture(kwargs)

    def _capture(self, kwargs: dict[str, Any]) -> None:
        if self.guard.capture is None:
            return
        try:
            self._write(kwargs)
        except Exception as exc:
            self.guard.fault(f"could not write the bundle to {self.guard.capture}", exc)

    def _write(self, kwargs: dict[str, Any]) -> None:
        assert self.guard.capture is not None
        exc = kwargs.get("exception")
        status = getattr(exc, "status_code", None)
        if not isinstance(status, int) or not 400 <= status < 500:
            return
        additional = kwargs.get("additional_args") or {}
        body = additional.get("complete_input_dict")
        if not isinstance(body, dict):
            return
        model = str(kwargs.get("model", ""))
        provider = toolhist_provider(_litellm_provider(model, kwargs))
        from toolhist.providers import validate_payload

        made = bundles.build(
            provider=provider,
            endpoint=str(additional.get("api_base") or kwargs.get("api_base") or ""),
            method="POST",
            sdk=self.guard.sdk or "litellm",
            mode=self.guard.mode,
            body={**body, "model": body.get("model", model)} if provider != "bedrock" else body,
            headers={},
            status=status,
            response=_provider_text(exc),
            stream_error=False,
            violations=[v.model_dump(mode="json") for v in validate_payload(body, provider)],
            changes=[],
        )
        path = bundles.write(self.guard.capture, made)
        self.log.warning("%s answered %s; bundle written to %s", provider, status, path)


def _judge(
    messages: list[Any], tools: Any, provider: str, *, repair: bool
) -> tuple[list[Any], tuple[list[Any], list[dict[str, Any]]] | None]:
    """Violations of the OpenAI-format history rendered for ``provider``.

    With ``repair``, also the ``toolhist`` curation for ``provider`` written back as OpenAI-format
    messages, and its Changes.
    """
    from toolhist.curation import curate
    from toolhist.providers import render, validate
    from toolhist.readers import load

    body: dict[str, Any] = {"messages": messages}
    if tools:
        body["tools"] = tools
    session = load(body, format="openai-chat")
    found = validate(session, provider)
    if not repair or not any(v.severity == "error" for v in found):
        return found, None
    curation = curate(session, provider)
    back = render(curation.session, "openai-chat").body["messages"]
    assert isinstance(back, list)
    return found, (back, [c.to_json() for c in curation.changes])


def _provider_text(exc: Any) -> Any:
    """The provider's answer inside a LiteLLM exception: the response body when LiteLLM kept it."""
    response = getattr(exc, "response", None)
    text = getattr(response, "text", None)
    if isinstance(text, str) and text:
        return bundles.parse_body(text.encode())
    return str(getattr(exc, "message", exc))


def _version() -> str:
    from importlib.metadata import version

    try:
        return f"litellm {version('litellm')}"
    except Exception:
        return "litellm"
