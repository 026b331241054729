"""A capture server on 127.0.0.1 for the frameworks' own provider mappings (`toolhist.agents.langchain.send`).

A framework's chat model is pointed at it (its ``base_url``); it records each POST's path and JSON
body and answers HTTP 400 with a provider-shaped error, so the framework raises instead of
retrying and nothing leaves the machine. One server per process, started on first use, bound to
the loopback address only; a lock keeps concurrent captures apart.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

_SEEN: list[tuple[str, Any]] = []
_LOCK = threading.Lock()
_SERVER: list[ThreadingHTTPServer] = []
"""The one running server (empty until the first capture)."""


class _Handler(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        raw = self.rfile.read(length)
        try:
            body: Any = json.loads(raw or b"null")
        except ValueError:
            body = None
        _SEEN.append((self.path, body))
        data = json.dumps(
            {"error": {"type": "invalid_request_error", "message": "captured by toolhist"}}
        ).encode()
        self.send_response(400)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return


def _base() -> str:
    if not _SERVER:
        _SERVER.append(ThreadingHTTPServer(("127.0.0.1", 0), _Handler))
        threading.Thread(target=_SERVER[0].serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{_SERVER[0].server_address[1]}"


@contextmanager
def capturing() -> Iterator[tuple[str, list[tuple[str, Any]]]]:
    """(the server's base URL, the requests it receives meanwhile), one capture at a time."""
    with _LOCK:
        base = _base()
        del _SEEN[:]
        got: list[tuple[str, Any]] = []
        try:
            yield base, got
        finally:
            got.extend(_SEEN)
            del _SEEN[:]
