"""The traffic builder's cassette reader on go-vcr cassettes (charmbracelet/crush, issue 29).

go-vcr (``version: 2``) names the URL ``url``, not vcrpy's ``uri``, and its ``status`` is the text
(``200 OK``) beside a numeric ``code``: the shape of crush ``internal/agent/testdata/TestCoderAgent/*/*.yaml``.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any


def _reader() -> Any:
    """``scripts/corpus/cassettes.py`` (a script folder, not a package) loaded by its path."""
    spec = importlib.util.spec_from_file_location(
        "cassettes", Path(__file__).resolve().parents[2] / "scripts" / "corpus" / "cassettes.py"
    )
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("cassettes", module)  # its dataclass looks its module up there
    spec.loader.exec_module(module)
    return module.read_cassette


read_cassette = _reader()

GO_VCR = b"""---
version: 2
interactions:
- id: 0
  request:
    proto: HTTP/1.1
    body: '{"model":"deepseek-v4-pro-0813","messages":[{"role":"user","content":"hi"}]}'
    url: https://hyper.charm.land/v1/chat/completions
    method: POST
  response:
    body: '{"type":"error","error":{"type":"not_found_error","message":"model: x"}}'
    status: 404 Not Found
    code: 404
- id: 1
  request:
    body: '{"model":"glm-5.1","messages":[]}'
    url: https://hyper.charm.land/v1/chat/completions
    method: POST
  response:
    body: ok
    status: 200 OK
    code: 200
"""


def test_go_vcr_interactions_keep_their_url_status_and_body() -> None:
    got = read_cassette("internal/agent/testdata/TestCoderAgent/deepseek-v4/bash_tool.yaml", GO_VCR)
    assert [(i.index, i.method, i.uri, i.status) for i in got] == [
        (0, "POST", "https://hyper.charm.land/v1/chat/completions", 404),
        (1, "POST", "https://hyper.charm.land/v1/chat/completions", 200),
    ]
    assert got[0].request == {
        "model": "deepseek-v4-pro-0813",
        "messages": [{"role": "user", "content": "hi"}],
    }
    assert "not_found_error" in got[0].response_text


def test_vcrpy_status_still_wins_over_a_missing_code() -> None:
    vcrpy = b"interactions:\n- request: {method: POST, uri: 'https://api.anthropic.com/v1/messages', body: '{}'}\n  response: {status: {code: 400}, body: {string: bad}}\n"
    (only,) = read_cassette("c.yaml", vcrpy)
    assert (only.uri, only.status, only.response_text) == (
        "https://api.anthropic.com/v1/messages",
        400,
        "bad",
    )
