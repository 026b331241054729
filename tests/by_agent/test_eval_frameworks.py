"""Inspect AI, SWE-agent, mini-SWE-agent, ATIF and smolagents: their files (made by the frameworks
themselves, tests/corpus/producers/) read as each sends them; live objects by their class's module.

Inspect AI's live objects are its own, read in an environment of its own (inspect-ai caps fsspec
below the fleet extra's range, so it cannot join toolhist's test environment): `toolhist.peers.env`
installs it as it does the strategies' libraries, and tests/corpus/producers/inspect_live.py runs
toolhist there. mini-SWE-agent's are its own too, the same way (mini-swe-agent brings LiteLLM and
datasets; tests/corpus/producers/mini_swe_live.py), and Harbor's ATIF models (harbor_live.py; Harbor
declares Python 3.12, its models import on 3.11: `toolhist.peers.pins.ALONE`). SWE-agent is not on
PyPI (only a 0.0.1 placeholder; it installs from its git repository), so its ``AgentRunResult`` is
a pydantic model of the same fields in its module (`run_result_model`): the duck typing
`toolhist.live` does, without importing the framework. smolagents' are real (test_smolagents.py).
"""

from __future__ import annotations

import json
import os
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

import toolhist
from toolhist.model import TextBlock, ToolCallBlock, ToolResponseBlock

LOGS = Path(__file__).parents[1] / "corpus" / "logs"
EVAL = LOGS / "inspect-ai" / "inspect-mockllm-tools.eval"
EVAL_JSON = LOGS / "inspect-ai" / "inspect-mockllm-tools.json"
SMOL = LOGS / "smolagents" / "smolagents-toolcalling-memory.json"
SMOL_SENT = LOGS / "smolagents" / "smolagents-toolcalling-memory.messages.json"
MINI = LOGS / "mini-swe-agent" / "mini-swe-agent-toolcall.traj.json"
SWE = LOGS / "swe-agent" / "swe-agent-function-calling-simple.traj"
ATIF = LOGS / "atif" / "atif-v1.4-rfc-shapes.fixture.json"
TERMINUS = LOGS / "atif" / "terminus-2-hello-world-timeout.trajectory.json"


def shape(session: toolhist.Session) -> list[tuple[str, list[str]]]:
    return [(m.speaker, [b.type for b in m.blocks]) for m in session.messages]


INSPECT_SAMPLE = [
    ("system", ["text"]),
    ("human", ["text"]),
    ("ai", ["text", "tool_call"]),  # mockllm's call says "tool call for tool get_weather"
    ("tool", ["tool_response"]),
    ("ai", ["text"]),
]


@pytest.mark.parametrize("log", [EVAL, EVAL_JSON], ids=["eval", "json"])
def test_inspect_logs_read_each_sample(log: Path) -> None:
    first = toolhist.load(log)
    assert first.source.format == "inspect-ai"
    assert shape(first) == INSPECT_SAMPLE
    assert first.metadata["samples"] == ["1_epoch_1", "2_epoch_1"]
    assert any("2 samples" in note for note in first.source.notes)
    second = toolhist.load(f"{log}#2_epoch_1")
    assert second.metadata["log_session"] == "2_epoch_1"
    (call,) = second.messages[2].tool_calls()
    assert call.parameters == {"city": "Oslo"}
    assert toolhist.load(f"{log}#2").metadata["log_session"] == "2_epoch_1"


def test_inspect_eval_and_json_logs_hold_the_same_history() -> None:
    """Two runs of the same task (message ids and times differ): the same turns, calls and results."""

    def turns(session: toolhist.Session) -> list[tuple[str, list[Any]]]:
        return [
            (m.speaker, [b.model_dump(exclude={"provider_data"}) for b in m.blocks]) for m in session.messages
        ]

    assert turns(toolhist.load(EVAL)) == turns(toolhist.load(EVAL_JSON))


def test_inspect_unknown_sample_is_one_line() -> None:
    with pytest.raises(toolhist.LoadError) as caught:
        toolhist.load(f"{EVAL}#9")
    assert "no sample '9'" in str(caught.value)
    assert "1_epoch_1" in str(caught.value)


def test_inspect_a_json_file_of_one_session_refuses_a_locator(tmp_path: Path) -> None:
    path = tmp_path / "h.json"
    path.write_text(
        json.dumps([{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}])
    )
    with pytest.raises(toolhist.LoadError) as caught:
        toolhist.load(f"{path}#x")
    assert "holds one" in str(caught.value)


def test_inspect_attachments_are_put_back() -> None:
    log = json.loads(EVAL_JSON.read_text())
    sample = log["samples"][0]
    text = sample["messages"][1]["content"]
    sample["attachments"] = {"abc": text}
    sample["messages"][1]["content"] = "attachment://abc"
    session = toolhist.load(log)
    assert session.messages[1].blocks == (TextBlock(text=text),)


def sampled(library: str, script: str, args: list[str], cwd: Path, env: dict[str, str]) -> dict[str, Any]:
    """The JSON line a producer (tests/corpus/producers/``script``) printed, run in ``library``'s own
    environment (`toolhist.peers.env`, cached: `./dev test` makes it) with this checkout on its path."""
    from toolhist.errors import ToolhistError
    from toolhist.peers.env import install

    try:
        made = install(library)
    except ToolhistError as exc:
        pytest.fail(f"the {library} environment could not be installed: {exc}")
    root = Path(__file__).parents[2]
    ran = subprocess.run(
        [str(made.python), str(root / "tests" / "corpus" / "producers" / script), *args],
        cwd=cwd,
        env={**os.environ, "PYTHONPATH": str(root), **env},
        capture_output=True,
        text=True,
        check=False,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    result: dict[str, Any] = json.loads(ran.stdout.splitlines()[-1])
    return result


@pytest.fixture(scope="module")
def inspect_live(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What toolhist read from Inspect's own EvalLog, EvalSample and ChatMessage list (inspect_live.py)."""
    here = tmp_path_factory.mktemp("inspect")
    return sampled("inspect-ai", "inspect_live.py", ["logs"], here, {"INSPECT_LOG_DIR": "logs"})


def test_inspect_its_own_live_objects_read_as_its_log(inspect_live: dict[str, Any]) -> None:
    first = toolhist.load(EVAL_JSON)
    on_disk = [
        [m.speaker, [b.model_dump(mode="json", exclude={"provider_data"}) for b in m.blocks]]
        for m in first.messages
    ]
    assert {k: v["class"] for k, v in inspect_live.items()} == {
        "log": "inspect_ai.log._log.EvalLog",
        "sample": "inspect_ai.log._log.EvalSample",
        "messages": "builtins.list",
    }
    for read in inspect_live.values():
        assert read["format"] == "inspect-ai"
        assert read["turns"] == on_disk


def test_inspect_a_sample_member_reads_alone() -> None:
    with zipfile.ZipFile(EVAL) as zf:
        assert "samples/1_epoch_1.json" in zf.namelist()
    sample = json.loads(EVAL_JSON.read_text())["samples"][0]
    assert shape(toolhist.load(sample)) == INSPECT_SAMPLE


def test_smolagents_memory_reads_as_what_smolagents_sends() -> None:
    """Held to smolagents' own write_memory_to_messages() of the same run."""
    session = toolhist.load(SMOL)
    sent = json.loads(SMOL_SENT.read_text())
    roles = {
        "system": "system",
        "user": "human",
        "assistant": "ai",
        "tool-call": "ai",
        "tool-response": "human",
    }
    assert [
        (m.speaker, "".join(b.text for b in m.blocks if isinstance(b, TextBlock))) for m in session.messages
    ] == [(roles[m["role"]], "".join(p["text"] for p in m["content"] or [])) for m in sent]
    assert toolhist.summarize(session).tool_calls == 0
    recorded: list[Any] = [
        m.metadata.extra["tool_calls"] for m in session.messages if "tool_calls" in m.metadata.extra
    ]
    assert [c[0]["function"]["name"] for c in recorded] == ["get_weather", "final_answer"]


def test_mini_swe_agent_sends_its_messages_without_extra() -> None:
    session = toolhist.load(MINI)
    assert session.source.format == "mini-swe-agent"
    assert [u.kind for u in session.unsent] == ["exit message"]
    result = session.messages[3].blocks[0]
    assert isinstance(result, ToolResponseBlock)
    assert result.call_id == "call_0_0"
    assert all("extra" not in m.metadata.extra for m in session.messages)


@pytest.fixture(scope="module")
def mini_swe_live(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What toolhist read from mini-SWE-agent's own ``DefaultAgent``, its ``messages`` list and the
    trajectory its ``save()`` wrote, after a scripted offline run (mini_swe_live.py)."""
    here = tmp_path_factory.mktemp("mini-swe")
    quiet = {
        "MSWEA_GLOBAL_CONFIG_DIR": str(here / "config"),  # not the user's ~/.config/mini-swe-agent
        "MSWEA_SILENT_STARTUP": "1",
    }
    return sampled("mini-swe-agent", "mini_swe_live.py", ["run.traj.json"], here, quiet)


def test_mini_swe_agent_live_agent_messages_and_saved_trajectory_read_alike(
    mini_swe_live: dict[str, Any],
) -> None:
    """mini-swe-agent 2.4.6's own ``DefaultAgent`` (SWE-agent/mini-swe-agent
    ``src/minisweagent/agents/default.py``: ``messages``, ``serialize()``, ``save()``), run offline with
    its test model ``DeterministicToolcallModel`` (``src/minisweagent/models/test_models.py``) and a
    ``LocalEnvironment``: the agent, its ``messages`` list and its ``.traj.json`` read the same, and as
    the corpus file the same script wrote (only the instance prompt differs: it names the host's OS)."""
    assert {k: v["class"] for k, v in mini_swe_live.items()} == {
        "agent": "minisweagent.agents.default.DefaultAgent",
        "messages": "builtins.list",
        "trajectory": "pathlib.PosixPath",
    }
    agent = mini_swe_live["agent"]
    for read in mini_swe_live.values():
        assert read["format"] == "mini-swe-agent"
        assert read["turns"] == agent["turns"]
        assert read["unsent"] == ["exit message"]
    on_disk = [
        [m.speaker, [b.model_dump(mode="json", exclude={"provider_data"}) for b in m.blocks]]
        for m in toolhist.load(MINI).messages
    ]
    assert [(s, [b["type"] for b in blocks]) for s, blocks in agent["turns"]] == [
        ("system", ["text"]),
        ("human", ["text"]),
        ("ai", ["text", "tool_call"]),
        ("tool", ["tool_response"]),
        ("ai", ["text", "tool_call"]),
    ]
    assert [t for i, t in enumerate(agent["turns"]) if i != 1] == [t for i, t in enumerate(on_disk) if i != 1]
    calls = [b for _, blocks in agent["turns"] for b in blocks if b["type"] == "tool_call"]
    assert [(c["id"], c["name"], c["parameters"]) for c in calls] == [
        ("call_0_0", "bash", {"command": "echo hello"}),
        ("call_1_0", "bash", {"command": "echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT"}),
    ]
    (result,) = agent["turns"][3][1]
    assert (result["call_id"], result["result"]) == (
        "call_0_0",
        "<returncode>0</returncode>\n<output>\nhello\n</output>",
    )


def test_mini_swe_agent_messages_list_and_an_agent_without_serialize() -> None:
    """The file's ``messages`` list read bare keeps its paths; an agent class without ``serialize()``
    (a stand-in: 2.4.6's has it, the live test above runs that one) is read by its ``messages``."""
    value = json.loads(MINI.read_text())
    on_disk = toolhist.load(MINI)
    bare = toolhist.load(value["messages"])
    old_agent = type("DefaultAgent", (), {"__module__": "minisweagent.agents.default"})()
    old_agent.messages = value["messages"]
    for read in (bare, toolhist.load(old_agent)):
        assert read.source.format == "mini-swe-agent"
        assert [(m.speaker, m.blocks) for m in read.messages] == [
            (m.speaker, m.blocks) for m in on_disk.messages
        ]
        assert [u.kind for u in read.unsent] == ["exit message"]
    assert bare.source.locations[2].json_path == "[2]"


def swe_run_result() -> dict[str, Any]:
    """An ``AgentRunResult`` as SWE-agent's ``add_step_to_trajectory`` builds it: each step's ``query`` is
    the history sent at that step (here cut from the real demonstration's history at each answer)."""
    history = json.loads(SWE.read_text())["history"]
    answers = [i for i, h in enumerate(history) if h["role"] == "assistant"]
    steps = [
        {
            "action": history[i].get("action"),
            "observation": "",
            "response": history[i]["content"],
            "thought": history[i].get("thought", ""),
            "execution_time": 0.1,
            "state": {},
            "query": history[:i],
            "extra_info": {},
        }
        for i in answers
    ]
    return {"info": {"exit_status": "submitted"}, "trajectory": steps}


def run_result_model() -> Any:
    """A pydantic model shaped as SWE-agent's ``AgentRunResult`` (SWE-agent/SWE-agent
    05ff843f80d1b7e9a5a142ef3d54e0f5bdd2107a ``sweagent/types.py``: ``info``, an ``AgentInfo`` TypedDict,
    and ``trajectory``, a list of ``TrajectoryStep`` TypedDicts, which are plain dicts at run time) in
    its module. SWE-agent is not on PyPI (only a 0.0.1 placeholder), so the class itself cannot be
    installed here; toolhist reads it by module and ``model_dump``, as it would the real one."""
    from pydantic import BaseModel

    class AgentRunResult(BaseModel):
        info: dict[str, Any]
        trajectory: list[dict[str, Any]]

    AgentRunResult.__module__ = "sweagent.types"
    return AgentRunResult


def test_swe_agent_run_result_and_trajectory_read_the_last_query() -> None:
    result = swe_run_result()
    history = json.loads(SWE.read_text())["history"]
    last = max(i for i, h in enumerate(history) if h["role"] == "assistant")
    expected = toolhist.load({"history": history[:last]})
    for value in (
        result,
        result["trajectory"],
        run_result_model().model_validate(result),
    ):
        read = toolhist.load(value)
        assert read.source.format == "swe-agent"
        assert [(m.speaker, m.blocks) for m in read.messages] == [
            (m.speaker, m.blocks) for m in expected.messages
        ]
        assert any(
            f"trajectory step {len(result['trajectory']) - 1} (its query)" in n for n in read.source.notes
        )
    assert toolhist.load(result).metadata["info"] == {"exit_status": "submitted"}


def test_swe_agent_history_is_sent_one_result_per_observation() -> None:
    session = toolhist.load(SWE)
    assert session.source.format == "swe-agent"
    assert toolhist.validate(session, "openai-chat") == []
    assert toolhist.validate(session, "anthropic") == []
    first = session.messages[2]
    assert first.metadata.extra["action"] == "find_file missing_colon.py"
    call = first.blocks[-1]
    assert isinstance(call, ToolCallBlock)
    assert call.parameters == {"file_name": "missing_colon.py"}


def test_atif_steps_read_as_turns_and_observations_as_results() -> None:
    session = toolhist.load(ATIF)
    assert shape(session) == [
        ("system", ["text"]),
        ("human", ["text"]),
        ("ai", ["thinking", "text", "tool_call", "tool_call"]),
        ("tool", ["tool_response", "tool_response"]),
        ("ai", ["text"]),
    ]
    assert session.messages[4].metadata.model == "claude-sonnet-4-5"


def test_atif_harbor_made_terminus_trajectory() -> None:
    """Harbor's own golden trajectory (ATIF-v1.5): terminus-2 parses its commands out of JSON text.

    No result in it names a ``source_call_id``: the terminal output went back as text, so the
    recorded ``tool_calls`` were never native calls. They are kept unsent, each where it stood, and
    no provider is told of a call left unanswered (read as calls, Anthropic flagged three).
    """
    session = toolhist.load(TERMINUS)
    assert session.source.format == "atif"
    assert shape(session) == [("human", ["text"])] + [("ai", ["text"]), ("human", ["text"])] * 3
    assert [(u.kind, u.before, u.json_path) for u in session.unsent] == [
        ("tool call parsed from text", 2, "steps[1].tool_calls[0]"),
        ("tool call parsed from text", 4, "steps[2].tool_calls[0]"),
        ("tool call parsed from text", 6, "steps[3].tool_calls[0]"),
    ]
    assert session.unsent[0].text == '{"keystrokes": "echo \'Hello, world!\'\\n", "duration": 0.1}'
    assert session.messages[2].blocks == (
        TextBlock(
            text="New Terminal Output:\n\nroot@CONTAINER_ID:/app# echo 'Hello, world!'\nHello, world!\n\n\n"
        ),
    )
    assert session.messages[-2].metadata.model == "openai/gpt-4o"
    for provider in ("anthropic", "openai-chat", "gemini"):
        assert toolhist.validate(session, provider) == [], provider


def test_atif_calls_linked_by_source_call_id_stay_calls() -> None:
    """One linked result anywhere says the agent sends native calls: every call stays a call."""
    value = json.loads(TERMINUS.read_text())
    value["steps"][1]["observation"]["results"][0]["source_call_id"] = "call_0_1"
    session = toolhist.load(value, name="t.json")
    assert session.unsent == ()
    assert [len(list(m.tool_calls())) for m in session.messages if m.speaker == "ai"] == [1, 1, 1]
    assert [v.rule for v in toolhist.validate(session, "anthropic")].count("ant.result_missing") == 2


@pytest.fixture(scope="module")
def harbor_live(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What toolhist read from Harbor 0.25.0's own ``Trajectory`` objects (harbor_live.py): one validated
    from Harbor's golden terminus-2 file, one built step by step and the file its dump wrote."""
    here = tmp_path_factory.mktemp("harbor")
    return sampled("harbor", "harbor_live.py", [str(TERMINUS), str(here / "trajectory.json")], here, {})


def test_atif_harbor_trajectory_model_live(harbor_live: dict[str, Any]) -> None:
    """Harbor's pydantic ``Trajectory`` (laude-institute/harbor ``src/harbor/models/trajectories/``),
    the real class: validated from Harbor's golden file it reads as the file does; built by hand (the
    default schema version, ATIF-v1.8) it reads as the JSON its ``model_dump_json`` wrote."""
    assert {k: (v["class"], v["format"]) for k, v in harbor_live.items()} == {
        "validated": ("harbor.models.trajectories.trajectory.Trajectory", "atif"),
        "built": ("harbor.models.trajectories.trajectory.Trajectory", "atif"),
        "written": ("pathlib.PosixPath", "atif"),
    }
    golden = toolhist.load(TERMINUS)
    validated = harbor_live["validated"]
    assert [(t[0], [b["type"] for b in t[1]]) for t in validated["turns"]] == shape(golden)
    assert validated["unsent"] == [u.kind for u in golden.unsent] == ["tool call parsed from text"] * 3
    built = harbor_live["built"]
    assert built["turns"] == harbor_live["written"]["turns"]
    assert built["unsent"] == []
    assert [(t[0], [b["type"] for b in t[1]]) for t in built["turns"]] == [
        ("human", ["text"]),
        ("ai", ["text", "tool_call"]),
        ("tool", ["tool_response"]),
        ("ai", ["text", "tool_call"]),
    ]
    calls = [b for t in built["turns"] for b in t[1] if b["type"] == "tool_call"]
    assert [(c["id"], c["name"], c["parameters"]) for c in calls] == [
        ("call_ls", "bash", {"command": "ls"}),
        ("call_cat", "bash", {"command": "cat README.md"}),
    ]
    answered = [b for t in built["turns"] for b in t[1] if b["type"] == "tool_response"]
    assert [(r["call_id"], r["result"]) for r in answered] == [("call_ls", "README.md")]


def test_atif_a_bad_source_names_its_step() -> None:
    value = json.loads(ATIF.read_text())
    value["steps"][1]["source"] = "robot"
    with pytest.raises(toolhist.LoadError) as caught:
        toolhist.load(value, name="t.json")
    assert "steps[1].source" in str(caught.value)


def test_a_fifo_is_not_opened_to_look_for_a_zip_archive(tmp_path: Path) -> None:
    """Looking for an Inspect ``.eval`` archive's header must not block on a named pipe."""
    from toolhist.agents import archives

    fifo = tmp_path / "log.eval"
    __import__("os").mkfifo(fifo)
    assert not archives.is_zip(str(fifo))
    with pytest.raises(toolhist.LoadError, match="is a FIFO"):
        toolhist.load(fifo)
