r"""Where Pi keeps its sessions, what a session file's first bytes say, and what says where it ran.

- Places: ``$PI_CODING_AGENT_DIR`` (``~`` and ``~/`` expanded) else ``~/.pi/agent``, then
  ``sessions/--<cwd with / \ : as ->--/<time>_<uuid>.jsonl``; the same under every OS's home
  (badlogic/pi-mono @83378aad ``packages/coding-agent/src/config.ts`` ``getAgentDir``,
  ``ENV_AGENT_DIR = ${APP_NAME}_CODING_AGENT_DIR``, ``CONFIG_DIR_NAME = ".pi"``;
  ``core/session-manager.ts`` ``getDefaultSessionDir``). A ``--session-dir`` given on the command
  line or by an extension is not followed.
- Where it ran: every assistant message names Pi's ``provider`` id and the ``api`` it spoke
  (``packages/ai/src/types.ts`` ``KnownApi``, ``KnownProvider``). The wire format is the API's;
  whose rules apply is the endpoint's, so only a vendor's own provider on its own API maps to a
  toolhist provider (`WIRE`); a router or another vendor's compatible endpoint (``openrouter``,
  ``kimi-coding`` on ``anthropic-messages``, ``github-copilot``…) is reported by name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Final

from toolhist.agents.folders import RAN_ON, Found, Home, dirs, files, unique
from toolhist.agents.headers import Head

WIRE: Final = {
    "anthropic/anthropic-messages": "anthropic",
    "openai/openai-responses": "openai-responses",
    "openai/openai-completions": "openai-chat",
    "openai-codex/openai-codex-responses": "openai-responses",
    "google/google-generative-ai": "gemini",
    "google-vertex/google-vertex": "gemini",
    "google-gemini-cli/google-gemini-cli": "gemini",
    "amazon-bedrock/bedrock-converse-stream": "bedrock",
    "mistral/mistral-conversations": "mistral",
}
"""``<provider>/<api>`` as Pi's assistant messages name them → toolhist provider: the vendor's own
endpoint on its own wire (``openai-codex`` is OpenAI's ChatGPT-plan Responses endpoint,
``openai-codex-responses.ts``; ``google-gemini-cli`` is Google's Cloud Code Assist, which takes
Gemini ``generateContent``, ``google-gemini-cli.ts``)."""

_API = re.compile(rb'"api"\s*:\s*"([a-z0-9-]{1,64})"\s*,\s*"provider"\s*:\s*"([A-Za-z0-9._-]{1,64})"')


def places(home: Home) -> tuple[Path, ...]:
    """``sessions`` under ``$PI_CODING_AGENT_DIR`` or ``~/.pi/agent`` (the same on every OS)."""
    named = home.env.get("PI_CODING_AGENT_DIR", "").strip()
    if named == "~":
        agent = home.path
    elif named.startswith("~/"):
        agent = home.path / named[2:]
    else:
        agent = Path(named) if named else home.path / ".pi" / "agent"
    return unique([agent / "sessions"])


def header(head: Head) -> dict[str, Any]:
    """Line 1 is the header (``cwd``); the last assistant message read names the provider and API."""
    first, problem = head.first_line()
    if problem is None and not (isinstance(first, dict) and first.get("type") == "session"):
        problem = "line 1 is not a Pi session header"
    cwd = first.get("cwd") if isinstance(first, dict) else None
    found = _API.findall(head.data)
    named = f"{found[-1][1].decode()}/{found[-1][0].decode()}" if found else None
    messages, counted = head.count("role", ("user", "assistant", "toolResult"))
    return {
        "project": cwd if isinstance(cwd, str) else None,
        "model": head.string("model") or head.string("modelId"),
        RAN_ON: (named, None),
        "messages": messages,
        "counted": counted,
        "problem": problem,
    }


def sessions(folder: Path) -> Iterator[Found]:
    """``sessions/--<cwd>--/*.jsonl``."""
    for project in dirs(folder):
        for path in files(project, suffixes=(".jsonl",)):
            yield Found(path, header)
