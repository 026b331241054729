"""Pinned counts for the Kilo, Gemini CLI, VS Code and OTel samples and the failure-mode samples.

Same shape as ``tests/test_samples.py``: (file, format, messages, by speaker (system, human, ai,
tool), calls, results, unanswered ids, unmatched ids, tools declared). Counted from the files:

- Kilo XML era: 7 entries, every call and result is text, so no tool blocks at all.
- Kilo native: 8 entries; 3 ``tool_use`` answered by 3 ``tool_result`` user messages (tool).
- Kilo flattened then resumed: only the last call is a block; the earlier three are XML text.
- Gemini CLI: 7 records (one info record is UI-only); two gemini records with tool calls each add
  a tool message, the last gemini record has none: 2 + 4 ai + 3 tool.
- Gemini split: 8 contents + systemInstruction; the two results are two tool turns.
- VS Code: 3 prompts; request 0 has 2 rounds, request 1 (rejected) none, request 2 two rounds.
- OTel: the last chat span: system + 1 user + 2 assistant + 2 tool inputs + 1 output.
- Provider switch: the first copy of the read_file result comes before its call (unmatched).
"""

from __future__ import annotations

from typing import Any

EXPECTED: list[tuple[Any, ...]] = [
    ("kilo_xml_era.json", "kilo", 7, (0, 4, 3, 0), 0, 0, [], [], None),
    ("kilo_native_session.json", "kilo", 8, (0, 1, 4, 3), 3, 3, [], [], None),
    ("kilo_flattened_resumed.json", "kilo", 9, (0, 4, 4, 1), 1, 1, [], [], None),
    ("gemini_cli_session.jsonl", "gemini-cli", 9, (0, 2, 4, 3), 4, 4, [], [], None),
    ("gemini_parallel_split.json", "gemini", 9, (1, 3, 3, 2), 2, 2, [], [], 1),
    ("vscode_rejected_tool.json", "vscode", 9, (0, 3, 4, 2), 2, 2, [], [], None),
    ("otel_genai_support_agent.json", "otel-genai", 7, (1, 1, 3, 2), 2, 2, [], [], 2),
    (
        "provider_switch_duplicate_results.json",
        "openai-chat",
        8,
        (1, 2, 2, 3),
        2,
        3,
        [],
        ["call_7Rk2Lm9QwE4tY6uI1oP3aS5d"],
        None,
    ),
    ("kimi_ids_to_anthropic.json", "anthropic", 8, (1, 2, 3, 2), 2, 2, [], [], 2),
    ("mistral_ids_after_openai.json", "openai-chat", 10, (1, 3, 4, 2), 2, 2, [], [], 1),
    ("responses_missing_reasoning.json", "openai-responses", 6, (1, 1, 2, 2), 2, 2, [], [], 2),
]
