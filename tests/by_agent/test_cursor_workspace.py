"""Cursor's older workspace store: chats inline in ``ItemTable`` (toolhist/agents/cursor/items.py).

The store is built here in the shape of a real one: slevin48/cursor-history ``state.vscdb`` at
74b0ce6cbceee765239bf001f3218e4f5fbd8ecd (a Cursor workspace on Windows, November 2024; read
through ``fetch``, not committed). Its table is VS Code's ``ItemTable (key TEXT UNIQUE ON CONFLICT
REPLACE, value BLOB)`` with the values as text; ``composer.composerData`` is ``{allComposers,
selectedComposerId, composerDataVersion: 0}``, each composer with exactly the keys below, its
bubbles ``{type: 1, bubbleId, relevantFiles, text, context}`` and ``{type: 2, bubbleId,
relevantFiles, text, codeBlocks}``; ``workbench.panel.aichat.view.aichat.chatdata`` is ``{tabs,
…, chatDataVersion: 0}``, each tab ending with the input box's empty ``user`` bubble. Texts are
shortened; keys, nesting and types are the real file's.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

import toolhist
from toolhist.cli import cli, main
from toolhist.errors import LoadError
from toolhist.model import TextBlock

WS = "f87f6e0b2cf1ae8645cc0c5ffaa99529"
COMPOSER = "7ab14174-a536-4e2c-98e9-8c5e28fa2006"
HEADERS_ONLY = "0c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
TAB = "2aa483d1-573c-4039-ae4e-7415e28d2605"
CONTEXT: dict[str, list[object]] = {
    k: []
    for k in (
        "notepads",
        "selections",
        "fileSelections",
        "folderSelections",
        "selectedDocs",
        "selectedCommits",
        "selectedPullRequests",
        "terminalSelections",
        "terminalFiles",
        "quotes",
        "externalLinks",
        "selectedImages",
    )
}


def _user(bid: str, text: str) -> dict[str, object]:
    return {"type": 1, "bubbleId": bid, "relevantFiles": [], "text": text, "context": CONTEXT}


def _ai(bid: str, text: str) -> dict[str, object]:
    return {"type": 2, "bubbleId": bid, "relevantFiles": [], "text": text, "codeBlocks": []}


def _composer(cid: str, conversation: list[dict[str, object]], **more: object) -> dict[str, object]:
    return {
        "composerId": cid,
        "richText": "",
        "text": "",
        "conversation": conversation,
        "status": "completed",
        "context": CONTEXT,
        "gitGraphFileSuggestions": [],
        "userResponsesToSuggestedCodeBlocks": [],
        "inlineDiffIdMap": {},
        "deleteFileSuggestions": [],
        "queuedAddedFiles": [],
        "generatingBubbleIds": [],
        "isReadingLongFile": False,
        "codeBlockData": {},
        "newlyCreatedFiles": [],
        "newlyCreatedFolders": [],
        "tabs": [{"type": "composer"}],
        "selectedTabIndex": 0,
        "createdAt": 1731818700000,
        "hasChangedContext": True,
        "capabilities": [],
        **more,
    }


COMPOSERS = {
    "allComposers": [
        _composer(
            COMPOSER,
            [
                _user("b1", "by default the dark mode settings is off."),
                _ai("b2", "Let's update the settings page to default dark mode to off."),
                _user("b3", "also remember the choice"),
                _ai("b4", "Store it in localStorage:\n\n```ts\nlocalStorage.setItem('dark', v)\n```"),
            ],
            name="by default the dark mode settings is off.",
            lastUpdatedAt=1731818782107,
        ),
        {"composerId": HEADERS_ONLY, "createdAt": 1731800000000, "unifiedMode": "agent"},
    ],
    "selectedComposerId": COMPOSER,
    "composerDataVersion": 0,
}

CHATDATA = {
    "tabs": [
        {
            "tabId": TAB,
            "chatTitle": "Ionic App Sidebar Customization Guide",
            "bubbles": [
                {
                    **CONTEXT,
                    "useWeb": False,
                    "type": "user",
                    "id": "9e6ead39-c15e-4b82-b142-a533883a2f46",
                    "messageType": 2,
                    "followup": False,
                    "text": "add a sidebar with the user name",
                    "isFocused": False,
                },
                {
                    "type": "ai",
                    "messageType": 3,
                    "id": "ef40b095-5e82-4d4d-b2c8-0524d16d491b",
                    "text": "I'll update app.component.html.",
                    "aiType": "chat",
                    "modelType": "claude-3.5-sonnet",
                    "suggestedDiffs": [],
                    "referencedCodeBlockURIs": [],
                    "requestId": "ef2b9c6b-e8d8-4ee4-95d6-90b08badb177",
                    "hasCodeBlock": False,
                    "rawText": "I'll update app.component.html.",
                    "codeBlocks": [],
                },
                {**CONTEXT, "type": "user", "id": "3cb5019e-e533-49a4-b176-26ec699adfb0", "text": ""},
            ],
            "lastSendTime": 1731818231743,
            "tabState": "chat",
            "longContextModeEnabled": False,
            "hasNamedTab": True,
        }
    ],
    "codeInterpreterTabs": [],
    "selectedTabId": TAB,
    "chatDataVersion": 0,
}


def make_store(path: Path, rows: dict[str, object] | None = None) -> Path:
    """A workspace ``state.vscdb`` with the real file's table and chat keys (and a UI key beside)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE ItemTable (key TEXT UNIQUE ON CONFLICT REPLACE, value BLOB)")
    values = rows or {
        "workbench.panel.aichat.numberOfVisibleViews": 1,
        "composer.composerData": COMPOSERS,
        "workbench.panel.aichat.view.aichat.chatdata": CHATDATA,
    }
    conn.executemany("INSERT INTO ItemTable VALUES (?, ?)", [(k, json.dumps(v)) for k, v in values.items()])
    conn.commit()
    conn.close()
    return path


@pytest.fixture
def store(tmp_path: Path) -> Path:
    return make_store(tmp_path / "state.vscdb")


def test_an_inline_composer_reads_as_its_turns(store: Path) -> None:
    session = toolhist.load(f"{store}#{COMPOSER}")
    assert session.source.format == "cursor"
    assert [(m.speaker, m.blocks) for m in session.messages] == [
        ("human", (TextBlock(text="by default the dark mode settings is off."),)),
        ("ai", (TextBlock(text="Let's update the settings page to default dark mode to off."),)),
        ("human", (TextBlock(text="also remember the choice"),)),
        ("ai", (TextBlock(text="Store it in localStorage:\n\n```ts\nlocalStorage.setItem('dark', v)\n```"),)),
    ]
    assert (session.unsent, session.source.skipped, session.request) == ((), {}, {})


def test_a_chat_tab_reads_with_its_model_and_keeps_the_input_box_unsent(store: Path) -> None:
    session = toolhist.load(f"{store}#chat:{TAB}")
    assert [(m.speaker, m.blocks) for m in session.messages] == [
        ("human", (TextBlock(text="add a sidebar with the user name"),)),
        ("ai", (TextBlock(text="I'll update app.component.html."),)),
    ]
    assert session.messages[1].metadata.model == "claude-3.5-sonnet"
    assert session.request == {"model": "claude-3.5-sonnet"}
    assert [(u.kind, u.reason) for u in session.unsent] == [
        ("empty user bubble", "an empty user bubble: the input box's draft, not sent")
    ]


def test_the_store_lists_inline_chats_newest_first_and_not_headers_only_composers(store: Path) -> None:
    session = toolhist.load(store)
    assert session.metadata["store_session"] == COMPOSER
    assert session.source.notes[0].startswith("this store holds 2 sessions; read the most recently")
    with pytest.raises(LoadError, match=f"no session '{HEADERS_ONLY}' in this cursor store"):
        toolhist.load(f"{store}#{HEADERS_ONLY}")


def test_an_unknown_bubble_is_skipped_by_name_and_a_draft_kept_unsent(tmp_path: Path) -> None:
    composer = _composer(
        COMPOSER, [_user("b1", "hi"), {"type": 7, "bubbleId": "b2"}, _ai("b3", "hello")], text="half typed"
    )
    tab = {**CHATDATA["tabs"][0], "bubbles": [{"type": "user", "text": "q"}, {"type": "system", "text": "x"}]}  # type: ignore[index]
    path = make_store(
        tmp_path / "state.vscdb",
        {
            "composer.composerData": {"allComposers": [composer]},
            "workbench.panel.aichat.view.aichat.chatdata": {"tabs": [tab]},
        },
    )
    session = toolhist.load(f"{path}#{COMPOSER}")
    assert [m.speaker for m in session.messages] == ["human", "ai"]
    assert session.source.skipped == {"bubble type 7": 1}
    assert [(u.kind, u.data) for u in session.unsent] == [("composer draft", {"text": "half typed"})]
    chat = toolhist.load(f"{path}#chat:{TAB}")
    assert ([m.speaker for m in chat.messages], chat.source.skipped) == (
        ["human"],
        {"chat bubble type 'system'": 1},
    )


def test_bad_json_names_the_store_and_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every chat of the workspace is in the one value: the store says it cannot list, never "none"."""
    path = make_store(tmp_path / "state.vscdb", {"composer.composerData": COMPOSERS})
    conn = sqlite3.connect(path)
    conn.execute("UPDATE ItemTable SET value = '{oops' WHERE key = 'composer.composerData'")
    conn.commit()
    conn.close()
    with pytest.raises(LoadError) as caught:
        toolhist.load(f"{path}#{COMPOSER}")
    assert str(caught.value).startswith(
        f"{path}: at ItemTable[composer.composerData]: not a valid cursor store: not valid JSON"
    )
    home = tmp_path / "home"
    bad = home / ".config" / "Cursor" / "User" / "workspaceStorage" / WS / "state.vscdb"
    bad.parent.mkdir(parents=True)
    path.rename(bad)
    assert main(["sessions", "--home", str(home), "--agent", "cursor", "--json"]) == 0
    [row] = json.loads(capsys.readouterr().out)
    assert (row["path"], row["problem"]) == (
        str(bad),
        "at ItemTable[composer.composerData]: not a valid cursor store: not valid JSON: Expecting "
        "property name enclosed in double quotes: line 1 column 2 (char 1)",
    )


def test_check_judges_the_workspace_chat(store: Path) -> None:
    result = CliRunner().invoke(cli, ["check", f"{store}#chat:{TAB}", "--provider", "anthropic"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == f"{store}#chat:{TAB}: cursor, 2 messages"
    assert "anthropic         ok" in lines
    assert "kept, not sent: empty user bubble x1" in lines


def test_sessions_lists_each_workspace_store_with_its_project(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    home = tmp_path / "home"
    workspace = home / ".config" / "Cursor" / "User" / "workspaceStorage" / WS
    make_store(workspace / "state.vscdb")
    (workspace / "workspace.json").write_text(
        json.dumps({"folder": "file:///c%3A/Users/dev/Documents/mobilechat"}), encoding="utf-8"
    )
    assert main(["sessions", "--home", str(home), "--agent", "cursor", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [(r["path"].rsplit("#", 1)[1], r["project"], r["messages"]) for r in rows] == [
        (COMPOSER, "c:/Users/dev/Documents/mobilechat", 4),
        (f"chat:{TAB}", "c:/Users/dev/Documents/mobilechat", 2),
    ]
    assert main(["sessions", "--home", str(home), "--agent", "cursor", "--where"]) == 0
    assert "cursor       found   ~/.config/Cursor/User/workspaceStorage\n" in capsys.readouterr().out
