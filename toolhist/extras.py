"""toolhist's optional parts: which extra brings each, and the one line that says how to get it.

The core (``pip install toolhist``) is the library and the CLI: load, validate, curate, render,
explain, compact, migrate, the rules and the guard's checks. The rest is an extra of
``pyproject.toml`` (``[project.optional-dependencies]``), imported only where it is used:

- ``app``: the Streamlit inspector (streamlit, pandas, plotly, pyarrow, markdown-it-py);
- ``notebook``: the same tables and figures outside Streamlit, for ``toolhist report`` and
  ``toolhist.notebook`` (pandas, plotly, markdown-it-py);
- ``fleet``: ``toolhist scan`` and the Fleet page's scans (dask's distributed, fsspec, pandas, pyarrow);
- ``sdk``: the official SDKs ``toolhist.sdk`` and ``render --sdk`` hold bodies against;
- ``guard``: the HTTP client ``toolhist.guard.http_client`` returns (httpx2);
- ``pydantic-ai``, ``langchain``: the strategies that run those frameworks' own provider mappings;
- ``langgraph``: decoding a LangGraph checkpoint's msgpack (ormsgpack);
- ``inspect``: zstd for Inspect AI's ``.eval`` archives before Python 3.14 (like ``zed``, not listed
  below: the standard library has it from 3.14);
- ``s3``, ``gcs``, ``azure``: fsspec's filesystems for ``scan s3://…``, ``gs://…``, ``az://…``.

A part whose extra is missing says so in one line naming the extra (`ExtraMissing`, exit 2 in the
CLI; a notice on the app's page), never with a traceback. Whether a module is there is asked of the
import system without importing it (`missing`), so asking costs nothing on a page rerun.
"""

from __future__ import annotations

import html
import importlib.util
from collections.abc import Sequence

from toolhist.errors import ToolhistError

EXTRAS: dict[str, tuple[str, ...]] = {
    "app": ("streamlit", "pandas", "plotly", "pyarrow", "markdown_it", "tiktoken"),
    "notebook": ("pandas", "plotly", "markdown_it"),
    "fleet": ("distributed", "fsspec", "pandas", "pyarrow"),
    "sdk": ("openai", "anthropic", "google.genai", "mistralai", "botocore", "httpx2"),
    "guard": ("httpx2",),
    "pydantic-ai": ("pydantic_ai", "httpx2"),
    "langchain": ("langchain_core", "langchain_anthropic", "langchain_openai"),
    "langgraph": ("ormsgpack",),
    "s3": ("s3fs",),
    "gcs": ("gcsfs",),
    "azure": ("adlfs",),
}
"""Extra → the modules it brings that toolhist imports (``google.genai``, not ``google``: protobuf
alone makes a ``google`` namespace package). ``tests/test_extras.py`` holds this table to
pyproject.toml."""


def hint(extra: str) -> str:
    """The command that installs ``extra``: ``pip install 'toolhist[sdk]'``."""
    return f"pip install 'toolhist[{extra}]'"


def importable(module: str) -> bool:
    """Whether ``module`` (dotted) can be found, without importing it (its parent packages are)."""
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package is missing, or a half-imported module
        return False


def missing(extra: str, modules: Sequence[str] | None = None) -> list[str]:
    """The modules of ``extra`` (or just ``modules`` of it) that are not installed here."""
    return [m for m in (modules if modules is not None else EXTRAS[extra]) if not importable(m)]


class ExtraMissing(ToolhistError, ImportError):
    """A part of toolhist needs an extra that is not installed; the message names it and its install.

    An `ImportError` too, so ``except ImportError`` around an optional feature keeps working.
    """

    def __init__(self, what: str, extra: str, modules: Sequence[str]) -> None:
        super().__init__(message(what, extra, modules), name=modules[0] if modules else None)
        self.what = what
        self.extra = extra
        self.modules = tuple(modules)


def message(what: str, extra: str, modules: Sequence[str]) -> str:
    """``toolhist scan needs distributed, not installed here: pip install 'toolhist[fleet]'``."""
    names = ", ".join(modules) or f"the {extra} extra"
    return f"{what} needs {names}, not installed here: {hint(extra)}"


def require(what: str, extra: str, modules: Sequence[str] | None = None) -> None:
    """Raise `ExtraMissing` naming ``extra`` when any of its ``modules`` (default: all) is missing."""
    gone = missing(extra, modules)
    if gone:
        raise ExtraMissing(what, extra, gone)


PLAIN_CHARS = 2000
"""Characters of an object's text shown by `plain_html`."""


def plain_html(value: object) -> str | None:
    """Jupyter's view of ``value`` when the ``notebook`` extra is missing: its text and how to get more.

    None when the extra is installed (then ``toolhist.display`` draws the rich view). A
    ``_repr_html_`` that raised would print a traceback in the notebook instead of the object.
    """
    gone = missing("notebook")
    if not gone:
        return None
    text = repr(value)
    if len(text) > PLAIN_CHARS:  # a long session's repr runs to megabytes
        text = f"{text[:PLAIN_CHARS]}… ({len(text) - PLAIN_CHARS:,} more characters)"
    note = message("the rich view", "notebook", gone)
    return f"<pre>{html.escape(text)}</pre><p>{html.escape(note)}</p>"
