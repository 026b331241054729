r"""Kilo/Roo/Cline tool calls written as XML text, and tool results written as marked user text.

Before native tool calling (and after Kilo's ``resumeTaskFromHistory`` flattened a native history,
seed 003) ``api_conversation_history.json`` holds no ``tool_use``/``tool_result`` blocks: the
assistant's text carries ``<read_file>\n<path>a.ts</path>\n</read_file>`` and the next user
message carries the result as text. This module finds both, so the reader can say which style a
history uses, `toolhist.lint` can warn about mixtures and `toolhist.migrate` can restore blocks.

The grammar follows Kilo's ``AssistantMessageParser`` (``research/kilo_rfc_vscode.md`` §1.7):

- a call opens with ``<name>`` exactly, for a known tool name (or one a result marker names);
- a parameter is ``<param>value</param>`` at the top level of the call and closes at the first
  ``</param>``, except ``write_to_file``'s ``content``, which runs to the last ``</content>``;
- values are trimmed; ``content`` loses only one leading and one trailing newline;
- every value is a string (the XML era had no types; a flattened native call printed
  ``${value}``, so objects became ``[object Object]`` and cannot be recovered).

Results come in these spellings:

- XML era (``pushToolResult``): a text block ``[<description>] Result:`` (the description starts
  with the tool name), then the result's content blocks; Cline writes marker and result in one
  block, ``[<description>] Result:\n<text>`` (cline/cline ``ToolResultUtils.pushToolResult``:
  ``${description} Result:\n${resultText}``), also for native calls it could not match;
- flattened on resume: one text block ``[<tool name> Result]\n\n<text>`` (images dropped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Final

TOOL_NAMES: Final = frozenset(
    {
        # Kilo / Roo (src/shared/tools.ts)
        "execute_command",
        "read_file",
        "fetch_instructions",
        "write_to_file",
        "apply_diff",
        "insert_content",
        "search_and_replace",
        "search_files",
        "list_files",
        "list_code_definition_names",
        "browser_action",
        "use_mcp_tool",
        "access_mcp_resource",
        "ask_followup_question",
        "attempt_completion",
        "switch_mode",
        "new_task",
        "codebase_search",
        "update_todo_list",
        "run_slash_command",
        "generate_image",
        "edit_file",
        "new_rule",
        "report_bug",
        "condense",
        # Cline (ClineDefaultTool)
        "replace_in_file",
        "plan_mode_respond",
        "act_mode_respond",
        "load_mcp_documentation",
        "web_fetch",
        "web_search",
        "summarize_task",
        "apply_patch",
    }
)
"""Tool names the XML parsers of Kilo, Roo and Cline accept."""

UNKNOWN_TOOL: Final = "Unknown Tool"
"""What Kilo's ``findToolName`` writes when a flattened result's call is not in the history."""

_OPEN = re.compile(r"<([a-z_][a-z0-9_]*)>")
_DESCRIBED_RESULT = re.compile(r"\A\[(?P<name>[a-z_][a-z0-9_]*)(?:\]| [^\n]*?\]) Result:(?:\n|\Z)", re.S)
_FLATTENED_RESULT = re.compile(r"\A\[(?P<name>[^\]\n]+) Result\](?:\n\n(?P<body>.*))?\Z", re.S)
_NOT_EXECUTED = re.compile(
    r"\A(?:Tool \[(?P<a>[a-z_][a-z0-9_]*)\] was not executed|Skipping tool \[(?P<b>[a-z_][a-z0-9_]*)[ \]])"
)
ENV_DETAILS: Final = "<environment_details>"
"""The block Kilo appends to every user turn; it ends a result's content."""


@dataclass(frozen=True)
class XmlCall:
    """One tool call found in assistant text."""

    name: str
    """The tool name (the tag)."""
    params: dict[str, str]
    """Parameters in source order, every value a string."""
    start: int
    """Offset of ``<name>`` in the text."""
    end: int
    """Offset just past ``</name>``."""


@dataclass(frozen=True)
class ResultMarker:
    """A user text block that starts (or, flattened, is) a tool result."""

    name: str
    """The tool name the marker names (``Unknown Tool`` when Kilo could not find it)."""
    flattened: bool
    """True for ``[name Result]\\n\\n…`` (written on resume, images and ``is_error`` lost)."""
    body: str | None
    """For a flattened marker, the result text after the marker."""


def find_calls(text: str, extra_names: frozenset[str] = frozenset()) -> list[XmlCall]:
    """Every complete XML tool call in ``text``, in order.

    An opening tag without its closing tag (a streamed reply cut short) is not a call: the text
    stays text, exactly as the model sent it.
    """
    names = TOOL_NAMES | extra_names
    calls: list[XmlCall] = []
    pos = 0
    while True:
        match = _OPEN.search(text, pos)
        if match is None:
            return calls
        name = match.group(1)
        if name not in names:
            pos = match.end()
            continue
        close_tag = f"</{name}>"
        body_start = match.end()
        search_from = body_start
        if name == "write_to_file":
            last_content = text.rfind("</content>", body_start)
            if last_content != -1:
                search_from = last_content
        close = text.find(close_tag, search_from)
        if close == -1:
            pos = match.end()
            continue
        calls.append(
            XmlCall(name, _params(name, text[body_start:close]), match.start(), close + len(close_tag))
        )
        pos = close + len(close_tag)


def _params(tool: str, body: str) -> dict[str, str]:
    """The top-level ``<param>value</param>`` pairs of a call body."""
    params: dict[str, str] = {}
    pos = 0
    while True:
        match = _OPEN.search(body, pos)
        if match is None:
            return params
        param = match.group(1)
        end_tag = f"</{param}>"
        if tool == "write_to_file" and param == "content":
            close = body.rfind(end_tag, match.end())
        else:
            close = body.find(end_tag, match.end())
        if close == -1:
            pos = match.end()
            continue
        value = body[match.end() : close]
        value = value.removeprefix("\n").removesuffix("\n") if param == "content" else value.strip()
        params.setdefault(param, value)
        pos = close + len(end_tag)


def result_marker(text: str) -> ResultMarker | None:
    """The result marker ``text`` is, or None."""
    flat = _FLATTENED_RESULT.match(text)
    if flat is not None:
        return ResultMarker(flat.group("name"), True, flat.group("body") or "")
    described = _DESCRIBED_RESULT.match(text)
    if described is not None:
        return ResultMarker(described.group("name"), False, None)
    return None


def not_executed(text: str) -> str | None:
    """The tool named by Kilo's "was not executed" / "Skipping tool" texts, which answer a call."""
    match = _NOT_EXECUTED.match(text)
    if match is None:
        return None
    return match.group("a") or match.group("b")


def has_xml_call(text: str, extra_names: frozenset[str] = frozenset()) -> bool:
    """Whether ``text`` holds at least one complete XML tool call."""
    return bool(find_calls(text, extra_names))
