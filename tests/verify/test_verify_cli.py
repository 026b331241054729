"""``toolhist verify``: the opt-in, one-line failures, Anthropic's free route, the ledger and its export."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from bodies import body
from fake_provider import serve
from offline import bases, verify_env_fixture  # noqa: F401  # the fixture "verify_env"

import toolhist
from toolhist.cli import main
from toolhist.readers import load_document
from toolhist.verify import confirm, export, plan, read

pytestmark = pytest.mark.usefixtures("verify_env")
ROOT = Path(__file__).parent.parent.parent


def source(tmp_path: Path, provider: str, answered: bool, name: str = "history.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(body(provider, answered)))
    return path


def point(monkeypatch: pytest.MonkeyPatch, fake: str) -> None:
    for name, value in bases(fake).items():
        monkeypatch.setenv(name, value)


def cli(*args: str, stdin: str | None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "toolhist", "verify", *args],
        input=stdin,
        stdin=None if stdin is not None else subprocess.DEVNULL,
        capture_output=True,
        text=True,
        env=dict(os.environ),
        check=False,
    )


PLAN_TEXT = """\
{file}: openai-chat, as sent (a request body)
provider   openai-chat (Chat Completions), model gpt-4.1, strategy none
send       POST {fake}/v1/chat/completions
body       379 bytes, ~100 tokens (exact (o200k_base))
cost       max_completion_tokens 1
key        OPENAI_API_KEY
predicted  error oai.call_unanswered at messages[1].role
"""


@pytest.mark.parametrize("stdin", ["n\n", None], ids=["answered-no", "no-input"])
def test_nothing_is_sent_without_the_opt_in(
    stdin: str | None, verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = source(tmp_path, "openai-chat", answered=False)
    with serve() as (fake, recorder):
        point(monkeypatch, fake)
        done = cli(str(history), "--provider", "openai-chat", stdin=stdin)
    assert recorder.calls == []
    assert not verify_env.exists()
    assert done.returncode == 2
    assert done.stdout == PLAN_TEXT.format(file=history, fake=fake)
    question = f"Send this request to {fake}/v1/chat/completions with your key? [y/N]: "
    assert done.stderr.startswith(question)
    assert done.stderr.endswith("toolhist: error: nothing was sent\n")


def test_a_yes_to_the_question_sends(
    verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    history = source(tmp_path, "openai-chat", answered=True)
    with serve() as (fake, recorder):
        point(monkeypatch, fake)
        done = cli(str(history), "--provider", "openai-chat", stdin="y\n")
    assert [(p, s) for p, _, s in recorder.calls] == [("/v1/chat/completions", 200)]
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-4:] == [
        "answer     200",
        "rule       -",
        "outcome    confirmed: the provider's answer is toolhist's prediction",
        f"ledger     {verify_env}",
    ]
    assert [r["outcome"] for r in read(verify_env)[0]] == ["confirmed"]


def test_no_key_is_one_line_and_nothing_is_sent(
    verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    history = source(tmp_path, "openai-chat", answered=True)
    with serve() as (fake, recorder):
        point(monkeypatch, fake)
        code = main(["verify", str(history), "--provider", "openai-chat", "--yes"])
    assert (code, capsys.readouterr().err) == (
        2,
        "toolhist: error: no API key for openai-chat: set OPENAI_API_KEY\n",
    )
    assert recorder.calls == []
    assert not verify_env.exists()


def test_a_refused_connection_is_one_line(
    verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
    code = main(["verify", str(source(tmp_path, "openai-chat", True)), "--provider", "openai-chat", "--yes"])
    assert (code, capsys.readouterr().err) == (
        2,
        f"toolhist: error: could not reach http://127.0.0.1:{port}/v1/chat/completions: connection refused\n",
    )
    assert not verify_env.exists()


def test_a_timeout_is_one_line(
    verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(1)  # the connection is accepted by the kernel; nobody ever answers
    port = silent.getsockname()[1]
    monkeypatch.setenv("MISTRAL_BASE_URL", f"http://127.0.0.1:{port}/v1")
    history = source(tmp_path, "mistral", True)
    try:
        code = main(["verify", str(history), "--provider", "mistral", "--yes", "--timeout", "0.5"])
    finally:
        silent.close()
    assert (code, capsys.readouterr().err) == (
        2,
        f"toolhist: error: no answer from http://127.0.0.1:{port}/v1/chat/completions within 0.5 s\n",
    )
    assert not verify_env.exists()


@pytest.mark.parametrize("answered", [True, False], ids=["200", "400"])
def test_anthropic_count_tokens_is_free_and_judges_the_same_history(
    answered: bool,
    verify_env: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    given = body("anthropic", answered)
    history = source(tmp_path, "anthropic", answered)
    with serve() as (fake, recorder):
        point(monkeypatch, fake)
        code = main(
            ["verify", str(history), "--provider", "anthropic", "--endpoint", "count-tokens", "--yes"]
        )
    out = capsys.readouterr().out
    sent = {k: v for k, v in given.items() if k != "max_tokens"}
    assert [(p, b, s) for p, b, s in recorder.calls] == [
        ("/v1/messages/count_tokens", sent, 200 if answered else 400)
    ]
    assert "changed    max_tokens left out (count_tokens does not take it)" in out.splitlines()
    [row] = read(verify_env)[0]
    assert (row["route"], row["cost"], row["url"]) == (
        "count_tokens",
        {"route": "count_tokens", "generates": 0},
        f"{fake}/v1/messages/count_tokens",
    )
    assert (row["answer"]["status"], row["answer"]["rule"], row["outcome"]) == (
        (200, None, "confirmed") if answered else (400, "ant.result_missing", "confirmed")
    )
    assert row["predicted"]["errors"] == ([] if answered else ["ant.result_missing"])
    assert code == 0


def test_anthropic_goes_free_on_its_own_host_and_generates_on_a_gateway(tmp_path: Path) -> None:
    doc, session = load_document(source(tmp_path, "anthropic", True))
    own = plan(doc, session, "anthropic", environ={"ANTHROPIC_API_KEY": "k"})
    assert (own.url, own.route) == ("https://api.anthropic.com/v1/messages/count_tokens", "count_tokens")
    assert own.notes[0].startswith(
        "count_tokens validates the history as /v1/messages does: UKGovernmentBEIS/"
    )
    gateway = plan(
        doc,
        session,
        "anthropic",
        environ={"ANTHROPIC_AUTH_TOKEN": "k", "ANTHROPIC_BASE_URL": "http://gw:4000"},
    )
    assert (gateway.url, gateway.route, gateway.key_var) == (
        "http://gw:4000/v1/messages",
        "generate",
        "ANTHROPIC_AUTH_TOKEN",
    )
    with pytest.raises(
        toolhist.errors.UsageError, match=r"^gemini has no free endpoint that validates a history; "
    ):
        plan(
            *load_document(source(tmp_path, "gemini", True, "g.json")),
            "gemini",
            route="count_tokens",
            environ={},
        )


def test_every_provider_s_own_url(tmp_path: Path) -> None:
    urls = {}
    for provider in ("openai-chat", "openai-responses", "gemini", "mistral", "kimi", "bedrock"):
        doc, session = load_document(source(tmp_path, provider, True, f"{provider}.json"))
        urls[provider] = plan(
            doc, session, provider, environ={"AWS_REGION": "eu-west-3"}, transport="urllib"
        ).url
    assert urls == {
        "openai-chat": "https://api.openai.com/v1/chat/completions",
        "openai-responses": "https://api.openai.com/v1/responses",
        "gemini": "https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent",
        "mistral": "https://api.mistral.ai/v1/chat/completions",
        "kimi": "https://api.moonshot.ai/v1/chat/completions",
        "bedrock": "https://bedrock-runtime.eu-west-3.amazonaws.com/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse",
    }


def test_bedrock_with_an_api_key_goes_by_urllib(
    verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AWS_BEARER_TOKEN_BEDROCK", "bedrock-api-key-test")
    doc, session = load_document(source(tmp_path, "bedrock", False))
    with serve() as (fake, recorder):
        point(monkeypatch, fake)
        chosen = plan(doc, session, "bedrock", transport="urllib")
        row, _ = confirm(chosen)
    assert [(p, s) for p, _, s in recorder.calls] == [
        ("/model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/converse", 400)
    ]
    assert (
        chosen.key_var,
        row["transport"],
        row["answer"]["error_type"],
        row["answer"]["rule"],
        row["outcome"],
    ) == (
        "AWS_BEARER_TOKEN_BEDROCK",
        "urllib",
        "ValidationException",
        "brk.result_missing",
        "confirmed",
    )


def test_a_wrong_verdict_exits_1_and_says_how_to_report_it(
    verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Mistral ids must be 9 characters; the fake does not check them, so it accepts what toolhist flags."""
    given = body("openai-chat", answered=True)  # ids call_1: not Mistral's form
    history = tmp_path / "h.json"
    history.write_text(json.dumps({**given, "model": "mistral-large-latest"}))
    with serve(mistral=True) as (fake, recorder):
        point(monkeypatch, fake)
        code = main(["verify", str(history), "--provider", "mistral", "--yes"])
    lines = capsys.readouterr().out.splitlines()
    assert recorder.calls[0][2] == 200
    assert code == 1
    assert lines[-3:] == [
        "outcome    false-alarm: toolhist predicted a 400 and the provider accepted the request: a wrong verdict",
        f"ledger     {verify_env}",
        "report it  toolhist verify --ledger --export verdict.json (structure only) and attach the file",
    ]
    assert read(verify_env)[0][0]["predicted"]["errors"] == ["mis.id_format"]


def test_model_override_and_a_missing_model(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc, session = load_document(source(tmp_path, "openai-chat", True))
    chosen = plan(doc, session, "kimi", model="kimi-k2-0905-preview", environ={})
    assert chosen.changes == ("model 'gpt-4.1' → 'kimi-k2-0905-preview'",)
    assert json.loads(chosen.data)["model"] == "kimi-k2-0905-preview"
    code = main(["verify", str(ROOT / "sample_logs" / "gemini_request.json"), "--provider", "gemini"])
    assert (code, capsys.readouterr().err) == (
        2,
        f"toolhist: error: {ROOT / 'sample_logs' / 'gemini_request.json'}: the request names no model for gemini; "
        "give one with --model\n",
    )


def test_an_agent_log_sends_the_next_request(tmp_path: Path) -> None:
    log = ROOT / "sample_logs" / "claude_code_compacted_result.jsonl"
    doc, session = load_document(log)
    chosen = plan(doc, session, "anthropic", model="claude-sonnet-4-5", environ={}, route="generate")
    assert chosen.judged == "next-request"
    assert chosen.body["messages"][-1] == {"role": "user", "content": "(the next user turn)"}
    assert chosen.body["max_tokens"] == 1


def test_the_ledger_lists_and_exports_structure_only(
    verify_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    secrets = ["SECRET-TEXT-7f3a", "call_SECRET9", "sk-SECRET-KEY-0001", "secretdir"]
    monkeypatch.setenv("OPENAI_API_KEY", secrets[2])
    folder = tmp_path / "secretdir"
    folder.mkdir()
    paths = []
    for answered in (True, False):
        given = body("openai-chat", answered)
        text = json.dumps(given).replace("read a.txt", secrets[0]).replace("call_1", secrets[1])
        paths.append(folder / f"{answered}.json")
        paths[-1].write_text(text)
    with serve() as (fake, _):
        point(monkeypatch, fake)
        for path in paths:
            main(["verify", str(path), "--provider", "openai-chat", "--yes"])
    capsys.readouterr()
    local = verify_env.read_text()
    assert secrets[0] not in local  # message text: only what an error text quotes
    assert secrets[2] not in local  # the key: never
    assert secrets[1] in local  # the provider's error text names the call: kept locally, not exported
    out = tmp_path / "report.json"
    assert main(["verify", "--ledger", "--export", str(out)]) == 0
    assert capsys.readouterr().out == f"wrote 2 row(s), structure only, to {out}\n"
    exported = out.read_text()
    for secret in secrets:
        assert secret not in exported
    assert fake.split("//")[1] not in exported  # no URL
    value = json.loads(exported)
    rows = read(verify_env)[0]
    assert value == export(rows)
    second = value["rows"][1]
    assert second == {
        "time": rows[1]["time"],
        "toolhist_version": toolhist.__version__,
        "format": "openai-chat",
        "judged": "as-sent",
        "provider": "openai-chat",
        "strategy": "none",
        "model": "gpt-4.1",
        "route": "generate",
        "transport": "urllib",
        "cost": {"max_completion_tokens": 1},
        "outcome": "confirmed",
        "base": "moved",
        "request": {
            "bytes": rows[1]["request"]["bytes"],
            "tokens": rows[1]["request"]["tokens"],
            "shape": rows[1]["request"]["shape"],
        },
        "predicted": {
            "errors": ["oai.call_unanswered"],
            "warnings": [],
            "violations": [{"rule": "oai.call_unanswered", "severity": "error", "path": "messages[1].role"}],
        },
        "answer": {"status": 400, "error_type": "invalid_request_error", "rule": "oai.call_unanswered"},
    }
    assert main(["verify", "--ledger"]) == 0
    listing = capsys.readouterr().out.splitlines()
    assert listing[0] == f"{verify_env}: 2 row(s)"
    assert listing[1].endswith(
        "openai-chat      gpt-4.1                  200  predicted accepted; answered -  confirmed"
    )
    assert listing[2].endswith(
        "openai-chat      gpt-4.1                  400  predicted oai.call_unanswered; answered oai.call_unanswered  confirmed"
    )


def test_an_unreadable_ledger_line_is_named_and_skipped(
    verify_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    verify_env.parent.mkdir(parents=True)
    verify_env.write_text(
        '{"ledger": 1, "time": "t", "provider": "p", "model": "m", "answer": {"status": 200, "rule": null}, "predicted": {"errors": []}, "outcome": "confirmed"}\nnot json\n[1]\n'
    )
    assert main(["verify", "--ledger"]) == 0
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"toolhist: {verify_env}:2: not JSON (Expecting value); skipped",
        f"toolhist: {verify_env}:3: not a toolhist ledger row (version 1); skipped",
    ]
    assert out.splitlines()[0] == f"{verify_env}: 1 row(s)"


def test_ledger_and_send_options_do_not_mix(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cases: list[tuple[list[str], str]] = [
        (["verify", "x.json", "--ledger"], "--ledger lists the ledger: give no FILE or --provider with it"),
        (["verify", "--export", "o.json"], "--export writes the ledger: use it with --ledger"),
        (["verify", "x.json"], "give FILE and --provider (or --ledger to list what was sent)"),
    ]
    for args, said in cases:
        assert main(args) == 2
        assert capsys.readouterr().err == f"toolhist: error: {said}\n"


def test_the_least_cost_of_each_api() -> None:
    from toolhist.verify.endpoints import ENDPOINTS

    def cheapest(provider: str, given: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
        return ENDPOINTS[provider].cheapest(given)

    chat = {
        "messages": [],
        "max_tokens": 500,
        "stream": True,
        "stream_options": {"include_usage": True},
        "n": 3,
    }
    assert cheapest("openai-chat", chat) == (
        {"messages": [], "n": 1, "max_completion_tokens": 1},
        {"max_completion_tokens": 1, "n": 1},
    )
    assert cheapest("kimi", {"max_completion_tokens": 9}) == ({"max_tokens": 1}, {"max_tokens": 1})
    assert cheapest("openai-responses", {"max_output_tokens": 4000, "stream": True}) == (
        {"max_output_tokens": 16},
        {"max_output_tokens": 16},
    )
    thinking = {"type": "enabled", "budget_tokens": 2048}
    assert cheapest("anthropic", {"max_tokens": 8000, "thinking": thinking}) == (
        {"thinking": thinking, "max_tokens": 2049},
        {"max_tokens": 2049},
    )
    assert cheapest("anthropic", {"thinking": {"type": "adaptive"}})[1] == {"max_tokens": 1}
    assert cheapest("gemini", {"generation_config": {"temperature": 0}}) == (
        {"generation_config": {"temperature": 0, "maxOutputTokens": 1}},
        {"generation_config.maxOutputTokens": 1},
    )
    bedrock = {"inferenceConfig": {"temperature": 1}, "additionalModelRequestFields": {"thinking": thinking}}
    assert cheapest("bedrock", bedrock) == (
        {**bedrock, "inferenceConfig": {"temperature": 1, "maxTokens": 2049}},
        {"inferenceConfig.maxTokens": 2049},
    )
