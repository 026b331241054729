"""Reads mini-SWE-agent's live objects with toolhist, inside an environment that has mini-swe-agent.

``PYTHONPATH=<toolhist checkout> python mini_swe_live.py OUT.traj.json``: the run of
``mini_swe_agent_trajectory.py`` (``DefaultAgent``, ``config/mini.yaml``, its own test model
``DeterministicToolcallModel``, ``LocalEnvironment`` running ``echo`` in a temporary folder, so no
network), then ``toolhist.load`` on the agent itself, on its ``messages`` list and on the trajectory
``agent.save(OUT)`` wrote. Prints one JSON object: each object's class and the session toolhist read
from it (format, turns and blocks, unsent kinds), which tests/by_agent/test_eval_frameworks.py holds
to each other and to the corpus file. mini-swe-agent brings LiteLLM and ``datasets`` into any
environment it joins, so it runs here rather than in toolhist's test environment.
"""

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from live_read import read
from mini_swe_agent_trajectory import run

out = Path(sys.argv[1])
with tempfile.TemporaryDirectory() as cwd:
    agent = run(cwd)
    agent.save(out)
print(
    json.dumps(
        {
            "agent": read(agent, unsent=True),
            "messages": read(agent.messages, unsent=True),
            "trajectory": read(out, unsent=True),
        }
    )
)
