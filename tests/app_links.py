"""The app opened from a ``?path=`` link, as the AppTests of paths read by reference drive it."""

from __future__ import annotations

from pathlib import Path

from streamlit.testing.v1 import AppTest

from toolhist.views.inputs import Input

APP = str(Path(__file__).parents[1] / "app.py")


def linked(path: str | Path) -> AppTest:
    """Home run once with ``?path=path``."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["path"] = str(path)
    return at.run()


def verdicts_of(at: AppTest) -> list[dict[str, object]]:
    """The rows of the verdict table, first on Home."""
    frame = at.dataframe[0].value
    return [{str(k): v for k, v in r.items()} for r in frame.to_dict("records")]


def held(at: AppTest) -> Input:
    """The input the app holds for the session it opened."""
    found = at.session_state["toolhist.input"]
    assert isinstance(found, Input)
    return found
