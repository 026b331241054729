"""The ledger: every request `toolhist verify` sent, toolhist's prediction beside the provider's answer.

One JSON object per line in ``verify.jsonl`` under ``$XDG_DATA_HOME/toolhist/ledger/`` (``~/.local/share``
when unset, ``%LOCALAPPDATA%`` on Windows; ``TOOLHIST_LEDGER`` names another file). JSON Lines and not
SQLite: a row is appended with one write and never changed, a person can read it, and a line that
cannot be read costs that line only (`read` names it and goes on). A row (format version 1):

- ``ledger`` (1), ``time`` (UTC), ``toolhist_version``;
- ``file``, ``format``, ``judged``: what was read and how it was judged;
- ``provider``, ``strategy``, ``model``, ``route`` (``generate`` or ``count_tokens``), ``url``,
  ``base`` (the variable that moved the base URL, or ``default``), ``transport``, ``cost`` (the fields
  set for the least cost);
- ``request``: ``bytes``, ``tokens`` (estimated) and the history's ``shape`` (`toolhist.verify.shape`:
  messages, tool calls, tool results, hash);
- ``predicted``: ``errors`` and ``warnings`` (rule ids) and ``violations`` (rule, severity, payload path);
- ``answer``: ``status``, ``error_type``, ``error_text`` (redacted), ``rule`` (the rule the text is,
  by `toolhist.explain`);
- ``outcome`` (`Outcome`).

`export` keeps structure only, for a bug report about a wrong verdict: no file name, URL, message
text, error text, id or key, each field copied by name (never by leaving fields out).
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

from toolhist.verify.plan import Plan
from toolhist.verify.send import Answer

VERSION = 1
FILE_NAME = "verify.jsonl"

Outcome = Literal["confirmed", "false-alarm", "missed", "other-rule", "inconclusive"]
"""How the answer compares with the prediction:

- ``confirmed``: accepted as predicted, or rejected for a rule toolhist predicted;
- ``false-alarm``: toolhist predicted an error, the provider accepted the request;
- ``missed``: rejected for a known rule toolhist did not predict at error level, with no error predicted;
- ``other-rule``: rejected for a known rule, toolhist predicted errors, none of them that one;
- ``inconclusive``: the answer says nothing about the history (authentication, model name, quota,
  a server error, or a 4xx whose text is no rule toolhist knows)."""

MEANING: dict[str, str] = {
    "confirmed": "the provider's answer is toolhist's prediction",
    "false-alarm": "toolhist predicted a 400 and the provider accepted the request: a wrong verdict",
    "missed": "the provider rejected the history for a rule toolhist did not predict: a wrong verdict",
    "other-rule": "the provider rejected the history, for another rule than toolhist predicted",
    "inconclusive": "the answer says nothing about the history (authentication, model, quota, server, "
    "or a text toolhist does not know)",
}


def ledger_path(environ: Mapping[str, str] | None = None) -> Path:
    """The ledger file (whether or not it exists yet)."""
    env = os.environ if environ is None else environ
    if env.get("TOOLHIST_LEDGER"):
        return Path(env["TOOLHIST_LEDGER"])
    if os.name == "nt" and env.get("LOCALAPPDATA"):
        return Path(env["LOCALAPPDATA"]) / "toolhist" / "ledger" / FILE_NAME
    data = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "toolhist" / "ledger" / FILE_NAME


def outcome(predicted_errors: Sequence[str], status: int, rule: str | None) -> Outcome:
    """How an answer (``status``, the ``rule`` its text is) compares with the errors predicted."""
    if 200 <= status < 300:
        return "false-alarm" if predicted_errors else "confirmed"
    if not 400 <= status < 500 or rule is None:
        return "inconclusive"
    if rule in predicted_errors:
        return "confirmed"
    return "other-rule" if predicted_errors else "missed"


def row(plan: Plan, answer: Answer, *, now: dt.datetime | None = None) -> dict[str, Any]:
    """The ledger row of one send."""
    from toolhist import __version__
    from toolhist.explain import explain

    rule = explain(answer.text).rule if answer.text else None
    errors = list(plan.predicted_errors)
    when = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC)
    shape = plan.shape
    return {
        "ledger": VERSION,
        "time": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "toolhist_version": __version__,
        "file": plan.file,
        "format": plan.format,
        "judged": plan.judged,
        "provider": plan.provider,
        "strategy": plan.strategy,
        "model": plan.model,
        "route": plan.route,
        "url": plan.url,
        "base": plan.base_var or "default",
        "transport": plan.transport,
        "cost": dict(plan.cost),
        "request": {
            "bytes": len(plan.data),
            "tokens": plan.tokens,
            "shape": None
            if shape is None
            else {
                "messages": shape.messages,
                "tool_calls": shape.tool_calls,
                "tool_results": shape.tool_results,
                "hash": shape.hash,
            },
        },
        "predicted": {
            "errors": errors,
            "warnings": list(plan.predicted_warnings),
            "violations": [{"rule": v.rule, "severity": v.severity, "path": v.path} for v in plan.predicted],
        },
        "answer": {
            "status": answer.status,
            "error_type": answer.error_type,
            "error_text": answer.text,
            "rule": rule,
        },
        "outcome": outcome(errors, answer.status, rule),
    }


def append(entry: Mapping[str, Any], path: Path | None = None) -> Path:
    """Add ``entry`` as the ledger's last line (one write; the folder is made if needed)."""
    target = path or ledger_path()
    target.parent.mkdir(parents=True, exist_ok=True)
    line = json.dumps(entry, ensure_ascii=False, separators=(",", ":")) + "\n"
    with target.open("a", encoding="utf-8") as out:
        out.write(line)
    return target


def read(path: Path | None = None) -> tuple[list[dict[str, Any]], list[str]]:
    """Every row of the ledger (none when it does not exist) and a line per unreadable line."""
    source = path or ledger_path()
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [], []
    rows: list[dict[str, Any]] = []
    bad: list[str] = []
    for n, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            bad.append(f"{source}:{n}: not JSON ({exc.msg}); skipped")
            continue
        if not isinstance(value, dict) or value.get("ledger") != VERSION:
            bad.append(f"{source}:{n}: not a toolhist ledger row (version {VERSION}); skipped")
            continue
        rows.append(value)
    return rows, bad


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _copy(source: Any, keys: Sequence[str]) -> dict[str, Any]:
    found = _mapping(source)
    return {key: found.get(key) for key in keys}


def export_row(entry: Mapping[str, Any]) -> dict[str, Any]:
    """One row, structure only: rule ids, statuses, provider, model, counts and the shape hash."""
    predicted = _mapping(entry.get("predicted"))
    request = _mapping(entry.get("request"))
    return {
        **_copy(entry, ("time", "toolhist_version", "format", "judged", "provider", "strategy", "model")),
        **_copy(entry, ("route", "transport", "cost", "outcome")),
        "base": "default" if entry.get("base") == "default" else "moved",
        "request": {
            **_copy(request, ("bytes", "tokens")),
            "shape": _copy(request.get("shape"), ("messages", "tool_calls", "tool_results", "hash")),
        },
        "predicted": {
            "errors": list(predicted.get("errors") or []),
            "warnings": list(predicted.get("warnings") or []),
            "violations": [_copy(v, ("rule", "severity", "path")) for v in predicted.get("violations") or []],
        },
        "answer": _copy(entry.get("answer"), ("status", "error_type", "rule")),
    }


def export(rows: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """The export file's object: rows as `export_row` keeps them, and what it leaves out."""
    from toolhist import __version__

    return {
        "toolhist_ledger_export": VERSION,
        "toolhist_version": __version__,
        "leaves_out": "file names, URLs, message text, error text, ids and keys",
        "rows": [export_row(r) for r in rows],
    }
