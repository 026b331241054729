"""The home page on every malformed case: one error box with the exact location, never an exception.

Each case is opened through the Path source (the app reads the file itself, as for a user's log);
``FORMAT.case.json`` files are opened with that format chosen in the sidebar. A few small cases
also go through the Paste source.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from malformed_cases import ALL, CORPUS, EXPECTED, forced_format, materialise
from streamlit.testing.v1 import AppTest

from toolhist.readers import FORMATS

APP = str(Path(__file__).parent.parent.parent / "app.py")


@pytest.fixture(scope="module")
def big_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("malformed_app")


def opened(source: str) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    at.segmented_control(key="source").set_value(source).run()
    return at


FORMAT_HINT = "\nTo read it as one format, choose that reader in the Format box (sidebar of Home)."


def with_hint(text: str, forced: str | None) -> str:
    """The CLI's text, and the app's pointer to the Format box when detection found no reader."""
    unknown = "unknown format" in text or "ambiguous format" in text
    return text + FORMAT_HINT if forced is None and unknown else text


@pytest.mark.parametrize("name", ALL)
def test_path_source_shows_one_error_box(name: str, big_dir: Path) -> None:
    path = materialise(name, big_dir)
    at = opened("Path")
    fmt = forced_format(name)
    if fmt is not None:
        at.sidebar.selectbox(key="format").set_value(fmt).run()
    at.text_input(key="path").input(str(path)).run()
    assert not at.exception
    assert [e.value for e in at.error] == ["This input cannot be read as a session."]
    want = with_hint(EXPECTED[name].format(file=path, formats=", ".join(FORMATS)), fmt)
    # a path is read by reference, as the CLI reads it: the same words as `toolhist check`
    assert [c.value for c in at.code] == [want]
    assert not at.metric  # nothing of a session is shown


@pytest.mark.parametrize(
    "name",
    ["truncated_object.json", "nan.json", "duplicate_keys.json", "unknown_role.json", "whitespace.json"],
)
def test_paste_source_shows_one_error_box(name: str) -> None:
    at = opened("Paste")
    at.text_area(key="paste").input((CORPUS / name).read_text(encoding="utf-8")).run()
    assert not at.exception
    if not (CORPUS / name).read_text(encoding="utf-8").strip():
        assert not at.error  # nothing pasted yet: the page asks for input instead
        assert [i.value for i in at.info] == ["Choose a sample, upload a file, paste JSON or give a path."]
        return
    assert [e.value for e in at.error] == ["This input cannot be read as a session."]
    want = with_hint(EXPECTED[name].format(file="<pasted text>", formats=", ".join(FORMATS)), None)
    assert [c.value for c in at.code] == [want]
