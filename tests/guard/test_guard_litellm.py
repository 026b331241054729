"""The guard as a LiteLLM callback, run in the real LiteLLM (the peers environment) against the fake
provider on 127.0.0.1: `tests/guard/litellm_scenarios.py` runs each scenario there and prints what
happened; this asserts on it.

- ``warn``, sync and async: LiteLLM sends the Anthropic body unchanged, the fake answers 400, the
  guard logs ``ant.result_missing`` on the body as sent and writes a bundle that `toolhist check`
  reads with that rule;
- ``repair`` (async: LiteLLM runs modifying hooks only there): the fake receives a closed history
  and answers 200;
- ``raise`` (async): `GuardRejected` reaches the caller and nothing is sent.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import pytest

from toolhist.check import check
from toolhist.peers.env import require

ROOT = Path(__file__).parent.parent.parent
SCRIPT = Path(__file__).parent / "litellm_scenarios.py"


def run(scenario: str, capture: Path) -> dict[str, Any]:
    env = require("litellm")  # the pinned LiteLLM; `./dev test` installs it
    environ = {**os.environ, "PYTHONPATH": str(ROOT), "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    out = subprocess.run(
        [str(env.python), str(SCRIPT), scenario, str(capture)],
        capture_output=True,
        text=True,
        timeout=180,
        env=environ,
        check=False,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("scenario", ["warn-sync", "warn-async"])
def test_warn_logs_the_body_as_sent_and_bundles_the_400(scenario: str, tmp_path: Path) -> None:
    result = run(scenario, tmp_path)
    assert [(c["path"], c["status"]) for c in result["calls"]] == [("/v1/messages", 400)]
    assert result["raised"].startswith("BadRequestError: litellm.BadRequestError: AnthropicException")
    assert result["log"][0].startswith(
        "anthropic error ant.result_missing at messages.1: messages.1: `tool_use`"
    )
    [name] = result["bundles"]
    bundle = json.loads((tmp_path / name).read_text())
    assert bundle["sdk"].startswith("litellm ")
    assert bundle["request"]["body"]["messages"] == result["calls"][0]["body"]["messages"]
    verdict = check(str(tmp_path / name), ["anthropic"])
    assert verdict.as_sent == ("anthropic",)
    assert [v.rule for v in verdict.results["anthropic"] if v.severity == "error"] == ["ant.result_missing"]


def test_repair_sends_a_closed_history(tmp_path: Path) -> None:
    result = run("repair-async", tmp_path)
    [call] = result["calls"]
    assert call["status"] == 200
    sent = call["body"]["messages"]
    assert [m["role"] for m in sent] == ["user", "assistant", "user"]
    assert sent[1]["content"][0]["type"] == "tool_use"
    assert sent[2]["content"][0]["type"] == "tool_result"
    assert sent[2]["content"][0]["tool_use_id"] == sent[1]["content"][0]["id"]
    assert any(" repair close_orphans close: " in line for line in result["log"])
    assert result["bundles"] == []


def test_raise_sends_nothing(tmp_path: Path) -> None:
    result = run("raise-async", tmp_path)
    assert result["calls"] == []
    assert result["raised"].startswith("GuardRejected: toolhist guard: anthropic would reject this request")
