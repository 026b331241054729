"""The environment every `toolhist verify` test runs in: keys and base URLs pointing at 127.0.0.1 only.

A fixture module, not a conftest (a second ``conftest`` module would clash in mypy). `verify_env`
removes every key, base-URL and AWS variable the user's shell may hold, sets dummy keys, points every
provider's base URL at the fake provider the test started, puts the ledger in the test's folder, and
makes any connection to an address other than the loopback one fail, so no test can reach a provider.
"""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

import pytest

from toolhist.verify.endpoints import ENDPOINTS, REGION_VARS

KEYS = {
    "OPENAI_API_KEY": "sk-test-openai-0000",
    "ANTHROPIC_API_KEY": "sk-ant-test-0000",
    "GEMINI_API_KEY": "test-gemini-0000",
    "MISTRAL_API_KEY": "test-mistral-0000",
    "MOONSHOT_API_KEY": "sk-test-moonshot-0000",
}
OTHER = (
    "ANTHROPIC_AUTH_TOKEN",
    "GOOGLE_API_KEY",
    "AWS_BEARER_TOKEN_BEDROCK",
    "AWS_ACCESS_KEY_ID",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_SESSION_TOKEN",
    "AWS_PROFILE",
    "TOOLHIST_PEER_VERSIONS",
    "HTTPS_PROXY",
    "HTTP_PROXY",
    "https_proxy",
    "http_proxy",
    "ALL_PROXY",
)


def bases(fake: str) -> dict[str, str]:
    """Every provider's first base-URL variable, pointing at ``fake`` (with ``/v1`` where the SDK's has it)."""
    out = {}
    for endpoint in ENDPOINTS.values():
        suffix = "/v1" if endpoint.default_base.endswith("/v1") else ""
        out[endpoint.base_vars[0]] = fake + suffix
    return out


def _loopback_only(real: Any) -> Any:
    def connect(self: socket.socket, address: Any) -> Any:
        host = address[0] if isinstance(address, tuple) else address
        if self.family != socket.AF_UNIX and host not in ("127.0.0.1", "::1", "localhost"):
            raise OSError(f"test refused a connection to {address!r}: verify tests stay on 127.0.0.1")
        return real(self, address)

    return connect


@pytest.fixture(name="verify_env")
def verify_env_fixture(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Isolated variables (see the module docstring); the ledger file's path."""
    for endpoint in ENDPOINTS.values():
        for name in (*endpoint.key_vars, *endpoint.base_vars):
            monkeypatch.delenv(name, raising=False)
    for name in (*OTHER, *REGION_VARS):
        monkeypatch.delenv(name, raising=False)
    for name, value in KEYS.items():
        monkeypatch.setenv(name, value)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "no-aws-config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "no-aws-credentials"))
    ledger = tmp_path / "ledger" / "verify.jsonl"
    monkeypatch.setenv("TOOLHIST_LEDGER", str(ledger))
    monkeypatch.setattr(socket.socket, "connect", _loopback_only(socket.socket.connect))
    return ledger


def aws(monkeypatch: pytest.MonkeyPatch, fake: str) -> None:
    """Dummy AWS credentials and region, Bedrock's endpoint at ``fake`` (botocore reads these itself)."""
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDTOOLHISTTEST")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "toolhist-test-secret")
    monkeypatch.setenv("AWS_REGION", "us-east-1")
    monkeypatch.setenv("AWS_ENDPOINT_URL_BEDROCK_RUNTIME", fake)
