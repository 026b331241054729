"""The "This machine" search (`toolhist.views.machine_search`) under AppTest, on a home of two agents.

A Claude Code session and an LLxprt session (tests/fake_home.py), a fresh index per test: the
empty index says how to fill it, the button fills it, and each kind of search lists exactly its
hits; picking a hit opens its session and links to its message.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from urllib.parse import quote

import pytest
from fake_home import CLAUDE, LLXPRT, make_home
from streamlit.testing.v1 import AppTest

APP = str(Path(__file__).parent.parent.parent / "app.py")
CLAUDE_LABEL = "2026-01-10 11:00 · claude-code · /home/dev/shop-api · 5d0c3a7e-9b1f-4c22-8e51-2f7b3c9a1d64"
LLXPRT_LABEL = "2026-01-10 09:00 · llxprt · /home/dev/llx-tools · session-2026-01-09T10-00-00-7e1d2c3b4a59"


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    full = make_home(tmp_path_factory.mktemp("full"))
    two = tmp_path_factory.mktemp("home")
    for rel in (CLAUDE, LLXPRT):
        (two / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(full / rel, two / rel)  # the modification times too: the list's order
    return two


@pytest.fixture
def at(home: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AppTest:
    monkeypatch.setenv("TOOLHIST_HOME", str(home))
    monkeypatch.setenv("TOOLHIST_INDEX", str(tmp_path / "cache" / "index.sqlite"))
    app = AppTest.from_file(APP, default_timeout=120).run()
    app.segmented_control(key="source").set_value("This machine").run()
    app.toggle(key="machine_search").set_value(True).run()
    assert not app.exception
    return app


def _filled(at: AppTest) -> AppTest:
    at.button(key="machine_search_fill").click().run()
    assert not at.exception
    return at


def _search(at: AppTest, kind: str, value: str) -> list[dict[str, object]]:
    at.selectbox(key="machine_search_kind").set_value(kind).run()
    at.text_input(key="machine_search_text").set_value(value).run()
    assert not at.exception
    frames = at.dataframe  # the sessions, then the hits (AppTest gives a table no key)
    if len(frames) < 2:
        return []
    frame = frames[1].value
    return [
        {str(k): (None if v is None or v != v else v) for k, v in row.items()}  # NA (no message): None
        for row in frame.to_dict("records")
    ]


def test_an_empty_index_says_how_to_fill_it_and_the_button_fills_it(at: AppTest) -> None:
    assert [i.value for i in at.info] == [
        "The session index holds none of these 2 sessions yet: read them in with the button below (each "
        "is read whole once, and again only when it changes), or run `toolhist sessions --search TEXT` in "
        "a terminal, which fills the same index.",
        "Choose a sample, upload a file, paste JSON or give a path.",
    ]
    assert at.button(key="machine_search_fill").label == "Read 2 sessions into the index"
    _filled(at)
    assert not [b for b in at.button if b.key == "machine_search_fill"]
    assert [i.value for i in at.info] == ["Choose a sample, upload a file, paste JSON or give a path."]


def test_each_kind_finds_exactly_its_hits(at: AppTest) -> None:
    _filled(at)
    assert _search(at, "text", "INVOICE.py") == [
        {
            "session": CLAUDE_LABEL,
            "agent": "claude-code",
            "message": 0,
            "role": "user",
            "snippet": "…counts. shop/pricing.py:4 rounds a float with round(); shop/invoice.py:31 quantizes "
            "Decimal with ROUND_HALF_UP. The assistant star…",
        },
        {
            "session": CLAUDE_LABEL,
            "agent": "claude-code",
            "message": 2,
            "role": "assistant",
            "snippet": "…nding on binary floats; use Decimal with ROUND_HALF_UP like invoice.py. Edit "
            '{"file_path": "/home/dev/shop-api/shop/pricing.py", "…',
        },
        {
            "session": CLAUDE_LABEL,
            "agent": "claude-code",
            "message": 6,
            "role": "assistant",
            "snippet": "…_total now quantizes a Decimal with ROUND_HALF_UP, matching invoice.py. All 6 pricing "
            "tests pass.",
        },
    ]
    assert [(r["agent"], r["message"], r["role"]) for r in _search(at, "tool", "run_shell_command")] == [
        ("llxprt", 1, "assistant"),
        ("llxprt", 2, "tool"),
        ("llxprt", 3, "tool"),
    ]
    assert [
        (r["agent"], r["message"], r["snippet"])
        for r in _search(at, "call_id", "toolu_01Edit1qA3sD5fG7hJ9kL1zX")
    ] == [
        (
            "claude-code",
            2,
            "Float round() uses banker's rounding on binary floats; use Decimal with ROUND_HALF_UP like…",
        ),
        ("claude-code", 3, "The file /home/dev/shop-api/shop/pricing.py has been updated."),
    ]
    at.selectbox(key="machine_search_kind").set_value("rule").run()
    assert at.button(key="machine_search_fill").label == "Read 2 sessions into the index"  # their verdicts
    _filled(at)
    rows = _search(at, "rule", "oai.dup_tool_result")
    assert [(r["session"], r["agent"], r["message"], r["role"], r["rule"]) for r in rows] == [
        (LLXPRT_LABEL, "llxprt", 3, "violation", "oai.dup_tool_result (error, openai-chat)"),
    ]
    assert rows[0]["snippet"] == "Invalid parameter: Duplicate value for 'tool_call_id' of 'hi…"
    at.selectbox(key="machine_search_provider").set_value("anthropic").run()
    assert at.button(key="machine_search_fill").label == "Read 2 sessions into the index"  # judged there
    _filled(at)
    rows = _search(at, "rule", "ant.result_orphan")
    assert [(r["agent"], r["message"], r["rule"]) for r in rows] == [
        ("claude-code", 1, "ant.result_orphan (error, anthropic)"),
    ]
    at.selectbox(key="machine_search_kind").set_value("text").run()
    at.text_input(key="machine_search_text").set_value("100%_not there").run()
    assert len(at.dataframe) == 1  # the sessions only
    assert [c.value for c in at.caption if "hits in" in c.value] == [
        "0 hits in 2 sessions searched. Only each message's first 4,096 characters are searched."
    ]


def test_a_search_keeps_to_the_agent_chosen_above(at: AppTest) -> None:
    _filled(at)
    at.selectbox(key="machine_agent").set_value("claude-code").run()
    assert [c.value for c in at.caption if "hits in" in c.value] == []
    at.selectbox(key="machine_search_kind").set_value("tool").run()
    at.text_input(key="machine_search_text").set_value("run_shell_command").run()
    assert [c.value for c in at.caption if "hits in" in c.value] == [
        "0 hits in 1 sessions searched. Only each message's first 4,096 characters are searched."
    ]


def test_picking_a_hit_opens_its_session_and_links_to_its_message(at: AppTest, home: Path) -> None:
    _filled(at)
    _search(at, "call_id", "toolu_01Edit1qA3sD5fG7hJ9kL1zX")
    pick = at.selectbox(key="machine_search_hit")
    assert pick.options == [f"message 2 · {CLAUDE_LABEL}", f"message 3 · {CLAUDE_LABEL}"]
    pick.set_value(1).run()
    assert not at.exception
    assert at.selectbox(key="machine_pick").value == str(home / CLAUDE)
    assert [t.value for t in at.text][:1] == [f"Session: {home / CLAUDE}"]
    assert at.query_params["path"] == str(home / CLAUDE)
    query = f"path={quote(str(home / CLAUDE), safe='')}&msg=3"
    links = [(link.proto.label, link.proto.query_string) for link in at.get("page_link")][:2]
    assert links == [("Conversation at message 3", query), ("Timeline at message 3", query)]
