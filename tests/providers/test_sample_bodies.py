"""A sample in a provider's own format renders back to the same body (DESIGN §5 round trip)."""

from __future__ import annotations

from pathlib import Path

import orjson
import pytest

import toolhist
from toolhist.providers import PROVIDERS, render

SAMPLES = Path(__file__).parent.parent.parent / "sample_logs"
OWN = {
    "openai-chat": "openai-chat",
    "anthropic": "anthropic",
    "gemini": "gemini",
    "bedrock": "bedrock",
    "openai-responses": "openai-responses",
}


@pytest.mark.parametrize(
    "name", [p.name for p in sorted(SAMPLES.glob("*.json")) if toolhist.load(p).source.format in OWN]
)
def test_own_format_body_renders_back_unchanged(name: str) -> None:
    session = toolhist.load(SAMPLES / name)
    provider = OWN[session.source.format]
    if provider not in PROVIDERS:
        pytest.fail(f"provider {provider} is not registered")
    assert render(session, provider).body == orjson.loads((SAMPLES / name).read_bytes())
