"""Writes Inspect AI eval logs (``.eval`` and ``.json``) of a tool-calling task, offline.

Run in an environment with inspect-ai (toolhist only reads its logs): ``python inspect_eval_log.py
OUTDIR``. The model is Inspect's own ``mockllm/model`` with scripted outputs (a call, an answer per
sample), each with its usage set so mockllm does not count tokens (tiktoken would download its
encoding); the tool really runs. Two samples, so the log holds more than one session.
"""

import sys

from inspect_ai import Task
from inspect_ai import eval as inspect_eval
from inspect_ai.dataset import Sample
from inspect_ai.model import ModelOutput, ModelUsage, get_model
from inspect_ai.scorer import includes
from inspect_ai.solver import generate, system_message, use_tools
from inspect_ai.tool import tool


@tool
def get_weather():
    async def execute(city: str) -> str:
        """Weather in a city.

        Args:
            city: The city.
        """
        return f"sunny in {city}"

    return execute


def _usage(out):
    out.usage = ModelUsage(input_tokens=10, output_tokens=5, total_tokens=15)
    return out


def outputs():
    return [
        _usage(o)
        for o in [
            ModelOutput.for_tool_call(
                "mockllm/model", "get_weather", {"city": "Paris"}, tool_call_id="call_1"
            ),
            ModelOutput.from_content("mockllm/model", "It is sunny in Paris."),
            ModelOutput.for_tool_call(
                "mockllm/model", "get_weather", {"city": "Oslo"}, tool_call_id="call_2"
            ),
            ModelOutput.from_content("mockllm/model", "It is sunny in Oslo."),
        ]
    ]


task = Task(
    dataset=[
        Sample(input="Weather in Paris?", target="sunny", id=1),
        Sample(input="Weather in Oslo?", target="sunny", id=2),
    ],
    solver=[system_message("Be brief."), use_tools(get_weather()), generate()],
    scorer=includes(),
)
if __name__ == "__main__":  # inspect_live.py imports the task and outputs
    for fmt in ("eval", "json"):
        model = get_model("mockllm/model", custom_outputs=outputs())
        logs = inspect_eval(
            task, model=model, log_format=fmt, log_dir=sys.argv[1], display="none", max_samples=1
        )
        print(logs[0].location)
