"""Read recorded HTTP interactions out of cassette files (VCR YAML, Ruby VCR YAML, HAR).

The cassette kinds met in public repositories:

- vcrpy YAML (``interactions:``): ``request.body`` a string (or ``!!binary`` bytes), or pydantic-ai's
  ``request.parsed_body`` (already a mapping) or, from 2026, ``body: {type: json, content: ...}``;
  ``response.status.code`` (or a bare number); ``response.body.string`` or ``response.parsed_body``.
  pydantic-ai tests/conftest.py writes ``parsed_body``; crewAI and mirascope use plain vcrpy.
- Ruby VCR YAML (``http_interactions:``, ruby_llm spec/fixtures/vcr_cassettes): ``body.string`` or
  ``body.base64_string``; status under ``response.status.code``.
- go-vcr YAML (``version: 2``, charmbracelet/crush ``internal/agent/testdata``): ``request.url`` instead
  of ``uri``, ``request.body`` a string, ``response.status`` the text (``200 OK``) beside ``response.code``.
- HAR 1.2 (Polly.js, mirascope typescript/tests): ``log.entries[].request.postData.text``,
  ``response.status``, ``response.content.text`` (``encoding: base64`` possible).

Bodies may be gzip-compressed bytes; they are inflated. Headers are never returned (credentials).
"""

from __future__ import annotations

import base64
import contextlib
import gzip
import json
import zlib
from dataclasses import dataclass
from typing import Any

import yaml  # type: ignore[import-untyped]

try:  # libyaml is much faster on thousands of cassettes
    _Loader: Any = yaml.CSafeLoader
except AttributeError:  # pragma: no cover - pure-python PyYAML
    _Loader = yaml.SafeLoader


@dataclass(frozen=True)
class Interaction:
    """One recorded request and the provider's answer, without headers."""

    index: int
    method: str
    uri: str
    request: Any  # parsed JSON body, or the raw text when it is not JSON, or None
    status: int
    response_text: str  # the response body as text (JSON re-serialised when it came parsed)


def _text(raw: Any) -> str:
    """Bytes (maybe gzip/deflate) or str -> str."""
    if raw is None:
        return ""
    if isinstance(raw, bytes):
        if raw[:2] == b"\x1f\x8b":
            with contextlib.suppress(OSError, EOFError):
                raw = gzip.decompress(raw)
        elif raw[:1] == b"\x78":
            with contextlib.suppress(zlib.error):
                raw = zlib.decompress(raw)
        return str(raw.decode("utf-8", "replace"))
    if isinstance(raw, str):
        return raw
    return json.dumps(raw, ensure_ascii=False, default=str)  # YAML may hold timestamps


def _json(text: str) -> Any:
    text = text.strip()
    if not text or text[0] not in "{[":
        return text or None
    try:
        return json.loads(text)
    except ValueError:
        return text


def _vcr_body(body: Any) -> str:
    """A vcrpy or Ruby VCR body field as text."""
    if isinstance(body, dict):
        if "base64_string" in body:
            return _text(base64.b64decode(body["base64_string"]))
        if "content" in body and "string" not in body:  # pydantic-ai 2026: {type: json|text, content: ...}
            return _text(body["content"])
        return _text(body.get("string"))
    return _text(body)


def _status(value: Any, code: Any = None) -> int:
    """The status: vcrpy ``{code: 200}`` or a number; go-vcr's ``200 OK`` falls back on ``code``."""
    if isinstance(value, dict):
        value = value.get("code")
    for candidate in (value, code):
        try:
            return int(candidate)
        except (TypeError, ValueError):
            continue
    return 0


def _from_vcr(data: dict[str, Any]) -> list[Interaction]:
    items = data.get("interactions") or data.get("http_interactions") or []
    out = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            continue
        req, resp = item.get("request") or {}, item.get("response") or {}
        body = req["parsed_body"] if "parsed_body" in req else _json(_vcr_body(req.get("body")))
        rtext = _text(resp["parsed_body"]) if "parsed_body" in resp else _vcr_body(resp.get("body"))
        out.append(
            Interaction(
                index,
                str(req.get("method", "")).upper(),
                str(req.get("uri") or req.get("url") or ""),
                body,
                _status(resp.get("status"), resp.get("code")),
                rtext,
            )
        )
    return out


def _from_har(data: dict[str, Any]) -> list[Interaction]:
    out = []
    for index, entry in enumerate(data.get("log", {}).get("entries", [])):
        req, resp = entry.get("request", {}), entry.get("response", {})
        content = resp.get("content") or {}
        rtext = content.get("text") or ""
        if content.get("encoding") == "base64":
            rtext = _text(base64.b64decode(rtext))
        post = (req.get("postData") or {}).get("text") or ""
        out.append(
            Interaction(
                index,
                str(req.get("method", "")).upper(),
                str(req.get("url", "")),
                _json(post),
                _status(resp.get("status")),
                rtext,
            )
        )
    return out


def read_cassette(path: str, data: bytes) -> list[Interaction]:
    """Every interaction in one cassette file's bytes; [] when it is not a cassette."""
    text = data.decode("utf-8", "replace")
    if path.endswith((".har", ".json")):
        try:
            parsed = json.loads(text)
        except ValueError:
            return []
        return _from_har(parsed) if isinstance(parsed, dict) and "log" in parsed else []
    if not path.endswith((".yaml", ".yml")):
        return []
    try:
        parsed = yaml.load(text, Loader=_Loader)
    except yaml.YAMLError:
        return []
    return _from_vcr(parsed) if isinstance(parsed, dict) else []
