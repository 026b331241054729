"""Strategies ``litellm`` and ``openai-agents`` (DESIGN §6): the real libraries, not ports.

Each strategy hands the history to the pinned library in its peers environment
(`toolhist.peers.run`), in the shape an application using that library keeps it, and takes the
request body the library POSTs as the answer:

- ``litellm``: the history as OpenAI chat messages and tools (toolhist's ``openai-chat`` render, ids
  as the source had them) into ``litellm.completion(..., modify_params=True)`` on the provider's
  route (`toolhist.peers._worker.LITELLM_MODELS`), with the history's ``thinking`` setting for
  Anthropic and Bedrock;
- ``openai-agents``: the history as Responses input items (toolhist's ``openai-responses`` render)
  resumed from a ``RunState`` (``normalize_resumed_input``: ``drop_orphan_function_calls``), then
  ``deduplicate_input_items_preferring_latest`` and the SDK's model adapter for Responses or Chat.

The body is read back with toolhist's reader for that provider: that Session is the curated
history (so ``render`` of it is the library's body, ids and all), and `toolhist.peers.diffing`
derives the Changes from the two histories. When the library raises before sending, the Curation
keeps the history as given with one ``keep`` Change carrying the exception, as the AI SDK port does;
so it does when the body is not a valid request of the provider's format (LiteLLM 1.106.2 sends a
Codex call's unparsable arguments as a string ``tool_use.input``), with the body in the Change.
Without the peers environment these strategies raise `toolhist.peers.env.PeersMissing`; they never
fall back to a port (the ports are ``litellm-port`` and ``openai-agents-port``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from toolhist.curation.base import Change, Curation
from toolhist.curation.strategies import StrategyDef
from toolhist.errors import LoadError, UsageError
from toolhist.formats.wire import own_reader
from toolhist.model import Message, Session, SessionSource
from toolhist.peers import run
from toolhist.peers.diffing import diff
from toolhist.peers.pins import LIBRARY_OF_STRATEGY
from toolhist.peers.versions import resolve, split_strategy, using

VIA_LITELLM = ("anthropic", "bedrock", "gemini", "mistral", "kimi")
"""Providers the Agents SDK reaches through its LiteLLM extension (``LitellmModel``).

``LitellmModel.get_response`` converts the items with the same ``Converter.items_to_messages`` as
``OpenAIChatCompletionsModel`` and hands the chat messages to ``litellm.acompletion`` (without
``modify_params``). No LiteLLM installs beside openai-agents 0.24 (LiteLLM 1.106 needs
``openai<3``), so the two real libraries run in turn: the Agents SDK's chat body, then LiteLLM on it.
``LitellmModel``'s own touches to the messages (none to the tool structure in 0.24) are not run."""

ROUTES = {
    "litellm": ("anthropic", "bedrock", "gemini", "openai-chat", "openai-responses", "mistral", "kimi"),
    "openai-agents": ("openai-responses", "openai-chat", *VIA_LITELLM),
}
"""Providers each library is run on (the Agents SDK on the last five through LiteLLM)."""


LABEL = {
    "litellm": "LiteLLM",
    "openai-agents": "the Agents SDK",
    "pydantic-ai": "pydantic-ai",
    "langchain": "LangChain",
}
"""How a Change reason names each library (a framework strategy uses `curation_of` too)."""


def _with_tail(session: Session, tail: Sequence[Message]) -> Session:
    return session.model_copy(update={"messages": (*session.messages, *tail)}) if tail else session


def job(strategy: str, session: Session, provider: str) -> dict[str, Any]:
    """The worker job that runs ``strategy``'s library over ``session`` for ``provider``."""
    from toolhist.providers import render

    if provider not in ROUTES[strategy]:
        raise UsageError(f"the {strategy!r} strategy has no {provider} route")
    if strategy == "litellm":
        body = render(session, "openai-chat", ids="source").body
        params: dict[str, Any] = {}
        thinking = session.request.get("thinking")
        if provider in ("anthropic", "bedrock") and isinstance(thinking, dict):
            params["thinking"] = thinking
        return {
            "library": "litellm",
            "provider": provider,
            "messages": body["messages"],
            "tools": body.get("tools") or [],
            "params": params,
        }
    body = render(session, "openai-responses", ids="source").body
    declared = body.get("tools")
    listed = declared if isinstance(declared, list) else []
    tools = [t for t in listed if isinstance(t, dict) and t.get("type") == "function"]
    return {"library": "openai-agents", "provider": provider, "items": body["input"], "tools": tools}


def curation_of(answer: run.Answer, session: Session, provider: str, strategy: str, version: str) -> Curation:
    """The Curation a library's answer stands for (see the module docstring)."""
    from toolhist.readers import load

    library = strategy
    label = f"{LABEL.get(strategy, strategy)} {version}"
    peer = f"{library} {version}"
    # the history as given, with one "keep" Change that says why the library's body is not it
    kept: dict[str, Any] = {"strategy": strategy, "provider": provider, "original": session, "library": peer}
    if answer.body is None:
        text = f"{answer.raised}: {answer.message}" if answer.message else str(answer.raised)
        change = Change(
            pass_=library,
            action="keep",
            reason=f"{label} raises {text} and sends nothing",
            detail={"error": answer.raised, "error_text": answer.message, "library": peer},
        )
        return Curation(session=session, changes=(change,), **kept)
    fmt = own_reader(provider)
    try:
        sent = load(answer.body, format=fmt, name=f"{library} request body")
    except LoadError as exc:  # the library sent something the provider's own format does not allow
        change = Change(
            pass_=library,
            action="keep",
            reason=f"{label} sent a request body that is not a valid {fmt} request ({exc}); it is in this "
            "Change's detail, and the history is shown as given",
            detail={"error": "UnreadableBody", "error_text": str(exc), "library": peer, "body": answer.body},
        )
        return Curation(session=session, changes=(change,), **kept)
    note = f"the request body {label} sent to {provider} ({answer.path})"
    sent = sent.model_copy(
        update={
            "source": SessionSource(format=fmt, locations=sent.source.locations, notes=(note,)),
            "metadata": {**session.metadata, "library": peer},
        }
    )
    changes = diff(session, sent, label=label, pass_name=library, ids_on_wire=provider != "gemini")
    return Curation(
        session=sent,
        changes=tuple(changes),
        strategy=strategy,
        provider=provider,
        original=session,
        library=peer,
    )


def _agents_via_litellm(sessions: Sequence[Session], provider: str) -> tuple[list[run.Answer], str]:
    """The Agents SDK's chat body for each session, then LiteLLM's body for that (`VIA_LITELLM`)."""
    chat = run.ask("openai-agents", [job("openai-agents", s, "openai-chat") for s in sessions])
    jobs: list[dict[str, Any]] = [
        {
            "library": "litellm",
            "provider": provider,
            "messages": a.body.get("messages") or [],
            "tools": a.body.get("tools") or [],
            "params": {},
            "modify_params": False,
        }
        for a in chat
        if a.body is not None
    ]
    sent = iter(run.ask("litellm", jobs))
    answers = [next(sent) if a.body is not None else a for a in chat]
    version = f"{run.version('openai-agents')} via LitellmModel (litellm {run.version('litellm')})"
    return answers, version


def run_many(strategy: str, sessions: Sequence[Session], provider: str) -> list[tuple[run.Answer, Curation]]:
    """The library's raw answer and ``strategy``'s Curation for each session, in one batch."""
    if strategy == "openai-agents" and provider in VIA_LITELLM:
        answers, version = _agents_via_litellm(sessions, provider)
    else:
        answers = run.ask(strategy, [job(strategy, s, provider) for s in sessions])
        version = run.version(strategy)
    return [
        (a, curation_of(a, s, provider, strategy, version)) for a, s in zip(answers, sessions, strict=True)
    ]


def curate_many(strategy: str, sessions: Sequence[Session], provider: str) -> list[Curation]:
    """``strategy``'s Curation of each session, in one batch through the library's worker."""
    return [curation for _, curation in run_many(strategy, sessions, provider)]


def _curate(strategy: str) -> Any:
    def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
        return curate_many(strategy, [_with_tail(session, tail)], provider)[0]

    return curate


def sent_ids(session: Session, provider: str) -> tuple[Session, dict[str, str]]:
    """The curated session already holds the ids the library sent: nothing to map."""
    return session, {}


STRATEGIES = {
    "litellm": StrategyDef(
        name="litellm",
        summary="the real LiteLLM (modify_params=True), run in toolhist's peers environment; "
        "its request body read back",
        curate=_curate("litellm"),
        edge_ids=sent_ids,
    ),
    "openai-agents": StrategyDef(
        name="openai-agents",
        summary="the real OpenAI Agents SDK resuming the history (RunState), run in toolhist's peers "
        "environment; its request body read back",
        curate=_curate("openai-agents"),
        edge_ids=sent_ids,
    ),
}


def versioned(name: str) -> StrategyDef:
    """The strategy ``litellm@1.110.2`` (`toolhist.curation.strategies.strategy_for`).

    The named strategy, with its library at that version for the length of each call
    (`toolhist.peers.versions.using`).
    """
    base, wanted = split_strategy(name)
    library = LIBRARY_OF_STRATEGY.get(base)
    if library is None or not wanted:
        runs = ", ".join(f"{s}@VERSION" for s in LIBRARY_OF_STRATEGY)
        raise UsageError(
            f"unknown strategy {name!r}; only the strategies that run a library take a version: {runs}"
        )
    version = resolve(library, wanted)
    plain = STRATEGIES[base]

    def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
        with using({library: version}):
            return plain.curate(session, provider, tail)

    return StrategyDef(
        name=name,
        summary=f"{plain.summary}; at {library} {version}",
        curate=curate,
        edge_ids=plain.edge_ids,
    )


def in_process(
    name: str,
    routes: Sequence[str],
    sent_body: Callable[[Session, str], tuple[Any, str | None, str | None]],
    version: Callable[[], str],
    not_run: str,
) -> Callable[[Session, str, tuple[Message, ...]], Curation]:
    """The ``curate`` of a framework strategy run in this process (pydantic-ai, LangChain).

    ``sent_body`` gives the body the framework sent ``provider`` (its path, and ``"Kind: text"`` when it
    raised); it is read back as the real-library strategies' answers are (`curation_of`). A provider
    outside ``routes`` keeps the history as given with one ``keep`` Change: ``not_run`` (formatted
    with ``provider``) says why.
    """

    def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
        if tail:
            session = session.model_copy(update={"messages": (*session.messages, *tail)})
        if provider not in routes:
            change = Change(pass_=name, action="keep", reason=not_run.format(provider=provider))
            return Curation(
                session=session, changes=(change,), strategy=name, provider=provider, original=session
            )
        body, path, raised = sent_body(session, provider)
        kind, _, text = (raised or "").partition(": ")
        answer = run.Answer(body=body, path=path, raised=kind or None, message=text or None)
        return curation_of(answer, session, provider, name, version())

    return curate
