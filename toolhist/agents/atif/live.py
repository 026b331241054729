"""Harbor's live ATIF objects: its pydantic ``Trajectory`` model.

Harbor (laude-institute/harbor, ``src/harbor/models/trajectories/``) builds trajectories as pydantic
models and writes ``trajectory.json`` with ``model_dump``; dumping the live model the same way gives
the JSON the reader reads. Harbor declares Python 3.12, above toolhist's floor, and brings LiteLLM,
FastAPI and more, so toolhist never imports it: the tests make real ``Trajectory`` objects in an
environment of Harbor's own (tests/corpus/producers/harbor_live.py).
"""

from __future__ import annotations

from typing import Any

from toolhist.agents.spec import Live


def dump(value: Any) -> Any:
    """``value`` (a ``Trajectory``) as the JSON Harbor writes; its steps alone name no schema version."""
    model_dump = getattr(value, "model_dump", None)
    return model_dump(mode="json", exclude_none=True) if callable(model_dump) else value


LIVE = Live(modules=("harbor",), dump=dump, format="atif")
