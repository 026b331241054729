"""The ``kilo`` reader: three tool encodings, their mixture, detection against Anthropic, bad input."""

from __future__ import annotations

from typing import Any

import pytest

import toolhist
from toolhist.agents.cline.xml_calls import XmlCall, find_calls, not_executed, result_marker
from toolhist.errors import LoadError
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock

ENV = {"type": "text", "text": "<environment_details>\n# Current Mode\ncode\n</environment_details>"}
XML_ERA: list[dict[str, Any]] = [
    {"role": "user", "content": [{"type": "text", "text": "<task>\nlist src\n</task>"}, ENV], "ts": 1000},
    {
        "role": "assistant",
        "content": [
            {
                "type": "text",
                "text": "<list_files>\n<path>src</path>\n<recursive>true</recursive>\n</list_files>",
            }
        ],
        "ts": 2000,
    },
    {
        "role": "user",
        "content": [
            {"type": "text", "text": "[list_files for 'src'] Result:"},
            {"type": "text", "text": "a.ts"},
            ENV,
        ],
        "ts": 3000,
    },
]
JSON_ERA = [
    {"role": "user", "content": [{"type": "text", "text": "<task>\nls\n</task>"}, ENV], "ts": 1000},
    {
        "role": "assistant",
        "content": [
            {
                "type": "tool_use",
                "id": "call_1",
                "name": "execute_command",
                "input": {"command": "ls", "cwd": None},
            }
        ],
        "ts": 2000,
    },
    {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": "call_1",
                "content": [
                    {"type": "text", "text": "[execute_command for 'ls'] Result:"},
                    {"type": "text", "text": "a.ts\n"},
                ],
            },
            ENV,
        ],
        "ts": 3000,
    },
]
NATIVE = [
    {"role": "user", "content": "ls", "ts": 1000},
    {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "toolu_1", "name": "list_files", "input": {"path": "."}}],
        "ts": 2000,
    },
    {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": "toolu_1", "content": "a.ts"}],
        "ts": 3000,
    },
]


def test_xml_era_stays_text_and_is_labelled() -> None:
    s = toolhist.load(XML_ERA)
    assert s.source.format == "kilo"
    assert [m.speaker for m in s.messages] == ["human", "ai", "human"]
    assert s.messages[1].blocks == (TextBlock(text=XML_ERA[1]["content"][0]["text"]),)
    assert s.metadata == {
        "agent": "kilo",
        "tool_style": "xml",
        "xml_tool_calls": [1],
        "native_tool_calls": [],
    }
    assert [m.metadata.timestamp for m in s.messages] == [1.0, 2.0, 3.0]
    assert s.messages[0].metadata.extra == {"ts": 1000, "_content_form": "parts"}


def test_json_era_reads_blocks_and_is_json_style() -> None:
    s = toolhist.load(JSON_ERA)
    assert s.source.format == "kilo"
    assert [m.speaker for m in s.messages] == ["human", "ai", "tool"]
    assert s.messages[1].blocks == (
        ToolCallBlock(
            id="call_1", name="execute_command", parameters={"command": "ls", "cwd": None}, raw_id="call_1"
        ),
    )
    result = s.messages[2].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert (result.call_id, result.tool_name) == ("call_1", "execute_command")
    assert s.metadata["tool_style"] == "json"


def test_native_style() -> None:
    s = toolhist.load(NATIVE)
    assert s.source.format == "kilo"
    assert s.metadata["tool_style"] == "native"
    assert s.metadata["native_tool_calls"] == [1]


def test_mixture_in_one_history() -> None:
    s = toolhist.load(XML_ERA + NATIVE[1:])
    assert s.metadata["tool_style"] == "mixed"
    assert (s.metadata["xml_tool_calls"], s.metadata["native_tool_calls"]) == ([1], [3])
    assert s.source.notes == (
        "kilo.mixed_tool_style: tool calls as XML text (messages 1) and as native blocks (messages 3); "
        "`toolhist migrate FILE --to native` restores the XML ones as blocks",
    )


def test_without_agent_marker_it_is_plain_anthropic() -> None:
    plain = [{k: v for k, v in m.items() if k != "ts"} for m in NATIVE]
    assert toolhist.load(plain).source.format == "anthropic"


def test_flattened_result_and_summary_entry() -> None:
    history = [
        {"role": "user", "content": [{"type": "text", "text": "[read_file Result]\n\nx"}], "ts": 5},
        {"role": "assistant", "content": "Summary of the task so far.", "ts": 5, "isSummary": True},
    ]
    s = toolhist.load(history)
    assert s.metadata["tool_style"] == "xml"
    assert s.messages[1].metadata.extra["isSummary"] is True


def test_roo_reasoning_entry() -> None:
    history = [
        {"role": "user", "content": "hi", "ts": 1},
        {
            "type": "reasoning",
            "summary": [{"type": "summary_text", "text": "think"}],
            "encrypted_content": "gAAA",
            "ts": 2,
        },
    ]
    s = toolhist.load(history, format="kilo")
    block = s.messages[1].blocks[0]
    assert (block.type, getattr(block, "text", None), getattr(block, "data", None)) == (
        "thinking",
        "think",
        "gAAA",
    )


def test_bad_ts_names_the_field() -> None:
    history = [{"role": "user", "content": "hi", "ts": "yesterday"}]
    with pytest.raises(LoadError, match=r"at \[0\]\.ts: .*expected a number"):
        toolhist.load(history, format="kilo")


def test_bad_role_names_the_field() -> None:
    with pytest.raises(LoadError, match=r"at \[1\]\.role: .*unknown role 'tool'"):
        toolhist.load(
            [{"role": "user", "content": "a", "ts": 1}, {"role": "tool", "content": "b"}], format="kilo"
        )


def test_xml_grammar() -> None:
    text = (
        "Let me write.\n<write_to_file>\n<path>a.html</path>\n<content>\n<p>x</content></p>\n</content>\n"
        "<line_count>1</line_count>\n</write_to_file> then <div>not a tool</div>"
    )
    (call,) = find_calls(text)
    assert call == XmlCall(
        "write_to_file",
        {"path": "a.html", "content": "<p>x</content></p>", "line_count": "1"},
        text.index("<write_to_file>"),
        text.index(" then"),
    )
    assert find_calls("<read_file>\n<path>a</path>") == []  # cut short: not a call
    assert find_calls("<my_tool><x>1</x></my_tool>") == []
    assert find_calls("<my_tool><x>1</x></my_tool>", frozenset({"my_tool"}))[0].params == {"x": "1"}


def test_result_markers() -> None:
    assert result_marker("[execute_command for 'ls [a]'] Result:") is not None
    assert result_marker("[attempt_completion] Result:") is not None
    flat = result_marker("[Unknown Tool Result]\n\nbody")
    assert flat is not None
    assert (flat.name, flat.flattened, flat.body) == ("Unknown Tool", True, "body")
    assert result_marker("[execute_command for 'ls'] Result: extra") is None
    assert (
        not_executed("Tool [write_to_file] was not executed because a tool has already been used")
        == "write_to_file"
    )
    assert (
        not_executed("Skipping tool [read_file for 'a'] due to user rejecting a previous tool.")
        == "read_file"
    )
