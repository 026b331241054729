"""Generated agent logs for the gigabyte benchmarks: a Claude Code session JSONL and a Codex rollout.

Shaped on the real files of ``tests/corpus/logs/`` (their line kinds, field names and order), so
the readers do the work a real log asks of them:

- **Claude Code** (``drmaciver-*.jsonl``, ``claude-code-log-sidechain-integrated.fixture.jsonl``):
  a ``queue-operation`` line, then turns of a user prompt, assistant responses written one content
  block per line (lines of one response share ``message.id``; ``usage`` on each), parallel
  ``tool_use`` blocks answered by one ``user`` line per ``tool_result``, each with Claude Code's
  own UI copy of the result in ``toolUseResult`` (Bash ``stdout``/``stderr``; Read ``file.content``;
  Edit ``oldString``/``newString``/``structuredPatch``), so tool output is in the file twice as in
  real logs; ``file-history-snapshot`` and ``system`` lines; now and then a Task subagent thread
  (``isSidechain: true``, ``agentId``); an ``isMeta`` stop-hook line; errors (``is_error``).
- **Codex** (``masonc15-demo-v0155-apply-patch``, ``acidicsoil-rollout-…-ghost-snapshot``):
  ``session_meta``, then per turn ``event_msg task_started``, ``turn_context``, the user
  ``message`` item and its ``user_message`` event, ``reasoning`` items with ``encrypted_content``,
  ``function_call`` ``exec_command`` / ``custom_tool_call`` ``apply_patch`` with their outputs
  and ``exec_command_end`` events, ``token_count`` events, ``ghost_snapshot`` items, assistant
  ``message`` items.

Tool outputs are the size knob. ``--lines N`` writes N lines of *short* outputs (tens to a few
hundred bytes: the shape of the 1M-line, 377 MB log of issue 26); ``--mb M`` writes about M
megabytes of *realistic* outputs (log-uniform from 100 bytes to 24 KB, median about 1.5 KB: file
reads, test runs, diffs). Both end on an assistant turn whose last tool call has no result yet
(the agent was stopped), so every check judges a next request with pending results.

Deterministic for a seed. ``python benchmarks/agent_logs.py claude-code OUT --mb 1000`` writes one.
"""

from __future__ import annotations

import argparse
import math
import random
import string
import uuid as uuidlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson

AGENTS = ("claude-code", "codex")
WORDS: tuple[str, ...] = tuple(
    "fix the failing test in module please and check why parser returns none when the config file is "  # noqa: SIM905
    "missing then update docs run suite again".split()
)
CODE = (
    "def handle(request, *, timeout=30):",
    "    if request.method not in ALLOWED:",
    "        raise MethodNotAllowed(request.method)",
    "    payload = json.loads(request.body or b'{}')",
    "    for key, value in sorted(payload.items()):",
    "        log.debug('field %s=%r', key, value)",
    "    return Response(status=200, body=render(payload))",
    "class Cache:",
    "    def __init__(self, size: int = 128) -> None:",
    "        self._items: dict[str, bytes] = {}",
    "import os, sys  # noqa: E401",
    "    # TODO: handle the empty case before merging",
)


class Sizes:
    """Tool output sizes: short (line-count runs) or realistic (megabyte runs)."""

    def __init__(self, rng: random.Random, realistic: bool) -> None:
        self.rng = rng
        self.realistic = realistic

    def output(self) -> int:
        """Bytes of one tool output."""
        if self.realistic:
            return int(math.exp(self.rng.uniform(math.log(100), math.log(24_000))))
        return self.rng.randint(20, 260)

    def text(self, size: int) -> str:
        """About ``size`` characters of code-like text, a line at a time."""
        out: list[str] = []
        n = 0
        line = 1
        while n < size:
            piece = f"{line:>5}\t{self.rng.choice(CODE)}\n"
            out.append(piece)
            n += len(piece)
            line += 1
        return "".join(out)[: max(size, 1)]

    def words(self, k: int) -> str:
        """``k`` words of prose."""
        return " ".join(self.rng.choices(WORDS, k=k))


def _uuid(rng: random.Random) -> str:
    return str(uuidlib.UUID(int=rng.getrandbits(128), version=4))


def _token(rng: random.Random, k: int) -> str:
    return "".join(rng.choices(string.ascii_letters + string.digits, k=k))


def _stamp(t: float) -> str:
    seconds = int(t)
    ms = int((t - seconds) * 1000)
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    day = 1 + (h // 24) % 28
    return f"2026-01-{day:02d}T{h % 24:02d}:{m:02d}:{s:02d}.{ms:03d}Z"


# -- Claude Code ---------------------------------------------------------------------------------


class _Claude:
    """Writes Claude Code lines; ``parent`` is the uuid the next main-thread line hangs from."""

    def __init__(self, rng: random.Random, sizes: Sizes) -> None:
        self.rng = rng
        self.sizes = sizes
        self.session = _uuid(rng)
        self.parent: str | None = None
        self.t = 1_000_000.0
        self.common = {
            "isSidechain": False,
            "userType": "external",
            "cwd": "/home/dev/project",
            "sessionId": self.session,
            "version": "2.1.14",
            "gitBranch": "main",
        }

    def _line(
        self, kind: str, message: dict[str, Any], *, side: str | None = None, **extra: Any
    ) -> dict[str, Any]:
        self.t += self.rng.uniform(0.2, 4.0)
        uid = _uuid(self.rng)
        entry: dict[str, Any] = {"parentUuid": self.parent, **self.common}
        if side is not None:
            entry["isSidechain"] = True
            entry["agentId"] = side
        entry.update({"type": kind, "message": message, "uuid": uid, "timestamp": _stamp(self.t)})
        entry.update(extra)
        self.parent = uid
        return entry

    def _usage(self) -> dict[str, Any]:
        cache = self.rng.randint(100, 4000)
        return {
            "input_tokens": self.rng.randint(0, 9),
            "cache_creation_input_tokens": cache,
            "cache_read_input_tokens": self.rng.randint(10_000, 90_000),
            "cache_creation": {"ephemeral_5m_input_tokens": cache, "ephemeral_1h_input_tokens": 0},
            "output_tokens": self.rng.randint(1, 400),
            "service_tier": "standard",
        }

    def _assistant(self, block: dict[str, Any], msg_id: str, side: str | None = None) -> dict[str, Any]:
        message = {
            "model": "claude-opus-4-5-20251101",
            "id": msg_id,
            "type": "message",
            "role": "assistant",
            "content": [block],
            "stop_reason": None,
            "stop_sequence": None,
            "usage": self._usage(),
        }
        return self._line("assistant", message, side=side, requestId="req_" + _token(self.rng, 24))

    def _call(self) -> tuple[dict[str, Any], str, Any]:
        """A tool_use block, the tool_result content and Claude Code's ``toolUseResult`` for it."""
        rng, sizes = self.rng, self.sizes
        call_id = "toolu_01" + _token(rng, 22)
        tool = rng.choice(("Bash", "Bash", "Read", "Read", "Edit", "Grep", "Write"))
        path = f"/home/dev/project/src/pkg{rng.randint(0, 20)}/mod_{rng.randint(0, 400)}.py"
        out = sizes.text(sizes.output())
        ui: Any
        if tool == "Bash":
            cmd = rng.choice(("pytest -x -q", "ruff check .", "git status --short", "make build"))
            params: dict[str, Any] = {"command": cmd, "description": sizes.words(5)}
            ui = {"stdout": out, "stderr": "", "interrupted": False, "isImage": False}
        elif tool == "Read":
            params = {"file_path": path}
            lines = out.count("\n")
            ui = {
                "type": "text",
                "file": {
                    "filePath": path,
                    "content": out,
                    "numLines": lines,
                    "startLine": 1,
                    "totalLines": lines,
                },
            }
        elif tool == "Edit":
            old, new = sizes.text(80), sizes.text(120)
            params = {"file_path": path, "old_string": old, "new_string": new}
            ui = {
                "filePath": path,
                "oldString": old,
                "newString": new,
                "structuredPatch": [
                    {"oldStart": 3, "oldLines": 2, "newStart": 3, "newLines": 3, "lines": [out]}
                ],
                "userModified": False,
                "replaceAll": False,
            }
            out = (
                f"The file {path} has been updated. Here's the result of running `cat -n` on a snippet:\n"
                + out
            )
        elif tool == "Write":
            params = {"file_path": path, "content": out}
            ui = {
                "type": "create",
                "filePath": path,
                "content": out,
                "structuredPatch": [],
                "originalFile": None,
            }
            out = f"File created successfully at: {path}"
        else:
            params = {"pattern": rng.choice(("def main", "TODO", "import os")), "path": "src"}
            ui = {"mode": "content", "numFiles": rng.randint(0, 9), "filenames": [], "content": out}
        return {"type": "tool_use", "id": call_id, "name": tool, "input": params}, out, ui

    def _result(
        self, call_id: str, out: str, ui: Any, error: bool, side: str | None = None
    ) -> dict[str, Any]:
        result: dict[str, Any] = {"tool_use_id": call_id, "type": "tool_result", "content": out}
        if error:
            result["is_error"] = True
            result["content"] = "Exit code 1\n" + out
        message = {"role": "user", "content": [result]}
        return self._line("user", message, side=side, toolUseResult=ui, sourceToolAssistantUUID=self.parent)

    def turn(self) -> Iterator[dict[str, Any]]:
        """One user prompt and the assistant's work on it."""
        rng, sizes = self.rng, self.sizes
        yield {
            "type": "file-history-snapshot",
            "messageId": _uuid(rng),
            "snapshot": {"messageId": _uuid(rng), "trackedFileBackups": {}, "timestamp": _stamp(self.t)},
            "isSnapshotUpdate": False,
        }
        yield self._line("user", {"role": "user", "content": sizes.words(rng.randint(6, 40))})
        for _step in range(rng.randint(1, 5)):
            msg_id = "msg_01" + _token(rng, 22)
            if rng.random() < 0.4:
                yield self._assistant(
                    {
                        "type": "thinking",
                        "thinking": sizes.words(rng.randint(10, 60)),
                        "signature": _token(rng, 200),
                    },
                    msg_id,
                )
            if rng.random() < 0.5:
                yield self._assistant({"type": "text", "text": sizes.words(rng.randint(5, 30))}, msg_id)
            calls = [self._call() for _ in range(rng.choice((1, 1, 1, 2, 2, 3)))]
            for block, _out, _ui in calls:
                yield self._assistant(block, msg_id)
            for block, out, ui in calls:
                yield self._result(block["id"], out, ui, rng.random() < 0.06)
            if rng.random() < 0.03:
                yield from self._subagent()
        yield self._assistant(
            {"type": "text", "text": sizes.words(rng.randint(5, 60))}, "msg_01" + _token(rng, 22)
        )
        if rng.random() < 0.05:
            meta = {"role": "user", "content": "Stop hook feedback:\n" + sizes.words(30)}
            yield self._line("user", meta, isMeta=True)
        if rng.random() < 0.1:
            self.t += 1
            yield {
                "parentUuid": self.parent,
                **self.common,
                "type": "system",
                "subtype": "turn_duration",
                "durationMs": rng.randint(1000, 90_000),
                "uuid": _uuid(rng),
                "timestamp": _stamp(self.t),
                "isMeta": False,
            }

    def _subagent(self) -> Iterator[dict[str, Any]]:
        """A Task subagent's thread: its own chain (parentUuid from null), isSidechain true."""
        main_parent = self.parent
        agent = _token(self.rng, 8).lower()
        self.parent = None
        yield self._line("user", {"role": "user", "content": self.sizes.words(20)}, side=agent)
        for _ in range(self.rng.randint(1, 3)):
            block, out, ui = self._call()
            yield self._assistant(block, "msg_01" + _token(self.rng, 22), side=agent)
            yield self._result(block["id"], out, ui, False, side=agent)
        self.parent = main_parent

    def opening(self) -> Iterator[dict[str, Any]]:
        yield {
            "type": "queue-operation",
            "operation": "dequeue",
            "timestamp": _stamp(self.t),
            "sessionId": self.session,
        }

    def ending(self) -> Iterator[dict[str, Any]]:
        """The agent stopped with a call of the last response not answered yet."""
        block, _out, _ui = self._call()
        yield self._assistant(block, "msg_01" + _token(self.rng, 22))


# -- Codex ---------------------------------------------------------------------------------------


class _Codex:
    """Writes Codex rollout lines (the ``{timestamp, type, payload}`` envelope of Codex 0.155)."""

    def __init__(self, rng: random.Random, sizes: Sizes) -> None:
        self.rng = rng
        self.sizes = sizes
        self.t = 1_000_000.0
        self.session = _uuid(rng)

    def _line(self, kind: str, payload: dict[str, Any]) -> dict[str, Any]:
        self.t += self.rng.uniform(0.1, 3.0)
        return {"timestamp": _stamp(self.t), "type": kind, "payload": payload}

    def opening(self) -> Iterator[dict[str, Any]]:
        yield self._line(
            "session_meta",
            {
                "id": self.session,
                "timestamp": _stamp(self.t),
                "cwd": "/home/dev/project",
                "originator": "codex_cli_rs",
                "cli_version": "0.155.0",
                "model_provider": "openai",
                "git": {"branch": "main", "commit_hash": _token(self.rng, 40).lower()},
            },
        )

    def _call(self, turn: str) -> Iterator[dict[str, Any]]:
        rng, sizes = self.rng, self.sizes
        call_id = "call_" + _token(rng, 24)
        out = sizes.text(sizes.output())
        if rng.random() < 0.2:
            patch = (
                "*** Begin Patch\n*** Update File: src/mod.py\n@@\n"
                + "".join(f"+{line}\n" for line in sizes.text(sizes.output() // 2).splitlines())
                + "*** End Patch\n"
            )
            yield self._line(
                "response_item",
                {"type": "custom_tool_call", "name": "apply_patch", "call_id": call_id, "input": patch},
            )
            output = orjson.dumps(
                {
                    "output": "Success. Updated the following files:\nM src/mod.py\n",
                    "metadata": {"exit_code": 0},
                }
            ).decode()
            yield self._line(
                "response_item", {"type": "custom_tool_call_output", "call_id": call_id, "output": output}
            )
            return
        cmd = rng.choice(("rg -n 'def export' src", "sed -n '1,120p' src/mod.py", "pytest -q", "git diff"))
        arguments = orjson.dumps({"cmd": cmd, "workdir": "/home/dev/project"}).decode()
        yield self._line(
            "response_item",
            {"type": "function_call", "name": "exec_command", "call_id": call_id, "arguments": arguments},
        )
        yield self._line(
            "event_msg",
            {
                "type": "exec_command_end",
                "call_id": call_id,
                "turn_id": turn,
                "exit_code": 0,
                "duration": {"secs": rng.randint(0, 9), "nanos": rng.randint(0, 999_999_999)},
            },
        )
        yield self._line("response_item", {"type": "function_call_output", "call_id": call_id, "output": out})

    def turn(self) -> Iterator[dict[str, Any]]:
        rng, sizes = self.rng, self.sizes
        turn = _uuid(rng)
        prompt = sizes.words(rng.randint(6, 40))
        yield self._line(
            "event_msg", {"type": "task_started", "turn_id": turn, "model_context_window": 400_000}
        )
        yield self._line(
            "turn_context",
            {
                "turn_id": turn,
                "cwd": "/home/dev/project",
                "model": "gpt-5.1-codex",
                "effort": "high",
                "summary": "auto",
                "approval_policy": "on-request",
            },
        )
        yield self._line(
            "response_item",
            {"type": "message", "role": "user", "content": [{"type": "input_text", "text": prompt}]},
        )
        yield self._line("event_msg", {"type": "user_message", "message": prompt, "images": []})
        if rng.random() < 0.3:
            yield self._line(
                "response_item",
                {
                    "type": "ghost_snapshot",
                    "ghost_commit": {
                        "id": _token(rng, 40).lower(),
                        "parent": _token(rng, 40).lower(),
                        "preexisting_untracked_files": [],
                        "preexisting_untracked_dirs": [],
                    },
                },
            )
        for _step in range(rng.randint(1, 5)):
            yield self._line(
                "response_item",
                {
                    "type": "reasoning",
                    "summary": [{"type": "summary_text", "text": "**" + sizes.words(4) + "**"}],
                    "content": None,
                    "encrypted_content": "gAAAAA" + _token(rng, rng.randint(400, 1600)),
                },
            )
            if rng.random() < 0.4:
                yield self._line(
                    "response_item",
                    {
                        "type": "message",
                        "role": "assistant",
                        "phase": "commentary",
                        "content": [{"type": "output_text", "text": sizes.words(rng.randint(5, 30))}],
                    },
                )
            for _ in range(rng.choice((1, 1, 1, 2))):
                yield from self._call(turn)
            yield self._line(
                "event_msg",
                {
                    "type": "token_count",
                    "info": {
                        "total_token_usage": {
                            "input_tokens": rng.randint(1000, 90_000),
                            "output_tokens": rng.randint(10, 900),
                        }
                    },
                },
            )
        yield self._line(
            "response_item",
            {
                "type": "message",
                "role": "assistant",
                "content": [{"type": "output_text", "text": sizes.words(rng.randint(5, 60))}],
            },
        )

    def ending(self) -> Iterator[dict[str, Any]]:
        """The agent stopped with a call not answered yet."""
        yield self._line(
            "response_item",
            {
                "type": "function_call",
                "name": "exec_command",
                "call_id": "call_" + _token(self.rng, 24),
                "arguments": '{"cmd": "pytest -q"}',
            },
        )


def write(
    agent: str, path: Path, *, lines: int | None = None, mb: float | None = None, seed: int = 7
) -> Path:
    """Write a generated log of ``lines`` lines (short outputs) or about ``mb`` MB (realistic outputs)."""
    if (lines is None) == (mb is None):
        raise ValueError("give exactly one of lines and mb")
    rng = random.Random(seed)
    sizes = Sizes(rng, realistic=mb is not None)
    log = _Claude(rng, sizes) if agent == "claude-code" else _Codex(rng, sizes)
    target = int(mb * 1_000_000) if mb is not None else None
    written = count = 0
    dumps = orjson.dumps
    with path.open("wb") as out:
        buffer: list[bytes] = []
        for entry in log.opening():
            buffer.append(dumps(entry) + b"\n")
        count = len(buffer)
        while (lines is None or count < lines - 1) and (target is None or written < target):
            for entry in log.turn():
                data = dumps(entry) + b"\n"
                buffer.append(data)
                written += len(data)
                count += 1
                if lines is not None and count >= lines - 1:
                    break
            if len(buffer) > 2000:
                out.write(b"".join(buffer))
                buffer.clear()
        for entry in log.ending():
            buffer.append(dumps(entry) + b"\n")
        out.write(b"".join(buffer))
    return path


def main() -> None:
    """``agent_logs.py AGENT OUT (--lines N | --mb M) [--seed S]``."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("agent", choices=AGENTS)
    parser.add_argument("out", type=Path)
    size = parser.add_mutually_exclusive_group(required=True)
    size.add_argument("--lines", type=int)
    size.add_argument("--mb", type=float)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    write(args.agent, args.out, lines=args.lines, mb=args.mb, seed=args.seed)
    with args.out.open("rb") as fh:
        n = sum(1 for _ in fh)
    print(f"{args.out}: {args.out.stat().st_size / 1e6:.1f} MB, {n} lines")


if __name__ == "__main__":
    main()
