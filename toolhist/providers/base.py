"""What every provider module shares: rules as data, findings, violations, payloads.

A provider is three small things (CRAFT §5-6):

- ``render(session) -> Payload``: the exact request body, with a source map from every payload
  path back to the canonical message/block it came from;
- ``RULES``: a tuple of `Rule` (slug, severity, the provider's own error text as a template, where
  it was documented or reported, which curation pass repairs it);
- ``check(body) -> Iterator[Finding]``: small checks over the *body* (never the Session), so a raw
  captured body is validated exactly as it was sent.

Generic code (`violations`) fills the templates and maps paths back through the source map.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal, NamedTuple

from pydantic import BaseModel, ConfigDict, JsonValue, field_serializer

from toolhist._gc import paused
from toolhist._trusted import construct, filler
from toolhist.model import Session, ToolCallBlock
from toolhist.providers.locating import Plan, alone, bracketed_template, dotted_template, spelling
from toolhist.providers.locating import found as located_at
from toolhist.providers.locating import plan as plan_of
from toolhist.providers.session_memo import once_per_session

# Re-exported (``as``, for mypy): every renderer and reader of the map has imported them from here.
from toolhist.providers.source_map import PathMap as PathMap  # noqa: PLC0414
from toolhist.providers.source_map import PathT as PathT  # noqa: PLC0414
from toolhist.providers.source_map import SourceMap as SourceMap  # noqa: PLC0414

Severity = Literal["error", "warning"]


@dataclass(frozen=True)
class Rule:
    """One thing a provider enforces on the request, as data."""

    id: str
    """Slug, a contract (DESIGN §6): ``oai.tool_orphan``. Never changes meaning."""
    provider: str
    """The provider name this rule belongs to."""
    severity: Severity
    """``error``: the provider answers 400. ``warning``: accepted but wrong (garbled Kimi ids)."""
    summary: str
    """The rule in one line, for ``toolhist rules``."""
    template: str
    """The provider's error text with ``{placeholders}`` filled from the finding."""
    source: str
    """Where the rule or text was documented or reported (issue / doc reference)."""
    fix: str
    """The curation pass that repairs it, or why none can."""
    applies: Callable[[dict[str, Any]], bool] | None = field(default=None, compare=False)
    """A condition on the body beyond its model (thinking on, a DeepSeek model in thinking mode…);
    ``condition`` says it in words."""
    models: tuple[str, ...] = ()
    """Regexes, searched in the lower-cased model name, of the models the rule was observed for; empty:
    every model of the provider."""
    unknown_model: bool = False
    """Whether a model-restricted rule still applies when the body names no model (a Bedrock Converse or
    Gemini REST body carries its model in the URL)."""
    since: str = ""
    """When the rule was first documented or observed (``YYYY-MM``), as far as the evidence shows."""
    observed: str = ""
    """The latest evidence of it (``YYYY-MM``): a rule last seen long ago is a ``warning``."""
    condition: str = ""
    """What ``applies`` checks beyond the model, in words (empty when nothing)."""

    def applies_to(self, body: dict[str, Any]) -> bool:
        """Whether the rule applies to a body: its model matches ``models`` and ``applies`` holds."""
        if self.models:
            model = model_of(body)
            if not model:
                if not self.unknown_model:
                    return False
            elif not any(re.search(pattern, model) for pattern in self.models):
                return False
        return self.applies is None or self.applies(body)

    @property
    def model_dependent(self) -> bool:
        """Whether the rule holds for some models or request settings only."""
        return bool(self.models) or self.applies is not None

    @property
    def evidence(self) -> tuple[Evidence, ...]:
        """``source`` as a list: each ``;``-separated item with its kind (docs, issue, corpus…)."""
        return evidence_of(self.source)


EvidenceKind = Literal["docs", "issue", "corpus", "code", "research", "note"]


@dataclass(frozen=True)
class Evidence:
    """One item of a rule's evidence."""

    kind: EvidenceKind
    """``docs`` (provider documentation), ``issue`` (a reported 400 in an issue or PR thread),
    ``corpus`` (a recorded request/response), ``code`` (the provider's or a client's source),
    ``research`` (the project's research notes), ``note`` (a remark on the evidence)."""
    ref: str
    """The item as the rule's ``source`` writes it."""


_ISSUE = re.compile(r"[\w.-]+/[\w.-]+ ?(?:PR ?)?#\d+|\bPR ?#\d+|\b[A-Za-z][\w.-]*#\d+")
_DOCS = re.compile(
    r"https?://|\b(?:docs?|platform|ai\.google)\.[\w.]+|\.(?:com|dev|ai)/|API reference|docs\b"
)


def evidence_of(source: str) -> tuple[Evidence, ...]:
    """Split a rule's ``source`` into evidence items (``;`` outside brackets separates them)."""
    items: list[str] = []
    depth, start = 0, 0
    for i, char in enumerate(source):
        if char in "([":
            depth += 1
        elif char in ")]":
            depth = max(0, depth - 1)
        elif char == ";" and depth == 0:
            items.append(source[start:i])
            start = i + 1
    items.append(source[start:])
    return tuple(Evidence(_kind(item.strip()), item.strip()) for item in items if item.strip())


def _kind(item: str) -> EvidenceKind:
    if "corpus" in item or item.startswith("tests/traffic"):
        return "corpus"
    if item.startswith("research/"):
        return "research"
    if _ISSUE.search(item):
        return "issue"
    if _DOCS.search(item):
        return "docs"
    if ".py" in item or "/src/" in item or item.startswith("src/"):
        return "code"
    return "note"


class Finding(NamedTuple):
    """A rule broken at a payload path, with the values for the error template.

    A named tuple, not a frozen dataclass: a long history's checks make one per id they judge
    (Mistral's and Kimi's id rules, 170,000 at 100,000 messages), and a frozen dataclass sets each
    field through ``object.__setattr__``, 2.5 times the cost. Read-only as before; ``values`` is
    never written (a finding without values shares one empty dict).
    """

    rule: str
    path: PathT
    values: dict[str, Any] = {}  # noqa: RUF012 - read-only, never mutated
    call_ids: tuple[str, ...] = ()


class Violation(BaseModel):
    """A rule a payload breaks, located in the payload and (when known) in the canonical history."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    provider: str
    """Provider name."""
    rule: str
    """Rule slug (DESIGN §6)."""
    severity: Severity
    """``error`` (the provider rejects the request) or ``warning`` (accepted but wrong)."""
    path: str
    """Payload path in the provider's own index convention (``messages[3].tool_calls[0]``,
    ``messages.3.content.0``, ``contents[2].parts[0]``, ``input[4]``)."""
    message_index: int | None = None
    """Canonical message index, when the payload came from a Session."""
    block_index: int | None = None
    """Canonical block index within that message, when known."""
    call_ids: tuple[str, ...] = ()
    """Tool call ids involved, as they appear in the payload."""
    error_text: str
    """The provider's error text with the real values filled in."""
    source: str
    """Where the rule is documented or reported."""
    fix: str
    """The curation pass that repairs it, or why none can."""


class Payload(BaseModel):
    """A rendered request body and where each part came from."""

    model_config = ConfigDict(frozen=True)

    provider: str
    """Provider name."""
    body: dict[str, JsonValue]
    """The exact JSON request body."""
    source_map: Mapping[str, tuple[int, int | None]]
    """Payload path (provider convention) → (canonical message index, block index or None).

    A renderer's map is a `PathMap`: the paths are written out as strings only when first read."""
    omitted: tuple[str, ...] = ()
    """What the history had that this provider's format cannot carry, said plainly."""
    id_map: dict[str, str] = {}
    """Original call id → the id sent, when ids were mapped to the provider's format."""

    @field_serializer("source_map")
    def _plain_map(self, value: Mapping[str, tuple[int, int | None]]) -> dict[str, tuple[int, int | None]]:
        return dict(value)

    def _repr_html_(self) -> str:
        """Jupyter: the body pretty-printed and what the format could not carry (`toolhist.display`)."""
        from toolhist.extras import plain_html

        if (plain := plain_html(self)) is not None:  # the notebook extra is not installed
            return plain
        from toolhist.display import payload_html

        return payload_html(self)


def drained(findings: list[Finding]) -> Iterator[Finding]:
    """``findings`` in order, each let go as it is taken: the list is empty at the end.

    A walk that runs several passes at once (`toolhist.providers.mistral`, `anthropic`, …) keeps each
    pass's findings until their turn. Yielded from the list as it was, a pass's findings lived until
    the check ended, beside every Violation made from them: Mistral's id rule on a 1 GB Codex rollout
    finds one per call id, and the command's peak grew by ~70 MB with the walk.
    """
    findings.reverse()
    take = findings.pop
    while findings:
        yield take()


def new_payload(
    provider: str,
    body: dict[str, Any],
    source_map: Mapping[str, tuple[int, int | None]] | SourceMap,
    omitted: tuple[str, ...] = (),
) -> Payload:
    """A `Payload` of a body a renderer has just built, without pydantic re-validating it.

    Validating ``dict[str, JsonValue]`` walks and copies the whole body (a discriminator call per
    value): at 10,000 messages that was a sizeable share of every render in
    ``benchmarks/bench_scale.py``. The renderers build the body from JSON values of a validated
    `Session`, so validation found nothing; what the copy did was keep the body from sharing nested
    values (argument objects, ``provider_data`` entries, request fields) with the session. Now they
    are shared: both are read-only by contract (frozen models), and nothing in toolhist mutates a
    body after rendering it. A renderer's `SourceMap` becomes a lazy `PathMap`.
    """
    if isinstance(source_map, SourceMap):
        source_map = PathMap(source_map.fmt, source_map)
    return construct(Payload, provider=provider, body=body, source_map=source_map, omitted=omitted, id_map={})


def dotted(path: PathT) -> str:
    """Anthropic/Bedrock convention: ``messages.3.content.0``."""
    return ".".join(map(str, path))


def bracketed(path: PathT) -> str:
    """OpenAI/Gemini convention: ``messages[3].tool_calls[0]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out = f"{out}[{part}]"
        elif out:
            out = f"{out}.{part}"
        else:
            out = "" + part  # (a non-string key fails here, as it always did)
    return out


_TEMPLATES: dict[Callable[[PathT], str], Callable[[tuple[str | None, ...]], str]] = {
    bracketed: bracketed_template,
    dotted: dotted_template,
}
"""The path conventions `located` writes as %-templates, per path shape (`toolhist.providers.locating`)."""


@dataclass(frozen=True)
class Provider:
    """A provider: its name, rules, renderer and checks."""

    name: str
    """The provider name (DESIGN §6)."""
    title: str
    """Human name for pages and tables."""
    rules: tuple[Rule, ...]
    """Every rule this provider enforces."""
    render: Callable[[Session], Payload]
    """Session → the exact body this provider takes."""
    check: Callable[[dict[str, Any]], Iterator[Finding]]
    """Body → the rules it breaks."""
    path_format: Callable[[PathT], str]
    """How this provider writes payload paths."""
    freeform_tools: bool = False
    """Whether the API takes freeform (text-input) tool calls as they are (Responses
    ``custom_tool_call``). Elsewhere a freeform call's text goes as ``{"input": text}``, said once
    in ``Payload.omitted`` (`freeform_note`)."""

    def rule(self, rule_id: str) -> Rule:
        """The rule with slug ``rule_id``."""
        for r in self.rules:
            if r.id == rule_id:
                return r
        raise KeyError(f"{self.name} has no rule {rule_id!r}")


def freeform_note(session: Session, provider: Provider) -> str | None:
    """One line for ``Payload.omitted`` when freeform calls had to be sent as ``{"input": text}``.

    Codex's freeform ``apply_patch`` calls carry a patch as text; a provider without freeform tools
    gets that text whole as the ``input`` field of the argument object. Said once per payload,
    not once per call: a long Codex session has hundreds of patches.
    """
    if provider.freeform_tools:
        return None
    same = session.source.format == provider.name
    names: dict[str, int] = {}
    for name, custom in _freeform_calls(session):
        if same and custom:  # a chat custom call, sent back as one
            continue
        names[name] = names.get(name, 0) + 1
    if not names:
        return None
    total = sum(names.values())
    listed = ", ".join(f"{name!r} x{n}" for name, n in sorted(names.items()))
    return (
        f'{total} freeform tool call(s) ({listed}) sent as {{"input": <text>}}: {provider.name} has no '
        "freeform tools; the text is carried whole"
    )


@once_per_session
def _freeform_calls(session: Session) -> tuple[tuple[str, bool], ...]:
    """Each freeform call's tool name and whether it is a chat ``custom`` call, in history order.

    Walked once per session object (`toolhist.providers.session_memo`): rendering one history for
    every provider asked the same of it five times, and a walk of every block was ~2.6 ms per 1,000
    messages of a loaded history, a sixth of ``bench_scale``'s render stage at 10,000.
    """
    return tuple(
        (block.name, block.provider_data.get("type") == "custom")
        for message in session.messages
        for block in message.blocks
        if type(block) is ToolCallBlock and block.freeform_input is not None
    )


@paused
def violations(
    provider: Provider, body: dict[str, Any], source_map: Mapping[str, tuple[int, int | None]] | None = None
) -> list[Violation]:
    """Run a provider's checks on a body and turn findings into located Violations (`located`, kept)."""
    return list(located(provider, body, source_map))


def located(  # noqa: PLR0915 - once per finding (170,000 at 100k): a helper call each is what it saves
    provider: Provider,
    body: dict[str, Any],
    source_map: Mapping[str, tuple[int, int | None]] | None = None,
    *,
    shared: bool = True,
) -> Iterator[Violation]:
    """A provider's checks on a body, each finding made a located Violation as it is taken.

    `violations` keeps them all; ``toolhist check`` prints each as it is made and lets it go
    (`toolhist.check.Checking.streams`): on a 1 GB Codex rollout Mistral's 370,000 Violations were
    ~220 MB held beside the rendered body while they were printed (issue 26). ``shared=False``
    keeps no table of the texts made so far, for such a caller (nothing holds them to share).
    The caller holds the collector pause (`toolhist._gc.paused`) while it takes them.

    One Violation per finding: 180,000 at 100,000 messages (Mistral's and Kimi's id rules), so the
    loop is written for it: the rule-level fields and how its text is spelt are worked out once
    per rule, how a path is written and where its prefixes are recorded once per path shape
    (`toolhist.providers.locating`), and each Violation is its state as one dict literal
    (`toolhist._trusted.filler`).

    Equal error texts and call-id tuples within one verdict are one object: Mistral's id rule
    names a call at its call and again at its result, so at 100,000 messages 171,000 texts hold
    118,000 distinct values (11 MB of the verdicts Home keeps). Every field is the value it was.
    """
    texts: dict[str, str] = {}  # a text or ids tuple made before → the one kept
    ids: dict[tuple[str, ...], tuple[str, ...]] = {}
    text_of = texts.setdefault if shared else _same
    ids_of = ids.setdefault if shared else _same
    rules = {r.id: r for r in provider.rules}
    fill = _VIOLATION
    name = provider.name
    made: dict[str, _RuleFields | None] = {}  # per rule; None: its model condition fails
    fmt = provider.path_format
    template_of = _TEMPLATES.get(fmt)
    source_map = source_map or {}
    mapped = isinstance(source_map, PathMap) and source_map._fmt is fmt
    plans: dict[tuple[int, PathT], Plan | None] = {}  # by (length, names): see `toolhist.providers.locating`
    lengths: tuple[int, ...] | None = None  # the map's, at the first finding: a clean body never pays
    for rule_id, path, values, found_ids in provider.check(body):  # a Finding, unpacked
        try:
            fields = made[rule_id]
        except KeyError:  # the first finding of a rule: its model condition reads the body, once
            rule = rules.get(rule_id) or provider.rule(rule_id)  # the latter raises on an unknown slug
            fields = made[rule_id] = (
                _rule_fields(rule, provider.rules, text_of, shared) if rule.applies_to(body) else None
            )
        if fields is None:
            continue
        slug, severity, source, fix, template, constant, field_name, before, after, spelt, only = fields
        # The path's names (even places) and indices (odd places); the indices must be ints.
        size = len(path)
        indices = path[1::2]
        if size < 4:
            plain = size < 2 or type(path[1]) is int
        elif size < 6:
            plain = type(path[1]) is int and type(path[3]) is int
        else:
            plain = all(type(index) is int for index in indices)
        planned = None
        if plain:
            key = (size, path[0::2])
            try:
                planned = plans[key]
            except KeyError:
                if lengths is None:
                    lengths = source_map.lengths() if mapped and isinstance(source_map, PathMap) else ()
                planned = plans[key] = plan_of(
                    size, key[1], template_of, source_map if mapped else {}, lengths
                )
        if planned is not None:
            written = fmt(path) if planned.template is None else planned.template % indices
            if mapped:
                message_index, block_index = located_at(planned.columns, indices) or (None, None)
            else:
                message_index, block_index = _locate(path, fmt, source_map)
        else:
            written = fmt(path)
            message_index, block_index = _locate(path, fmt, source_map)
        call_ids = found_ids if found_ids.__class__ is tuple else tuple(found_ids)
        if constant is not None:
            text = constant
            call_ids = ids_of(call_ids, call_ids)
        elif field_name is not None and (value := values.get(field_name)).__class__ is str:
            if spelt is None:  # nothing kept (``shared=False``)
                text = before + value + after
                call_ids = ids_of(call_ids, call_ids)
            else:  # kept by value: a value named again is one lookup (Mistral's ids: at the call, at the result)
                kept = spelt.get(value)
                if kept is None:
                    text = before + value + after
                    if not only:  # another rule's text may equal it: the verdict's table keeps it
                        text = text_of(text, text)
                    call_ids = ids_of(call_ids, call_ids)
                    spelt[value] = (text, call_ids)
                else:
                    text, ids_kept = kept
                    call_ids = ids_kept if call_ids == ids_kept else ids_of(call_ids, call_ids)
        else:
            text = template.format(**values)
            text = text_of(text, text)
            call_ids = ids_of(call_ids, call_ids)
        yield (
            fill(  # Violation's fields in declared order (checked below, at import)
                {
                    "provider": name,
                    "rule": slug,
                    "severity": severity,
                    "path": written,
                    "message_index": message_index,
                    "block_index": block_index,
                    "call_ids": call_ids,
                    "error_text": text,
                    "source": source,
                    "fix": fix,
                }
            )
        )


_RuleFields = tuple[
    str,
    Severity,
    str,
    str,
    str,
    "str | None",
    "str | None",
    str,
    str,
    "dict[str, tuple[str, tuple[str, ...]]] | None",
    bool,
]
"""A rule's fields a Violation copies, its `Spelling`, its (text, call ids) by value when they are kept
(a one-field rule, ``shared``), and whether no other rule's text can equal one of its own (`alone`)."""


def _rule_fields(
    rule: Rule, rules: tuple[Rule, ...], text_of: Callable[[str, str], str], shared: bool
) -> _RuleFields:
    constant, field_name, before, after = spelling(rule.template)
    if constant is not None:
        constant = text_of(constant, constant)
    kept = shared and field_name is not None
    spelt: dict[str, tuple[str, tuple[str, ...]]] | None = {} if kept else None
    only = kept and alone(rule.template, tuple(r.template for r in rules if r.id != rule.id))
    return (
        rule.id,
        rule.severity,
        rule.source,
        rule.fix,
        rule.template,
        constant,
        field_name,
        before,
        after,
        spelt,
        only,
    )


def _same(value: Any, _default: Any) -> Any:
    """``dict.setdefault``'s answer when nothing is kept: the value itself (`located`, unshared)."""
    return value


_VIOLATION = filler(Violation)
assert tuple(Violation.model_fields) == (
    "provider",
    "rule",
    "severity",
    "path",
    "message_index",
    "block_index",
    "call_ids",
    "error_text",
    "source",
    "fix",
), "violations() writes a Violation's state in this order"


def _locate(
    path: PathT, fmt: Callable[[PathT], str], source_map: Mapping[str, tuple[int, int | None]]
) -> tuple[int | None, int | None]:
    """The canonical position of the longest mapped prefix of ``path``."""
    if isinstance(source_map, PathMap) and source_map._fmt is fmt:
        return source_map.locate(path) or (None, None)
    for n in range(len(path), 0, -1):
        hit = source_map.get(fmt(path[:n]))
        if hit is not None:
            return hit
    return None, None


def rule_in(rules: tuple[Rule, ...], rule_id: str) -> Rule:
    """The rule with slug ``rule_id`` among ``rules`` (a check gating a pass on `Rule.applies_to`)."""
    return next(r for r in rules if r.id == rule_id)


def model_of(body: dict[str, Any]) -> str:
    """The body's model name, lower-cased ('' when absent): model-dependent rules read it."""
    model = body.get("model", body.get("modelId", ""))
    return model.lower() if isinstance(model, str) else ""
