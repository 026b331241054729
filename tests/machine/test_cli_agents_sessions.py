"""``toolhist sessions`` on a home laid out as Pi, Kimi CLI, Qwen Code and the OpenHands CLI lay theirs out:
every session listed from its header, then read and judged where it ran; each agent's variables honoured."""

from __future__ import annotations

from pathlib import Path

import pytest
from fake_home_cli import KIMI_MD5, QWEN_CHECKPOINT, make_cli_home

from toolhist.agents.folders import Home
from toolhist.agents.kimi_cli.sessions import places as kimi_places
from toolhist.agents.openhands.sessions import places as openhands_places
from toolhist.agents.openhands.sessions import provider_of
from toolhist.agents.pi.sessions import places as pi_places
from toolhist.agents.qwen_code.sessions import places as qwen_places
from toolhist.cli import main

Q = QWEN_CHECKPOINT.split("/")[2]
LISTING = """\
modified (UTC)    agent      messages  provider          project                                     path
2026-01-06 08:00  pi                4  anthropic         /Users/badlogic/workspaces/pi-mono          ~/.pi/agent/sessions/--Users-badlogic-workspaces-pi-mono--/2025-11-20T23-33-50-805Z_d703a1a9.jsonl
2026-01-06 07:00  kimi-cli          4  kimi              /home/dev/kimi-app                          ~/.kimi/sessions/{K}/4f1c2b3a-5d6e-4f70-8a9b-0c1d2e3f4a5b/context.jsonl
2026-01-06 06:00  qwen-code         5  openai-chat       /tmp/as-qwen-fixture/old-project            ~/.qwen/projects/-tmp-as-qwen-fixture-old-project/chats/019f0000-0000-7000-8000-000000000004.jsonl
2026-01-06 05:00  openhands        12  anthropic         /fixture/workspace                          ~/.openhands/conversations/7c2e9a10b4d34f5e8a6b1c0d9e8f7a6b
2026-01-06 04:00  openhands        12  -                 /fixture/workspace                          ~/.openhands/conversations/5db134a6233f4ff9b88fc4f3e1e07c66
2026-01-06 03:00  pi                2  openai-responses  /tmp/agent-history-real-agent/pi/workspace  ~/.pi/agent/sessions/--tmp-agent-history--/2026-06-05T05-24-28-246Z_019e963d.jsonl
2026-01-06 02:00  kimi-cli          1  -                 /home/dev/kimi-app                          ~/.kimi/sessions/{K}/1a2b3c4d-0000-4000-8000-000000000001.jsonl
2026-01-06 01:00  qwen-code         4  -                 -                                           ~/.qwen/tmp/{Q}/checkpoint-fix.json
2026-01-06 00:00  pi                0  -                 -                                           ~/.pi/agent/sessions/--home-dev-notes--/2026-01-06T00-00-00-000Z_broken.jsonl
    unreadable: line 1 is not a Pi session header
9 sessions (pi 3, kimi-cli 2, qwen-code 2, openhands 2); 1 unreadable
"""

VERDICTS = """\
modified (UTC)    agent      messages  provider          verdict           project                                     path
2026-01-06 08:00  pi                3  anthropic         accepts           /Users/badlogic/workspaces/pi-mono          ~/.pi/agent/sessions/--Users-badlogic-workspaces-pi-mono--/2025-11-20T23-33-50-805Z_d703a1a9.jsonl
2026-01-06 07:00  kimi-cli          5  kimi              accepts           /home/dev/kimi-app                          ~/.kimi/sessions/{K}/4f1c2b3a-5d6e-4f70-8a9b-0c1d2e3f4a5b/context.jsonl
2026-01-06 06:00  qwen-code         2  openai-chat       accepts           /tmp/as-qwen-fixture/old-project            ~/.qwen/projects/-tmp-as-qwen-fixture-old-project/chats/019f0000-0000-7000-8000-000000000004.jsonl
2026-01-06 05:00  openhands        12  anthropic         accepts           /fixture/workspace                          ~/.openhands/conversations/7c2e9a10b4d34f5e8a6b1c0d9e8f7a6b
2026-01-06 04:00  openhands        12  -                 provider unknown  /fixture/workspace                          ~/.openhands/conversations/5db134a6233f4ff9b88fc4f3e1e07c66
2026-01-06 03:00  pi                2  openai-responses  accepts           /tmp/agent-history-real-agent/pi/workspace  ~/.pi/agent/sessions/--tmp-agent-history--/2026-06-05T05-24-28-246Z_019e963d.jsonl
2026-01-06 02:00  kimi-cli          1  -                 provider unknown  /home/dev/kimi-app                          ~/.kimi/sessions/{K}/1a2b3c4d-0000-4000-8000-000000000001.jsonl
2026-01-06 01:00  qwen-code         4  -                 provider unknown  -                                           ~/.qwen/tmp/{Q}/checkpoint-fix.json
2026-01-06 00:00  pi                0  -                 -                 -                                           ~/.pi/agent/sessions/--home-dev-notes--/2026-01-06T00-00-00-000Z_broken.jsonl
    unreadable: line 1 is not a Pi session header
9 sessions (pi 3, kimi-cli 2, qwen-code 2, openhands 2); 1 unreadable
"""


@pytest.fixture(scope="module")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return make_cli_home(tmp_path_factory.mktemp("cli-agents") / "home")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["sessions", *args])
    out, err = capsys.readouterr()
    return code, out, err


AGENTS = ("--agent", "pi", "--agent", "kimi-cli", "--agent", "qwen-code", "--agent", "openhands")


def test_lists_each_agents_sessions_from_their_headers(
    home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli(capsys, "--home", str(home), *AGENTS) == (0, LISTING.format(K=KIMI_MD5, Q=Q), "")


def test_judges_each_session_where_it_ran(home: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # messages are now the readers' counts; the OpenHands fixture's test-model, the older Kimi
    # context without calls and the Qwen checkpoint name no provider, so no verdict is given
    assert cli(capsys, "--home", str(home), "--verdict", *AGENTS) == (0, VERDICTS.format(K=KIMI_MD5, Q=Q), "")


def test_each_agent_honours_its_own_variables() -> None:
    h = Path("/h")
    assert pi_places(Home(h)) == (h / ".pi" / "agent" / "sessions",)
    assert pi_places(Home(h, {"PI_CODING_AGENT_DIR": "~/pi"})) == (h / "pi" / "sessions",)
    assert pi_places(Home(h, {"PI_CODING_AGENT_DIR": "/srv/pi"})) == (Path("/srv/pi/sessions"),)
    assert kimi_places(Home(h, {"KIMI_SHARE_DIR": "/k"})) == (
        Path("/k/sessions"),
        Path("/k/imported_sessions"),
    )
    assert qwen_places(Home(h, {"QWEN_RUNTIME_DIR": "/q"})) == (Path("/q/projects"), Path("/q/tmp"))
    assert openhands_places(Home(h)) == (h / ".openhands" / "conversations",)
    assert openhands_places(Home(h, {"OPENHANDS_PERSISTENCE_DIR": "/o"})) == (Path("/o/conversations"),)
    assert openhands_places(
        Home(h, {"OPENHANDS_CONVERSATIONS_DIR": "/c", "OPENHANDS_PERSISTENCE_DIR": "/o"})
    ) == (Path("/c"),)


@pytest.mark.parametrize(
    ("model", "base_url", "provider"),
    [
        ("anthropic/claude-sonnet-4-5-20250929", None, "anthropic"),
        ("claude-sonnet-4-5", None, "anthropic"),
        ("gpt-5", None, "openai-responses"),
        ("openai/gpt-4.1", None, "openai-chat"),
        ("openai/gpt-4.1", "http://127.0.0.1:8000/v1", None),
        ("gemini/gemini-2.5-pro", None, "gemini"),
        ("litellm_proxy/claude-sonnet-4", None, None),
        ("openhands/claude-sonnet-4", None, None),
        ("test-model", None, None),
    ],
)
def test_openhands_litellm_models_map_to_the_wire_they_send(
    model: str, base_url: str | None, provider: str | None
) -> None:
    assert provider_of(model, base_url) == provider
