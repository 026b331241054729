"""Reads Harbor's live ATIF objects with toolhist, inside an environment that has Harbor's models.

``PYTHONPATH=<toolhist checkout> python harbor_live.py GOLDEN.json OUT.json``: Harbor 0.25.0's own
pydantic models (laude-institute/harbor ``src/harbor/models/trajectories/``: ``Trajectory``,
``Agent``, ``Step``, ``ToolCall``, ``Observation``, ``ObservationResult``) make two live trajectories:
``Trajectory.model_validate`` of Harbor's golden terminus-2 file (what Harbor's loaders do), and a
trajectory built step by step as an agent adapter builds one (one call answered, one left pending);
the built one is then written as Harbor writes ``trajectory.json`` (``model_dump_json(exclude_none=True)``)
to OUT. Prints one JSON object: what toolhist read from each object and from OUT (live_read.read), which
tests/by_agent/test_eval_frameworks.py holds to each other and to the corpus file.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from harbor.models.trajectories import Agent, Observation, ObservationResult, Step, ToolCall, Trajectory
from live_read import read

golden, out = Path(sys.argv[1]), Path(sys.argv[2])
validated = Trajectory.model_validate_json(golden.read_text())
built = Trajectory(
    session_id="harbor-live-1",
    agent=Agent(name="toolhist-producer", version="1.0", model_name="claude-sonnet-4-5"),
    steps=[
        Step(step_id=1, source="user", message="List the files, then read README.md."),
        Step(
            step_id=2,
            source="agent",
            message="Listing first.",
            tool_calls=[ToolCall(tool_call_id="call_ls", function_name="bash", arguments={"command": "ls"})],
            observation=Observation(
                results=[ObservationResult(source_call_id="call_ls", content="README.md")]
            ),
        ),
        Step(
            step_id=3,
            source="agent",
            message="Reading it.",
            tool_calls=[
                ToolCall(
                    tool_call_id="call_cat", function_name="bash", arguments={"command": "cat README.md"}
                )
            ],
        ),
    ],
)
out.write_text(built.model_dump_json(exclude_none=True))
print(
    json.dumps(
        {
            "validated": read(validated, unsent=True),
            "built": read(built, unsent=True),
            "written": read(out, unsent=True),
        }
    )
)
