"""A fixed list of generated broken histories (`history_gen.broken_sessions`), the same on every run."""

from __future__ import annotations

from functools import cache

from history_gen import broken_sessions
from hypothesis import HealthCheck, given, settings

from toolhist.model import Session


@cache
def generated(count: int) -> tuple[Session, ...]:
    """``count`` histories drawn with hypothesis's derandomised search (deterministic across runs)."""
    drawn: list[Session] = []

    @settings(
        max_examples=count,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(broken_sessions())
    def draw(session: Session) -> None:
        if len(drawn) < count:
            drawn.append(session)

    draw()
    return tuple(drawn)
