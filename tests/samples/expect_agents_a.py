"""Pinned counts for the agent-log samples (llxprt debug, llxprt checkpoint, Claude Code, Codex).

Same shape as ``tests/test_samples.py``: (file, format, messages, by speaker (system, human, ai,
tool), calls, results, unanswered ids, unmatched ids, tools declared). Hand-counted from the files:

- llxprt debug: 9 HistoryService entries; the late ``read_file`` result (line 15) has no call.
- llxprt checkpoint: 7 Gemini contents; the cancelled shell call sits in a user turn with its
  response (failure mode A), so it is paired but in the wrong place.
- Claude Code: the thread after the compaction: summary, the surviving Bash result (its tool_use
  was summarised away), then two assistant responses each split over lines and merged.
- Codex: the interrupted ``cargo test`` call was never answered in the rollout; Codex answers it
  ``"aborted"`` before sending (``ensure_call_outputs_present``), so the session has 3 results.
"""

from __future__ import annotations

from typing import Any

EXPECTED: list[tuple[Any, ...]] = [
    (
        "llxprt_debug_provider_switch.jsonl",
        "llxprt-debug",
        9,
        (0, 3, 3, 3),
        3,
        4,
        [],
        ["hist_tool_Pq7rS9tU1vW3xY5z"],
        None,
    ),
    ("llxprt_checkpoint_cancelled_shell.json", "llxprt-checkpoint", 7, (0, 2, 3, 2), 2, 2, [], [], None),
    (
        "claude_code_compacted_result.jsonl",
        "claude-code",
        7,
        (0, 1, 3, 3),
        2,
        3,
        [],
        ["toolu_01Bash5tY7uI9oP1aS3dF5gH"],
        None,
    ),
    (
        "codex_rollout_interrupted.jsonl",
        "codex",
        9,
        (0, 3, 3, 3),
        3,
        3,
        [],
        [],
        None,
    ),
]
