"""The conversation view's builders: index, window, search, threads and the transcript HTML.

The HTML is parsed back (``html.parser``) rather than grepped, so a check on tags and attributes
sees what a browser would build.
"""

from __future__ import annotations

import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest
from builders import ai, call, human, result, session, tool
from hypothesis import given
from hypothesis import strategies as st

import toolhist
from toolhist.agents.claude_code.reader import read_sidechain
from toolhist.check import judged_verdict
from toolhist.judgement import judge
from toolhist.model import (
    MediaBlock,
    Message,
    MessageMetadata,
    SessionSource,
    TextBlock,
    ThinkingBlock,
    ToolResponseBlock,
    Unsent,
)
from toolhist.views.safemd import markdown_html
from toolhist.views.transcript import (
    MAIN,
    UNSENT_BLOCK,
    Site,
    index_of,
    search,
    search_index,
    threads,
    window_of,
)
from toolhist.views.transcript_html import MAX_CHARS, SHOWN_CHARS, conversation_html

ROOT = Path(__file__).parent.parent.parent
LOGS = ROOT / "tests" / "corpus" / "logs"
SIDECHAIN_LOG = LOGS / "claude-code" / "claude-code-log-sidechain-integrated.fixture.jsonl"
SUBAGENT_FILE = LOGS / "claude-code" / "marot-spotter-subagent-a2898e3.jsonl"
SESSION_FILE = LOGS / "claude-code" / "marot-spotter-4d5611e5-main.jsonl"  # the same session's main file
SESSION = "4d5611e5-241a-462a-8d15-5122611a9569"
SAMPLES = sorted(p for pattern in ("*.json", "*.jsonl") for p in (ROOT / "sample_logs").glob(pattern))
REAL_LOGS = sorted(p for p in LOGS.glob("*/*") if p.is_file() and not p.name.endswith(".source.json"))

MARKUP_TAGS = {
    # ours
    "div", "span", "b", "code", "pre", "details", "summary",
    # markdown-it's CommonMark output
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "ul", "ol", "li", "em", "strong", "blockquote", "hr", "br",
    "table", "thead", "tbody", "tr", "th", "td",
}  # fmt: skip
ATTRIBUTES = {"class", "id", "data-msg", "start", "style"}


class Tags(HTMLParser):
    """Every start tag and its attributes."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parsed(markup: str) -> Tags:
    found = Tags()
    found.feed(markup)
    found.close()
    return found


def turns(markup: str) -> list[int]:
    """The message index of each turn, in order."""
    return [int(a["data-msg"] or -1) for t, a in parsed(markup).tags if t == "div" and "data-msg" in a]


def assert_fetches_nothing(markup: str) -> None:
    for tag, attrs in parsed(markup).tags:
        assert tag in MARKUP_TAGS, tag
        assert set(attrs) <= ATTRIBUTES, (tag, attrs)
        style = attrs.get("style")
        assert style is None or style.startswith("text-align:"), style


def test_index_pairs_calls_results_and_places_unsent() -> None:
    s = session(
        human("go"),
        ai(call("c1"), call("c2", "grep")),
        tool(result("c1"), result("c2", name="grep"), result("c1", "again")),
        ai(call("c3")),
    )
    s = s.model_copy(update={"unsent": (Unsent(kind="snapshot", reason="r", before=1, text="snap"),)})
    idx = index_of(s)
    assert idx.calls == {"c1": Site(1, 0), "c2": Site(1, 1), "c3": Site(3, 0)}
    assert idx.result_of("c1") == (Site(2, 0), Site(2, 2))
    assert idx.result_of("c3") == ()
    assert idx.unsent == {1: (0,)}
    assert idx.call_count == 3
    # a request body ("toolhist" format: as sent) ending on a call: unanswered, not pending
    assert idx.call_status("c3") == "unanswered"
    assert idx.call_status("c1") == "answered"


def test_a_call_the_agent_log_ends_on_is_pending() -> None:
    s = toolhist.load(SUBAGENT_FILE)
    idx = index_of(s)
    assert idx.pending == frozenset({"toolu_01HaEX6WGRyK8yccb6knr31H"})
    markup = conversation_html(s, idx, window_of(len(s.messages), 0, 50))
    assert "pending: the agent sends its result next" in markup
    assert "unanswered" not in markup


@pytest.mark.parametrize(
    ("count", "start", "size", "expected"),
    [
        (100, 0, 50, range(0, 50)),
        (100, 90, 50, range(50, 100)),
        (100, -5, 10, range(0, 10)),
        (3, 2, 50, range(0, 3)),
    ],
)
def test_window(count: int, start: int, size: int, expected: range) -> None:
    assert window_of(count, start, size) == expected


def test_search_by_text_tool_and_id() -> None:
    s = session(
        human("Please READ the config"),
        ai(call("call_Ab12", "read_file", path="config.yaml")),
        tool(result("call_Ab12", "port: 8080", name="read_file")),
        ai("The port is 8080."),
    )
    s = s.model_copy(update={"unsent": (Unsent(kind="info", reason="r", before=4, text="port changed"),)})
    found = search_index(s)
    hits, total = search(s, found, "port", "text")
    assert total == 3
    assert [(h.message, h.block, h.kind) for h in hits] == [(2, 0, "tool_response"), (3, 0, "text"), (4, UNSENT_BLOCK, "unsent info")]  # fmt: skip
    hits, total = search(s, found, "read", "text")  # case-insensitive: the human text, the call's name
    assert [h.message for h in hits] == [0, 1]
    hits, total = search(s, found, "READ_F", "tool")
    assert [(h.message, h.kind) for h in hits] == [(1, "tool_call"), (2, "tool_response")]
    hits, total = search(s, found, "ab12", "id")
    assert [(h.message, h.snippet) for h in hits] == [(1, "call_Ab12"), (2, "call_Ab12")]
    assert search(s, found, "  ", "text") == ([], 0)
    assert search(s, found, "8080", "text", limit=1)[1] == 2


def test_snippet_is_around_the_match_on_one_line() -> None:
    text = "x" * 200 + "\nneedle\n" + "y" * 200
    s = session(human(text))
    [hit], _ = search(s, search_index(s), "NEEDLE")
    assert hit.snippet == "…" + "x" * 59 + " needle " + "y" * 59 + "…"


def test_sidechains_are_threads_and_read_as_the_reader_reads_them() -> None:
    s = toolhist.load(SIDECHAIN_LOG)
    found = threads(s, str(SIDECHAIN_LOG))
    assert [t.key for t in found] == [
        "main",
        "sidechain:b674eedd-0d9d-49e7-8116-1f092cd750ed",
        "sidechain:e1c84ba5",
    ]
    side = read_sidechain(SIDECHAIN_LOG, "b674eedd-0d9d-49e7-8116-1f092cd750ed")
    markup = conversation_html(side, index_of(side), window_of(len(side.messages), 0, 50))
    assert turns(markup) == list(range(len(side.messages)))
    assert "<p>I'll research how <code>data-border-color</code> is used thro...</p>" in markup


def test_subagent_files_beside_a_session_are_threads(tmp_path: Path) -> None:
    main = tmp_path / f"{SESSION}.jsonl"  # the layout Claude Code writes, with the real files
    shutil.copy(SESSION_FILE, main)
    (tmp_path / SESSION / "subagents").mkdir(parents=True)
    agent = tmp_path / SESSION / "subagents" / "agent-a2898e3.jsonl"
    shutil.copy(SUBAGENT_FILE, agent)
    found = threads(toolhist.load(main), str(main))
    assert [(t.key, t.label) for t in found] == [
        ("main", "main thread"),
        (f"file:{agent}", "subagent file agent-a2898e3.jsonl"),
    ]
    # the subagent file opened on its own: its own thread, and the session's main file
    mine = threads(toolhist.load(agent), str(agent))
    assert [t.key for t in mine] == ["main", f"file:{main}"]
    assert mine[0].label == "this subagent's thread"


def test_a_task_result_names_its_subagent() -> None:
    s = toolhist.load(SIDECHAIN_LOG)
    markup = conversation_html(s, index_of(s), range(len(s.messages)))
    card = markup.split('id="th-call-0-0"')[1].split('id="th-msg-1"')[0]
    assert "answered by subagent <code>e1c84ba5</code>" in card
    # Claude Code 2.1 names it in toolUseResult (marot/spotter 4d5611e5 line 113, before its compaction)
    answer = tool(result("toolu_1", "done", name="Task"))
    answer = answer.model_copy(
        update={
            "metadata": MessageMetadata(
                extra={"toolUseResult": {"status": "completed", "agentId": "a2898e3"}}
            )
        }
    )
    new = session(ai(call("toolu_1", "Task")), answer).model_copy(
        update={"source": SessionSource(format="claude-code")}
    )
    assert "answered by subagent <code>a2898e3</code>" in conversation_html(new, index_of(new), range(2))
    side = toolhist.load(SUBAGENT_FILE)  # a subagent's own thread names no subagent
    assert "answered by subagent" not in conversation_html(side, index_of(side), range(len(side.messages)))


def test_other_formats_have_one_thread() -> None:
    assert threads(toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")) == [MAIN]


@pytest.mark.parametrize("path", SAMPLES + REAL_LOGS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_message_call_and_unsent_record_is_shown(path: Path) -> None:
    s = toolhist.load(path)
    idx = index_of(s)
    markup = conversation_html(s, idx, window_of(len(s.messages), 0, len(s.messages) + 1))
    assert turns(markup) == list(range(len(s.messages)))
    classes = [a.get("class") or "" for _, a in parsed(markup).tags]
    assert sum(c == "th-unsent" for c in classes) == len(s.unsent)
    cards = [c for c in classes if c.startswith("th-call ")]
    calls = [c for m in s.messages for c in m.tool_calls()]
    assert sum(any(w in c.split() for w in ("answered", "pending", "unanswered")) for c in cards) == len(
        calls
    )
    assert_fetches_nothing(markup)


def test_a_window_renders_only_its_messages() -> None:
    s = session(*(m for n in range(500) for m in (human(f"q{n}"), ai(call(f"c{n}")), tool(result(f"c{n}")))))
    idx = index_of(s)
    markup = conversation_html(s, idx, window_of(len(s.messages), 1000, 50), focus=1001)
    assert turns(markup) == list(range(1000, 1050))
    assert 'class="th-turn tool focus" id="th-msg-1001"' in markup


def test_a_result_shows_in_its_call_card_and_the_tool_message_points_there() -> None:
    s = session(human("go"), ai(call("c1")), tool(result("c1", "THE RESULT")))
    idx = index_of(s)
    both = conversation_html(s, idx, range(3))
    assert both.count("THE RESULT") == 1
    assert "shown with its call in #1" in both
    # the call's message on another page: the tool message shows the result itself
    alone = conversation_html(s, idx, range(2, 3))
    assert "THE RESULT" in alone
    assert "its call is in #1" in alone


def test_an_empty_result_says_so() -> None:
    s = session(ai(call("c1")), tool(result("c1", "")))
    assert '<div class="th-none">(an empty result)</div>' in conversation_html(s, index_of(s), range(2))


def test_error_unmatched_and_incomplete_results_are_marked() -> None:
    failed = ToolResponseBlock(call_id="c1", tool_name="run", result=None, error="exit 1: boom")
    cut = ToolResponseBlock(call_id="c2", tool_name="run", result="partial", is_complete=False)
    s = session(ai(call("c1", "run"), call("c2", "run")), tool(failed, cut, result("zz", "stray")))
    markup = conversation_html(s, index_of(s), range(2))
    assert 'class="th-call answered error"' in markup
    assert "exit 1: boom" in markup
    assert "incomplete: made up or cut short by the agent" in markup
    assert "answers no call" in markup


def test_thinking_is_folded_and_media_never_an_image() -> None:
    thought = ThinkingBlock(text="Let me **think** about ![t](http://127.0.0.1:9/t)", signature="sig")
    picture = MediaBlock(mime_type="image/png", url="http://127.0.0.1:9/pic.png")
    s = session(human("hi"), Message(speaker="ai", blocks=(thought, picture, TextBlock(text="done"))))
    markup = conversation_html(s, index_of(s), range(2))
    assert '<details class="th-think"><summary>thinking · 49 characters · signed</summary>' in markup
    assert "[image: t · http://127.0.0.1:9/t]" in markup
    assert "[image/png · url http://127.0.0.1:9/pic.png: not displayed]" in markup
    assert_fetches_nothing(markup)


def test_long_text_is_folded_and_capped() -> None:
    big = "a" * SHOWN_CHARS + "b" * 10 + "c" * MAX_CHARS
    s = session(ai(call("c1")), tool(result("c1", big)))
    markup = conversation_html(s, index_of(s), range(2))
    text = "".join(parsed(markup).text)
    folded = f"show the other {len(big) - SHOWN_CHARS:,} characters"
    assert "a" * SHOWN_CHARS + folded + "b" * 10 + "c" * (MAX_CHARS - SHOWN_CHARS - 10) + "…" in text
    assert f"… {len(big) - MAX_CHARS:,} more characters not shown here (message #1)" in text


def test_violations_show_where_they_point() -> None:
    s = toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")
    found = judged_verdict(judge(s), "openai-chat")
    [v] = [v for v in found if v.rule == "oai.call_unanswered"]
    markup = conversation_html(s, index_of(s), range(len(s.messages)), found)
    turn = markup.split(f'id="th-msg-{v.message_index}"')[1].split('id="th-msg-')[0]
    assert "openai-chat · oai.call_unanswered · error" in turn
    assert "1 violation" in turn


def test_unsent_records_stand_where_they_were() -> None:
    s = toolhist.load(SIDECHAIN_LOG)
    markup = conversation_html(s, index_of(s), range(len(s.messages)))
    before_two = markup.split('id="th-msg-2"')[0].split('id="th-msg-1"')[1]
    assert before_two.count("not sent to the model") == 2
    assert "sidechain e1c84ba5 (1 lines): pick it under Thread to read it" in before_two


def test_hostile_content_is_text() -> None:
    s = toolhist.load(ROOT / "sample_logs" / "xss_tool_result.json")
    markup = conversation_html(s, index_of(s), range(len(s.messages)))
    assert_fetches_nothing(markup)
    text = "".join(parsed(markup).text)
    assert "<script>window.__toolhist_xss = 'script'; alert('xss')</script>" in text
    assert "<script>window.__toolhist_xss = 'assistant'</script>" in text


def test_markdown_links_images_and_html_become_text() -> None:
    markup = markdown_html(
        "![x](http://127.0.0.1:1/beacon) [go](http://127.0.0.1:1/go) <http://127.0.0.1:1/auto> [r]\n\n"
        '[r]: http://127.0.0.1:1/ref\n\n<img src="http://127.0.0.1:1/img"> <iframe src="x"></iframe>\n\n'
        "[![n](http://127.0.0.1:1/nested)](http://127.0.0.1:1/outer) [js](javascript:alert(1))"
    )
    assert_fetches_nothing(markup)
    text = "".join(parsed(markup).text)
    assert "[image: x · http://127.0.0.1:1/beacon]" in text
    assert "go (http://127.0.0.1:1/go)" in text
    assert "http://127.0.0.1:1/auto" in text
    assert "(http://127.0.0.1:1/auto)" not in text
    assert "r (http://127.0.0.1:1/ref)" in text
    assert '<img src="http://127.0.0.1:1/img"> <iframe src="x"></iframe>' in text
    assert "[image: n · http://127.0.0.1:1/nested] (http://127.0.0.1:1/outer)" in text
    assert "[js](javascript:alert(1))" in text  # not a link markdown-it accepts: shown as written


@given(st.text())
def test_any_markdown_makes_no_fetching_markup(text: str) -> None:
    assert_fetches_nothing(markdown_html(text))


@given(st.text(), st.text(), st.text())
def test_any_session_text_makes_no_fetching_markup(said: str, name: str, output: str) -> None:
    s = session(
        human(said),
        ai(said, call("c1", name or "t", arg=said)),
        tool(result("c1", output, name=name)),
        Message(speaker="ai", blocks=(ThinkingBlock(text=said),), metadata=MessageMetadata(model=name)),
    )
    s = s.model_copy(
        update={
            "source": SessionSource(format="toolhist", notes=(name,)),
            "unsent": (Unsent(kind=name, reason=said, before=2, text=output),),
        }
    )
    markup = conversation_html(s, index_of(s), range(len(s.messages)))
    assert_fetches_nothing(markup)
    assert turns(markup) == [0, 1, 2, 3]


def test_the_notebook_shows_the_same_conversation() -> None:
    from toolhist import notebook as nb

    s = toolhist.load(ROOT / "sample_logs" / "openai_chat_request.json")
    view = nb.conversation(s, "openai-chat", query="call_Rk2Vb7nXc4LzA9qWe6tYu1Io", field="id")
    hits, total = search(s, search_index(s), "call_Rk2Vb7nXc4LzA9qWe6tYu1Io", "id")
    assert f"<p>{total:,} match(es) of call_Rk2Vb7nXc4LzA9qWe6tYu1Io</p>" in view.html
    assert turns(view.html) == list(window_of(len(s.messages), hits[0].message, 50))
    found = judged_verdict(judge(s), "openai-chat")
    assert view.html.count('class="th-viol ') == len(found)
    assert ".th-turn {" in view.html  # the stylesheet travels with the output
    assert_fetches_nothing(view.html.rsplit("</style>", 1)[1])
