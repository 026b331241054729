"""Step ``add_tool_declarations``: Anthropic and Bedrock need tools declared when the history uses them.

``Requests which include `tool_use` or `tool_result` blocks must define tools.`` (Anthropic) and
``The toolConfig field must be defined when using toolUse and toolResult content blocks.``
(Bedrock). A source that declared none (a bare message list, a body captured without them) gets
minimal declarations derived from the calls (name, empty schema, marked as derived). This works on
the session, not the messages, so it is a step after the passes; it is still a Change.

Only for a body in the provider's own format: the renderer sends such a body's request fields as
they are, so nothing else would add the declarations. A history from any other source is rendered
afresh, and the renderer derives the same minimal declarations itself and says so in the payload's
notes (`toolhist.providers.anthropic_render.tool_declarations`); a Change there would repair nothing.
"""

from __future__ import annotations

from pydantic import JsonValue

from toolhist.curation.base import Change, Curation
from toolhist.model import Session, ToolSpec

PASS = "add_tool_declarations"
DERIVED = "Declaration derived by toolhist from the calls in the history (the source declared none)."


def _declared(session: Session, provider: str) -> bool:
    key = "tools" if provider == "anthropic" else "toolConfig"
    return bool(session.request.get(key))


def add_tool_declarations(curation: Curation, provider: str) -> Curation:
    """``curation`` with derived declarations when ``provider`` needs some and none exist."""
    session = curation.session
    if (
        provider not in ("anthropic", "bedrock")
        or session.source.format != provider
        or _declared(session, provider)
    ):
        return curation
    names = list(dict.fromkeys(c.name for m in session.messages for c in m.tool_calls()))
    if not names:
        return curation
    schema: dict[str, JsonValue] = {"type": "object", "properties": {}}
    specs = tuple(ToolSpec(name=n, description=DERIVED, parameters=schema) for n in names)
    request = dict(session.request)
    if provider == "anthropic":
        request["tools"] = [{"name": s.name, "description": DERIVED, "input_schema": schema} for s in specs]
    else:
        request["toolConfig"] = {
            "tools": [
                {"toolSpec": {"name": s.name, "description": DERIVED, "inputSchema": {"json": schema}}}
                for s in specs
            ]
        }
    update: dict[str, object] = {"tools": specs, "request": request}
    change = Change(
        pass_=PASS,
        action="insert",
        reason=f"{provider} rejects tool blocks without tool declarations; {len(names)} minimal declaration(s) derived from the calls",
        detail={"tools": list(names)},
    )
    return curation.model_copy(
        update={"session": session.model_copy(update=update), "changes": (*curation.changes, change)}
    )
