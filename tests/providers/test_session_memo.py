"""A renderer's walk of a session runs once per live session object and is forgotten with it."""

from __future__ import annotations

import gc

from builders import ai, call, human, session

from toolhist.model import Session
from toolhist.providers.session_memo import once_per_session


def test_a_walk_runs_once_per_session_object_and_goes_with_it() -> None:
    walks: list[int] = []

    @once_per_session
    def count(s: Session) -> int:
        walks.append(len(s.messages))
        return len(s.messages)

    first = session(human("go"), ai(call("a")))
    assert (count(first), count(first)) == (2, 2)
    assert walks == [2]
    equal = session(human("go"), ai(call("a")))  # equal, but another object: walked for itself
    assert count(equal) == 2
    assert walks == [2, 2]
    held = count.__closure__  # the memo's dict is the wrapper's only state
    assert held is not None
    kept = next(c.cell_contents for c in held if isinstance(c.cell_contents, dict))
    assert len(kept) == 2
    del first
    gc.collect()
    assert len(kept) == 1  # the dead session's answer went with it
