"""``toolhist migrate``: XML-era Kilo histories back to native blocks (seed 003's missing fix)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from test_cli import run

import toolhist
from toolhist.ids import canonical_id
from toolhist.migrate import INTERRUPTED, Issue, migrate, migrate_file
from toolhist.providers import PROVIDERS, validate

SAMPLES = Path(__file__).parent.parent / "sample_logs"
ENV = {"type": "text", "text": "<environment_details>\nx\n</environment_details>"}


def _user(*texts: str) -> dict[str, Any]:
    return {"role": "user", "content": [{"type": "text", "text": t} for t in texts], "ts": 1}


def _ai(text: str) -> dict[str, Any]:
    return {"role": "assistant", "content": [{"type": "text", "text": text}], "ts": 2}


def _errors(session: toolhist.Session, provider: str) -> set[str]:
    return {v.rule for v in validate(session, provider) if v.severity == "error"}


def test_xml_era_sample_migrates_clean_for_anthropic_and_openai(tmp_path: Path) -> None:
    out = tmp_path / "native.json"
    done = run("migrate", str(SAMPLES / "kilo_xml_era.json"), "--to", "native", "-o", str(out))
    assert done.returncode == 0, done.stderr
    assert (
        done.stdout
        == f"{SAMPLES / 'kilo_xml_era.json'}: 3 call(s) and 3 result(s) restored as native blocks -> {out}\n"
    )
    session = toolhist.load(out)
    assert session.source.format == "kilo"
    assert session.metadata["tool_style"] == "json"
    assert session.metadata["migration"] == {"to": "native", "version": 1}
    assert (_errors(session, "anthropic"), _errors(session, "openai-chat")) == (set(), set())
    assert sum(len(list(m.tool_calls())) for m in session.messages) == 3


def test_migrating_twice_is_byte_identical(tmp_path: Path) -> None:
    for name in ("kilo_xml_era.json", "kilo_flattened_resumed.json", "kilo_native_session.json"):
        once, twice = tmp_path / f"1-{name}", tmp_path / f"2-{name}"
        assert run("migrate", str(SAMPLES / name), "--to", "native", "-o", str(once)).returncode == 0
        again = run("migrate", str(once), "--to", "native", "-o", str(twice))
        assert again.returncode == 0
        assert (
            again.stdout.splitlines()[0] == f"{once}: already migrated (format version 1); nothing to change"
        )
        assert once.read_bytes() == twice.read_bytes()


def test_ids_are_canonical_and_deterministic() -> None:
    history = [
        _user("<task>\nls\n</task>"),
        _ai("<list_files>\n<path>.</path>\n</list_files>"),
        _user("[list_files for '.'] Result:", "a.ts", ENV["text"]),
    ]
    m = migrate(history)
    call_id = canonical_id("kilo", None, "list_files", "1", 0)
    assert m.history[1] == {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": call_id, "name": "list_files", "input": {"path": "."}}],
        "ts": 2,
    }
    assert m.history[2] == {
        "role": "user",
        "content": [
            {
                "type": "tool_result",
                "tool_use_id": call_id,
                "content": [
                    {"type": "text", "text": "[list_files for '.'] Result:"},
                    {"type": "text", "text": "a.ts"},
                ],
            },
            ENV,
        ],
        "ts": 1,
    }
    assert (m.calls, m.results, m.issues, m.changed) == (1, 1, (), True)
    assert history[1]["content"][0]["type"] == "text"  # the input is not modified


def test_flattened_sample_reports_what_is_lost() -> None:
    m = migrate_file(SAMPLES / "kilo_flattened_resumed.json")
    assert [(i.kind, i.message_index, i.tool_name) for i in m.issues] == [
        ("unrecoverable", 1, "read_file"),
        ("unrecoverable", 2, "read_file"),
        ("unrecoverable", 4, "execute_command"),
        ("left_as_text", 5, "apply_diff"),
    ]
    assert "'[object Object]'" in m.issues[0].detail
    assert "images and is_error flag were dropped" in m.issues[1].detail
    session = toolhist.load(m.dumps(), format="kilo")
    assert session.metadata["tool_style"] == "mixed"  # the XML Kilo never ran stays text, as it was
    assert {p: _errors(session, p) for p in ("anthropic", "openai-chat")} == {
        "anthropic": set(),
        "openai-chat": set(),
    }


def test_unanswered_call_gets_kilo_interruption_result_and_last_call_is_pending() -> None:
    history = [
        _user("<task>\nx\n</task>"),
        _ai("<read_file>\n<path>a</path>\n</read_file>"),
        _user("what are you doing?"),
        _ai("<attempt_completion>\n<result>done</result>\n</attempt_completion>"),
    ]
    m = migrate(history)
    first = canonical_id("kilo", None, "read_file", "1", 0)
    last = canonical_id("kilo", None, "attempt_completion", "3", 0)
    out: Any = m.history
    assert out[2]["content"][0] == {
        "type": "tool_result",
        "tool_use_id": first,
        "content": [{"type": "text", "text": INTERRUPTED}],
        "is_error": True,
    }
    assert [(i.kind, i.call_id) for i in m.issues] == [("synthesised", first), ("pending", last)]


def test_not_executed_text_answers_the_second_call() -> None:
    history = [
        _user("<task>\nx\n</task>"),
        _ai("<read_file>\n<path>a</path>\n</read_file>\n<read_file>\n<path>b</path>\n</read_file>"),
        _user(
            "[read_file for 'a'] Result:",
            "A",
            "Tool [read_file] was not executed because a tool has already been used in this message.",
        ),
    ]
    m = migrate(history)
    out: Any = m.history
    blocks = out[2]["content"]
    assert [b["type"] for b in blocks] == ["tool_result", "tool_result"]
    assert blocks[1]["is_error"] is True
    assert m.issues == ()


def test_stray_result_text_is_left_and_reported() -> None:
    history = [_user("[read_file for 'a'] Result:", "A")]
    m = migrate(history)
    assert m.issues == (
        Issue(
            kind="left_as_text",
            message_index=0,
            tool_name="read_file",
            call_id=None,
            detail="a result text for 'read_file' with no XML call before it: left as text",
        ),
    )


def test_json_report_and_stdout_history() -> None:
    done = run("migrate", str(SAMPLES / "kilo_xml_era.json"), "--to", "native", "--json")
    report = json.loads(done.stdout)
    assert (report["calls"], report["results"], report["issues"], report["changed"]) == (3, 3, [], True)
    assert report["history"][0]["toolhistMigration"] == {"to": "native", "version": 1}
    plain = run("migrate", str(SAMPLES / "kilo_xml_era.json"), "--to", "native")
    assert json.loads(plain.stdout) == report["history"]
    assert plain.stderr.startswith(f"{SAMPLES / 'kilo_xml_era.json'}: 3 call(s)")


def test_bad_input_and_bad_target() -> None:
    done = run("migrate", str(SAMPLES / "openai_chat_request.json"), "--to", "native")
    assert done.returncode == 2
    assert done.stderr.startswith("toolhist: error: ")
    assert "not a valid kilo session" in done.stderr
    assert run("migrate", str(SAMPLES / "kilo_xml_era.json"), "--to", "xml").returncode == 2


NAMES = st.sampled_from(["read_file", "execute_command", "list_files", "search_files"])
VALUES = st.text(alphabet="abc xyz/._-[]{}:", min_size=1, max_size=12).filter(
    lambda v: v.strip() == v and "<" not in v
)


@st.composite
def _histories(draw: st.DrawFn) -> list[dict[str, Any]]:
    history: list[dict[str, Any]] = [_user("<task>\nwork\n</task>")]
    for _ in range(draw(st.integers(1, 4))):
        name = draw(NAMES)
        value = draw(VALUES)
        history.append(_ai(f"<{name}>\n<path>{value}</path>\n</{name}>"))
        if draw(st.booleans()):
            history.append(_user(f"[{name} for '{value}'] Result:", "out", ENV["text"]))
        else:
            history.append(_user(f"[{name} Result]\n\nout"))
    return history


@settings(max_examples=60, deadline=None)
@given(_histories())
def test_migration_is_idempotent_and_valid_for_strict_providers(history: list[dict[str, Any]]) -> None:
    once = migrate(history)
    twice = migrate(json.loads(once.dumps()))
    assert twice.dumps() == once.dumps()
    assert not twice.changed
    session = toolhist.load(once.dumps(), format="kilo")
    assert session.metadata["tool_style"] in ("json", "native")
    for provider in ("anthropic", "openai-chat"):
        assert _errors(session, provider) == set()
    assert set(PROVIDERS) >= {"anthropic", "openai-chat"}
