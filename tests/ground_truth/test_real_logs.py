"""Every real agent log in ``tests/corpus/logs`` is read the way the agent itself reads it (issue 17).

The corpus holds files found in public repositories (viewers and analysers of these agents keep real
samples); each has a ``<name>.source.json`` beside it with its repository, path, commit, kind (``real``
or ``hand-made fixture of <project>``), the provider and model it ran on, and what was redacted.

The checks, one test each, are the behaviour the issue demands of the readers:

- the file is detected as its agent's format and read without error;
- records the reader does not know are counted and named in the session's notes (never dropped
  silently, never fatal);
- no Codex ``ghost_snapshot`` reaches any provider's body (Codex's ``is_api_message`` is false for it,
  openai/codex ``codex-rs/core/src/rollout/policy.rs``);
- every Codex ``custom_tool_call`` input (the ``apply_patch`` patch) is in every provider's body byte
  for byte, as a string value or inside a JSON-encoded argument string;
- every Cline native ``tool_use`` is paired with a result: Cline records the result as the next user
  turn's ``[tool for '…'] Result:`` text, not as a ``tool_result`` block (cline
  ``src/core/task/index.ts`` ``pushToolResult``);
- OTel ``execute_tool`` spans are read as calls with their results;
- where the file names the provider it ran on, toolhist predicts no error-level violation for that
  provider on the request the agent would send next (the provider accepted the run), and
  `toolhist.ran_on` reads the same provider from the log as the provenance written beside it.

A check that does not hold yet on a file is listed in ``EXPECTED_FAILURES`` with the reason (the fix
that is due and whose branch makes it). The list is strict: a listed check that starts to hold fails
the test until its entry is removed, so the list only shrinks as the readers are fixed.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.agents.codex.reader import ITEM_TYPES as CODEX_ITEM_TYPES
from toolhist.check import judged_verdict
from toolhist.judgement import judge
from toolhist.providers import PROVIDERS
from toolhist.ran_on import ran_on

CORPUS = Path(__file__).parent.parent / "corpus" / "logs"
FORMAT_OF_DIR = {
    "claude-code": "claude-code",
    "codex": "codex",
    "gemini-cli": "gemini-cli",
    "vscode": "vscode",
    "kilo": "kilo",
    "otel-genai": "otel-genai",
    "llxprt-debug": "llxprt-debug",
    "llxprt-checkpoint": "llxprt-checkpoint",
    "icontent": "icontent",
    "opencode": "opencode",
    "crush": "crush",
    "goose": "goose",
    "zed": "zed",
    "copilot-cli": "copilot-cli",
    "vscode-jsonl": "vscode-jsonl",
    "continue": "continue",
    "cursor": "cursor",
    "cursor-transcript": "cursor-transcript",
    "pi": "pi",
    "kimi-cli": "kimi-cli",
    "qwen-code": "qwen-code",
    "openhands": "openhands",
    "codex-exec": "codex-exec",
    "amp": "amp",
    "pydantic-ai": "pydantic-ai",
    "langchain": "langchain",
    "langgraph": "langgraph",
    "openai-agents": "openai-agents",
    "inspect-ai": "inspect-ai",
    "swe-agent": "swe-agent",
    "mini-swe-agent": "mini-swe-agent",
    "atif": "atif",
    "smolagents": "smolagents",
}
FILES = sorted(
    p
    for p in CORPUS.glob("*/*")
    if (p.is_file() or p.is_dir())
    and not p.name.endswith(".source.json")  # a folder: an OpenHands conversation
)
IDS = [f"{p.parent.name}/{p.name}" for p in FILES]

EXPECTED_FAILURES: dict[tuple[str, str], str] = {
    # (check, "dir/file"): why it does not hold yet and whose fix is due. Empty since h-readers-a
    # and h-readers-b were merged (07:10 UTC): the 28 entries listed before (unknown record kinds
    # not counted, the ghost snapshot in the Responses body, a fatal unknown Codex line, Cline's
    # '[tool] Result:' texts read as unanswered calls, the Claude Code parallel-result branch) all
    # hold now. A new real file that a reader gets wrong goes here with its evidence.
}


EMPTY_HISTORY: dict[str, str] = {
    # Files whose history, read as the agent reads it, is empty, with the agent's reason.
    "codex/edm115-modern-rollout.fixture.jsonl": "its prompts are only event_msg user_message lines "
    "(not history) and its one compacted line has replacement_history [], which Codex installs as the "
    "whole history (rollout_reconstruction.rs: history.replace(replacement_history))",
}

SHAPE: dict[str, tuple[int, int, int, int]] = {
    # Per file: (messages, tool calls, tool results, unsent records) as the agent's send path reads it.
    # Counted by hand from each file against the reader docstrings' rules; a change here is a
    # behaviour change of a reader and needs its reason.
    "claude-code/claude-code-log-sidechain-integrated.fixture.jsonl": (3, 1, 1, 2),
    "claude-code/drmaciver-basic-stop-hook.fixture.jsonl": (4, 1, 1, 0),
    "claude-code/drmaciver-coverage-test-fix.jsonl": (5, 3, 3, 0),
    "claude-code/drmaciver-hello-world-script.jsonl": (8, 2, 2, 0),
    "claude-code/drmaciver-stop-hook-fast-path-clean.jsonl": (4, 1, 1, 0),
    "claude-code/drmaciver-stop-hook-uncommitted-changes.jsonl": (8, 2, 2, 0),
    "claude-code/kvsankar-real-session-01.jsonl": (2, 0, 0, 0),
    # A subagent file on its own: its thread; the Read call is pending (the judgement appends its result).
    "claude-code/marot-spotter-subagent-a2898e3.jsonl": (2, 1, 0, 0),
    # Hook progress lines sit on the parentUuid chain (the prompt and the second tool_use hang on
    # them); both calls of the one response are pending at the cut.
    "claude-code/marot-spotter-4d5611e5-main.jsonl": (2, 2, 0, 0),
    "codex/acidicsoil-rollout-2025-11-17-ghost-snapshot.jsonl": (4, 1, 1, 1),
    # tool_search_call/_output and web_search_call are kept whole inside message 3 (not calls).
    "codex/agent-sessions-v0146-small.fixture.jsonl": (6, 2, 2, 0),
    "codex/claude-code-log-synthetic-rollout.fixture.jsonl": (8, 3, 3, 0),
    # The custom_tool_call has no output in the file: the judgement appends a placeholder result.
    "codex/edm115-legacy-rollout.fixture.jsonl": (1, 1, 0, 0),
    "codex/edm115-modern-rollout.fixture.jsonl": (0, 0, 0, 0),
    # The compacted line (no replacement_history) leaves the 3 user messages and the summary.
    "codex/kvsankar-compaction.fixture.jsonl": (8, 1, 1, 0),
    # call_esc_002 gets Codex's "aborted" output (toolhist/agents/codex/normalize.py); call_esc_004 stays pending.
    "codex/kvsankar-escalation-interrupted.fixture.jsonl": (15, 4, 3, 0),
    "codex/kvsankar-real-session-01.jsonl": (4, 0, 0, 0),
    "codex/log-viewer-cli-v116-shape.fixture.jsonl": (7, 2, 2, 0),
    "codex/masonc15-demo-v0155-apply-patch.fixture.jsonl": (12, 6, 6, 0),
    "codex/simonw-sample-codex-session.jsonl": (3, 0, 0, 0),
    "gemini-cli/agent-sessions-jsonl-v040.fixture.jsonl": (4, 1, 1, 0),
    "gemini-cli/kvsankar-gemini-golden.fixture.json": (5, 1, 1, 0),
    "gemini-cli/kvsankar-gemini-with-tool-error.fixture.jsonl": (13, 4, 4, 0),
    "gemini-cli/kvsankar-real-session-01.json": (2, 0, 0, 0),
    "kilo/mike4567-cline-native-subagents.json": (5, 4, 4, 0),
    # The failed request's empty answer is unsent (vscode.py: result.errorDetails).
    "vscode/dealenx-chat-with-error.json": (1, 0, 0, 1),
    "vscode/dealenx-mcp-tool-error-chat.json": (4, 1, 1, 0),
    # 2 tool invocations are shown in the chat view, but the request has no result.metadata
    # toolCallRounds, so Copilot Chat replays no call (vscode.py): 0 calls is the send path.
    "vscode/dealenx-parse-export-chat.json": (2, 0, 0, 0),
    "vscode/dealenx-user-canceled-chat.json": (3, 0, 0, 0),
    "vscode/dealenx-user-in-progress-chat.json": (4, 0, 0, 0),
    # Stores hold two sessions each; read without a locator, the newest is read.
    # OpenCode: two steps of one assistant message are two assistant/tool pairs; the APIError message is
    # unsent; the aborted message is sent with its running call answered "[Tool execution was interrupted]".
    "opencode/opencode-message-v2-shapes.fixture.db": (7, 3, 3, 1),
    "opencode/opencode-export-message-v2-shapes.fixture.json": (4, 1, 1, 0),
    # Crush: its todo reminder first; the cancelled call gets Crush's synthetic result; the empty cancelled
    # assistant message and the orphaned result are unsent.
    "crush/crush-migrations.fixture.db": (5, 1, 1, 2),
    # Goose: the hidden user message and the never-answered request are unsent; the agent-only summary and
    # the next user message are merged (fix_conversation).
    "goose/goose-session-manager-v9.fixture.db": (3, 0, 0, 2),
    "goose/goose-legacy-message-tests.fixture.jsonl": (4, 1, 1, 0),
    # Zed: the read_file use has no result, so Zed does not send it; Resume is a user message.
    "zed/zed-threads-db.fixture.db": (4, 1, 1, 1),
    # system, user, 3 assistant turns (1 + 2 calls), 2 tool messages; unsent: the first turn's reasoning,
    # 2 detailedContent display copies that differ from the content sent, the explore sub-agent.
    "copilot-cli/qiaolei81-session-demo-v1.0.55.jsonl": (7, 3, 3, 4),
    # The failed request (errorDetails 'Canceled', no toolCallRounds) replays its prompt and the markdown it
    # streamed; its 2 tool invocations are listed in the prompt's extra, not sent (vscode/reader.py).
    "vscode-jsonl/qiaolei81-migrate-to-quarkus.jsonl": (2, 0, 0, 0),
    # constructMessages: the system, tool and empty items are skipped (unsent); the thinking item goes into
    # the next answer; each call gets one tool message ("No tool output" and the cancel text included).
    "continue/continue-constructmessages-test-items.fixture.json": (10, 4, 4, 3),
    # Cursor's newest composer: the thinking and text bubbles open the answer that ends with the first tool
    # bubble's call; each result closes its answer; the empty placeholder bubble is unsent.
    "cursor/cursor-state-vscdb.fixture.db": (6, 2, 2, 1),
    # The transcript keeps no tool result: the Bash call gets a synthetic one (5th message).
    "cursor-transcript/agent-sessions-small.fixture.jsonl": (5, 1, 1, 0),
    # The latest compaction keeps every entry (firstKeptEntryId is the first); its summary leads and
    # the earlier compaction's summary is superseded (unsent).
    "pi/agent-sessions-small.fixture.jsonl": (9, 1, 1, 1),
    "pi/kvsankar-real-session-01.jsonl": (2, 0, 0, 0),
    # The aborted openai turn is skipped by transformMessages (unsent); the three calls are pending.
    "pi/pi-mono-large-session-prefix.jsonl": (3, 3, 0, 1),
    # The system prompt record is the system message; checkpoint and usage records are not messages.
    "kimi-cli/kimi-cli-export-round-trip.fixture.jsonl": (5, 1, 1, 0),
    # The mid-turn user message joins the first prompt; the abandoned branch's answer is unsent; the
    # two records of one uuid are one assistant message (reasoning, the call, the text); the call is pending.
    "qwen-code/agent-sessions-active-chain.fixture.jsonl": (2, 1, 0, 1),
    # The unknown record type is skipped and named; the unknown system subtype is not a message.
    "qwen-code/agent-sessions-unknown-kinds.fixture.jsonl": (2, 0, 0, 0),
    # A conversation folder: the system prompt, 'hello', five actions each with its observation (the
    # unknown tool answered by an AgentErrorEvent).
    "openhands/sdk-v1-49-1-mcp.fixture": (12, 5, 5, 0),
    # Each turn: a placeholder for the prompt the stream does not carry, then the items; the
    # command_execution item is a call answered by its output.
    "codex-exec/agentcmd-stream-output-1.jsonl": (2, 0, 0, 0),
    "codex-exec/agentcmd-stream-output-4.jsonl": (4, 1, 1, 0),
    "codex-exec/agentcmd-stream-output-5.jsonl": (4, 1, 1, 0),
    # Amp: one message per user/assistant record; each user record of tool_result blocks is one tool
    # message (the done runs' results as JSON text, the errored run as an error); the 'supervisor'
    # record is not Amp's known roles: skipped and named.
    "amp/txcript-legacy-thread.fixture.json": (6, 3, 3, 0),
    # Frameworks (issue 28). Files the framework itself wrote (kind "made by …", the producer script in
    # tests/corpus/producers/): a tool round each, read as the framework sends it.
    "pydantic-ai/pydantic-ai-testmodel.json": (5, 1, 1, 0),
    "langchain/langchain-fake-chat-model.json": (5, 1, 1, 0),
    # the newest thread (oslo) of two; its checkpoint holds human, the call, the ToolMessage, the answer
    "langgraph/langgraph-sqlitesaver.sqlite": (4, 1, 1, 0),
    # SQLiteSession keeps no instructions: user item, function_call, its output, the answer
    "openai-agents/openai-agents-sqlitesession.db": (4, 1, 1, 0),
    # the first of two samples: system, input, the call, its result, the answer
    "inspect-ai/inspect-mockllm-tools.eval": (5, 1, 1, 0),
    "inspect-ai/inspect-mockllm-tools.json": (5, 1, 1, 0),
    # smolagents sends calls and observations as text: no native call or result
    "smolagents/smolagents-toolcalling-memory.json": (8, 0, 0, 0),
    "smolagents/smolagents-toolcalling-memory.messages.json": (8, 0, 0, 0),
    # the COMPLETE command's call has no tool message (its output is the submission); 'exit' unsent
    "mini-swe-agent/mini-swe-agent-toolcall.traj.json": (5, 2, 1, 1),
    "swe-agent/swe-agent-function-calling-simple.traj": (12, 5, 5, 0),
    "atif/atif-v1.4-rfc-shapes.fixture.json": (5, 2, 2, 0),
    # Harbor's terminus-2 golden run: its results carry no source_call_id (terminal text, no native calls)
    "atif/terminus-2-hello-world-timeout.trajectory.json": (7, 0, 0, 3),
}


def _source(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.with_name(path.name + ".source.json").read_text())
    return data


def _key(path: Path) -> str:
    return f"{path.parent.name}/{path.name}"


def _check(check: str, path: Path, problem: str | None) -> None:
    """Assert ``problem`` is None, or, for a listed known failure, that it still fails."""
    expected = EXPECTED_FAILURES.get((check, _key(path)))
    if expected is None:
        assert problem is None, f"{_key(path)}: {problem}"
    else:
        assert problem is not None, (
            f"{_key(path)}: '{check}' now holds; remove it from EXPECTED_FAILURES ({expected})"
        )


def _load(path: Path) -> toolhist.Session | str:
    """The session read with format detection, or the reason it could not be read."""
    try:
        return toolhist.load(path)
    except toolhist.ToolhistError as error:
        return f"unreadable: {error}"


def _records(path: Path) -> list[Any]:
    """The file's JSON records: one per line for JSONL, the document otherwise."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".jsonl":
        return [json.loads(line) for line in text.splitlines() if line.strip()]
    return [json.loads(text)]


def _strings(value: Any) -> Iterator[str]:
    """Every string in a JSON value, plus the strings inside JSON-encoded strings (arguments)."""
    if isinstance(value, str):
        yield value
        if value[:1] in "{[":
            try:
                inner = json.loads(value)
            except ValueError:
                return
            yield from _strings(inner)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)


def _bodies(session: toolhist.Session) -> dict[str, Any]:
    bodies: dict[str, Any] = {}
    for provider in PROVIDERS:
        try:
            bodies[provider] = toolhist.render(session, provider).body
        except toolhist.ToolhistError as error:
            bodies[provider] = error
    return bodies


def test_corpus_has_provenance_beside_every_file() -> None:
    assert len(FILES) >= 12
    for path in FILES:
        src = _source(path)
        assert src["repo"], path
        assert src["path"], path
        assert len(src["commit"]) == 40, path
        assert src["kind"] == "real" or src["kind"].startswith(("hand-made fixture of ", "made by ")), path
        if src["kind"].startswith("made by "):  # written by the framework itself: its producer is here
            assert (Path(__file__).parents[2] / src["producer"]).is_file(), path
        assert path.parent.name in FORMAT_OF_DIR, path


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_detected_as_its_format_and_read(path: Path) -> None:
    want = FORMAT_OF_DIR[path.parent.name]
    session = _load(path)
    problem = None
    if isinstance(session, str):
        problem = session
    else:
        if session.source.format != want:
            problem = f"detected as {session.source.format}, not {want}"
        elif bool(session.messages) == (_key(path) in EMPTY_HISTORY):
            problem = "read no message" if not session.messages else "read messages Codex would not send"
    _check("detected_and_read", path, problem)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_read_to_the_expected_shape(path: Path) -> None:
    session = toolhist.load(path)
    shape = (
        len(session.messages),
        sum(len(list(m.tool_calls())) for m in session.messages),
        sum(len(list(m.tool_responses())) for m in session.messages),
        len(session.unsent),
    )
    assert shape == SHAPE[_key(path)]


def test_every_file_has_an_expected_shape() -> None:
    assert sorted(SHAPE) == sorted(IDS)
    assert set(EMPTY_HISTORY) <= set(IDS)


UNKNOWN_KINDS: dict[str, set[str]] = {
    # Record kinds in the file that the agent itself does not write in the version the file claims:
    # the reader cannot know them, so it must skip them by name (never fail, never drop silently).
    "codex/claude-code-log-synthetic-rollout.fixture.jsonl": {"future_synthetic_record"},
    "amp/txcript-legacy-thread.fixture.json": {"'supervisor'"},
}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_unknown_records_named(path: Path) -> None:
    session = _load(path)
    skipped = None if isinstance(session, str) else getattr(session.source, "skipped", None)
    if isinstance(session, str):
        problem: str | None = session
    elif skipped is None:
        problem = "SessionSource has no 'skipped' count of unknown record kinds"
    else:
        notes = " ".join(session.source.notes)
        kinds = {kind.split()[-1] for kind in skipped} | UNKNOWN_KINDS.get(_key(path), set())
        unnamed = sorted(kind for kind in kinds if kind not in notes)
        problem = f"unknown kinds not named in the notes: {unnamed}" if unnamed else None
    _check("unknown_records_named", path, problem)


CODEX = [p for p in FILES if p.parent.name == "codex"]


def _codex_items(path: Path, item_type: str) -> list[dict[str, Any]]:
    return [
        r["payload"]
        for r in _records(path)
        if r.get("type") == "response_item" and r.get("payload", {}).get("type") == item_type
    ]


@pytest.mark.parametrize("path", CODEX, ids=[_key(p) for p in CODEX])
def test_no_ghost_snapshot_in_bodies(path: Path) -> None:
    session = _load(path)
    if isinstance(session, str):
        _check("no_ghost_snapshot_in_bodies", path, session)
        return
    leaked = [
        provider
        for provider, body in _bodies(session).items()
        if not isinstance(body, Exception)
        and ("ghost_snapshot" in json.dumps(body) or "ghost_commit" in json.dumps(body))
    ]
    problem = f"ghost snapshot rendered into: {leaked}" if leaked else None
    _check("no_ghost_snapshot_in_bodies", path, problem)


def _sent_item_types(path: Path) -> list[str] | None:
    """The types of the items Codex replays, in file order; None when a compaction or rollback
    rewrites the history (the Codex tests above cover those)."""
    records = _records(path)
    if any(
        r.get("type") == "compacted" or r.get("payload", {}).get("type") == "thread_rolled_back"
        for r in records
    ):
        return None
    kinds = []
    for r in records:
        item = r.get("payload", {})
        kind = item.get("type", "message")
        if r.get("type") == "response_item" and kind in CODEX_ITEM_TYPES and item.get("role") != "system":
            kinds.append(kind)
    return kinds


@pytest.mark.parametrize("path", CODEX, ids=[_key(p) for p in CODEX])
def test_every_item_codex_replays_is_in_the_responses_body_in_order(path: Path) -> None:
    """What Codex sends (``is_api_message``) is what a Responses render sends: nothing dropped,
    nothing folded into a message's content, the order kept."""
    want = _sent_item_types(path)
    if want is None:
        return
    session = toolhist.load(path)
    body: Any = toolhist.render(session, "openai-responses").body
    # Codex's own "aborted" outputs for calls left unanswered (toolhist/agents/codex/normalize.py) are not in the file.
    made = {
        b.call_id for m in session.messages for b in m.tool_responses() if "_synthetic" in b.provider_data
    }
    items = [i for i in body["input"] if not (i.get("call_id") in made and i["type"].endswith("_output"))]
    assert [i for i in body["input"] if i not in items] == [
        {"type": "function_call_output", "call_id": c, "output": "aborted"} for c in sorted(made)
    ]
    got = [item.get("type", "message") if "role" not in item else "message" for item in items]
    assert got == want


def test_the_corpus_has_a_real_ghost_snapshot() -> None:
    with_ghosts = [p for p in CODEX if _codex_items(p, "ghost_snapshot")]
    assert [_key(p) for p in with_ghosts] == ["codex/acidicsoil-rollout-2025-11-17-ghost-snapshot.jsonl"]


@pytest.mark.parametrize("path", CODEX, ids=[_key(p) for p in CODEX])
def test_custom_tool_call_patch_kept_byte_for_byte(path: Path) -> None:
    patches = [item["input"] for item in _codex_items(path, "custom_tool_call")]
    session = _load(path)
    if isinstance(session, str):
        _check("custom_tool_call_patch_kept", path, session)
        return
    missing = []
    for provider, body in _bodies(session).items():
        if isinstance(body, Exception):
            missing.append(f"{provider}: {body}")
            continue
        strings = set(_strings(body))
        missing += [f"{provider}: patch {i}" for i, patch in enumerate(patches) if patch not in strings]
    _check("custom_tool_call_patch_kept", path, f"not in the body: {missing}" if missing else None)


KILO = [p for p in FILES if p.parent.name == "kilo"]


def _cline_tool_uses(path: Path) -> list[str]:
    (history,) = _records(path)
    return [
        block["id"]
        for message in history
        if message.get("role") == "assistant" and isinstance(message.get("content"), list)
        for block in message["content"]
        if block.get("type") == "tool_use"
    ]


@pytest.mark.parametrize("path", KILO, ids=[_key(p) for p in KILO])
def test_cline_tool_use_paired(path: Path) -> None:
    session = _load(path)
    if isinstance(session, str):
        _check("cline_tool_use_paired", path, session)
        return
    calls = {
        (block.raw_id or block.id): block.id for message in session.messages for block in message.tool_calls()
    }
    answered = {block.call_id for message in session.messages for block in message.tool_responses()}
    unpaired = [raw for raw in _cline_tool_uses(path) if calls.get(raw) not in answered]
    problem = f"tool_use without a result: {unpaired}" if unpaired else None
    _check("cline_tool_use_paired", path, problem)


OTEL = [p for p in FILES if p.parent.name == "otel-genai"]
MISSING_FORMATS = {
    "otel-genai": "no exported GenAI trace with message content found in the search index: every "
    "execute_tool span hit was test code building spans, not an export of a run",
    "llxprt-debug": "no llxprt-code debug log committed in a public repository the index holds",
    "llxprt-checkpoint": "no llxprt-code checkpoint committed in a public repository the index holds",
    "icontent": "no llxprt-code IContent history committed in a public repository the index holds",
}


def test_formats_without_files_are_named() -> None:
    present = {p.parent.name for p in FILES}
    assert sorted(set(FORMAT_OF_DIR) - present) == sorted(MISSING_FORMATS)


def test_otel_execute_tool_spans_read_as_calls_with_results() -> None:
    assert bool(OTEL) == ("otel-genai" not in MISSING_FORMATS)
    for path in OTEL:
        session = _load(path)
        if isinstance(session, str):
            _check("otel_execute_tool_read", path, session)
            continue
        calls = [b for m in session.messages for b in m.tool_calls()]
        answered = {b.call_id for m in session.messages for b in m.tool_responses()}
        problem = None if calls and all(c.id in answered for c in calls) else "calls without results"
        _check("otel_execute_tool_read", path, problem)


RAN_ON = [p for p in FILES if _source(p).get("toolhist_provider")]


def _errors(session: toolhist.Session, provider: str) -> list[str]:
    # Judged as the request the agent would send next (DESIGN §2, `toolhist.judgement`).
    return [v.rule for v in judged_verdict(judge(session), provider) if v.severity == "error"]


@pytest.mark.parametrize("path", RAN_ON, ids=[_key(p) for p in RAN_ON])
def test_no_400_on_the_provider_it_ran_on(path: Path) -> None:
    provider = _source(path)["toolhist_provider"]
    session = _load(path)
    if isinstance(session, str):
        _check("no_400_on_the_provider_it_ran_on", path, session)
        return
    rules = _errors(session, provider)
    problem = f"{provider} errors predicted on an accepted run: {rules}" if rules else None
    _check("no_400_on_the_provider_it_ran_on", path, problem)


REAL = [p for p in FILES if _source(p)["kind"] == "real"]


@pytest.mark.parametrize("path", REAL, ids=[_key(p) for p in REAL])
def test_ran_on_agrees_with_provenance(path: Path) -> None:
    """`toolhist.ran_on` reads the provider from the log itself; the corpus names it from the evidence
    written beside each file (``toolhist_provider_why``). The two were set independently."""
    ran = ran_on(toolhist.load(path))
    assert (None if ran is None else ran.provider) == _source(path)["toolhist_provider"]


CHECKS: dict[str, Callable[..., object]] = {
    "detected_and_read": test_detected_as_its_format_and_read,
    "unknown_records_named": test_unknown_records_named,
    "no_ghost_snapshot_in_bodies": test_no_ghost_snapshot_in_bodies,
    "custom_tool_call_patch_kept": test_custom_tool_call_patch_kept_byte_for_byte,
    "cline_tool_use_paired": test_cline_tool_use_paired,
    "otel_execute_tool_read": test_otel_execute_tool_spans_read_as_calls_with_results,
    "no_400_on_the_provider_it_ran_on": test_no_400_on_the_provider_it_ran_on,
}


def test_expected_failures_name_real_checks_and_files() -> None:
    for check, name in EXPECTED_FAILURES:
        assert check in CHECKS, check
        assert name in IDS, name
    assert set(UNKNOWN_KINDS) <= set(IDS)
