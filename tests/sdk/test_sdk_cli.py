"""`toolhist render --sdk`, a missing SDK (simulated by hiding its module), and the declared extras."""

from __future__ import annotations

import json
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest

import toolhist
from toolhist import sdk
from toolhist.cli import main
from toolhist.providers import PROVIDERS, render
from toolhist.views.sdk import sdk_request

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = str(ROOT / "sample_logs" / "anthropic_request.json")


def test_render_sdk_prints_the_captured_request(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["render", SAMPLE, "--provider", "gemini", "--strategy", "toolhist", "--sdk"]) == 0
    out, err = capsys.readouterr()
    body = render(toolhist.load(SAMPLE), "gemini", strategy="toolhist").body
    assert out == sdk.capture(body, "gemini").as_text() + "\n"
    assert out.startswith("POST /v1/models/claude-sonnet-4-5:generateContent\naccept: */*\n")
    assert err == f"toolhist: sdk: google-genai {version('google-genai')}\n"


def test_render_sdk_json_and_notes(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "sample_logs" / "openai_chat_request.json")
    assert main(["render", path, "--provider", "kimi", "--sdk", "--json"]) == 0
    out, err = capsys.readouterr()
    got = json.loads(out)
    assert (got["sdk"], got["version"], got["method"], got["url"]) == (
        "openai",
        version("openai"),
        "POST",
        "http://capture.invalid/v1/chat/completions",
    )
    assert got["body"] == render(toolhist.load(path), "kimi").body
    assert got["model_filled"] is False
    assert [(v["rule"], v["path"]) for v in got["violations"]] == [("sdk.kimi.type", "messages[3].name")]
    assert err.splitlines() == [
        "toolhist: sdk: sdk.kimi.type messages[3].name: Extra inputs are not permitted "
        "[type=extra_forbidden, input_value='read_file', input_type=str]",
        f"toolhist: sdk: openai {version('openai')}",
    ]


def test_render_sdk_says_when_it_used_the_placeholder_model(capsys: pytest.CaptureFixture[str]) -> None:
    path = str(ROOT / "sample_logs" / "llxprt_icontent.json")
    assert main(["render", path, "--provider", "bedrock", "--sdk"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("POST /model/model-not-in-body/converse\n")
    assert err.splitlines()[-1] == "toolhist: sdk: the history names no model; sent 'model-not-in-body'"


def test_a_body_the_sdk_refuses_is_exit_2_after_its_violations(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # Thought signatures that are not base64: google-genai refuses to build the request.
    text = (ROOT / "sample_logs" / "gemini_request.json").read_text()
    text = text.replace("CiQBcsjafQ3m8uR1t7yP0wKxZ2bLh6nVg4eJd9sA5fT0oU3i", "not base64!")
    text = text.replace("CiQBcsjafTk2pW9xR4uL7nQ1mZ8cV3bH6gF0eD5sA2tY1oI9", "not base64 either!")
    path = str(tmp_path / "bad_signatures.json")
    Path(path).write_text(text)
    assert main(["render", path, "--provider", "gemini", "--sdk"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    lines = err.splitlines()
    assert [line.split(":")[2].strip().split(" ")[1] for line in lines[:2]] == [
        "contents[1].parts[0].thoughtSignature",
        "contents[3].parts[0].thoughtSignature",
    ]
    assert lines[2].startswith(f"toolhist: error: google-genai {version('google-genai')} refused the body: ")
    assert len(lines) == 3


@pytest.fixture
def no_mistral(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `import mistralai` fail as on a machine without the SDK (the package stays installed)."""
    for name in list(sys.modules):
        if name == "mistralai" or name.startswith("mistralai."):
            monkeypatch.delitem(sys.modules, name)
    monkeypatch.setitem(sys.modules, "mistralai", None)
    monkeypatch.delitem(sys.modules, "toolhist.sdk.mistral_sdk", raising=False)


HINT = (
    "mistral: the mistralai SDK is not installed (module 'mistralai.client' missing); install it with "
    "pip install 'toolhist[sdk]' (tested range mistralai>=3.7.0,<4)"
)


@pytest.mark.usefixtures("no_mistral")
def test_a_missing_sdk_says_how_to_get_it(capsys: pytest.CaptureFixture[str]) -> None:
    body = {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    assert not sdk.available("mistral")
    assert sdk.available("openai-chat")
    with pytest.raises(sdk.SdkUnavailable) as caught:
        sdk.check(body, "mistral")
    assert str(caught.value) == HINT
    with pytest.raises(sdk.SdkUnavailable):
        sdk.capture(body, "mistral")
    view = sdk_request(body, "mistral")
    assert (view.status, view.text, view.violations, view.captured) == ("unavailable", HINT, (), None)
    assert main(["render", SAMPLE, "--provider", "mistral", "--sdk"]) == 2
    out, err = capsys.readouterr()
    assert (out, err) == ("", f"toolhist: error: {HINT}\n")


def test_an_unrelated_missing_module_is_not_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(
        sys.modules, "jmespath", None
    )  # botocore needs it: a broken install, not a missing SDK
    for name in [n for n in sys.modules if n == "botocore" or n.startswith("botocore.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.delitem(sys.modules, "toolhist.sdk.bedrock_sdk", raising=False)
    with pytest.raises(ModuleNotFoundError, match="jmespath"):
        sdk.check({"modelId": "m", "messages": []}, "bedrock")


def _extras() -> dict[str, list[str]]:
    extras: dict[str, list[str]] = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"][
        "optional-dependencies"
    ]
    return extras


def test_the_sdk_extra_is_the_bindings_and_the_test_extra_installs_it() -> None:
    extras = _extras()
    bound = {sdk.binding(p).requirement for p in PROVIDERS}
    assert set(extras["sdk"]) == bound | {"httpx2>=2.16.2,<3"}
    [own] = [r for r in extras["test"] if r.startswith("toolhist[")]
    assert "sdk" in own.removeprefix("toolhist[").removesuffix("]").split(",")


@pytest.mark.parametrize("requirement", _extras()["sdk"])
def test_the_installed_sdks_are_in_their_tested_ranges(requirement: str) -> None:
    name, _, rest = requirement.partition(">=")
    low, _, high = rest.partition(",<")
    installed = tuple(int(x) for x in version(name).split(".")[:3])
    assert tuple(int(x) for x in low.split(".")) <= installed
    assert installed[0] < int(high)
