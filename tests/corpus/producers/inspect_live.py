"""Reads Inspect AI's live objects with toolhist, inside an environment that has inspect-ai.

``PYTHONPATH=<toolhist checkout> python inspect_live.py LOGDIR``: the same task and ``mockllm``
outputs as ``inspect_eval_log.py`` (so no network), then ``toolhist.load`` on the ``EvalLog``
``eval()`` returned, on its first ``EvalSample`` and on that sample's ``ChatMessage`` list. Prints one
JSON object: each object's class and the session toolhist read from it (format, turns and blocks),
which tests/by_agent/test_eval_frameworks.py holds to the log files. inspect-ai does not fit
toolhist's own test environment (it caps fsspec below the fleet extra's range), so it runs here.
"""

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from inspect_ai import eval as inspect_eval
from inspect_ai.model import get_model
from inspect_eval_log import outputs, task
from live_read import read

model = get_model("mockllm/model", custom_outputs=outputs())
(log,) = inspect_eval(
    task, model=model, log_format="json", log_dir=sys.argv[1], display="none", max_samples=1
)
sample = log.samples[0]
print(json.dumps({"log": read(log), "sample": read(sample), "messages": read(sample.messages)}))
