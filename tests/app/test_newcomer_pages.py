"""What a new user met on real logs (issue 24, the fresh-eyes run): each gap, under AppTest on the real pages.

Curation says why it changes a history the provider accepts (or changes nothing); the inspected message
reads as a conversation, with its JSON behind an expander; Explain offers the box first and says how to
run it; no internal reference (RFC 026) is shown unexplained. The browser half (marked lines, links
that look like links, "not run" cells, the order on screen) is tests/browser/test_newcomer_browser.py.
"""

from __future__ import annotations

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.curation import Change
from toolhist.model import ToolCallBlock
from toolhist.providers import checked
from toolhist.views.diffs import why_changes
from toolhist.views.readable import MADE, parts, shown_id

ROOT = Path(__file__).parent.parent.parent
APP = str(ROOT / "app.py")
LOGS = ROOT / "tests" / "corpus" / "logs"
CLAUDE = LOGS / "claude-code" / "marot-spotter-4d5611e5-main.jsonl"  # ends on two pending Bash calls
CODEX = LOGS / "codex" / "simonw-sample-codex-session.jsonl"
SAMPLE = "openai_chat_request.json"  # openai-chat rejects it: message 9's calls are unanswered


def page(script: str, **params: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120)
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    assert not at.exception, at.exception
    at.switch_page(script).run()
    assert not at.exception, at.exception
    return at


def metrics(at: AppTest) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def unescaped(text: str) -> str:
    return text.replace("\\", "")


def test_curation_says_why_it_changes_a_history_anthropic_accepts() -> None:
    at = page("app_pages/3_Curation.py", path=str(CLAUDE), provider="anthropic")
    assert metrics(at)["Changes"] == "2"
    assert metrics(at)["Errors before"] == "0"
    (why,) = [i.value for i in at.info if i.value.startswith("Why")]
    assert why == (
        "Why 2 change(s) when anthropic accepts the history as sent: 2 close the tool call(s) the log ends "
        "on, still waiting for their results: the verdict as sent judges the next request, where the agent "
        "sends those results, but the history as given has none, and a request to anthropic cannot end on "
        "an unanswered call."
    )


def test_curation_changes_nothing_the_provider_accepts_and_says_no_why() -> None:
    at = page("app_pages/3_Curation.py", path=str(CODEX), provider="openai-responses")
    assert metrics(at)["Changes"] == "0"
    assert metrics(at)["Errors before"] == "0"
    assert not [i for i in at.info if i.value.startswith("Why")]


def test_why_names_each_other_pass_by_its_reason_and_is_silent_where_errors_explain() -> None:
    session = toolhist.load(ROOT / "sample_logs" / SAMPLE)
    drop = Change(pass_="thinking", action="drop", reason="thinking the target cannot take back")
    warned = Change(pass_="ids", action="rewrite_id", reason="an id", fixes=("mis.id_format",))
    assert why_changes([drop, warned, drop], "gemini", 0, 0) == (
        "Why 3 change(s) when gemini accepts the history as sent: 2 by thinking: thinking the target "
        "cannot take back; 1 by ids: repair warning(s) mis.id_format."
    )
    errors = sum(v.severity == "error" for v in checked(session, "openai-chat"))
    assert errors
    assert why_changes([drop], "openai-chat", errors, 0) is None  # the errors are the why
    assert why_changes([], "gemini", 0, 0) is None


def test_the_timeline_shows_the_message_as_a_user_reads_it() -> None:
    at = page("app_pages/1_Timeline.py", path=str(CLAUDE), provider="anthropic", msg="1")
    session = toolhist.load(CLAUDE)
    calls = [b for b in session.messages[1].blocks if isinstance(b, ToolCallBlock)]
    assert "Message 1 · assistant · line 8 of the file" in [t.value for t in at.text]
    headings = [unescaped(m.value) for m in at.markdown if m.value.startswith("**")]
    assert headings == [
        "**Text**",
        "**Thinking**",
        "**Tool call Bash · call id toolu_01UwLnYYWGBvukzh1QE6JpfM**",
        "**Tool call Bash · call id toolu_01EqSqHoE2fyTCuK5BJ3azkA**",
    ]
    (raw,) = [e for e in at.expander if e.label == "Raw JSON (as toolhist reads this message)"]
    behind = {c.value for c in raw.code}
    readable = [c.value for c in at.code if c.value not in behind]
    assert json.dumps(calls[0].parameters, indent=2, ensure_ascii=False) in readable
    for text in readable:  # no field name of the model, no id toolhist made, in what a user reads
        assert '"provider_data"' not in text
        assert "hist_tool_" not in text
    (whole,) = behind
    assert len(json.loads(whole)["blocks"]) == len(session.messages[1].blocks)


def test_an_id_toolhist_made_reads_as_none_in_the_log() -> None:
    assert shown_id(None, "hist_tool_0123456789abcdef") == MADE
    assert shown_id("call_Ab", "hist_tool_0123456789abcdef") == "call_Ab"
    assert shown_id(None, "call_Ab") == "call_Ab"
    session = toolhist.load(ROOT / "sample_logs" / SAMPLE)
    heads = [h for m in session.messages for h, _ in parts(m)]
    assert "Tool call read_file · call id call_8fJx2LmQ0pV4tR7wN1sYb3Kd" in heads
    assert not [h for h in heads if "hist_" in h]


def test_explain_offers_the_box_first_says_how_to_run_and_fills_it_from_an_example() -> None:
    at = page("app_pages/5_Explain.py", sample=SAMPLE)
    assert at.text_area(key="ex_text").label.startswith("Paste the error text")
    assert at.button(key="ex_go").label == "Explain"
    assert "Press Ctrl+Enter (⌘+Enter on a Mac) in the box, or the Explain button, to explain it." in [
        c.value for c in at.caption
    ]
    example = at.selectbox(key="ex_example")
    assert example.value is None  # nothing chosen: the box is the first thing to use
    error = next(v for v in checked(toolhist.load(ROOT / "sample_logs" / SAMPLE), "openai-chat"))
    label = next(o for o in example.options if o.startswith(f"openai-chat · {error.rule}"))
    example.select(label).run()
    assert at.text_area(key="ex_text").value == error.error_text
    assert metrics(at)["Culprit message"] == str(error.message_index)


def test_compaction_names_no_internal_reference() -> None:
    at = page("app_pages/6_Compaction.py", sample=SAMPLE)
    shown = [c.value for c in at.caption] + [m.value for m in at.markdown] + [t.value for t in at.text]
    assert not [s for s in shown if "RFC" in s]
    assert any(s.startswith("Compaction shortens an agent's tool history in four tiers") for s in shown)
