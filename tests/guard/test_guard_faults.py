"""The guard never changes what the user's call returns or raises, whatever fails inside toolhist.

Each fault is made real where the machine can make it (a capture folder under a regular file, a
file-size limit that stops the bundle half-written as a full disk does, a folder the process may
not write) and injected at toolhist's own seams where it stands for input or a bug (a reader that
refuses the body, a check, repair or capture that raises). For every client the guard wraps, the
same call is made twice against the fake provider on 127.0.0.1: through the SDK's own client, and
guarded while the fault happens. Both must see the same answer or the same exception, the provider
must receive the same body, toolhist must say what failed in exactly one log record, and no partial
file may be left in the capture folder.
"""

from __future__ import annotations

import logging
import os
import resource
import signal
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from fake_provider import serve
from guard_calls import CHAT
from guard_clients import CLIENTS, broken, observe, sound

import toolhist.curation
import toolhist.readers
from toolhist.errors import LoadError
from toolhist.guard import bundle as bundles
from toolhist.guard import core

NOBODY = 65534


@contextmanager
def file_size_limit(limit: int) -> Iterator[None]:
    """Writes past ``limit`` bytes fail with EFBIG, part written, as on a full disk."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, previous)


@contextmanager
def unprivileged() -> Iterator[None]:
    """Run as an ordinary user (root writes anywhere; a permission test needs someone who cannot)."""
    if os.geteuid() != 0:
        yield
        return
    os.seteuid(NOBODY)
    try:
        yield
    finally:
        os.seteuid(0)


def _raise(exc: BaseException) -> Callable[..., Any]:
    def fail(*args: Any, **kwargs: Any) -> Any:
        raise exc

    return fail


@dataclass(frozen=True)
class Fault:
    """One thing that goes wrong inside toolhist while the user's call is made."""

    mode: core.Mode
    body: Callable[[str], dict[str, Any]]
    said: str
    """What the one log record says toolhist could not do."""
    keep_last: int = 0


FAULTS: dict[str, Fault] = {
    "capture-under-a-file": Fault("warn", broken, "could not write the bundle"),
    "capture-under-a-file-keep-last": Fault("warn", sound, "could not write the bundle", keep_last=2),
    "disk-full": Fault("warn", broken, "could not write the bundle"),
    "disk-full-keep-last": Fault("warn", sound, "could not write the bundle", keep_last=2),
    "no-permission": Fault("warn", broken, "could not write the bundle"),
    "unreadable-body-repair": Fault("repair", broken, "could not repair"),
    "unreadable-body-raise": Fault("raise", broken, "could not read the request as"),
    "bug-in-check": Fault("raise", broken, "could not check"),
    "bug-in-repair": Fault("repair", broken, "could not repair"),
    "bug-in-capture": Fault("warn", broken, "could not write the bundle"),
}


def _arrange(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> tuple[Path, AbstractContextManager[None]]:
    """The capture folder for fault ``name``, and what to hold around the guarded call."""
    capture = tmp_path / "bundles"
    if name.startswith("capture-under-a-file"):
        (tmp_path / "file").write_text("a regular file")
        return tmp_path / "file" / "bundles", nullcontext()
    if name.startswith("disk-full"):
        capture.mkdir()
        return capture, file_size_limit(256)
    if name == "no-permission":
        locked = tmp_path / "locked"
        locked.mkdir(mode=0o555)
        return locked / "bundles", unprivileged()
    if name.startswith("unreadable-body"):
        refused = LoadError("not a valid session: a shape this reader does not know", json_path="messages[1]")
        monkeypatch.setattr(toolhist.readers, "load", _raise(refused))
    elif name == "bug-in-check":
        monkeypatch.setattr(core, "validate_payload", _raise(RuntimeError("a bug in the check")))
    elif name == "bug-in-repair":
        monkeypatch.setattr(toolhist.curation, "curate", _raise(RuntimeError("a bug in the repair")))
    elif name == "bug-in-capture":
        monkeypatch.setattr(bundles, "build", _raise(RuntimeError("a bug in the capture")))
    return capture, nullcontext()


def _files(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir()) if folder.is_dir() else []


def _said(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.getMessage().startswith("toolhist guard:")]


@pytest.mark.parametrize("client", CLIENTS)
@pytest.mark.parametrize("fault", FAULTS)
def test_a_fault_inside_toolhist_leaves_the_call_as_it_was(
    fault: str, client: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    case = FAULTS[fault]
    provider = CLIENTS[client]
    body = case.body(provider)
    with serve(mistral=provider == "mistral") as (base, recorder):
        unguarded = observe(client, base, body, None)
        sent_unguarded = [c[1:] for c in recorder.calls]
        recorder.calls.clear()
        capture, around = _arrange(fault, tmp_path, monkeypatch)
        before = _files(capture)
        if fault == "disk-full-keep-last":  # two earlier captures that a failed one must not rotate away
            for n in (1, 2):
                (capture / f"2026010{n}T000000000-{provider}-200{bundles.SUFFIX}").write_text("{}")
            before = _files(capture)
        options = {"mode": case.mode, "capture": capture, "keep_last": case.keep_last}
        with caplog.at_level(logging.WARNING, "toolhist.guard"), around:
            guarded = observe(client, base, body, options)
    assert guarded == unguarded
    assert [c[1:] for c in recorder.calls] == sent_unguarded
    said = _said(caplog)
    assert len(said) == 1, said
    assert case.said in said[0]
    assert said[0].endswith("the request went ahead as the SDK built it")
    after = _files(capture)
    if case.said == "could not write the bundle":
        assert after == before  # no bundle, no partial file, nothing rotated away
    else:  # the capture still works: the provider's 400 is kept, whole
        [new] = [f for f in after if f not in before]
        assert new.endswith(f"-{provider}-400{bundles.SUFFIX}")


# Bodies toolhist reads differently from the provider, sent by the openai SDK (which passes any dict).

CUSTOM_CALL: dict[str, Any] = {
    **CHAT,
    "messages": [
        CHAT["messages"][0],
        {
            "role": "assistant",
            "content": None,
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "custom",
                    "custom": {"name": "apply_patch", "input": "*** Begin Patch"},
                }
            ],
        },
        CHAT["messages"][2],
    ],
}
"""GPT-5's freeform tool call in Chat Completions, left unanswered: toolhist's reader does not take it."""

LEGACY_FUNCTION_CALL: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [
        {"role": "user", "content": "Weather in Paris?"},
        {
            "role": "assistant",
            "content": None,
            "function_call": {"name": "weather", "arguments": '{"city":"Paris"}'},
        },
        {"role": "function", "name": "weather", "content": "sunny"},
    ],
}
"""The legacy ``function_call`` message: OpenAI accepts ``content: null`` beside it."""

NUMBER_MESSAGE: dict[str, Any] = {**CHAT, "messages": [7, *CHAT["messages"][1:]]}
"""A shape no reader knows; the provider answers it with its own 400."""


@pytest.mark.parametrize("client", ["openai", "openai-async"])
@pytest.mark.parametrize(
    ("name", "body", "mode", "said"),
    [
        ("custom-tool-call-repair", CUSTOM_CALL, "repair", "could not repair"),
        ("legacy-function-call-raise", LEGACY_FUNCTION_CALL, "raise", None),
        ("number-message-raise", NUMBER_MESSAGE, "raise", "could not read the request as openai-chat"),
        ("number-message-repair", NUMBER_MESSAGE, "repair", "could not repair"),
    ],
)
def test_a_body_toolhist_reads_otherwise_is_sent_as_given(
    client: str,
    name: str,
    body: dict[str, Any],
    mode: core.Mode,
    said: str | None,
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    with serve() as (base, recorder):
        unguarded = observe(client, base, body, None)
        sent_unguarded = [c[1:] for c in recorder.calls]
        recorder.calls.clear()
        with caplog.at_level(logging.WARNING, "toolhist.guard"):
            guarded = observe(client, base, body, {"mode": mode, "capture": tmp_path})
    assert guarded == unguarded
    assert [c[1:] for c in recorder.calls] == sent_unguarded
    assert (
        _said(caplog) == []
        if said is None
        else [m for m in _said(caplog) if said in m] == _said(caplog) != []
    )
    if name == "legacy-function-call-raise":
        assert guarded[0] == "returned"  # the provider accepted it, and so did the guard


def test_a_capture_is_whole_or_absent(tmp_path: Path) -> None:
    """A write stopped half-way leaves nothing; one that succeeds is the whole bundle under its name."""
    made = bundles.build(
        provider="openai-chat",
        endpoint="http://127.0.0.1/v1/chat/completions",
        method="POST",
        sdk="openai 0",
        mode="warn",
        body={"messages": [{"role": "user", "content": "x" * 4096}]},
        headers={},
        status=400,
        response={"error": {"message": "no"}},
        stream_error=False,
        violations=[],
        changes=[],
    )
    with file_size_limit(1024), pytest.raises(OSError, match="File too large"):
        bundles.write(tmp_path, made)
    assert _files(tmp_path) == []
    path = bundles.write(tmp_path, made)
    assert _files(tmp_path) == [path.name]
    second = bundles.write(tmp_path, made)  # the same second: a name of its own, never overwritten
    assert second != path
    assert len(_files(tmp_path)) == 2


def test_keep_last_rotates_only_accepted_requests(tmp_path: Path) -> None:
    """Every refused request is kept; ``keep_last`` bounds the accepted ones around it."""

    def made(status: int, stream_error: bool = False) -> dict[str, Any]:
        return bundles.build(
            provider="anthropic",
            endpoint="http://127.0.0.1/v1/messages",
            method="POST",
            sdk="anthropic 0",
            mode="warn",
            body={"messages": []},
            headers={},
            status=status,
            response={},
            stream_error=stream_error,
            violations=[],
            changes=[],
        )

    written = [
        bundles.write(tmp_path, made(status, error), keep_last=2)
        for status, error in [
            (200, False),
            (400, False),
            (200, False),
            (200, True),
            (200, False),
            (200, False),
        ]
    ]
    kept = sorted(p.name for p in tmp_path.iterdir())
    assert kept == sorted(p.name for p in [written[1], written[3], written[4], written[5]])
    assert written[3].name.endswith(f"-anthropic-200-stream-error{bundles.SUFFIX}")
