"""LangGraph's checkpoint serialisation, decoded as data: nothing named in a checkpoint is imported.

``JsonPlusSerializer`` (langchain-ai/langgraph ``libs/checkpoint/langgraph/checkpoint/serde/jsonplus.py``
at 911f4d4-era langgraph-checkpoint 4.3, ``loads_typed``) writes each blob with a type tag:

- ``msgpack``: msgpack whose objects are extension types holding ``[module, class, value, …]``
  (``EXT_CONSTRUCTOR_SINGLE_ARG`` 0, ``…_POS_ARGS`` 1, ``…_KW_ARGS`` 2, ``EXT_METHOD_SINGLE_ARG`` 3,
  ``EXT_PYDANTIC_V1`` 4, ``EXT_PYDANTIC_V2`` 5: a LangChain message is code 5 with its fields as a
  map); ``EXT_DELTA_SNAPSHOT`` 7 wraps a delta channel's snapshot;
- ``json``: JSON whose objects are ``{"lc": 1|2, "type": "constructor", "id": [..., class],
  "kwargs": {…}}`` (the older serialisation);
- ``null``, ``bytes``, ``bytearray``; ``pickle`` (opt-in in LangGraph) is refused: unpickling runs code.

LangGraph rebuilds the classes by importing their modules; a reader of someone else's store must
not, so each object becomes ``{"__class__": "module.Class", **fields}`` (its fields are LangChain's
message fields, which `toolhist.agents.langchain.reader` reads). Decoding needs ``ormsgpack``
(LangGraph's own msgpack library): the ``langgraph`` extra.
"""

from __future__ import annotations

from typing import Any

import orjson

from toolhist.extras import require

CLASS = "__class__"


def _ext(code: int, data: bytes) -> Any:
    import ormsgpack

    value = ormsgpack.unpackb(data, ext_hook=_ext, option=ormsgpack.OPT_NON_STR_KEYS)
    if code == 7:  # EXT_DELTA_SNAPSHOT: the snapshot value itself
        return value
    if isinstance(value, list | tuple) and len(value) >= 3 and all(isinstance(v, str) for v in value[:2]):
        cls = f"{value[0]}.{value[1]}"
        arg = value[2]
        if isinstance(arg, dict):
            return {CLASS: cls, **arg}
        return {CLASS: cls, "value": arg}
    return {CLASS: f"ext{code}", "value": value}


def loads(kind: str | None, data: bytes | str | None) -> Any:
    """The value of one blob tagged ``kind``; ValueError for a tag that cannot be read safely."""
    if kind in (None, "null") or data is None:
        return None
    if isinstance(data, str):
        data = data.encode()
    if kind in ("bytes", "bytearray"):
        return data.decode("utf-8", "replace")
    if kind == "json":
        return orjson.loads(data)
    if kind == "msgpack":
        require("reading a LangGraph checkpoint", "langgraph", ["ormsgpack"])
        import ormsgpack

        return ormsgpack.unpackb(data, ext_hook=_ext, option=ormsgpack.OPT_NON_STR_KEYS)
    raise ValueError(f"a {kind!r} blob: toolhist does not read it (unpickling would run code from the store)")
