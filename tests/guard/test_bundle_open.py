"""A bundle the guard wrote opens in the CLI: ``check`` (as sent), ``explain`` (the culprit) and ``bundles``.

Each bundle comes from the real SDK client, guarded in ``warn`` mode, answered 400 by the fake
provider; the rule and the culprit message are asserted exactly.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import orjson
import pytest
from fake_provider import serve
from guard_calls import BODIES, HISTORY, RULE, send

from toolhist.guard import bundle as bundles


def run(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("toolhist", path=str(Path(sys.executable).parent))
    assert exe is not None
    return subprocess.run([exe, *args], capture_output=True, text=True, check=False, timeout=60)


CULPRIT: dict[str, int | None] = {
    "openai-chat": 1,  # messages[1], the assistant turn whose call is unanswered
    "openai-responses": 1,  # the function_call item (the text names its call id)
    "anthropic": 2,  # messages.1 of the body is canonical 2: the system prompt is canonical 0
    "gemini": None,  # Gemini's text names no position
    "mistral": None,  # nor does Mistral's
    "bedrock": 2,  # messages.2, the user turn where the toolResult blocks were expected
}
"""The canonical message each provider's 400 text points at, through the session's source map."""


@pytest.fixture(scope="module")
def bundle_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bundles")
    for provider in BODIES:
        with (
            serve(mistral=provider == "mistral") as (base, _),
            pytest.raises(Exception, match=r"(?i)tool|function"),  # the SDK's own 400 error
        ):
            send(provider, "warn", base, folder / provider)
    return folder


def _bundle(folder: Path, provider: str) -> Path:
    [path] = list((folder / provider).glob(f"*{bundles.SUFFIX}"))
    return path


@pytest.mark.parametrize("provider", list(BODIES))
def test_check_judges_the_bundle_as_sent(bundle_dir: Path, provider: str) -> None:
    out = run("check", str(_bundle(bundle_dir, provider)), "--provider", provider, "--json")
    assert out.returncode == 1, out.stderr
    result = json.loads(out.stdout)
    rules = [v["rule"] for v in result["results"][provider]["violations"] if v["severity"] == "error"]
    assert RULE[provider] in rules
    located = [v for v in result["results"][provider]["violations"] if v["rule"] == RULE[provider]]
    assert located[0]["message_index"] is not None


@pytest.mark.parametrize("provider", list(BODIES))
def test_explain_reads_the_recorded_answer_and_finds_the_culprit(bundle_dir: Path, provider: str) -> None:
    out = run("explain", str(_bundle(bundle_dir, provider)), "--json")
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert (result["provider"], result["rule"]) == (provider, RULE[provider])
    assert result["message_index"] == CULPRIT[provider]


def test_bundles_lists_every_bundle_with_its_rule(bundle_dir: Path) -> None:
    out = run("bundles", str(bundle_dir), "--json")
    assert out.returncode == 0, out.stderr
    listed = json.loads(out.stdout)
    assert listed["unreadable"] == []
    assert sorted((b["provider"], b["status"], b["rule"]) for b in listed["bundles"]) == sorted(
        (p, 400, RULE[p]) for p in BODIES
    )
    text = run("bundles", str(bundle_dir))
    assert text.returncode == 0
    assert len(text.stdout.splitlines()) == len(BODIES)


def test_a_bundle_keeps_what_was_sent(bundle_dir: Path) -> None:
    value = orjson.loads(_bundle(bundle_dir, "anthropic").read_bytes())
    assert value["request"]["body"][HISTORY["anthropic"]] == BODIES["anthropic"][HISTORY["anthropic"]]
    assert value["sdk"].startswith("anthropic ")
    assert value["endpoint"].endswith("/v1/messages")


def test_a_bad_bundle_is_one_clear_line(tmp_path: Path) -> None:
    bad = tmp_path / "x.toolhist.json"
    bad.write_text(json.dumps({"toolhist_bundle": 7, "request": {"body": {}}}))
    out = run("check", str(bad))
    assert out.returncode == 2
    assert out.stderr.strip() == (
        f"toolhist: error: {bad}: at toolhist_bundle: a toolhist bundle of version 7; this toolhist reads version 1"
    )
    assert run("explain", "--text", "x", "--text-file", str(bad)).returncode == 2
