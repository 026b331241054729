"""Strict validation of a JSON body against an SDK's own request types, with readable errors.

The official SDKs describe their requests as ``TypedDict``s (OpenAI, Anthropic, Mistral) or pydantic
models (google-genai). Validating a body with ``pydantic.TypeAdapter`` against them is close to what we
want, but three things have to be fixed first (`research/ecosystem.md` §1-2, all verified here):

- **Unknown keys are ignored** by default: the adapter is built with ``extra="forbid"``, which reaches
  every nested TypedDict that has no config of its own.
- **``Iterable[...]`` fields are validated lazily** (pydantic returns a ``ValidatorIterator``; upstream
  pydantic#9467): ``tool_calls``, content-part lists, ``tools``… pass ``validate_python`` whatever they
  hold, and when anything else in the same message fails, they are never looked at. `eager` rewrites
  the SDK types with ``list[...]`` in their place (the TypedDicts rebuilt field by field), so one
  validation reports every error at every depth; `materialize` still consumes any iterator left.
- **Smart unions report one error per variant** (a bad tool message gives eight errors). Top-level
  message/item unions are discriminated with `tagged_union`; what remains is pruned by
  `prune_union_noise`, which keeps the variants whose discriminator the value actually names.

Pydantic's ``loc`` mixes real body keys with union variant names and tags; `body_path` walks the body to
keep only the real part, so a violation points at the provider path a user can open.
"""

from __future__ import annotations

import collections
import collections.abc
import types
import typing
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any, NotRequired, Required, Union, get_args, get_type_hints

import typing_extensions
from pydantic import BaseModel, ConfigDict, Discriminator, Tag, TypeAdapter, ValidationError

Loc = tuple[str | int, ...]


@dataclass(frozen=True)
class Issue:
    """One reason the SDK types refuse a body: where (a real body path) and the SDK's own message."""

    path: Loc
    """Path of the offending value in the body (a missing key ends the path)."""
    kind: str
    """pydantic's error type (``extra_forbidden``, ``missing``, ``string_type``…) or ``loose_match``."""
    message: str
    """The message as pydantic/the SDK words it, with the input's type and a short repr."""


def _literal(tp: Any) -> Any:
    """The single Literal value inside ``Required[Literal["x"]]`` and similar wrappers, else None."""
    while typing.get_origin(tp) is not typing.Literal and get_args(tp):
        tp = get_args(tp)[0]
    return get_args(tp)[0] if typing.get_origin(tp) is typing.Literal else None


def tagged_union(union: Any, field: str, default: str | None = None) -> Any:
    """``union`` discriminated on ``field`` (members sharing a value stay a smart sub-union).

    A callable discriminator, because some members leave the field optional (Responses' ``message``
    items): ``default`` is the tag used when the value has no such key.
    """
    groups: dict[Any, list[Any]] = collections.defaultdict(list)
    for member in get_args(union):
        groups[_literal(get_type_hints(member, include_extras=True)[field])].append(member)
    members = [
        Annotated[Union[tuple(vs)] if len(vs) > 1 else vs[0], Tag(str(tag))]  # noqa: UP007 - runtime tuple
        for tag, vs in groups.items()
    ]

    def pick(value: Any) -> Any:
        return value.get(field, default) if isinstance(value, dict) else getattr(value, field, default)

    return Annotated[Union[tuple(members)], Discriminator(pick)]  # noqa: UP007 - runtime tuple


_EAGER: dict[Any, Any] = {}
_BUILDING: set[Any] = set()


def eager(tp: Any) -> Any:
    """``tp`` with every ``Iterable``/``Sequence`` replaced by ``list``, through unions and TypedDicts.

    Literals, dicts of JSON and pydantic models (google-genai, already eager) are left as they are,
    but response models are taken out of unions of request types. Annotations (discriminators,
    tags) are kept on the rewritten type.
    """
    origin = typing.get_origin(tp)
    args = get_args(tp)
    if origin is Annotated:
        return Annotated[(eager(args[0]), *tp.__metadata__)]
    if origin in (Required, NotRequired):
        return origin[eager(args[0])]
    if origin in (list, collections.abc.Iterable, collections.abc.Sequence) and args:
        return list[eager(args[0])]  # type: ignore[misc]
    if origin in (Union, types.UnionType):
        # The response models in request unions (Anthropic's content blocks) allow any key: a JSON
        # body is never one of those objects, so only the request param types are checked.
        members = [a for a in args if not _models_only(a)] or list(args)
        return Union[tuple(eager(a) for a in members)]  # noqa: UP007 - runtime tuple
    if typing_extensions.is_typeddict(tp):
        return _eager_typeddict(tp)
    return tp


def _models_only(tp: Any) -> bool:
    """A pydantic model, or an (annotated) union of nothing but models."""
    if isinstance(tp, type):
        return issubclass(tp, BaseModel)
    origin = typing.get_origin(tp)
    if origin is Annotated:
        return _models_only(get_args(tp)[0])
    if origin in (Union, types.UnionType):
        return all(_models_only(a) for a in get_args(tp))
    return False


def _eager_typeddict(td: Any) -> Any:
    """A TypedDict like ``td`` (same name, keys and required keys) whose field types are `eager`."""
    if td in _EAGER:
        return _EAGER[td]
    if td in _BUILDING:  # a recursive type: its inner occurrence stays lazy (none of the SDKs has one)
        return td
    _BUILDING.add(td)
    try:
        fields: dict[str, Any] = {}
        changed = False
        for key, marked in get_type_hints(td, include_extras=True).items():
            origin = typing.get_origin(marked)
            inner = get_args(marked)[0] if origin in (Required, NotRequired) else marked
            # From the resolved hints: the SDKs' string annotations leave __required_keys__ empty.
            required = origin is Required or (td.__total__ and origin is not NotRequired)
            wrap = Required if required else NotRequired
            rewritten = eager(inner)
            changed = changed or rewritten != inner
            fields[key] = wrap[rewritten]
        if not changed:
            # Kept as the SDK wrote it: pydantic resolves some SDK annotations (file inputs) only there.
            _EAGER[td] = td
            return td
        make: Any = typing_extensions.TypedDict
        built = make(td.__name__, fields, total=False)
        built.__module__ = td.__module__
        built.__qualname__ = td.__qualname__
        _EAGER[td] = built
        return built
    finally:
        _BUILDING.discard(td)


def list_of(item: Any) -> Any:
    """``list[item]`` for a type built at run time (type checkers only see ``Any``)."""
    return list[item]


def materialize(value: Any, issues: list[Issue], body: Any, path: Loc = (), *, loose: bool = True) -> Any:
    """Consume every lazy iterator in a validated value, collecting its items' errors into ``issues``.

    ``loose``: a pydantic model instance in the output means a *response* model with ``extra='allow'``
    matched where the request TypedDict refused the value (Anthropic's content unions include the
    response blocks) — reported as an issue. google-genai's request types are models, so it passes False.
    """
    if isinstance(value, dict):
        return {k: materialize(v, issues, body, (*path, k), loose=loose) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [materialize(v, issues, body, (*path, i), loose=loose) for i, v in enumerate(value)]
    if type(value).__name__ == "ValidatorIterator":  # not importable from pydantic_core: match by name
        items: list[Any] = []
        iterator = iter(value)
        index = 0
        while True:
            try:
                item = next(iterator)
            except StopIteration:
                break
            except ValidationError as exc:
                # The iterator goes on after a bad item; its loc starts at the item's index.
                issues.extend(issues_from(exc, body, path))
                item = None
            items.append(materialize(item, issues, body, (*path, index), loose=loose))
            index += 1
        return items
    if loose and isinstance(value, BaseModel):
        name = type(value).__name__
        message = (
            f"Matched only the response type {name} (which allows any key), no request param type: "
            "an unknown key or a wrong value type in this block"
        )
        issues.append(Issue(path, "loose_match", message))
        return None
    return value


def issues_from(exc: ValidationError, body: Any, prefix: Loc = ()) -> list[Issue]:
    """The errors of ``exc`` (raised for the value at ``prefix`` in ``body``), pruned and deduplicated."""
    base = _get(body, prefix)
    raw = [(body_path(base, err["loc"]), err) for err in exc.errors()]
    seen: set[tuple[Loc, str]] = set()
    out: list[Issue] = []
    for (path, markers), err in prune_union_noise(base, raw):
        del markers
        full = (*prefix, *path)
        message = _message(err)
        if (full, message) in seen:
            continue
        seen.add((full, message))
        out.append(Issue(full, err["type"], message))
    return out


def _message(err: Any) -> str:
    """The message in pydantic's own wording: ``msg [type=..., input_value=..., input_type=...]``."""
    text = repr(err.get("input"))
    if len(text) > 60:
        text = text[:57] + "..."
    return (
        f"{err['msg']} [type={err['type']}, input_value={text}, input_type={type(err.get('input')).__name__}]"
    )


def _get(body: Any, path: Loc) -> Any:
    for part in path:
        body = body[part]
    return body


Marked = tuple[Loc, tuple[tuple[int, str], ...]]
"""A real body path and the union markers met on the way: (depth in the real path, marker)."""


def body_path(body: Any, loc: Loc) -> Marked:
    """Split pydantic's ``loc`` into the real body path and the union variant names/tags in it.

    An element is real when it indexes into the body at that point (a present key, a list index) or
    when it is the last element (a missing or extra key). Anything else is a union marker.
    """
    path: list[str | int] = []
    markers: list[tuple[int, str]] = []
    current = body
    for n, part in enumerate(loc):
        last = n == len(loc) - 1
        into_dict = isinstance(current, dict) and isinstance(part, str) and part in current
        into_list = isinstance(current, list) and isinstance(part, int) and 0 <= part < len(current)
        if into_dict or into_list:
            current = current[part]
            path.append(part)
        elif last and (isinstance(current, dict) or isinstance(part, int)):
            path.append(part)
        else:
            markers.append((len(path), str(part)))
    return tuple(path), tuple(markers)


def prune_union_noise(body: Any, raw: list[tuple[Marked, Any]]) -> Iterator[tuple[Marked, Any]]:
    """Drop the errors of union variants the value plainly is not, level by level.

    Among the variants tried at one place, a variant is ruled out when its errors include a Literal
    mismatch on a direct key (the value's ``type``/``role`` names another variant) or a type error on
    the value itself (a list where the variant wants a string); of the rest, the variants with the
    fewest errors are kept (the closest match, as a reader would guess). If every variant is ruled
    out, all stay: nothing better can be said. Nested unions are pruned the same way.
    """
    del body
    by_place: dict[tuple[Loc, int], dict[str, list[tuple[Marked, Any]]]] = collections.defaultdict(
        lambda: collections.defaultdict(list)
    )
    for marked, err in raw:
        path, markers = marked
        if not markers:
            yield marked, err
            continue
        depth, name = markers[0]
        by_place[(path[:depth], depth)][name].append(((path, markers[1:]), err))
    for (place, _depth), variants in by_place.items():
        kept = {name: errs for name, errs in variants.items() if not _ruled_out(place, errs)} or variants
        fewest = min(len(errs) for errs in kept.values())
        for errs in kept.values():
            if len(errs) == fewest:
                yield from prune_union_noise(None, errs)


def _ruled_out(place: Loc, errs: list[tuple[Marked, Any]]) -> bool:
    for (path, _markers), err in errs:
        if err["type"] == "literal_error" and len(path) == len(place) + 1:
            return True
        if path == place and err["type"] not in {"missing", "extra_forbidden"}:
            return True
    return False


class StrictRequest:
    """A request type, validated field by field so every field's issues are reported at once.

    Validating the whole request in one go stops at its first failing level: lazy lists elsewhere are
    then never consumed. Here each top-level field gets its own adapter (built on first use, with
    ``extra="forbid"``), and unknown/missing top-level keys are issues of their own.
    """

    def __init__(
        self, fields: dict[str, Any], required: frozenset[str], *, loose: bool = True, name: str = ""
    ) -> None:
        self.fields = fields
        """Top-level key → the SDK type its value must have."""
        self.required = required
        """The keys the SDK type marks Required."""
        self.loose = loose
        """Whether a response-model match inside counts as an issue (see `materialize`)."""
        self.name = name
        """The SDK type's dotted name, for messages and ``Violation.source``."""
        self._adapters: dict[str, TypeAdapter[Any]] = {}

    @classmethod
    def from_typeddict(
        cls, td: Any, overrides: dict[str, Any] | None = None, *, loose: bool = True
    ) -> StrictRequest:
        """From a TypedDict request type; ``overrides`` replaces some field types (tagged unions)."""
        fields: dict[str, Any] = {}
        required: set[str] = set()
        for key, marked in get_type_hints(td, include_extras=True).items():
            origin = typing.get_origin(marked)
            # Required keys: marked Required, or unmarked in a total TypedDict (Mistral's are total).
            if origin is Required or (td.__total__ and origin is not NotRequired):
                required.add(key)
            fields[key] = eager(get_args(marked)[0] if origin in (Required, NotRequired) else marked)
        fields.update({key: eager(tp) for key, tp in (overrides or {}).items()})
        return cls(fields, frozenset(required), loose=loose, name=f"{td.__module__}.{td.__qualname__}")

    def issues(self, body: dict[str, Any]) -> list[Issue]:
        """Every issue of ``body``: unknown and missing keys, then each field's, lazy items included."""
        out: list[Issue] = []
        for key, value in body.items():
            if key not in self.fields:
                err = {"type": "extra_forbidden", "msg": "Extra inputs are not permitted", "input": value}
                out.append(Issue((key,), "extra_forbidden", _message(err)))
        for key in sorted(self.required - set(body)):
            err = {"type": "missing", "msg": "Field required", "input": body}
            out.append(Issue((key,), "missing", _message(err)))
        for key, value in body.items():
            if key not in self.fields:
                continue
            item_type = _item_type(self.fields[key]) if isinstance(value, list) else None
            if item_type is None:
                out.extend(_shift(self._validate(key, self.fields[key], value), key))
                continue
            # Item by item, so one bad message does not hide the lazy lists of all the others.
            for index, item in enumerate(value):
                out.extend(_shift(self._validate(f"{key}[]", item_type, item), key, index))
        return out

    def _validate(self, slot: str, tp: Any, value: Any) -> list[Issue]:
        """Issues of ``value`` against ``tp``, rooted at ``[value]`` (the adapter validates a list)."""
        if slot not in self._adapters:
            # Wrapped in a list: `config=` is refused on a bare TypedDict, accepted (and inherited) here.
            # strict: a JSON body has real types, so "0.2" is no temperature and "yes" no boolean.
            config = ConfigDict(extra="forbid", strict=True)
            self._adapters[slot] = TypeAdapter(list_of(tp), config=config)
        try:
            result = self._adapters[slot].validate_python([value])
        except ValidationError as exc:
            return issues_from(exc, [value])
        found: list[Issue] = []
        materialize(result, found, [value], loose=self.loose)
        return found


def _item_type(tp: Any) -> Any:
    """The item type of a list/Iterable type, or of the list member of a union; None otherwise."""
    origin = typing.get_origin(tp)
    if origin in (list, collections.abc.Iterable, collections.abc.Sequence):
        return get_args(tp)[0]
    if origin in (Union, types.UnionType):
        for member in get_args(tp):
            found = _item_type(member)
            if found is not None:
                return found
    return None


def _shift(issues: list[Issue], *prefix: str | int) -> list[Issue]:
    """Issues found in ``[value]`` re-rooted at ``body[prefix...]``."""
    return [Issue((*prefix, *i.path[1:]), i.kind, i.message) for i in issues]
