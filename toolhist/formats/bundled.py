"""Opening a guard bundle (`toolhist.guard.bundle`) as the request body it holds.

A bundle is not a history format of its own: it wraps one request body in its provider's wire
format, with what the provider answered. `toolhist.load` and `toolhist.check` read the body (as sent,
for the bundle's provider); `toolhist explain BUNDLE` reads the answer; the header stays in the
session's ``metadata["bundle"]`` for pages and reports.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from toolhist.errors import LoadError
from toolhist.formats.document import Document
from toolhist.formats.wire import OWN_FORMAT, own_reader


@dataclass(frozen=True)
class OpenedBundle:
    """A bundle's request body as a Document of its own, the reader for it, and the header."""

    body: Document
    format: str
    header: dict[str, Any]


def open_bundle(doc: Document) -> OpenedBundle | None:
    """The bundle inside ``doc``, None when ``doc`` is not one, or a LoadError naming what is off."""
    value = doc.value
    if not (isinstance(value, dict) and "toolhist_bundle" in value):
        return None
    if value.get("toolhist_bundle") != 1:
        raise LoadError(
            f"a toolhist bundle of version {value.get('toolhist_bundle')!r}; this toolhist reads version 1",
            file=doc.name,
            json_path="toolhist_bundle",
        )
    provider = value.get("provider")
    if provider not in OWN_FORMAT:
        raise LoadError(
            f"a toolhist bundle for an unknown provider {provider!r}", file=doc.name, json_path="provider"
        )
    request = value.get("request")
    if not isinstance(request, dict) or not isinstance(request.get("body"), dict):
        raise LoadError(
            "a toolhist bundle without a request body object", file=doc.name, json_path="request.body"
        )
    header = {k: v for k, v in value.items() if k not in ("request", "given_body")}
    body = replace(doc, value=request["body"], text=None, jsonl_lines=None, _source_map=None)
    return OpenedBundle(body=body, format=own_reader(str(provider)), header=header)
