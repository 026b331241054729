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

from mini_swe_agent_trajectory import run

import toolhist  # from PYTHONPATH: the checkout under test


def read(value):
    session = toolhist.load(value)
    return {
        "class": f"{type(value).__module__}.{type(value).__name__}",
        "format": session.source.format,
        "turns": [
            [m.speaker, [b.model_dump(mode="json", exclude={"provider_data"}) for b in m.blocks]]
            for m in session.messages
        ],
        "unsent": [u.kind for u in session.unsent],
    }


out = Path(sys.argv[1])
with tempfile.TemporaryDirectory() as cwd:
    agent = run(cwd)
    agent.save(out)
print(json.dumps({"agent": read(agent), "messages": read(agent.messages), "trajectory": read(out)}))
