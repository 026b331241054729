"""Harbor's live ATIF objects: its pydantic ``Trajectory`` model.

Harbor (laude-institute/harbor, ``src/harbor/models/trajectories/``) builds trajectories as pydantic
models and writes ``trajectory.json`` with ``model_dump``; dumping the live model the same way gives
the JSON the reader reads. Harbor needs Python 3.12, above toolhist's floor, so it is never imported.
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def dump(value: Any) -> Any:
    """``value`` (a ``Trajectory``) as the JSON Harbor writes; its steps alone name no schema version."""
    model_dump = getattr(value, "model_dump", None)
    return model_dump(mode="json", exclude_none=True) if callable(model_dump) else value


LIVE = Live(modules=("harbor",), dump=dump, format="atif")
