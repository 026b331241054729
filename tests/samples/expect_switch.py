"""Pinned counts for the switch what-if sample (``toolhist switch``, seed 000's "switch, then back").

Same shape as ``tests/test_samples.py``. ``switch_back_thinking.json``: an Anthropic body with thinking
on, 9 messages (3 user texts, 4 assistant turns, 2 tool_result user messages), 2 tools declared.
"""

from __future__ import annotations

from typing import Any

EXPECTED: list[tuple[Any, ...]] = [
    ("switch_back_thinking.json", "anthropic", 9, (0, 3, 4, 2), 2, 2, [], [], 2),
]
