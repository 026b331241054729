"""Secrets leave the machine in no shared artefact, and stay exact where the user looks locally.

One session carries one fake secret of each of the fifteen kinds (`toolhist.redact.KINDS`), each in
the place a log puts it (a prompt, tool arguments, a tool result), plus code that only names a
variable (a real Next.js route's ``DEBUG_API_KEY: process.env.DEBUG_API_KEY``). Every artefact
meant to be shared is made from it once: the report, a guard bundle (the body sent by the real
openai SDK to the fake provider, with a custom header), the fleet dataset and the scan table, the
notebook's HTML outputs, the app's payload download, and ``toolhist --redact``. Each is checked
for each kind: the secret is gone and its marker is there. The local views (``load``, ``render``)
keep the body exactly as sent, and no artefact touches the code that names a variable.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import orjson
import pyarrow.parquet as pq
import pytest
from fake_provider import serve
from guard_calls import CHAT
from streamlit.runtime.media_file_storage import MediaFileKind
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage
from streamlit.testing.v1 import AppTest

import toolhist
from toolhist import guard
from toolhist.cli import main
from toolhist.fleet.dataset import DatasetWriter
from toolhist.fleet.task import FileResult
from toolhist.guard.bundle import SUFFIX
from toolhist.redact import KINDS, redact_text

ROOT = Path(__file__).parent.parent.parent

SECRETS: dict[str, tuple[str, str]] = {
    # kind: (the secret, the text that carries it)
    "openai-key": ("sk-proj-A1b2C3d4E5f6G7h8I9j0K1l2M3n4", "my key is {s}"),
    "anthropic-key": ("sk-ant-api03-Zz9Yy8Xx7Ww6Vv5Uu4Tt3Ss2Rr1", "ANTHROPIC_KEY={s}"),
    "google-key": ("AIzaSyA1234567890abcdefghijklmnopqrstuv", "maps key {s}"),
    "aws-access-key": ("AKIAZ7TOOLHISTFAKE42", "aws_access_key_id = {s}"),
    "aws-secret-key": ("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", "aws_secret_access_key = {s}"),
    "github-token": ("ghp_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8", "git push https://x@github.com with {s}"),
    "huggingface-token": ("hf_A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7", "HF token {s}"),
    "slack-token": ("xoxb-123456789012-A1b2C3d4E5f6G7h8", "slack: {s}"),
    "jwt": ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.abcDEF123_-xyz", "session cookie {s}"),
    "private-key": (
        "MIIEowIBAAKCAQEAtoolhistFAKEKEY0123456789abcdef",
        "-----BEGIN RSA PRIVATE KEY-----\n{s}\nQUJDREVGR0hJSktMTU5PUA==\n-----END RSA PRIVATE KEY-----",
    ),
    "url-password": ("S3cretPg42x", "DATABASE_URL=postgres://admin:{s}@db.internal:5432/app"),
    "password": ("Hunter2Hunter2x", "login --user admin password={s} --verbose"),
    "basic-auth": ("dXNlcjpzM2NyZXQ0MngxMjM=", "curl -H 'Authorization: Basic {s}' https://api.example.com"),
    "bearer-token": ("tok9f8e7d6c5b4a3210fedcba", "curl -H 'Authorization: Bearer {s}'"),
    "credential": ("Qw3rTy8uIo9pAs2dFg4hJk6lZx7cVb1n", "x-api-key: {s}"),
}
CODE = "DEBUG_API_KEY: process.env.DEBUG_API_KEY ? 'Set' : 'Not set', NEXTAUTH_SECRET: process.env.NEXTAUTH_SECRET"
"""From a real Next.js debug route (public repository content, seen through the search index): code
that names variables, which no redaction may touch."""


def test_the_kinds_are_the_fifteen() -> None:
    assert sorted(k.name for k in KINDS) == sorted(SECRETS)


def leaky_body() -> dict[str, Any]:
    """An OpenAI Chat body (a tool call never answered, so the provider says 400) with every kind."""
    body = copy.deepcopy(CHAT)
    texts = [carrier.format(s=secret) for secret, carrier in SECRETS.values()]
    body["messages"][0]["content"] = "\n".join([*texts[:8], CODE])
    body["messages"][1]["tool_calls"][0]["function"]["arguments"] = json.dumps({"cmd": texts[8], "env": CODE})
    body["messages"][2]["content"] = "\n".join(texts[9:])
    return body


@pytest.fixture(scope="module")
def leaky(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("leaky") / "leaky.json"
    path.write_text(json.dumps(leaky_body(), indent=2))
    return path


def _report(leaky: Path, tmp: Path) -> str:
    out = tmp / "report.html"
    assert main(["report", str(leaky), "-o", str(out)]) == 0
    return out.read_text()


def _bundle(leaky: Path, tmp: Path) -> str:
    import openai

    with serve() as (base, _):
        http = guard.http_client(
            "warn", capture=tmp / "bundles", headers={"x-gateway-token": SECRETS["credential"][0]}
        )
        client = openai.OpenAI(
            api_key=SECRETS["openai-key"][0], base_url=f"{base}/v1", max_retries=0, http_client=http
        )
        with pytest.raises(openai.BadRequestError):
            client.chat.completions.create(**leaky_body())
    [path] = (tmp / "bundles").glob(f"*{SUFFIX}")
    bundle = orjson.loads(path.read_bytes())
    assert bundle["request"]["headers"]["x-gateway-token"] == "[REDACTED:header]"
    assert bundle["request"]["headers"]["content-type"] == "application/json"
    return path.read_text()


def _dataset(leaky: Path, tmp: Path) -> str:
    """Every string column of the dataset: here a reason quoting the file's content."""
    writer = DatasetWriter(tmp / "dataset")
    writer.add(FileResult(file=str(leaky), error="not a session: " + leaky.read_text()))
    writer.close()
    return json.dumps(pq.read_table(tmp / "dataset" / "unreadable").to_pylist())


def _notebook(leaky: Path, tmp: Path) -> str:
    from toolhist import notebook as nb

    session = toolhist.load(str(leaky))
    timeline = nb.timeline(session, ["openai-chat"], include_plotlyjs=False)
    parts = [
        session._repr_html_(),
        nb.payloads(session, ["openai-chat", "anthropic"])._repr_html_(),
        toolhist.curate(session, "anthropic")._repr_html_(),
        json.dumps(timeline.messages),
        timeline.html(with_plotlyjs=False),
        nb.conversation(session, "openai-chat")._repr_html_(),  # the transcript, tool calls as cards
        nb.conversation(session, "openai-chat", query="curl")._repr_html_(),  # and search hits' snippets
        nb.verdicts(session, ["openai-chat", "anthropic"])._repr_html_(),
        nb.violations(session, ["openai-chat", "anthropic"]).to_html(),
        nb.explain("tool_call_ids did not have response messages: call_1", session)._repr_html_(),
    ]
    return "\n".join(parts)


def _cli_redact(leaky: Path, tmp: Path) -> str:
    out = tmp / "cli.txt"
    import contextlib
    import io

    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert main(["--redact", "render", str(leaky), "--provider", "openai-chat"]) == 0
    out.write_text(buffer.getvalue())
    return out.read_text()


def _app_download(leaky: Path, tmp: Path) -> str:
    downloads: list[bytes] = []
    original = MemoryMediaFileStorage.load_and_get_id

    def keep(
        self: MemoryMediaFileStorage,
        path_or_data: str | bytes,
        mimetype: str,
        kind: MediaFileKind,
        filename: str | None = None,
    ) -> str:
        if kind == MediaFileKind.DOWNLOADABLE:
            downloads.append(path_or_data.encode() if isinstance(path_or_data, str) else path_or_data)
        return original(self, path_or_data, mimetype, kind, filename)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(MemoryMediaFileStorage, "load_and_get_id", keep)
        at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120).run()
        at.segmented_control(key="source").set_value("Path").run()
        at.text_input(key="path").input(str(leaky)).run()
        at.switch_page("app_pages/4_Payloads.py").run()
        downloads.clear()
        at.multiselect(key="pl_providers").set_value(["openai-chat", "anthropic"]).run()
        assert not at.exception
    assert len(downloads) == 2  # what the two "Download JSON" buttons hand the browser
    for data in downloads:
        json.loads(data)  # still JSON
    return "\n".join(d.decode() for d in downloads)


PAGES = [
    "app_pages/0_Conversation.py",
    "app_pages/1_Timeline.py",
    "app_pages/2_Violations.py",
    "app_pages/3_Curation.py",
    "app_pages/4_Payloads.py",
    "app_pages/5_Explain.py",
    "app_pages/6_Compaction.py",
    "app_pages/8_Switch.py",
    "app_pages/9_Verify.py",
]
"""Every page that shows the open session."""


def _shown(node: Any) -> list[str]:
    """Everything an AppTest element tree holds for the browser: each element's message, as text
    (a table's Arrow bytes hold its strings as they are, so a secret in a cell is seen too)."""
    proto = getattr(node, "proto", None)
    found = [str(proto)] if proto is not None else []
    for child in getattr(node, "children", {}).values():
        found += _shown(child)
    return found


def _app_pages(leaky: Path, tmp: Path, *, redact: bool) -> str:
    """The home page and every page showing the leaky file, the "Redact secrets" switch as given."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["path"] = str(leaky)
    at.run()
    at.toggle(key="toolhist.redact.widget").set_value(redact).run()
    assert not at.exception, at.exception
    shown = _shown(at.main) + _shown(at.sidebar)
    for page in PAGES:
        at.switch_page(page).run()
        assert not at.exception, (page, at.exception)
        assert at.toggle(key="toolhist.redact.widget").value is redact  # the choice follows the user
        assert (at.query_params.get("redact") == "1") is redact  # and is in the link
        shown += _shown(at.main) + _shown(at.sidebar)
    return "\n".join(shown)


ARTEFACTS: dict[str, Callable[[Path, Path], str]] = {
    "report": _report,
    "bundle": _bundle,
    "dataset": _dataset,
    "notebook-html": _notebook,
    "app-download": _app_download,
    "cli-redact": _cli_redact,
    "app-pages-redacted": partial(_app_pages, redact=True),
}


@pytest.fixture(scope="module")
def made(leaky: Path, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    cache: dict[str, str] = {}

    class Lazy(dict[str, str]):
        def __missing__(self, name: str) -> str:
            cache[name] = ARTEFACTS[name](leaky, tmp_path_factory.mktemp(name))
            self[name] = cache[name]
            return cache[name]

    return Lazy()


@pytest.mark.parametrize("kind", SECRETS)
@pytest.mark.parametrize("artefact", ARTEFACTS)
def test_no_secret_leaves_in_a_shared_artefact(artefact: str, kind: str, made: dict[str, str]) -> None:
    text = made[artefact]
    secret = SECRETS[kind][0]
    assert secret not in text
    assert f"[REDACTED:{kind}]" in text


@pytest.mark.parametrize("artefact", [a for a in ARTEFACTS if a != "dataset"])
def test_code_that_names_a_variable_is_left_alone(artefact: str, made: dict[str, str]) -> None:
    text = made[artefact]
    assert "process.env.DEBUG_API_KEY" in text
    assert "process.env.NEXTAUTH_SECRET" in text


def test_the_local_views_show_the_body_exactly_as_sent(
    leaky: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    body = leaky_body()
    session = toolhist.load(str(leaky))
    assert toolhist.render(session, "openai-chat").body == body
    assert main(["render", str(leaky), "--provider", "openai-chat"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out) == body
    for secret, _ in SECRETS.values():
        assert secret in json.dumps(body)


def test_the_app_shows_the_secrets_as_sent_until_asked_to_redact(leaky: Path, tmp_path: Path) -> None:
    shown = _app_pages(leaky, tmp_path, redact=False)
    assert "[REDACTED:" not in shown
    for secret, _ in SECRETS.values():
        assert secret in shown


def test_redaction_keeps_json_text_valid_and_the_code_as_it_was() -> None:
    text = json.dumps(leaky_body())
    redacted, counts = redact_text(text)
    value = json.loads(redacted)
    assert set(counts) == set(SECRETS)
    assert CODE in value["messages"][0]["content"]


def test_the_scan_table_names_no_secret(tmp_path: Path) -> None:
    """The scan's table holds file names and counts: a key in a file's name is redacted there too."""
    secret = SECRETS["openai-key"][0]
    (tmp_path / f"session-{secret}.json").write_text(json.dumps(CHAT))
    out = tmp_path / "scan.csv"
    assert main(["scan", str(tmp_path), "--out", str(out)]) == 0
    table = out.read_text()
    assert secret not in table
    assert "session-[REDACTED:openai-key].json" in table
