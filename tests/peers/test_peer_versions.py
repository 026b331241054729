"""Which LiteLLM / Agents SDK version the library strategies run: the pin, a named one, the one installed.

The selection is tested on its own, with real package metadata (a ``dist-info`` folder on
``sys.path``, read by ``importlib.metadata`` as an installed LiteLLM is). The different outcome of a
second real version needs that version's environment: installing LiteLLM 1.110.2 takes 2 min 33 s
here (pip cache warm, load average 9; 2 min 51 s cold), so
`test_litellm_1_110_2_sends_a_gemini_history_1_106_2_refuses` runs when the environment is in the
peers cache (``toolhist peers install --peer-version litellm=1.110.2``, once) or when
``TOOLHIST_TEST_SECOND_LITELLM=1`` asks it to install it, and is skipped with that command otherwise.
CI installs it beside the S3 job and the quick start and sets the variable (``.ci/run``), so there it
runs, or fails when the install does.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from builders import ai, call, human, result, session, tool
from peers_env import peers_env  # noqa: F401  # the session fixture

from toolhist.curation import curate
from toolhist.curation.strategies import strategy_for
from toolhist.errors import UsageError
from toolhist.peers import env, run, versions
from toolhist.peers.env import MARKER, PeersEnv, PeersMissing, env_dir, find, install
from toolhist.peers.pins import PINS, env_key
from toolhist.peers.versions import Selected, describe, parse, resolve, selected, using

SECOND = "1.110.2"
THOUGHT_ID = "call_1__thought__c2lnbmF0dXJl"


def installed_here(root: Path, name: str, version: str) -> None:
    """A distribution's metadata as pip leaves it, so ``importlib.metadata`` finds ``name`` installed."""
    info = root / f"{name.replace('-', '_')}-{version}.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n")


@pytest.fixture
def no_choice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(versions.ENV, raising=False)


@pytest.mark.usefixtures("no_choice")
def test_the_pin_is_the_default() -> None:
    assert versions.installed("litellm") is None  # toolhist's own environment has no LiteLLM
    assert selected("litellm") == Selected("litellm", PINS["litellm"], "pin")
    assert selected("openai-agents") == Selected("openai-agents", PINS["openai-agents"], "pin")
    assert describe(selected("litellm")) == "litellm 1.106.2 (the pin)"


@pytest.mark.usefixtures("no_choice")
def test_the_version_installed_here_wins_over_the_pin(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed_here(tmp_path, "litellm", "1.110.2")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert selected("litellm") == Selected("litellm", "1.110.2", "installed here")
    assert describe(selected("litellm")) == "litellm 1.110.2 (installed here; the pin is 1.106.2)"
    assert resolve("litellm", "installed") == "1.110.2"
    assert resolve("litellm", "pin") == "1.106.2"


@pytest.mark.usefixtures("no_choice")
def test_the_environment_variable_wins_over_the_installed_version(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    installed_here(tmp_path, "litellm", "1.110.2")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv(versions.ENV, "litellm=1.108.0, openai-agents=pin")
    assert selected("litellm") == Selected("litellm", "1.108.0", "environment")
    assert selected("openai-agents") == Selected("openai-agents", "0.24.0", "environment")
    assert (
        describe(selected("litellm")) == "litellm 1.108.0 (from TOOLHIST_PEER_VERSIONS; the pin is 1.106.2)"
    )


@pytest.mark.usefixtures("no_choice")
def test_a_named_version_wins_for_the_block_only(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(versions.ENV, "litellm=1.108.0")
    with using({"litellm": "1.110.2"}):
        assert selected("litellm") == Selected("litellm", "1.110.2", "named")
        with using({"openai-agents": "0.23.0"}):
            assert selected("litellm").version == "1.110.2"
            assert selected("openai-agents") == Selected("openai-agents", "0.23.0", "named")
        assert selected("openai-agents").why == "pin"
    assert selected("litellm") == Selected("litellm", "1.108.0", "environment")


def test_bad_names_are_one_line_usage_errors() -> None:
    with pytest.raises(
        UsageError, match=r"^--peer-version: 'litellm' is not LIBRARY=VERSION \(e\.g\. litellm=1\.106\.2\)$"
    ):
        parse(["litellm"])
    with pytest.raises(
        UsageError, match=r"^no strategy runs 'langchain'; name one of: litellm, openai-agents$"
    ):
        parse(["langchain=1.0"])
    with pytest.raises(
        UsageError, match=r"^'latest!' is not a version of litellm \(e\.g\. litellm=1\.106\.2\)$"
    ):
        parse(["litellm=latest!"])
    with pytest.raises(
        UsageError,
        match=r"^litellm is not installed in this Python environment; name a version \(--peer-version litellm=1\.106\.2\)$",
    ):
        parse(["litellm=installed"])
    with pytest.raises(
        UsageError, match=r"^unknown strategy 'toolhist@1\.0'; only the strategies that run a library"
    ):
        strategy_for("toolhist@1.0")


def test_each_version_has_its_own_environment_and_the_pin_keeps_its_directory() -> None:
    assert env_key("litellm") == env_key("litellm", PINS["litellm"])
    assert env_key("litellm").startswith("litellm-1.106.2-")
    assert env_key("litellm", SECOND).startswith("litellm-1.110.2-")
    assert env_dir("litellm", SECOND) != env_dir("litellm")


def test_two_installs_of_one_environment_make_it_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The suite's parallel workers (and two terminals) may install the same environment at once: the
    second waits for the first's lock and finds its environment, instead of deleting it half-made."""
    monkeypatch.setenv("TOOLHIST_PEERS_HOME", str(tmp_path))
    made: list[Path] = []
    first_inside, finish = threading.Event(), threading.Event()

    def make(library: str, version: str | None, path: Path, *, log: bool) -> PeersEnv:
        made.append(path)
        first_inside.set()
        assert finish.wait(30)
        (path / "bin").mkdir(parents=True, exist_ok=True)
        (path / "bin" / "python").touch()
        (path / MARKER).write_text(json.dumps({library: "1.0"}))
        return PeersEnv(library=library, path=path, versions={library: "1.0"})

    monkeypatch.setattr(env, "_make", make)
    got: list[PeersEnv] = []
    first = threading.Thread(target=lambda: got.append(install("litellm", SECOND)))
    first.start()
    assert first_inside.wait(30)
    second = threading.Thread(target=lambda: got.append(install("litellm", SECOND)))
    second.start()
    second.join(0.5)  # without the lock it would be making the environment again by now
    finish.set()
    first.join(30)
    second.join(30)
    assert made == [env_dir("litellm", SECOND)]
    assert [(e.path, e.versions) for e in got] == [(env_dir("litellm", SECOND), {"litellm": "1.0"})] * 2


@pytest.mark.usefixtures("no_choice")
def test_a_named_version_not_installed_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TOOLHIST_PEERS_HOME", str(tmp_path))
    monkeypatch.setattr(run, "_WORKERS", {})  # no worker an earlier test started
    with pytest.raises(PeersMissing) as raised:
        curate(session(human("x")), "gemini", strategy=f"litellm@{SECOND}")
    assert str(raised.value) == (
        f"the 'litellm' strategy runs litellm 1.110.2 (named; the pin is 1.106.2), whose environment is not "
        f"installed (looked in {env_dir('litellm', SECOND)}); run `toolhist peers install --peer-version "
        f"litellm=1.110.2`, or run the pin with --peer-version litellm=pin"
    )


def test_the_cli_names_the_version_and_why(tmp_path: Path) -> None:
    history = tmp_path / "chat.json"
    history.write_text(
        '{"model": "gpt-4.1", "messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "x"}]}'
    )
    env = {k: v for k, v in os.environ.items() if k != versions.ENV}
    env["TOOLHIST_PEERS_HOME"] = str(tmp_path / "peers")  # nothing installed: the answer is the reason
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolhist",
            "compare",
            str(history),
            "--provider",
            "gemini",
            "--strategy",
            "litellm",
            "--peer-version",
            f"litellm={SECOND}",
            "--strategy",
            "none",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=True,
    ).stdout
    assert out.splitlines()[-1] == "versions litellm: litellm 1.110.2 (named; the pin is 1.106.2)"
    bad = subprocess.run(
        [
            sys.executable,
            "-m",
            "toolhist",
            "curate",
            str(history),
            "--provider",
            "gemini",
            "--peer-version",
            "litellm",
        ],
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert (bad.returncode, bad.stderr) == (
        2,
        "toolhist: error: --peer-version: 'litellm' is not LIBRARY=VERSION (e.g. litellm=1.106.2)\n",
    )


def _second() -> None:
    if find("litellm", SECOND) is not None:
        return
    if os.environ.get("TOOLHIST_TEST_SECOND_LITELLM") == "1":
        install("litellm", SECOND)
        return
    pytest.skip(
        f"LiteLLM {SECOND} is not in the peers cache and installing it takes over 2 minutes (2 min 33 s "
        f"measured), so a local run leaves it out (CI installs it): run `toolhist peers install --peer-version litellm={SECOND}` "
        "once (or set TOOLHIST_TEST_SECOND_LITELLM=1) and this test runs"
    )


@pytest.mark.usefixtures("peers_env", "no_choice")
def test_litellm_1_110_2_sends_a_gemini_history_1_106_2_refuses() -> None:
    """LiteLLM keeps a Gemini thought signature in the call id (``<id>__thought__<signature>``); a
    client that answers with the bare id gets a result 1.106.2 cannot pair (it compares ids exactly)
    and 1.110.2 pairs by the id before the separator (``_called_tool_name``, factory.py)."""
    _second()
    history = session(human("go"), ai(call(THOUGHT_ID)), tool(result("call_1")), ai("done"), human("next"))
    pinned = curate(history, "gemini", strategy="litellm")
    assert pinned.library == "litellm 1.106.2"
    assert [(c.pass_, c.action) for c in pinned.changes] == [("litellm", "keep")]
    assert pinned.changes[0].detail["error"] == "APIConnectionError"
    assert str(pinned.changes[0].detail["error_text"]).startswith(
        "litellm.APIConnectionError: Missing corresponding tool call for tool response message. Received - "
    )
    assert pinned.session == history  # nothing was sent: the history as given
    newer = curate(history, "gemini", strategy=f"litellm@{SECOND}")
    assert newer.library == "litellm 1.110.2"
    assert newer.changes == ()
    assert newer.session.source.notes == (
        "the request body LiteLLM 1.110.2 sent to gemini (/models/gemini-2.5-pro:generateContent)",
    )
    with using({"litellm": SECOND}):  # --peer-version and the app's choice take this path
        assert curate(history, "gemini", strategy="litellm").library == "litellm 1.110.2"
