"""Turn a Kilo/Roo/Cline history's XML-text tool calls back into ``tool_use`` / ``tool_result`` blocks.

Seed 003's missing root fix: once ``resumeTaskFromHistory`` has flattened a history to XML text and
written it to disk, no later code change can bring the blocks back, and the model sees two tool
styles in one conversation. `migrate` does it offline, on the file:

- every complete XML call in assistant text becomes a ``tool_use`` block with a deterministic
  canonical id (`toolhist.ids.canonical_id` of the tool name, message index and call position),
  so re-running gives the same ids;
- the next user message's ``[…] Result:`` / ``[name Result]`` texts become ``tool_result``
  blocks for those ids, placed first (Anthropic's rule), other text after them;
- a call with no result text gets Kilo's own interruption result (``is_error``), said in the report;
- what cannot be recovered is reported, never guessed: parameter values Kilo printed as
  ``[object Object]``, and the images and ``is_error`` flags of results flattened on resume;
- a native ``tool_use`` that only a ``[name for '…'] Result:`` text answers (Cline writes that when it
  cannot match a result to its call; `toolhist.agents.cline.send_path`) gets that text as its
  ``tool_result``, as Cline writes a matched result (``content``: the same string), so Cline stops
  sending ``result missing`` in its place; a call with no such text is left as it is, and reported;
- the first message is marked ``toolhistMigration: {"to": "native", "version": 1}``.

The output is a Kilo native-format ``api_conversation_history.json``. Migrating it again changes
nothing: there is no XML left to convert and the mark is already there (byte-identical output).
Parameter values stay strings: the XML never said their types.
"""

from __future__ import annotations

import copy
import json
from typing import Any, Final, Literal

from pydantic import BaseModel, ConfigDict, JsonValue

from toolhist.agents.cline.reader import MIGRATION_KEY
from toolhist.agents.cline.xml_calls import (
    ENV_DETAILS,
    UNKNOWN_TOOL,
    XmlCall,
    find_calls,
    not_executed,
    result_marker,
)
from toolhist.ids import canonical_id
from toolhist.readers import load_document

FORMAT_VERSION: Final = 1
"""Version of the migrated file's shape, written into the mark."""
INTERRUPTED: Final = "Task was interrupted before this tool call could be completed."
"""Roo's result text for a call a resumed task never ran (``resumeTaskFromHistory``)."""
OBJECT_OBJECT: Final = "[object Object]"
NO_TOOL_USED: Final = "[ERROR] You did not use a tool in your previous response!"
"""Kilo's reply when the model wrote no (native) tool call (``formatResponse.noToolsUsed``)."""

IssueKind = Literal["unrecoverable", "synthesised", "pending", "left_as_text"]


class Issue(BaseModel):
    """Something the migration could not restore exactly, or had to make up."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    kind: IssueKind
    """``unrecoverable``: lost before toolhist saw it; ``synthesised``: a result toolhist wrote;
    ``pending``: a last call with no result yet; ``left_as_text``: text that looks like a result
    but answers no call."""
    message_index: int
    """The message (0-based) the issue is in."""
    tool_name: str | None
    """The tool concerned, when known."""
    call_id: str | None
    """The id of the call concerned, when there is one."""
    detail: str
    """What happened, in a sentence."""


class Migration(BaseModel):
    """The migrated history and what the migration did."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    history: list[JsonValue]
    """The Kilo native-format history (the file's new content)."""
    calls: int
    """XML calls turned into ``tool_use`` blocks."""
    results: int
    """Result texts turned into ``tool_result`` blocks."""
    issues: tuple[Issue, ...]
    """What could not be restored exactly, in message order."""
    changed: bool
    """False when the input was already migrated (the output equals the input)."""

    def dumps(self) -> str:
        """The file text: compact JSON as Kilo writes it, newline-terminated, deterministic."""
        return json.dumps(self.history, ensure_ascii=False, separators=(",", ":")) + "\n"


def migrate_file(source: Any, *, name: str | None = None) -> Migration:
    """Read ``source`` (path, bytes, str or parsed JSON) as a ``kilo`` history and migrate it.

    Shape errors are LoadErrors naming the file, line and field, as for every reader.
    """
    doc, _ = load_document(source, "kilo", name=name)
    return migrate(doc.value)


def migrate(history: list[Any]) -> Migration:
    """Migrate a parsed history (a list of Kilo messages); the input is not modified."""
    out: list[Any] = copy.deepcopy(history)
    names = _marker_names(out)
    issues: list[Issue] = []
    calls = results = 0
    from toolhist.migrate_cline import pair_native, unanswered_native  # builds on this module

    paired: set[int] = set()
    for i, message in enumerate(out):
        if not isinstance(message, dict) or message.get("role") != "assistant":
            continue
        following = out[i + 1] if i + 1 < len(out) else None
        native = unanswered_native(message, following)
        if native and isinstance(following, dict):
            results += pair_native(following, i + 1, native, issues)
            paired.add(i + 1)
        if isinstance(following, dict) and _says_no_tool_used(following):
            issues += _not_run(message, i, names)
            continue
        found = _convert_calls(message, i, names)
        if not found:
            continue
        calls += len(found)
        issues += _flattened_values(found, i)
        if isinstance(following, dict) and following.get("role") == "user":
            results += _convert_results(following, i + 1, found, issues)
        else:
            for call_id, name, _ in found:
                issues.append(
                    Issue(
                        kind="pending",
                        message_index=i,
                        tool_name=name,
                        call_id=call_id,
                        detail="no user message follows this call: left without a result",
                    )
                )
    issues += _orphan_markers(out, history, paired)
    if out:
        first = out[0]
        if isinstance(first, dict) and first.get(MIGRATION_KEY) != _mark():
            out[0] = {**first, MIGRATION_KEY: _mark()}
    issues.sort(key=lambda x: x.message_index)
    return Migration(history=out, calls=calls, results=results, issues=tuple(issues), changed=out != history)


def _mark() -> dict[str, JsonValue]:
    return {"to": "native", "version": FORMAT_VERSION}


def _blocks(message: dict[str, Any]) -> list[Any]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return list(content) if isinstance(content, list) else []


def _marker_names(history: list[Any]) -> frozenset[str]:
    """Tool names the result texts mention, so calls to tools missing from the known list still parse."""
    names: set[str] = set()
    for message in history:
        if isinstance(message, dict) and message.get("role") == "user":
            for block in _blocks(message):
                text = block.get("text") if isinstance(block, dict) else None
                if isinstance(text, str) and (m := result_marker(text)) and m.name != UNKNOWN_TOOL:
                    names.add(m.name)
    return frozenset(names)


def _convert_calls(
    message: dict[str, Any], index: int, names: frozenset[str]
) -> list[tuple[str, str, XmlCall]]:
    """Split the message's text blocks around their XML calls; return (id, name, call) in order."""
    found: list[tuple[str, str, XmlCall]] = []
    content: list[Any] = []
    for block in _blocks(message):
        text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
        xml = find_calls(text, names) if isinstance(text, str) else []
        if not xml:
            content.append(block)
            continue
        assert isinstance(text, str)
        pos = 0
        for call in xml:
            before = text[pos : call.start]
            if before.strip():
                content.append({"type": "text", "text": before.rstrip()})
            call_id = canonical_id("kilo", None, call.name, str(index), len(found))
            content.append({"type": "tool_use", "id": call_id, "name": call.name, "input": dict(call.params)})
            found.append((call_id, call.name, call))
            pos = call.end
        after = text[pos:]
        if after.strip():
            content.append({"type": "text", "text": after.strip()})
    if found:
        message["content"] = content
    return found


def _says_no_tool_used(message: dict[str, Any]) -> bool:
    """Whether Kilo answered the previous reply with "You did not use a tool" (it ran no XML call)."""
    return any(
        isinstance(b, dict) and isinstance(b.get("text"), str) and b["text"].startswith(NO_TOOL_USED)
        for b in _blocks(message)
    )


def _not_run(message: dict[str, Any], index: int, names: frozenset[str]) -> list[Issue]:
    """XML in a reply Kilo did not execute (native mode): it stays text, and the report says so."""
    return [
        Issue(
            kind="left_as_text",
            message_index=index,
            tool_name=call.name,
            call_id=None,
            detail="Kilo answered this reply with 'You did not use a tool': the XML was never run, "
            "so it stays text",
        )
        for block in _blocks(message)
        if isinstance(block, dict) and isinstance(block.get("text"), str)
        for call in find_calls(block["text"], names)
    ]


def _flattened_values(found: list[tuple[str, str, XmlCall]], index: int) -> list[Issue]:
    return [
        Issue(
            kind="unrecoverable",
            message_index=index,
            tool_name=name,
            call_id=call_id,
            detail=f"parameter {key!r} was printed as {OBJECT_OBJECT!r} when Kilo flattened the call; "
            "its value is lost",
        )
        for call_id, name, call in found
        for key, value in call.params.items()
        if OBJECT_OBJECT in value
    ]


def _convert_results(
    message: dict[str, Any], index: int, found: list[tuple[str, str, XmlCall]], issues: list[Issue]
) -> int:
    """Turn the result texts of ``message`` into tool_result blocks (first) for the calls in ``found``."""
    blocks = _blocks(message)
    open_calls = [(call_id, name) for call_id, name, _ in found]
    results: list[dict[str, Any]] = []
    rest: list[Any] = []
    j = 0
    while j < len(blocks):
        block = blocks[j]
        text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
        marker = result_marker(text) if isinstance(text, str) else None
        skipped = not_executed(text) if isinstance(text, str) and marker is None else None
        target = _take(open_calls, marker.name if marker else skipped) if (marker or skipped) else None
        if target is None:
            if marker is not None:
                issues.append(
                    Issue(
                        kind="left_as_text",
                        message_index=index,
                        tool_name=marker.name,
                        call_id=None,
                        detail=f"a result for {marker.name!r} answers none of the calls just before it",
                    )
                )
            rest.append(block)
            j += 1
            continue
        call_id, name = target
        if skipped is not None:
            results.append(
                {"type": "tool_result", "tool_use_id": call_id, "content": [block], "is_error": True}
            )
            j += 1
            continue
        assert marker is not None
        if marker.flattened:
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": call_id,
                    "content": [{"type": "text", "text": marker.body}],
                }
            )
            issues.append(
                Issue(
                    kind="unrecoverable",
                    message_index=index,
                    tool_name=name,
                    call_id=call_id,
                    detail="this result was flattened to text on resume: its images and is_error flag "
                    "were dropped then and cannot be restored",
                )
            )
            j += 1
            continue
        content = [block]
        j += 1
        while j < len(blocks) and not _ends_result(blocks[j]):
            content.append(blocks[j])
            j += 1
        results.append({"type": "tool_result", "tool_use_id": call_id, "content": content})
    for call_id, name in open_calls:
        results.append(
            {
                "type": "tool_result",
                "tool_use_id": call_id,
                "content": [{"type": "text", "text": INTERRUPTED}],
                "is_error": True,
            }
        )
        issues.append(
            Issue(
                kind="synthesised",
                message_index=index,
                tool_name=name,
                call_id=call_id,
                detail=f"no result text for this call: answered with {INTERRUPTED!r}",
            )
        )
    message["content"] = results + rest
    return len(results) - len(open_calls)


def _take(open_calls: list[tuple[str, str]], name: str | None) -> tuple[str, str] | None:
    """The first open call named ``name`` (by position for ``Unknown Tool``), removed from the list."""
    for k, (_, call_name) in enumerate(open_calls):
        if call_name == name:
            return open_calls.pop(k)
    if name == UNKNOWN_TOOL and open_calls:
        return open_calls.pop(0)
    return None


def _ends_result(block: Any) -> bool:
    """A block that starts something else: the next result, or Kilo's environment details."""
    text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
    if not isinstance(text, str):
        return False
    return text.startswith(ENV_DETAILS) or result_marker(text) is not None or not_executed(text) is not None


def _orphan_markers(out: list[Any], original: list[Any], paired: set[int]) -> list[Issue]:
    """Result texts in user messages that no XML call precedes (converted ones are blocks now)."""
    issues: list[Issue] = []
    for i, message in enumerate(out):
        if not isinstance(message, dict) or message.get("role") != "user" or i in paired:
            continue
        previous = original[i - 1] if i > 0 else None
        if isinstance(previous, dict) and out[i - 1] != previous:
            continue  # follows converted calls: handled in _convert_results
        for block in _blocks(message):
            text = block.get("text") if isinstance(block, dict) and block.get("type") == "text" else None
            if isinstance(text, str) and (m := result_marker(text)) is not None:
                issues.append(
                    Issue(
                        kind="left_as_text",
                        message_index=i,
                        tool_name=m.name,
                        call_id=None,
                        detail=f"a result text for {m.name!r} with no XML call before it: left as text",
                    )
                )
    return issues
