"""Writes a mini-SWE-agent trajectory (``agent.save``) of a scripted tool-calling run, offline.

Run in an environment with mini-swe-agent (it is only read by toolhist, never imported):
``python mini_swe_agent_trajectory.py OUT.traj.json``. The agent is ``DefaultAgent`` with the
tool-calling config it ships (``config/mini.yaml``), the model its own ``DeterministicToolcallModel``
(the one its tests use), the environment ``LocalEnvironment`` running two harmless ``echo``
commands in a temporary folder. mini_swe_live.py imports `run` to read the live agent too.
"""

import sys
import tempfile
from pathlib import Path

import yaml
from minisweagent import config as config_package
from minisweagent.agents.default import DefaultAgent
from minisweagent.environments.local import LocalEnvironment
from minisweagent.models.test_models import DeterministicToolcallModel, make_toolcall_output


def output(i: int, content: str, command: str) -> dict:
    call_id = f"call_{i}_0"
    call = {
        "id": call_id,
        "type": "function",
        "function": {"name": "bash", "arguments": f'{{"command": "{command}"}}'},
    }
    return make_toolcall_output(content, [call], [{"command": command, "tool_call_id": call_id}])


def run(cwd: str) -> DefaultAgent:
    """The agent after its scripted run in ``cwd`` (two ``echo`` calls, the second submits)."""
    config = yaml.safe_load((Path(config_package.__file__).parent / "mini.yaml").read_text())["agent"]
    model = DeterministicToolcallModel(
        outputs=[
            output(0, "Let me look first.", "echo hello"),
            output(1, "Done.", "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"),
        ]
    )
    agent = DefaultAgent(model, LocalEnvironment(cwd=cwd), **config)
    agent.run("Say hello.")
    return agent


if __name__ == "__main__":
    with tempfile.TemporaryDirectory() as cwd:
        run(cwd).save(Path(sys.argv[1]))
