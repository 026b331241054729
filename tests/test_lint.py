"""``toolhist.lint``: the ``kilo.mixed_tool_style`` warning."""

from __future__ import annotations

from pathlib import Path

from builders import ai, call, human, result, session, tool

import toolhist
from toolhist.lint import MIXED_TOOL_STYLE, LintFinding, lint

SAMPLES = Path(__file__).parent.parent / "sample_logs"


def test_flattened_then_native_sample_warns() -> None:
    assert lint(toolhist.load(SAMPLES / "kilo_flattened_resumed.json")) == [
        LintFinding(
            rule=MIXED_TOOL_STYLE,
            severity="warning",
            message="tool calls written as XML text (messages 1, 3, 5) and as native tool calls (messages 7) "
            "in one history: the model sees two tool styles",
            message_indices=(1, 3, 5, 7),
            fix="toolhist migrate FILE --to native (turns the XML calls and their results back into blocks)",
        )
    ]


def test_single_style_histories_are_quiet() -> None:
    for name in ("kilo_xml_era.json", "kilo_native_session.json", "anthropic_request.json"):
        assert lint(toolhist.load(SAMPLES / name)) == []


def test_any_format_with_both_styles_warns() -> None:
    mixed = session(
        human("go"),
        ai("<execute_command>\n<command>ls</command>\n</execute_command>"),
        human("[execute_command for 'ls'] Result:"),
        ai(call("c1")),
        tool(result("c1")),
    )
    (finding,) = lint(mixed)
    assert (finding.rule, finding.severity, finding.message_indices) == (MIXED_TOOL_STYLE, "warning", (1, 3))


def test_xml_inside_a_result_is_not_a_call() -> None:
    quoted = session(
        human("go"), ai(call("c1")), tool(result("c1", "<read_file>\n<path>a</path>\n</read_file>"))
    )
    assert lint(quoted) == []
