"""Cheap copies of models toolhist already holds, for the hot loops of curation and rendering.

A curation of a 10k-message history rewrites tens of thousands of blocks (every id is made
canonical) and records a `Change` for each. Pydantic's generic ``model_copy`` (``__copy__``, then
``copy.copy`` of each attribute dict) and, for `Change`, the Python-level set-up of its private
attribute after validation were a large share of that work in ``benchmarks/bench_scale.py``
profiles. The values involved are already valid: they come from validated models, or are built by
toolhist from such values. `replace` is ``model_copy(update=...)`` and `construct` is the
validating constructor, without that machinery; both produce the same object state (``__dict__``
in field order, the same fields set, private attributes as pydantic sets them), so equality,
``repr``, serialisation and ``model_fields_set`` are unchanged. Neither validates: they are for
toolhist's own code, never for user input.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

M = TypeVar("M", bound=BaseModel)

_setattr = object.__setattr__


def replace(model: M, /, **update: Any) -> M:
    """``model.model_copy(update=update)`` for a model whose ``extra`` is not ``allow`` (no validation)."""
    cls = type(model)
    set_state, set_fields, set_extra, set_private = _slots(cls)
    new = cls.__new__(cls)
    values = model.__dict__.copy()
    values.update(update)
    set_state(new, values)
    extra = model.__pydantic_extra__
    set_extra(new, None if extra is None else extra.copy())
    set_fields(new, fields_with(model.__pydantic_fields_set__, update))
    private = getattr(model, "__pydantic_private__", None)
    if private is not None:  # a copy without unset values (a loop: a comprehension is a call of its own)
        kept = private.copy()
        for name, value in private.items():
            if value is PydanticUndefined:
                del kept[name]
        private = kept
    set_private(new, private)
    return new


def fields_with(fields_set: set[str], names: Iterable[str]) -> set[str]:
    """``fields_set | names``, the one set for every model whose fields set is ``fields_set``.

    The fields set of a copy with new values (`replace`, a Change given its ``fixes``). Models made
    by `construct` share their fields sets, so their copies can share theirs: a set of five or more
    names takes 728 bytes, and a curation that rewrites every id of a long history copies every
    call, result and message that holds one (a set each was 10,000s of them at 10,000 messages).
    Sharing is as safe as `_layout` says (frozen models; pydantic copies a set before it adds to
    it). Kept for the last few hundred sets asked about; the others get a set of their own.
    """
    names = tuple(names)
    key = (id(fields_set), *names)
    known = _UNIONS.get(key)
    if known is not None and known[0] is fields_set:
        return known[1]
    union: set[str] = fields_set.union(names)
    if len(_UNIONS) >= _UNIONS_KEPT:  # sets of models pydantic validated, each its own: start over
        _UNIONS.clear()
    _UNIONS[key] = (fields_set, union)  # ``fields_set`` held: its id is not reused while it is a key
    return union


_UNIONS: dict[tuple[Any, ...], tuple[set[str], set[str]]] = {}
"""`fields_with`'s sets: (the id of a fields set, the names added) → (that set, the union)."""
_UNIONS_KEPT = 512


_Setter = Callable[[Any, Any], None]


@functools.cache
def _slots(cls: type[BaseModel]) -> tuple[_Setter, _Setter, _Setter, _Setter]:
    """The setters (`_setter`) of a model's state: ``__dict__``, fields set, extra, private attributes.

    Every maker here sets these four on each object it makes; through ``object.__setattr__`` (a
    look-up by name on every call) that was half of what `construct` cost, and `construct` makes
    every block, message and location a reader reads (half a million at 100,000 messages).
    """
    return (
        _setter(cls, "__dict__"),
        _setter(cls, "__pydantic_fields_set__"),
        _setter(cls, "__pydantic_extra__"),
        _setter(cls, "__pydantic_private__"),
    )


_Layout = tuple[
    dict[str, Any],
    tuple[tuple[str, Any], ...],
    frozenset[str],
    dict[str, Any] | None,
    dict[tuple[str, ...], set[str]],
]


@functools.cache
def _layout(cls: type[BaseModel]) -> _Layout:
    """Per model class: defaults, factories, required names, private defaults, fields sets made.

    Defaults are in field order; the fields sets are those `construct` has made, by the names given.
    `construct` gives every model it makes with the same names one shared fields set: a set of five
    or more names takes 728 bytes, as much as the rest of a small block, and one per block and
    message was 15% of a loaded Codex rollout (issue 26). Sharing is safe because the models are
    frozen: pydantic adds to a model's set only on assignment, and copies it (``__copy__``,
    ``model_copy``) before updating a copy's; `replace` makes a new one.
    """
    defaults: dict[str, Any] = {}
    factories = []
    required = set()
    for name, field in cls.__pydantic_fields__.items():
        defaults[name] = None if field.default is PydanticUndefined else field.default
        if field.default_factory is not None:
            factories.append((name, field.default_factory))
        elif field.default is PydanticUndefined:
            required.add(name)
    private = None
    if cls.__private_attributes__:
        private = {
            name: default
            for name, attr in cls.__private_attributes__.items()
            if (default := attr.get_default()) is not PydanticUndefined
        }
    return defaults, tuple(factories), frozenset(required), private, {}


def construct(cls: type[M], /, **values: Any) -> M:
    """``cls(**values)`` for values that already have the declared types, by field name, without validation.

    Unlike pydantic's ``model_construct`` it is cheaper than validating (a fixed field layout, no alias
    handling), and it fills private attributes exactly as ``__init__`` does. A missing required
    field or an unknown name is a KeyError: callers are toolhist's own code.

    The work that depends only on the class and the names given (which are known, which defaults
    and factories are left, the shared fields set) is done once per class and set of names, by
    `_compiled`: readers call this half a million times to load 100,000 messages, with a few
    dozen such sets (issue 26).
    """
    try:
        make = _MADE[cls][tuple(values)]
    except KeyError:
        make = _compiled(cls, tuple(values))
    return make(values)  # type: ignore[no-any-return]


_MADE: dict[type[BaseModel], dict[tuple[str, ...], Callable[[dict[str, Any]], Any]]] = {}
"""`construct`'s makers, by class and by the names given, in the order given."""


def _compiled(cls: type[M], names: tuple[str, ...]) -> Callable[[dict[str, Any]], M]:
    """The maker `construct` calls for ``cls`` given ``names`` (KeyError: an unknown or missing field)."""
    defaults, factories, required, private, sets = _layout(cls)
    given = set(names)
    if not given <= defaults.keys() or not required <= given:
        unknown = sorted(given - set(defaults)) + sorted(required - given)
        raise KeyError(f"{cls.__name__}: unknown or missing fields {', '.join(unknown)}")
    fields_set = sets.get(names)
    if fields_set is None:
        fields_set = sets[names] = set(names)
    left = tuple((name, factory) for name, factory in factories if name not in given)
    base = defaults
    new_model = cls.__new__
    set_state, set_fields, set_extra, set_private = _slots(cls)

    if left or private is not None:

        def make(values: dict[str, Any]) -> M:
            state = {**base, **values}  # the fields in declared order, the given values in their places
            for name, factory in left:
                state[name] = factory()
            new = new_model(cls)
            set_state(new, state)
            set_fields(new, fields_set)
            set_extra(new, None)
            set_private(new, None if private is None else private.copy())
            return new

    else:

        def make(values: dict[str, Any]) -> M:
            state = {**base, **values}  # the fields in declared order, the given values in their places
            new = new_model(cls)
            set_state(new, state)
            set_fields(new, fields_set)
            set_extra(new, None)
            set_private(new, None)
            return new

    _MADE.setdefault(cls, {})[names] = make
    return make


def maker(cls: type[M], /, **fixed: Any) -> Callable[..., M]:
    """A `construct` for many models of ``cls`` that share ``fixed`` values, given every other field by name.

    Building one `Violation` per finding (116,000 Mistral id warnings at 100,000 messages) spent
    most of its time setting up the same rule-level fields; the callable copies a state prepared
    once (field order, fixed values) and sets only what differs. The model is the one
    ``construct(cls, **fixed, **values)`` makes (every field counts as set; one shared fields set).
    A call that does not give exactly the other fields goes through `construct`, which names what
    is wrong.
    """
    defaults, _factories, _required, private, sets = _layout(cls)
    base = defaults.copy()
    base.update(fixed)
    if len(base) != len(defaults):
        raise KeyError(f"{cls.__name__}: unknown fields {', '.join(sorted(set(fixed) - set(defaults)))}")
    every = len(defaults)
    rest = every - len(fixed)
    every_name = tuple(defaults)  # one fields set for every model any maker of ``cls`` makes
    fields_set = sets.get(every_name)
    if fields_set is None:
        fields_set = sets[every_name] = set(every_name)

    new_model = cls.__new__
    set_state, set_fields, set_extra, set_private = _slots(cls)

    def make(**values: Any) -> M:
        state = {**base, **values}  # base's field order, the given values in their places
        if len(values) != rest or len(state) != every:
            return construct(cls, **fixed, **values)
        new = new_model(cls)
        set_state(new, state)
        set_fields(new, fields_set)
        set_extra(new, None)
        set_private(new, None if private is None else private.copy())
        return new

    return make


def filler(cls: type[M], /) -> Callable[[dict[str, Any]], M]:
    """A model of ``cls`` from its whole state, every field in declared order: the object `maker` makes.

    For a loop that writes the state as a dict literal (`toolhist.providers.base.violations`, one
    Violation per finding): a call with keywords merged into a prepared state cost a third more.
    The caller owns the order (a dict compares equal in any order, but ``repr`` and dumps follow it).

    The four slots are set through their descriptors' own setters (`_setter`), what
    ``object.__setattr__`` finds and calls after a lookup by name each time: a third of making a
    Violation (170,000 at 100,000 messages).
    """
    defaults, _factories, _required, private, sets = _layout(cls)
    every_name = tuple(defaults)
    fields_set = sets.get(every_name)
    if fields_set is None:
        fields_set = sets[every_name] = set(every_name)
    new_model = cls.__new__
    set_state, set_fields, set_extra, set_private = _slots(cls)

    if private is None:

        def fill(state: dict[str, Any]) -> M:
            new = new_model(cls)
            set_state(new, state)
            set_fields(new, fields_set)
            set_extra(new, None)
            set_private(new, None)
            return new

        return fill

    def fill_private(state: dict[str, Any]) -> M:
        new = new_model(cls)
        set_state(new, state)
        set_fields(new, fields_set)
        set_extra(new, None)
        set_private(new, private.copy())
        return new

    return fill_private


def _setter(cls: type, name: str) -> Callable[[Any, Any], None]:
    """``object.__setattr__(obj, name, value)`` for objects of ``cls``, as ``setter(obj, value)``.

    The data descriptor that call finds on the class (a slot's, or ``__dict__``'s), its ``__set__``
    bound; a class where ``name`` is no data descriptor gets ``object.__setattr__`` itself.
    """
    for klass in cls.__mro__:
        if name in vars(klass):
            found = vars(klass)[name]
            if hasattr(type(found), "__set__"):
                return found.__set__  # type: ignore[no-any-return]
            break
    return lambda obj, value: _setattr(obj, name, value)


def named_maker(cls: type[M], *names: str) -> Callable[..., M]:
    """``construct(cls, **dict(zip(names, values)))`` as a function of the values, for one set of names.

    Unlike `maker` (every field counted as set, for Violations), the fields set are exactly the ones
    `construct` would set, which ``exclude_unset`` dumps of a `Change` depend on.

    The passes that make one object per call of a long history (a `Position`, a ``rewrite_id``
    `Change`) always pass the same names: the layout `construct` works out on every call (defaults,
    fields set, private attributes) is worked out here once, from an object it made. The objects
    are the same as `construct`'s. Every field with a default factory must be among ``names`` (its
    value would otherwise be the one object made here, shared).
    """
    fields = cls.__pydantic_fields__
    unnamed = [n for n, f in fields.items() if f.default_factory is not None and n not in names]
    if unnamed:
        raise KeyError(f"{cls.__name__}: {', '.join(unnamed)} must be given (a default factory)")
    made = construct(cls, **dict.fromkeys(names))
    state, fields_set, private = made.__dict__, made.__pydantic_fields_set__, made.__pydantic_private__
    new = cls.__new__
    set_state, set_fields, set_extra, set_private = _slots(cls)

    def make(*values: Any) -> M:
        obj = new(cls)
        values_of = state.copy()
        values_of.update(zip(names, values, strict=True))
        set_state(obj, values_of)
        set_fields(obj, fields_set)
        set_extra(obj, None)
        set_private(obj, None if private is None else private.copy())
        return obj

    return make


def named_filler(cls: type[M], *names: str) -> Callable[[dict[str, Any], dict[str, Any] | None], M]:
    """`named_maker`'s object from a state the caller writes whole: ``fill(state, private)``.

    ``state`` holds every field in declared order (the given values and the others' defaults, as
    ``construct(cls, **dict(zip(names, values)))`` would set them), ``private`` the private
    attributes (``None`` for a model without any). For the loops that make one object per id of a
    long history (a `toolhist.curation.base.Position`, a ``rewrite_id`` Change): a dict literal and
    the four slots set, without `named_maker`'s copy, update and zip, cost half as much. The caller
    owns the state's completeness and order (``tests/test_trusted.py`` holds each caller to
    `construct`'s object); only ``names`` count as set.
    """
    fields_set = construct(cls, **dict.fromkeys(names)).__pydantic_fields_set__
    new_model = cls.__new__
    set_state, set_fields, set_extra, set_private = _slots(cls)

    def fill(state: dict[str, Any], private: dict[str, Any] | None) -> M:
        new = new_model(cls)
        set_state(new, state)
        set_fields(new, fields_set)
        set_extra(new, None)
        set_private(new, private)
        return new

    return fill
