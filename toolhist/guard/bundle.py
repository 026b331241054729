"""The capture bundle: one file holding a failed request as it was sent and what the provider answered.

A user-reported 400 usually reaches an engineer as a pasted error text, and the request that failed
is gone. The guard writes a bundle where the 400 happens, so the request is kept. Format (version 1),
one JSON object per file, ``*.toolhist.json``:

- ``toolhist_bundle``: the format version (1);
- ``time`` (UTC, ISO 8601), ``provider`` (toolhist's name), ``model``, ``endpoint`` (URL), ``method``;
- ``sdk`` (the client and its version, ``openai 3.54.0``), ``toolhist_version``, ``mode`` (the
  guard's);
- ``request``: ``body`` (the JSON body exactly as sent: after a ``repair``, the repaired one) and
  ``headers`` (credentials removed: ``authorization``, ``x-api-key``, ``api-key``,
  ``x-goog-api-key``, ``cookie``, AWS signatures; the value of any header outside `KEPT_HEADERS`
  replaced by ``[REDACTED:header]``: a custom header is where gateways put their tokens);
- ``response``: ``status``, ``body`` (parsed JSON when it is JSON, else text), ``stream_error``
  (true when the error arrived inside a 2xx event stream);
- ``violations``: what toolhist predicted for the body as given, before it was sent;
- ``changes``: the Changes a ``repair`` made (empty otherwise); ``given_body``: the body before the
  repair, when one was made.

Every string is passed through `toolhist.redact` before the file is written, so a key pasted into a
prompt does not travel with the bundle.
"""

from __future__ import annotations

import datetime as dt
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from toolhist.redact import redact_value

VERSION = 1
SUFFIX = ".toolhist.json"
SECRET_HEADERS = frozenset(
    {
        "authorization",
        "x-api-key",
        "api-key",
        "x-goog-api-key",
        "cookie",
        "proxy-authorization",
        "x-amz-security-token",
        "x-amz-content-sha256",
    }
)
"""Headers never written: credentials and request signatures."""
KEPT_HEADERS = frozenset(
    {
        "accept",
        "accept-encoding",
        "anthropic-beta",
        "anthropic-version",
        "content-encoding",
        "content-length",
        "content-type",
        "host",
        "openai-beta",
        "user-agent",
        "x-goog-api-client",
        "x-amz-date",
        "x-amz-user-agent",
        "amz-sdk-invocation-id",
        "amz-sdk-request",
    }
)
"""Headers whose values say how the SDK sent the request and carry no secret: kept as they were.
The ``x-stainless-*`` headers of the openai and anthropic SDKs (language, OS, package version,
retry count) are kept too; every other header keeps its name and loses its value."""


def is_bundle(value: Any) -> bool:
    """Whether parsed JSON is a toolhist bundle."""
    return isinstance(value, dict) and "toolhist_bundle" in value and isinstance(value.get("request"), dict)


def clean_headers(headers: dict[str, str]) -> dict[str, str]:
    """Headers as a bundle keeps them: lower-cased names, no credentials or signatures.

    Only the values of `KEPT_HEADERS` (and ``x-stainless-*``) are kept; any other is
    ``[REDACTED:header]``.
    """
    out: dict[str, str] = {}
    for key, value in headers.items():
        name = key.lower()
        if name in SECRET_HEADERS:
            continue
        kept = name in KEPT_HEADERS or name.startswith("x-stainless-")
        out[name] = value if kept else "[REDACTED:header]"
    return out


def parse_body(raw: bytes) -> Any:
    """A response body as JSON when it is JSON, else as text."""
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError:
        return raw.decode("utf-8", "replace")


def build(
    *,
    provider: str,
    endpoint: str,
    method: str,
    sdk: str,
    mode: str,
    body: Any,
    headers: dict[str, str],
    status: int,
    response: Any,
    stream_error: bool,
    violations: list[dict[str, Any]],
    changes: list[dict[str, Any]],
    given_body: Any = None,
) -> dict[str, Any]:
    """The bundle object (version 1), redacted."""
    from toolhist import __version__

    model = body.get("model", body.get("modelId")) if isinstance(body, dict) else None
    if model is None:
        found = re.search(r"/models/([^/:]+)|/model/([^/]+)/", endpoint)
        model = next((g for g in found.groups() if g), None) if found else None
    bundle: dict[str, Any] = {
        "toolhist_bundle": VERSION,
        "time": dt.datetime.now(dt.UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "provider": provider,
        "model": model,
        "endpoint": endpoint,
        "method": method,
        "sdk": sdk,
        "toolhist_version": __version__,
        "mode": mode,
        "request": {"body": body, "headers": clean_headers(headers)},
        "response": {"status": status, "body": response, "stream_error": stream_error},
        "violations": violations,
        "changes": changes,
    }
    if given_body is not None:
        bundle["given_body"] = given_body
    redacted, _ = redact_value(bundle)
    return dict(redacted)


def write(folder: Path, bundle: dict[str, Any], keep_last: int = 0) -> Path:
    """Write ``bundle`` into ``folder`` (created), named by time, provider and status; its path.

    Atomic: the JSON goes to a hidden temporary file of its own that is linked to its final name
    only once whole, and removed if anything fails (a full disk leaves no partial bundle and no
    ``.tmp``); two writers never take the same name. A request the provider refused (4xx, or an
    error inside a 2xx stream: named ``…-200-stream-error``) is always kept; with ``keep_last`` > 0
    only the newest that many bundles of *accepted* requests are kept besides (the rotating capture
    of every request). A write that failed raised before the rotation, so it never counts.
    """
    folder.mkdir(parents=True, exist_ok=True)
    data = orjson.dumps(bundle, option=orjson.OPT_INDENT_2)
    stamp = re.sub(r"[^0-9T]", "", bundle["time"])[:18]
    response = bundle["response"]
    status = f"{response['status']}-stream-error" if response.get("stream_error") else str(response["status"])
    base = f"{stamp}-{bundle['provider']}-{status}"
    fd, tmp_name = tempfile.mkstemp(dir=folder, prefix=".", suffix=".toolhist.tmp")
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        path = _claim(folder, base, tmp)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if keep_last > 0:
        accepted = [p for p in folder.glob(f"*{SUFFIX}") if _ACCEPTED.search(p.name)]
        for old in sorted(accepted, key=lambda p: p.stat().st_mtime_ns)[:-keep_last]:
            old.unlink(missing_ok=True)
    return path


_ACCEPTED = re.compile(r"-[23]\d\d(?:-\d+)?" + re.escape(SUFFIX) + "$")
"""A bundle name whose status says the provider accepted the request (the rotating captures)."""


def _claim(folder: Path, base: str, tmp: Path) -> Path:
    """Give ``tmp`` the first free name ``base[-n].toolhist.json``.

    A hard link fails on a taken name, so a name is never overwritten; where the file system has no
    hard links, a rename.
    """
    n = 1
    while True:
        path = folder / f"{base}{'' if n == 1 else f'-{n}'}{SUFFIX}"
        try:
            os.link(tmp, path)
        except FileExistsError:
            n += 1
            continue
        except OSError:
            if path.exists():
                n += 1
                continue
            os.replace(tmp, path)
            return path
        tmp.unlink()
        return path


@dataclass(frozen=True)
class BundleInfo:
    """One line of ``toolhist bundles``: what a bundle holds, read from its header fields."""

    path: str
    time: str
    provider: str
    model: str | None
    status: int
    rule: str | None
    """The rule the provider's error text is (`toolhist.explain`), else toolhist's first prediction."""
    error: str
    """The provider's error text, one line (empty for a captured request that was accepted)."""

    def to_json(self) -> dict[str, Any]:
        """As printed by ``toolhist bundles --json``."""
        return dict(self.__dict__)


def error_text(bundle: dict[str, Any]) -> str:
    """The provider's error text, as the SDK would have shown it (the response body as text)."""
    response = bundle.get("response", {})
    body = response.get("body")
    if response.get("status", 0) < 400 and not response.get("stream_error"):
        return ""
    return body if isinstance(body, str) else orjson.dumps(body).decode()


def info(path: Path, bundle: dict[str, Any]) -> BundleInfo:
    """The listing row for one bundle: the rule its error text names, else the first predicted one."""
    from toolhist.explain import explain

    text = error_text(bundle)
    rule = explain(text).rule if text else None
    if rule is None:
        errors = [v for v in bundle.get("violations", []) if v.get("severity") == "error"]
        rule = errors[0]["rule"] if errors else None
    first_line = " ".join(text.split())[:200]
    return BundleInfo(
        path=str(path),
        time=str(bundle.get("time", "")),
        provider=str(bundle.get("provider", "")),
        model=bundle.get("model"),
        status=int(bundle.get("response", {}).get("status", 0)),
        rule=rule,
        error=first_line,
    )


def listing(folder: Path) -> tuple[list[BundleInfo], list[tuple[str, str]]]:
    """Every bundle under ``folder``, newest first, and the files that could not be read (with why)."""
    rows: list[BundleInfo] = []
    bad: list[tuple[str, str]] = []
    for path in sorted(folder.rglob(f"*{SUFFIX}")):
        try:
            value = orjson.loads(path.read_bytes())
        except (OSError, orjson.JSONDecodeError) as exc:
            bad.append((str(path), f"not readable JSON: {exc}"))
            continue
        if not is_bundle(value):
            bad.append((str(path), "not a toolhist bundle (no 'toolhist_bundle' and 'request')"))
            continue
        rows.append(info(path, value))
    rows.sort(key=lambda r: r.time, reverse=True)
    return rows, bad
