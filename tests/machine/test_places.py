"""Where each agent's folders are: the agents' own variables, an explicit home, every platform's layout."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from toolhist.agents.headers import SCAN_BYTES
from toolhist.machine import list_sessions, places
from toolhist.machine.ran_on import by_model, ran_on

HOME = Path("/h")


def test_an_explicit_home_ignores_the_agents_variables() -> None:
    found = places(HOME)
    assert (found.of("claude-code"), found.of("codex"), found.of("gemini-cli")) == (
        (HOME / ".claude/projects",),
        (HOME / ".codex/sessions",),
        (HOME / ".gemini/tmp",),
    )
    assert found.of("vscode")[:1] == (HOME / ".config/Code/User",)
    assert HOME / "Library/Application Support/Code - Insiders/User" in found.of("vscode")
    assert HOME / "AppData/Roaming/VSCodium/User" in found.of("vscode")
    assert found.of("cline")[0] == HOME / ".cline/data/tasks"
    assert found.of("llxprt") == (
        HOME / ".local/state/llxprt-code/tmp",
        HOME / "Library/Logs/llxprt-code/tmp",
        HOME / "AppData/Local/llxprt-code/Log/tmp",
        HOME / ".llxprt/tmp",
    )


def test_the_users_home_honours_the_agents_variables(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(Path, "home", staticmethod(lambda: HOME))
    env = {
        "CLAUDE_CONFIG_DIR": "/cfg/claude",
        "CODEX_HOME": "/cfg/codex",
        "GEMINI_CLI_HOME": "/g",
        "VSCODE_APPDATA": "/appdata",
        "CLINE_DIR": "/cline-home",
        "LLXPRT_LOG_HOME": "/llx-logs",
    }
    found = places(None, env)
    assert (found.home, found.of("claude-code"), found.of("codex"), found.of("gemini-cli")) == (
        HOME,
        (Path("/cfg/claude/projects"),),
        (Path("/cfg/codex/sessions"),),
        (Path("/g/.gemini/tmp"),),
    )
    assert found.of("vscode") == tuple(
        Path("/appdata") / p / "User" for p in ("Code", "Code - Insiders", "VSCodium", "Code - OSS")
    )
    assert found.of("cline")[0] == Path("/cline-home/data/tasks")
    assert found.of("llxprt") == (Path("/llx-logs/tmp"), HOME / ".llxprt/tmp")
    # CLINE_DATA_DIR wins over CLINE_DIR; VSCODE_PORTABLE comes first; XDG folders on Linux
    found = places(None, {"CLINE_DATA_DIR": "/cd", "VSCODE_PORTABLE": "/port", "XDG_CONFIG_HOME": "/xdg"})
    assert found.of("cline")[0] == Path("/cd/tasks")
    assert found.of("vscode")[:2] == (Path("/port/user-data/User"), Path("/xdg/Code/User"))


def test_toolhist_home_is_an_explicit_home() -> None:
    found = places(None, {"TOOLHIST_HOME": "/fake", "CODEX_HOME": "/cfg/codex"})
    assert (found.home, found.of("codex")) == (Path("/fake"), (Path("/fake/.codex/sessions"),))


def test_a_long_session_is_counted_from_its_head_and_scaled(tmp_path: Path) -> None:
    folder = tmp_path / ".claude/projects/-p"
    folder.mkdir(parents=True)
    line = json.dumps({"type": "user", "cwd": "/p", "message": {"role": "user", "content": "x" * 1000}})
    lines = 600  # 644 kB: more than the 256 KiB read
    (folder / "s.jsonl").write_text((line + "\n") * lines)
    (row,) = list_sessions(tmp_path)
    size = lines * (len(line) + 1)
    in_head = -(-SCAN_BYTES // (len(line) + 1))  # the cut last line's marker is at its start: counted
    assert (in_head, size) == (245, 644_400)
    assert (row.counted, row.messages) == ("estimate", round(in_head * size / SCAN_BYTES))
    assert row.messages == 602  # an estimate: the file holds 600


def test_markers_inside_text_are_not_counted(tmp_path: Path) -> None:
    folder = tmp_path / ".claude/projects/-p"
    folder.mkdir(parents=True)
    text = '{"type":"user","note":"quoted \\"type\\":\\"assistant\\" in a string"}\n'
    (folder / "s.jsonl").write_text(text)
    (row,) = list_sessions(tmp_path)
    assert (row.messages, row.counted) == (1, "records")


@pytest.mark.parametrize(
    ("agent", "named", "model", "provider"),
    [
        ("claude-code", None, "claude-opus-4-1", "anthropic"),
        ("codex", "ollama", "gpt-oss", "openai-responses"),
        ("gemini-cli", None, None, "gemini"),
        ("llxprt", "openai", "gpt-4.1", "openai-chat"),
        ("llxprt", "anthropic", None, "anthropic"),
        ("cline", "openrouter", "anthropic/claude-sonnet-4", "openai-chat"),
        ("cline", "moonshot", "kimi-k2", "kimi"),
        ("roo", "anthropic", None, "anthropic"),
        ("kilo", "openai", None, "openai-chat"),
        ("vscode", None, "copilot/gpt-4.1", "openai-chat"),
        ("vscode", None, "copilot/gemini-2.5-pro", "gemini"),
        ("vscode", None, None, None),
        ("llxprt", "someproxy", "m", None),
    ],
)
def test_ran_on(agent: str, named: str | None, model: str | None, provider: str | None) -> None:
    assert ran_on(agent, named, model) == provider


def test_by_model_ignores_the_vendor_prefix() -> None:
    assert [by_model(m) for m in ("copilot/claude-sonnet-4", "o3-mini", "mistral-large", "llama-3")] == [
        "anthropic",
        "openai-chat",
        "mistral",
        None,
    ]
