"""Amp threads read as Amp sends them (toolhist/agents/amp/reader.py), listed and judged where Amp keeps them."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist
from toolhist.agents.amp.sessions import places
from toolhist.agents.folders import Home
from toolhist.check import judged_verdict
from toolhist.cli import main
from toolhist.errors import LoadError
from toolhist.judgement import judge
from toolhist.model import MediaBlock, ThinkingBlock, ToolCallBlock, ToolResponseBlock
from toolhist.ran_on import ran_on

CORPUS = Path(__file__).parent.parent / "corpus" / "logs" / "amp"
FIXTURE = CORPUS / "txcript-legacy-thread.fixture.json"
THREAD = ".local/share/amp/threads/T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001.json"
LEGACY = (
    ".config/Code/User/globalStorage/sourcegraph.amp/threads3/T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002.json"
)
WHEN = 1767657600.0  # 2026-01-06 00:00 UTC


def thread(*messages: dict[str, Any], **extra: Any) -> bytes:
    value = {"v": 3, "id": "T-1", "created": 1, "agentMode": "smart", "messages": list(messages), **extra}
    return json.dumps(value).encode()


def user(*content: dict[str, Any]) -> dict[str, Any]:
    return {"role": "user", "content": list(content)}


def answer(*content: dict[str, Any], model: str = "claude-sonnet-4-5") -> dict[str, Any]:
    return {
        "role": "assistant",
        "content": list(content),
        "state": {"type": "complete", "stopReason": "tool_use"},
        "usage": {"model": model, "inputTokens": 1, "outputTokens": 1},
    }


def use(cid: str) -> dict[str, Any]:
    return {"type": "tool_use", "complete": True, "id": cid, "name": "Bash", "input": {"cmd": "ls"}}


def result(cid: str, run: dict[str, Any]) -> dict[str, Any]:
    return {"type": "tool_result", "toolUseID": cid, "run": run}


def test_the_fixture_reads_as_an_anthropic_conversation_with_amps_runs_as_results() -> None:
    read = toolhist.load(FIXTURE)
    assert read.source.format == "amp"
    assert [m.speaker for m in read.messages] == ["human", "ai", "tool", "ai", "tool", "ai"]
    thinking, call = read.messages[1].blocks
    assert thinking == ThinkingBlock(
        text="the bound is off", signature="sig-abc", source_provider="anthropic"
    )
    assert isinstance(call, ToolCallBlock)
    assert (call.id, call.name, call.parameters) == (
        "toolu_01",
        "Bash",
        {"cmd": "grep -n 'i <= n' src/a.rs", "cwd": "/Users/dev/proj x"},
    )
    done = read.messages[2].blocks[0]
    assert isinstance(done, ToolResponseBlock)
    assert (done.call_id, done.result, done.error) == (
        "toolu_01",
        '{"output": "7:    i <= n\\n", "exitCode": 0}',
        None,
    )
    failed = read.messages[4].blocks[1]
    assert isinstance(failed, ToolResponseBlock)
    assert (failed.call_id, failed.result, failed.error) == (
        "toolu_03",
        "Save path already exists",
        "Save path already exists",
    )
    assert read.request == {"model": "claude-opus-4-5-20251101"}
    assert read.metadata["id"] == "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001"
    assert read.source.skipped == {"message role 'supervisor'": 1}
    assert read.source.notes == (
        "skipped 1 record(s) this reader does not know: message role 'supervisor' x1; "
        "Amp's thread schema is not public",
    )


def test_the_fixture_ran_on_anthropic_and_anthropic_accepts_it() -> None:
    read = toolhist.load(FIXTURE)
    ran = ran_on(read)
    assert ran is not None
    assert (ran.named, ran.provider, ran.model) == ("anthropic", "anthropic", "claude-opus-4-5-20251101")
    verdict = judged_verdict(judge(read), "anthropic")
    assert [v.rule for v in verdict if v.severity == "error"] == []


def test_cancelled_and_rejected_runs_send_their_reason_and_an_unfinished_run_is_pending() -> None:
    read = toolhist.load(
        thread(
            user({"type": "text", "text": "go"}),
            answer(use("a"), use("b"), use("c")),
            user(
                result("a", {"status": "cancelled", "reason": "user pressed esc"}),
                result("b", {"status": "rejected-by-user", "toAllow": []}),
                result("c", {"status": "in-progress", "progress": ["…"]}),
            ),
        )
    )
    answers = [b for m in read.messages for b in m.tool_responses()]
    assert [(r.call_id, r.result, r.error) for r in answers] == [
        ("a", "user pressed esc", "user pressed esc"),
        ("b", "[tool run rejected-by-user]", "[tool run rejected-by-user]"),
    ]
    assert [(u.kind, u.json_path, u.data) for u in read.unsent] == [
        ("unfinished tool run", "messages[2].content[2]", {"toolUseID": "c", "status": "in-progress"}),
    ]


def test_info_notices_are_unsent_and_images_keep_their_camel_case_media_type() -> None:
    summary = {"type": "summary", "summary": {"type": "message", "summary": "Short summary"}}
    image = {"type": "image", "source": {"type": "base64", "mediaType": "image/png", "data": "aGk="}}
    read = toolhist.load(
        thread(
            user({"type": "text", "text": "see"}, image),
            answer({"type": "text", "text": "a cat"}, model="gpt-5"),
            {"role": "info", "content": [summary]},
        )
    )
    assert read.messages[0].blocks[1] == MediaBlock(mime_type="image/png", data="aGk=")
    assert [(u.kind, u.text) for u in read.unsent] == [("info message", "Short summary")]
    assert ran_on(read) is None  # a GPT model in Amp: its wire is not public, so no provider is named


def test_a_malformed_record_is_skipped_and_named_not_fatal() -> None:
    read = toolhist.load(
        thread(
            user({"type": "text", "text": "go"}),
            answer(use("a")),
            user({"type": "tool_result", "toolUseID": 7, "run": {"status": "done", "result": "x"}}),
            answer({"type": "text", "text": "done"}),
        )
    )
    assert [m.speaker for m in read.messages] == ["human", "ai", "ai"]
    assert read.source.skipped == {"unreadable user": 1}
    assert any("toolUseID" in note for note in read.source.notes)


def test_a_thread_without_messages_names_its_field(tmp_path: Path) -> None:
    path = tmp_path / "T-2.json"
    path.write_text('{"v": 1, "id": "T-2", "messages": {}}')
    with pytest.raises(LoadError) as caught:
        toolhist.load(path, format="amp")
    assert "messages" in str(caught.value)
    assert str(path) in str(caught.value)


def test_places_follow_xdg_data_home_and_the_editor_extensions_folder(tmp_path: Path) -> None:
    home = places(Home(tmp_path))
    assert home[0] == tmp_path / ".local" / "share" / "amp" / "threads"
    assert tmp_path / ".config" / "Code" / "User" / "globalStorage" / "sourcegraph.amp" / "threads3" in home
    assert (
        tmp_path / "AppData" / "Roaming" / "Code" / "User" / "globalStorage" / "sourcegraph.amp" / "threads3"
        in home
    )
    cursor = "Library/Application Support/Cursor/User/globalStorage/sourcegraph.amp/threads3"
    assert tmp_path / cursor in home
    moved = places(Home(tmp_path, {"XDG_DATA_HOME": str(tmp_path / "data")}))
    assert moved[0] == tmp_path / "data" / "amp" / "threads"


def make_home(home: Path) -> Path:
    """The fixture where the CLI keeps threads, a GPT thread in the editor's older folder, a stray file."""
    gpt = json.loads(FIXTURE.read_text())
    gpt["id"] = "T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002"
    for message in gpt["messages"]:
        if isinstance(message.get("usage"), dict):
            message["usage"]["model"] = "gpt-5"
        message["content"] = [b for b in message.get("content", []) if b.get("type") != "thinking"]
    for rel, content in ((THREAD, FIXTURE.read_text()), (LEGACY, json.dumps(gpt, indent=2))):
        path = home / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)
    (home / THREAD).with_name("settings.json").write_text('{"theme": "dark"}')
    os.utime(home / LEGACY, (WHEN, WHEN))
    os.utime(home / THREAD, (WHEN + 3600, WHEN + 3600))
    return home


LISTING = """\
modified (UTC)    agent  messages  provider   project            path
2026-01-06 01:00  amp           6  anthropic  /Users/dev/proj x  ~/.local/share/amp/threads/T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001.json
2026-01-06 00:00  amp           6  -          /Users/dev/proj x  ~/.config/Code/User/globalStorage/sourcegraph.amp/threads3/T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002.json
2 sessions (amp 2); 0 unreadable
"""

VERDICTS = """\
modified (UTC)    agent  messages  provider   verdict           project            path
2026-01-06 01:00  amp           6  anthropic  accepts           /Users/dev/proj x  ~/.local/share/amp/threads/T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0001.json
2026-01-06 00:00  amp           6  -          provider unknown  /Users/dev/proj x  ~/.config/Code/User/globalStorage/sourcegraph.amp/threads3/T-0199aaaa-bbbb-7ccc-8ddd-eeeeffff0002.json
2 sessions (amp 2); 0 unreadable
"""


@pytest.mark.parametrize(("flags", "expected"), [((), LISTING), (("--verdict",), VERDICTS)])
def test_sessions_lists_and_judges_a_fake_home(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], flags: tuple[str, ...], expected: str
) -> None:
    home = make_home(tmp_path / "home")
    code = main(["sessions", "--home", str(home), "--agent", "amp", *flags])
    out, err = capsys.readouterr()
    assert (code, out, err) == (0, expected, "")


def test_a_copied_thread_is_read_whatever_its_name(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    shutil.copyfile(FIXTURE, path)
    assert toolhist.load(path).source.format == "amp"


ROLES = st.sampled_from(["user", "assistant", "info", "parent", "supervisor"])
STATUSES = st.sampled_from(["done", "error", "cancelled", "rejected-by-user", "in-progress", "queued"])


@st.composite
def records(draw: st.DrawFn) -> dict[str, Any]:
    role = draw(ROLES)
    if role == "user" and draw(st.booleans()):
        cid = draw(st.sampled_from(["a", "b"]))
        return user(result(cid, {"status": draw(STATUSES), "result": "r", "reason": "x"}))
    if role == "assistant":
        return answer(
            use(draw(st.sampled_from(["a", "b"]))), model=draw(st.sampled_from(["claude-x", "gpt-5"]))
        )
    return {"role": role, "content": [{"type": "text", "text": draw(st.text(max_size=5))}]}


@settings(max_examples=60, deadline=None)
@given(st.lists(records(), max_size=8))
def test_every_record_is_sent_kept_unsent_or_skipped_by_name(found: list[dict[str, Any]]) -> None:
    read = toolhist.load(thread(*found), format="amp")
    unknown = sum(r["role"] not in ("user", "assistant", "info") for r in found)
    results = [b for r in found for b in r["content"] if b.get("type") == "tool_result"]
    pending = sum(b["run"]["status"] in ("in-progress", "queued") for b in results)
    infos = sum(r["role"] == "info" for r in found)
    emptied = sum(
        r["role"] == "user"
        and all(b.get("type") == "tool_result" for b in r["content"])
        and all(b["run"]["status"] in ("in-progress", "queued") for b in r["content"])
        for r in found
    )
    assert sum(read.source.skipped.values()) == unknown
    assert len(read.messages) == len(found) - unknown - infos - emptied
    assert len(read.unsent) == infos + pending + emptied
    assert {b.call_id for m in read.messages for b in m.tool_responses()} <= {"a", "b"}
