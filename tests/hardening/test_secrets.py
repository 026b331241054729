"""API keys and bearer tokens never leave toolhist: redacted on load, absent from every export.

One body carries every credential shape the brief names (OpenAI ``sk-``/``sk-proj-``, Anthropic
``sk-ant-``, Google ``AIza``, a Mistral key, which has no prefix and is only known by its field or
header, ``Authorization: Bearer`` and ``x-api-key``) in every place a log puts them: prompts, tool
arguments, tool results, the system prompt, request fields and header objects. Each export is
checked for every raw secret: the canonical JSON, ``render`` for every provider, ``curate --json``,
``check --json``, ``summary --json``, and the app's payload download buttons.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from streamlit.runtime.media_file_storage import MediaFileKind
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist.cli import main
from toolhist.providers import PROVIDERS

ROOT = Path(__file__).parent.parent.parent
OPENAI = "sk-" + "Abc123Def456Ghi789Jkl012Mno"
OPENAI_PROJECT = "sk-proj-" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4"
ANTHROPIC = "sk-ant-api03-" + "Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1"
GOOGLE = "AIza" + "SyA1234567890abcdefghijklmnopqrstuv"
MISTRAL = "Qw3rTy8uIo9pAs2dFg4hJk6lZx7cVb1n"
BEARER = "eyJhbGciOiJIUzI1NiJ9" + ".eyJzdWIiOiIxIn0.sig123"
SECRETS = (OPENAI, OPENAI_PROJECT, ANTHROPIC, GOOGLE, MISTRAL, BEARER)


def body() -> dict[str, Any]:
    """A chat body leaking every credential shape in every place."""
    return {
        "model": "gpt-4.1",
        "metadata": {
            "api_key": MISTRAL,
            "headers": {"x-api-key": MISTRAL, "Authorization": f"Bearer {BEARER}"},
        },
        "messages": [
            {"role": "system", "content": f"Use key {ANTHROPIC} for the sub-agent."},
            {"role": "user", "content": f"my keys: {OPENAI} and {OPENAI_PROJECT}; maps: {GOOGLE}"},
            {
                "role": "assistant",
                "content": None,
                "tool_calls": [
                    {
                        "id": "call_1",
                        "type": "function",
                        "function": {
                            "name": "http",
                            "arguments": json.dumps(
                                {
                                    "url": "https://api.mistral.ai/v1/models",
                                    "headers": {"Authorization": f"Bearer {BEARER}", "x-api-key": MISTRAL},
                                }
                            ),
                        },
                    },
                    {
                        "id": "call_2",
                        "type": "function",
                        "function": {
                            "name": "sh",
                            "arguments": json.dumps({"cmd": f"export MISTRAL_API_KEY={MISTRAL}"}),
                        },
                    },
                ],
            },
            {"role": "tool", "tool_call_id": "call_1", "content": f"401: invalid x-api-key: {MISTRAL}"},
            {
                "role": "tool",
                "tool_call_id": "call_2",
                "content": f"curl -H 'Authorization: Bearer {BEARER}'",
            },
        ],
    }


def assert_clean(text: str) -> None:
    leaked = [s for s in SECRETS if s in text]
    assert leaked == []


@pytest.fixture
def leaky(tmp_path: Path) -> Path:
    path = tmp_path / "leaky.json"
    path.write_text(json.dumps(body(), indent=2))
    return path


@pytest.mark.parametrize("source", ["path", "bytes", "dict"])
def test_load_redacts_every_shape(source: str, leaky: Path) -> None:
    given: Any = {"path": str(leaky), "bytes": leaky.read_bytes(), "dict": body()}[source]
    session = toolhist.load(given)
    canonical = session.to_json()
    assert_clean(canonical)
    texts = [b.model_dump() for m in session.messages for b in m.blocks]
    assert texts[0]["text"] == "Use key [REDACTED:anthropic-key] for the sub-agent."
    assert texts[1]["text"] == (
        "my keys: [REDACTED:openai-key] and [REDACTED:openai-key]; maps: [REDACTED:google-key]"
    )
    assert texts[2]["parameters"]["headers"] == {
        "Authorization": "Bearer [REDACTED:bearer-token]",
        "x-api-key": "[REDACTED:credential]",
    }
    assert texts[3]["parameters"] == {"cmd": "export MISTRAL_API_KEY=[REDACTED:credential]"}
    assert texts[4]["result"] == "401: invalid x-api-key: [REDACTED:credential]"
    assert texts[5]["result"] == "curl -H 'Authorization: Bearer [REDACTED:bearer-token]'"
    assert session.request["metadata"] == {
        "api_key": "[REDACTED:credential]",
        "headers": {"x-api-key": "[REDACTED:credential]", "Authorization": "Bearer [REDACTED:bearer-token]"},
    }
    assert session.source.notes == (
        "redacted 12 secret(s) on load: 1 anthropic-key, 3 bearer-token, 5 credential, 1 google-key, 2 openai-key",
    )


@pytest.mark.parametrize(
    "argv",
    [
        ["summary", "{file}", "--json"],
        ["check", "{file}", "--json"],
        ["check", "{file}", "--strategy", "toolhist", "--json"],
        *(["render", "{file}", "--provider", p] for p in PROVIDERS),
        *(["render", "{file}", "--provider", p, "--strategy", "toolhist", "--json"] for p in PROVIDERS),
        *(["curate", "{file}", "--provider", p, "--json"] for p in PROVIDERS),
        ["compare", "{file}", "--provider", "anthropic", "--json"],
    ],
    ids=lambda argv: "-".join(a for a in argv if a not in ("{file}",)),
)
def test_no_cli_export_leaks(argv: list[str], leaky: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([a.replace("{file}", str(leaky)) for a in argv])
    out, err = capsys.readouterr()
    assert code in (0, 1)  # 1: the history breaks a rule (call ids, tools), which is beside the point
    assert_clean(out)
    assert_clean(err)  # render's notes on what the format cannot carry
    assert "[REDACTED:" in out or argv[0] in ("summary", "compare", "check")


SAMPLES = sorted(p.name for p in (ROOT / "sample_logs").glob("*.json*") if p.name != "xss_tool_result.json")


@pytest.mark.parametrize("sample", SAMPLES)
def test_every_format_redacts(sample: str, tmp_path: Path) -> None:
    """A key pasted into any string of any bundled format's sample is gone from the canonical JSON."""
    text = (ROOT / "sample_logs" / sample).read_text(encoding="utf-8")
    # Put the keys at the start of every prose string ('"text": "' and similar).
    leaked = re.sub(
        r'(\\?"(?:text|content|contentPreview|output)\\?"\s*:\s*\\?")',
        rf"\g<1>{ANTHROPIC} {OPENAI_PROJECT} ",
        text,
    )
    if leaked == text:
        pytest.skip(f"{sample} has no prose field to plant a key in")
    path = tmp_path / sample
    path.write_text(leaked, encoding="utf-8")
    session = toolhist.load(str(path))
    assert_clean(session.to_json())
    assert session.source.notes[0].startswith("redacted ")


def test_app_payload_downloads_are_redacted(leaky: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    downloads: list[bytes] = []
    original = MemoryMediaFileStorage.load_and_get_id

    def keep(
        self: MemoryMediaFileStorage,
        path_or_data: str | bytes,
        mimetype: str,
        kind: MediaFileKind,
        filename: str | None = None,
    ) -> str:
        if kind == MediaFileKind.DOWNLOADABLE:
            downloads.append(path_or_data.encode() if isinstance(path_or_data, str) else path_or_data)
        return original(self, path_or_data, mimetype, kind, filename)

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", keep)
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
    at.segmented_control(key="source").set_value("Path").run()
    at.text_input(key="path").input(str(leaky)).run()
    assert not at.exception
    at.switch_page("pages/4_Payloads.py").run()
    assert not at.exception
    downloads.clear()
    at.multiselect(key="pl_providers").set_value(list(PROVIDERS)[:4]).run()
    assert not at.exception
    assert len(at.get("download_button")) == 4
    assert len(downloads) == 4  # what the four "Download JSON" buttons hand the browser
    for data in downloads:
        assert_clean(data.decode("utf-8"))
        assert b"[REDACTED:" in data
    for shown in at.json:
        assert_clean(shown.value)
