"""Markdown from a session as HTML that fetches nothing and runs nothing.

Agent logs carry what the model and its tools read: fetched web pages, README files, issue threads.
A transcript renders the model's and the user's Markdown (headings, lists, code, tables) so it reads
as a conversation, but every construct that would make the browser reach out or run something is
shown as text instead:

- raw HTML (``<img src=…>``, ``<script>``, ``<iframe>``) is not parsed as HTML: markdown-it's
  ``html`` option is off, so it comes out escaped, as written;
- an image (``![alt](url)``) becomes the text ``[image: alt · url]``: no ``<img>`` is emitted, so
  nothing is fetched (a remote image in a transcript is a tracking beacon);
- a link (``[text](url)``, ``<https://…>``, a reference link) becomes its text followed by the URL
  as text: no ``<a href>``, so nothing can be prefetched or clicked through by accident;
- everything else (text, code spans and fences, info strings) is escaped by markdown-it's renderer.

Uses markdown-it-py (executablebooks/markdown-it-py, the CommonMark preset), imported when first
needed so the modules that import this one stay light. Text past `MARKDOWN_CHARS` is shown as
preformatted text: parsing a 2 MB tool output as Markdown would cost seconds and read no better.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:  # pragma: no cover - typing only
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

MARKDOWN_CHARS: Final = 60_000
"""Longer text is shown preformatted instead of parsed as Markdown."""


def _escape(value: object) -> str:
    return html.escape("" if value is None else str(value))


def _image(_renderer: Any, tokens: Sequence[Token], idx: int, _options: Any, _env: Any) -> str:
    token = tokens[idx]
    alt = "".join(child.content for child in token.children or ())
    return f'<span class="th-md-img">[image: {_escape(alt)} · {_escape(token.attrGet("src"))}]</span>'


def _link_open(_renderer: Any, tokens: Sequence[Token], idx: int, _options: Any, env: Any) -> str:
    token = tokens[idx]
    # an autolink's text is its URL already: say it once
    env.setdefault("th_links", []).append("" if token.markup == "autolink" else token.attrGet("href"))
    return '<span class="th-md-link">'


def _link_close(_renderer: Any, _tokens: Sequence[Token], _idx: int, _options: Any, env: Any) -> str:
    stack = env.get("th_links") or [""]
    href = stack.pop()
    return "</span>" + (f' <span class="th-md-url">({_escape(href)})</span>' if href else "")


@cache
def _parser() -> MarkdownIt:
    """The CommonMark parser with HTML off and images and links rendered as text (built once)."""
    from markdown_it import MarkdownIt

    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.add_render_rule("image", _image)
    md.add_render_rule("link_open", _link_open)
    md.add_render_rule("link_close", _link_close)
    return md


def markdown_html(text: str) -> str:
    """``text`` rendered as Markdown, safely (see the module docstring); long text preformatted."""
    if len(text) > MARKDOWN_CHARS:
        return f'<pre class="th-pre">{_escape(text)}</pre>'
    rendered: str = _parser().render(text, {})
    return rendered
