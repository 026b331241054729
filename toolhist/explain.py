"""Explain a pasted HTTP 400: peel the wrappers, name the provider rule, point at the culprit message.

Provider texts rarely reach a user bare: `toolhist.explain_peel` peels the envelopes gateways and SDKs
put around them (OpenRouter, Vertex, LiteLLM, boto, the AI SDK, relays, SDK reprs), and, when that
leaves no match, `toolhist.explain_layout` undoes what the reporter's terminal and issue tracker did
(wrapping at any column, box borders, gutters, escapes, fullwidth forms) and the match is tried again.
The inner text is matched against `toolhist.explain_patterns`; given the Session the request came
from, the payload path in the text is mapped back to the canonical message through the provider
renderer's source map. ``tests/corpus/pastes`` holds the real pasted texts this is measured on.

Unknown text is an answer, not an error: ``rule`` is None and ``reason`` says why.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable

from pydantic import BaseModel, ConfigDict

from toolhist import explain_layout as layout
from toolhist import providers
from toolhist.errors import ToolhistError
from toolhist.explain_patterns import LANGGRAPH_IDS, PATTERNS, RULE_INFO, Pattern
from toolhist.explain_peel import Unwrapped, unwrap
from toolhist.model import Session, ToolCallBlock, ToolResponseBlock
from toolhist.providers.base import PathT, Violation, bracketed, dotted

MAX_CHARS = 100_000
"""Only this much of the pasted text is read: real provider errors are a few kilobytes at most."""


class Explanation(BaseModel):
    """Which provider rule an error text is, and where in the history it points."""

    model_config = ConfigDict(frozen=True, use_attribute_docstrings=True)

    provider: str | None
    """The toolhist provider whose rules predict this text (DeepSeek, Qwen, Groq: ``openai-chat``);
    None for client-side checks (AI SDK, LangGraph) and unknown texts."""
    rule: str | None
    """Rule slug (``oai.tool_orphan``), or None when no known pattern matched (see ``reason``)."""
    error_text: str
    """The provider's own text, with every recognised wrapper peeled off."""
    wrappers: tuple[str, ...] = ()
    """What was peeled off, outermost first: ``openrouter``, ``vertex``, ``litellm``, ``bedrock-validation``,
    ``bedrock-model``, ``ai-sdk``, ``relay-request-id``, ``python-repr``, ``json``; led by what was undone
    of the paste itself when the text did not match as pasted: ``layout`` (terminal wrapping, borders,
    gutters, fullwidth forms), ``escapes`` (string escaping), ``whitespace`` (matched ignoring it),
    ``cut`` (the paste ends inside the rule's opening words)."""
    variant: str | None = None
    """Which wording or sender: ``deepseek``, ``qwen``, ``groq``, ``kimi``, ``preceeding-typo``, ``old``…"""
    paths: tuple[str, ...] = ()
    """Payload paths named in the text or in OpenAI's ``param``, in the provider's convention, cut after
    the last index (``messages[3]``, ``messages.3.content.1``, ``input[95]``, ``contents[2].parts[0]``)."""
    indices: tuple[int, ...] = ()
    """The offending path's message index and, when the text names one, its block index."""
    call_ids: tuple[str, ...] = ()
    """Tool call (or Responses item) ids named in the text, in order."""
    message_index: int | None = None
    """Canonical message index of the culprit; only with a Session and a registered provider."""
    block_index: int | None = None
    """Canonical block index within that message, when known."""
    meaning: str = ""
    """What the rule means, in plain words."""
    fix: str = ""
    """The curation pass that repairs it (or why none can)."""
    reason: str | None = None
    """When ``rule`` is None: why no rule was named."""


_PATH_STYLE: dict[str, Callable[[PathT], str]] = {"anthropic": dotted, "bedrock": dotted}
"""Providers whose texts index with dots (``messages.3.content.0``); the rest use brackets."""

_PATH = re.compile(
    r"\b(?:GenerateContentRequest\.)?(?:messages?|contents|input|tools)(?:\.?\[\d{1,9}\]|\.\d{1,9})"
    r"(?:\.?\[\d{1,9}\]|\.[A-Za-z_]\w{0,60}|\.\d{1,9}){0,12}",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+")
_CUT_MIN = 24
"""A paste cut short must still end with this many characters (whitespace aside) of a pattern's opening
words: about four words, the length of ``No tool output found for`` that DeepSeek's and OpenAI's
Responses texts share before they part."""
_CUT_SLACK = 16
"""How far past a pattern's literal opening words a cut paste may end (the rest of one or two words)."""
_CUT_REST = 8
"""A paste cut after a pattern's first variable part (an id) must end with this many of the words after it."""


class _Derived:
    """What is worked out from every pattern, once, when the first pasted error is explained.

    Compiling ~300 regular expressions (each pattern and its whitespace-free form) at import took most of
    the 0.7 s that importing `toolhist.explain` cost, paid by every command of the CLI and every importer
    of the package, although only explaining matches them (`toolhist.explain_patterns.Pattern.regex`).
    """

    @functools.cached_property
    def compact(self) -> dict[Pattern, re.Pattern[str]]:
        """Each pattern without its whitespace, for text whose wrap fell inside a word (`explain_layout.compact`)."""
        return {p: re.compile(layout.compact_pattern(p.source), re.IGNORECASE) for p in PATTERNS}

    @functools.cached_property
    def heads(self) -> list[tuple[Pattern, str, dict[int, str]]]:
        """Each pattern's literal opening words, where long enough to tell.

        Whitespace-free, lower case, unquoted; with the positions whose letter case the pattern checks.
        """
        return [
            (p, head, cased)
            for p in PATTERNS
            for head, cased in [layout.literal_head(layout.compact_pattern(p.source))]
            if len(head) >= _CUT_MIN
        ]

    @functools.cached_property
    def splits(self) -> list[tuple[Pattern, str, dict[int, str], str]]:
        """Each pattern's opening words and the words after its first variable part.

        For a paste cut after an id (``Tool call id was call_0fypS1hVX but must be a-z, A-Z, …``, a title
        GitHub cut).
        """
        return [
            (p, head, cased, rest)
            for p in PATTERNS
            for head, cased, rest in [layout.literal_after_variable(layout.compact_pattern(p.source))]
            if len(rest) >= _CUT_REST and len(head) + len(rest) >= _CUT_MIN
        ]

    @functools.cached_property
    def case_checks(self) -> dict[Pattern, int]:
        """How many letters' case each cut pattern checks (the more, the surer a cut paste's match)."""
        return {p: len(c) for p, _, c in self.heads} | {p: len(c) for p, _, c, _ in self.splits}


_DERIVED = _Derived()
_NO_QUOTES = str.maketrans("", "", layout.QUOTES)
_ID_SPLIT = re.compile(r"[,\s]+")
_ID_STRIP = ".,;'\"`()[]{}"


def explain(error_text: str, session: Session | None = None) -> Explanation:
    """Name the provider rule behind ``error_text`` and, with ``session``, the message that breaks it.

    Never raises on odd input: empty, binary or unrecognised text gives ``rule=None`` and a ``reason``.
    """
    if not isinstance(error_text, str) or not error_text.strip():
        return Explanation(provider=None, rule=None, error_text="", reason="the error text is empty")
    truncated = len(error_text) > MAX_CHARS
    original = error_text[:MAX_CHARS].strip()
    peeled = unwrap(original)
    found = _match(peeled.text) or (_match(original) if peeled.wrappers else None)
    if found is None:
        peeled, found = _match_as_pasted(original, peeled)
    first = _match(_squeezed(original), compact=True) if found is not None else None
    if found is not None and first is not None and first[0] is not found[0]:
        # Whitespace-free, the text says otherwise: a wrap split the word that told the senders apart
        # (Kimi's lower-case "invalid"), or the paste holds more than one error and the first one was
        # wrapped out of shape (it is the one the request failed with).
        again = unwrap(original)
        found = _match(again.text, patterns=(first[0],))
        peeled, found = (again, found) if found else _match_as_pasted(original, again, (first[0],))
    if found is None:
        reason = "no known provider error pattern matched"
        if truncated:
            reason += f" (only the first {MAX_CHARS} characters were read)"
        return Explanation(
            provider=None, rule=None, error_text=peeled.text, wrappers=tuple(peeled.wrappers), reason=reason
        )
    pattern, match = found
    fmt = _PATH_STYLE.get(pattern.provider or "", bracketed)
    paths = _paths(peeled, match, fmt)
    param = next((p for p in map(_parse_path, peeled.params) if p is not None), None)
    culprit = param or ((paths[-1] if pattern.culprit == "last" else paths[0]) if paths else None)
    # A whitespace-free match cannot tell where an id ends: name none rather than a wrong one.
    call_ids = () if "whitespace" in peeled.wrappers else _call_ids(pattern, match, peeled.text)
    message_index = block_index = None
    if session is not None and pattern.provider is not None:
        message_index, block_index = _locate(session, pattern, culprit, call_ids)
    meaning, fix = RULE_INFO[pattern.rule]
    return Explanation(
        provider=pattern.provider,
        rule=pattern.rule,
        error_text=peeled.text,
        wrappers=tuple(peeled.wrappers),
        variant=pattern.variant,
        paths=tuple(dict.fromkeys(fmt(p) for p in paths)),
        indices=_indices(culprit),
        call_ids=call_ids,
        message_index=message_index,
        block_index=block_index,
        meaning=meaning,
        fix=_provider_fix(pattern) or fix,
    )


def in_verdict(found: Explanation, verdict: Iterable[Violation]) -> list[Violation]:
    """The session's own errors of the rule ``found`` names, each in a message, in the verdict's order.

    For a text that names the rule and no message (Gemini's never name one; some of Anthropic's and
    OpenAI's do not): the session's verdict for that provider says where the rule is broken, so a
    pasted 400 still leads to a message, said to come from the verdict and not from the text. Empty
    when the text names a message (`explain` located it) or call ids (located, or not in this
    session: then the 400 is about another history), or when it names no provider.
    """
    if found.rule is None or found.provider is None or found.message_index is not None or found.call_ids:
        return []
    return [
        v for v in verdict if v.rule == found.rule and v.severity == "error" and v.message_index is not None
    ]


# --- matching and extraction ---------------------------------------------------------------------


def _match(
    text: str, compact: bool = False, patterns: tuple[Pattern, ...] = PATTERNS
) -> tuple[Pattern, re.Match[str]] | None:
    """The pattern whose match starts first in ``text``; at the same place, the earlier pattern.

    A paste can hold several errors: the first is the one the request failed with. Between matches at
    the same place, variants come before the general forms. ``compact``: match whitespace-free text
    with the compact patterns.
    """
    best: tuple[Pattern, re.Match[str]] | None = None
    for pattern in patterns:
        regex = _DERIVED.compact[pattern] if compact else pattern.regex
        m = regex.search(text)
        if m is not None and (best is None or m.start() < best[1].start()):
            best = pattern, m
    return best


def _match_as_pasted(
    original: str, peeled: Unwrapped, patterns: tuple[Pattern, ...] = PATTERNS
) -> tuple[Unwrapped, tuple[Pattern, re.Match[str]] | None]:
    """Match the text again with the terminal's and the tracker's changes undone (`toolhist.explain_layout`).

    Each step is tried only when the ones before it left no match: the layout undone (wrapping, borders,
    gutters, fullwidth forms), then string escapes taken off, then whitespace ignored (a wrap inside a
    word), then a paste cut short inside a rule's opening words. Whatever was undone is recorded in
    ``wrappers`` before the envelopes peeled after it.
    """
    flowed = layout.reflow(original)
    if flowed != original:
        again = unwrap(flowed)
        found = _match(again.text, patterns=patterns) or (
            _match(flowed, patterns=patterns) if again.wrappers else None
        )
        if found is not None:
            return Unwrapped(again.text, ["layout", *again.wrappers], again.params), found
    plain = layout.unescape(flowed)
    steps = ["layout"] if flowed != original else []
    if plain != flowed:
        steps.append("escapes")
        again = unwrap(plain)
        found = _match(again.text, patterns=patterns) or (
            _match(plain, patterns=patterns) if again.wrappers else None
        )
        if found is not None:
            return Unwrapped(again.text, [*steps, *again.wrappers], again.params), found
    squeezed = _squeezed(plain)
    found = _match(squeezed, compact=True, patterns=patterns)
    if found is not None:
        return Unwrapped(plain, [*steps, "whitespace"]), found
    found = _match_cut(squeezed, patterns)
    if found is not None:
        return Unwrapped(plain, [*steps, "whitespace", "cut"]), found
    return peeled, None


def _match_cut(squeezed: str, patterns: tuple[Pattern, ...]) -> tuple[Pattern, re.Match[str]] | None:
    """The one rule whose opening words the paste ends inside (a title GitHub cut, a copy cut short).

    The longest such ending decides; when patterns of two rules end it as long, no rule is named.
    """
    tail = squeezed.translate(_NO_QUOTES).rstrip(".…")
    lower = tail.lower()
    endings: list[tuple[int, int, Pattern]] = []  # (known characters it ends with, their span, pattern)
    for pattern, head, cased in _DERIVED.heads:
        if pattern in patterns:
            k = next(
                (k for k in range(len(head), _CUT_MIN - 1, -1) if _ends_with(tail, lower, head[:k], cased)), 0
            )
            if not k and _ends_near(tail, lower, head, cased):
                k = len(head)  # the opening words whole, then a few characters the head stopped short of
            if k:
                endings.append((k, k, pattern))
    for pattern, head, cased, rest in _DERIVED.splits:
        if pattern in patterns and (found := _ends_after_variable(tail, lower, head, cased, rest)):
            endings.append((*found, pattern))
    longest = max((k for k, _, _ in endings), default=0)
    hits = [(p, span) for k, span, p in endings if k == longest]
    if not hits or len({p.rule for p, _ in hits}) > 1:
        return None
    # The sender whose letter case the text has (Kimi, DeepSeek), else the general form (the last).
    pattern, span = max(reversed(hits), key=lambda hit: _DERIVED.case_checks[hit[0]])
    match = re.search(re.escape(tail[len(tail) - span :]), tail)
    return (pattern, match) if match else None


def _ends_after_variable(
    tail: str, lower: str, head: str, cased: dict[int, str], rest: str
) -> tuple[int, int] | None:
    """``tail`` ends with ``head``, a variable part (an id, up to 256 characters), then ``rest`` cut short.

    Returns how many known characters it ends with and how long the ending is, or None.
    """
    for j in range(len(rest), _CUT_REST - 1, -1):
        if len(head) + j < _CUT_MIN:
            break
        if lower.endswith(rest[:j]):
            before = len(lower) - j
            at = lower.rfind(head, max(0, before - len(head) - 256), before - 1)
            if at >= 0 and all(tail[at + i] == char for i, char in cased.items()):
                return len(head) + j, len(lower) - at
    return None


def _ends_near(tail: str, lower: str, head: str, cased: dict[int, str]) -> bool:
    """``tail`` holds the whole ``head`` within its last characters (`_CUT_SLACK` after it).

    A head stops where the pattern stops being literal (``prece{1,2}ding``); the paste may be cut a
    little after that.
    """
    at = lower.rfind(head, max(0, len(lower) - len(head) - _CUT_SLACK))
    return at >= 0 and all(tail[at + i] == char for i, char in cased.items())


def _ends_with(tail: str, lower: str, head: str, cased: dict[int, str]) -> bool:
    """``tail`` ends with ``head`` (compared in lower case), with the letters ``cased`` in their case."""
    if not lower.endswith(head):
        return False
    start = len(tail) - len(head)
    return all(tail[start + at] == char for at, char in cased.items() if at < len(head))


def _squeezed(text: str) -> str:
    """``text`` with layout, escapes and whitespace gone.

    Unescaped once more after the whitespace is out, because a wrap can fall inside an escape (a
    backslash, a new line, then the backtick).
    """
    return layout.compact(layout.unescape(layout.compact(layout.unescape(layout.reflow(text)))))


def _paths(peeled: Unwrapped, match: re.Match[str], fmt: Callable[[PathT], str]) -> list[PathT]:
    """Payload paths from OpenAI's param, the text itself, and an index written in words."""
    found = [p for p in (_parse_path(s) for s in peeled.params) if p is not None]
    found += [p for p in (_parse_path(m.group(0)) for m in _PATH.finditer(peeled.text)) if p is not None]
    if "mi" in match.re.groupindex and match.group("mi") is not None:
        found.append(("messages", int(match.group("mi"))))
    unique: dict[str, PathT] = {}
    for path in found:
        unique.setdefault(fmt(path), path)
    return list(unique.values())


def _parse_path(text: str) -> PathT | None:
    """A path as written in an error text, as a tuple cut after its last index.

    ``messages.[3].role`` → ``("messages", 3)``; ``GenerateContentRequest.contents[2].parts[0].data`` →
    ``("contents", 2, "parts", 0)``. The field after the last index locates nothing more. Bedrock's
    ``member`` segments and DashScope's singular ``message`` are normalised away.
    """
    tokens = [t for t in _TOKEN.findall(text) if t.lower() not in ("member", "generatecontentrequest")]
    if not tokens or tokens[0].isdigit():
        return None
    root = tokens[0].lower()
    parts: list[str | int] = ["messages" if root == "message" else root]
    parts += [int(t) if t.isdigit() else t for t in tokens[1:]]
    last = max((i for i, p in enumerate(parts) if isinstance(p, int)), default=-1)
    if last < 1:
        return None
    return tuple(parts[: last + 1])


def _indices(path: PathT | None) -> tuple[int, ...]:
    if path is None or path[0] not in ("messages", "contents", "input"):
        return ()
    return tuple(p for p in path if isinstance(p, int))[:2]


def _call_ids(pattern: Pattern, match: re.Match[str], text: str) -> tuple[str, ...]:
    """Ids the text names: single ``id``/``id2`` groups, an ``ids`` list, or LangGraph's dict reprs."""
    groups = match.groupdict()
    raw: list[str] = [groups[g] for g in ("id", "id2") if groups.get(g)]
    if groups.get("ids"):
        listed = re.split(r"\.\s", groups["ids"], maxsplit=1)[0]
        raw += _ID_SPLIT.split(listed)
    if pattern.rule == "lg.invalid_chat_history":
        raw += LANGGRAPH_IDS.findall(text)
    ids = (token.strip(_ID_STRIP) for token in raw)
    return tuple(dict.fromkeys(i for i in ids if i))


# --- locating in a session -----------------------------------------------------------------------


def _locate(
    session: Session, pattern: Pattern, culprit: PathT | None, call_ids: tuple[str, ...]
) -> tuple[int | None, int | None]:
    """The culprit's canonical (message, block): through the renderer's source map, and by call id.

    Ids the text names are looked up in the session (as written, as the reader read them, and as the
    provider's body sends them: its ``id_map``). A text naming ids none of which is in the session
    is about another history: no culprit is named, even when its path would land on some message of
    this one (a pasted 400 from another run said "culprit message 3" before). When an id is found,
    the path the text gives is kept where it lands: it is the provider's own pointer (Bedrock's
    "Expected toolResult blocks at messages.2.content" names the user turn that lacks the results,
    not the call's turn).
    """
    name = pattern.provider
    by_path: tuple[int, int | None] | None = None
    sent_as: dict[str, str] = {}
    if name in providers.PROVIDERS and (culprit is not None or call_ids):
        try:
            payload = providers.render(session, name)
        except ToolhistError:
            payload = None
        if payload is not None:
            sent_as = {sent: original for original, sent in payload.id_map.items()}
            if culprit is not None:
                fmt = providers.provider_for(name).path_format
                for n in range(len(culprit), 0, -1):
                    hit = payload.source_map.get(fmt(culprit[:n]))
                    if hit is not None:
                        by_path = hit
                        break
    if not call_ids:
        return by_path if by_path is not None else (None, None)
    wanted = set(call_ids) | {sent_as[i] for i in call_ids if i in sent_as}
    hits: list[tuple[int, int]] = []
    for mi, message in enumerate(session.messages):
        for bi, block in enumerate(message.blocks):
            if isinstance(block, ToolCallBlock) and pattern.side != "result":
                ids = {block.id, block.raw_id}
            elif isinstance(block, ToolResponseBlock) and pattern.side != "call":
                ids = {block.call_id, block.raw_call_id}
            else:
                continue
            if ids & wanted:
                hits.append((mi, bi))
    if not hits:
        return None, None
    if by_path is not None:
        return by_path
    return hits[-1] if pattern.culprit == "last" else hits[0]


def _provider_fix(pattern: Pattern) -> str | None:
    """The registered provider's own fix for this rule, so explain and check never disagree."""
    if pattern.provider not in providers.PROVIDERS:
        return None
    for rule in providers.PROVIDER_REGISTRY[pattern.provider].rules:
        if rule.id == pattern.rule:
            return rule.fix
    return None
