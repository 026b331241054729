"""A fixed list of generated broken histories (`history_gen.broken_sessions`), the same on every run."""

from __future__ import annotations

import gzip
import json
import sys
from functools import cache
from pathlib import Path

from toolhist.model import Session

HERE = Path(__file__).resolve().parent
STORED = HERE / "generated_histories.json.gz"
"""The draw, kept: ``python tests/peers/histories.py 300`` writes it again (after a change to
`history_gen`). Kept rather than drawn in each run because hypothesis also mixes constants of the
code imported so far into what it draws: in the test process the draw depended on which tests had
run before (CI saw histories 164-169 of 300 differ from a run of this file alone), and in a fresh
interpreter it moves with any change to toolhist's own strings."""


@cache
def generated(count: int) -> tuple[Session, ...]:
    """The first ``count`` of the stored histories (drawn by `draw`), the same on every run."""
    values = json.loads(gzip.decompress(STORED.read_bytes()))
    assert count <= len(values), f"{STORED.name} holds {len(values)} histories; draw more with `draw`"
    return tuple(Session.model_validate(value) for value in values[:count])


def draw(count: int) -> list[object]:
    """The draw itself (run by `generated` in its own interpreter), as JSON values."""
    from history_gen import broken_sessions
    from hypothesis import HealthCheck, given, settings

    drawn: list[Session] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(broken_sessions())
    def pick(session: Session) -> None:
        if len(drawn) < count:
            drawn.append(session)

    pick()
    return [session.model_dump(mode="json") for session in drawn]


if __name__ == "__main__":
    sys.path[:0] = [str(HERE), str(HERE.parent)]
    drawn = draw(int(sys.argv[1]))
    STORED.write_bytes(gzip.compress(json.dumps(drawn, separators=(",", ":")).encode(), mtime=0))
    print(f"wrote {len(drawn)} histories to {STORED}")
