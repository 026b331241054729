"""The guard a LiteLLM proxy loads from its config: ``callbacks: toolhist.guard.litellm_proxy.guard``.

The proxy imports a callback by its dotted name, so the instance is made at import, from the
environment: ``TOOLHIST_GUARD_MODE`` (``warn``, ``repair`` or ``raise``; default ``warn``) and
``TOOLHIST_GUARD_CAPTURE`` (the bundle folder; unset: no bundles).
"""

from __future__ import annotations

import os

from toolhist.guard.core import MODES
from toolhist.guard.litellm import ToolhistGuard

_mode = os.environ.get("TOOLHIST_GUARD_MODE", "warn")
if _mode not in MODES:
    raise ValueError(f"TOOLHIST_GUARD_MODE={_mode!r}; choose one of: {', '.join(MODES)}")

guard = ToolhistGuard(mode=_mode, capture=os.environ.get("TOOLHIST_GUARD_CAPTURE") or None)
"""The proxy's callback."""
