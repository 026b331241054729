"""What the live-object producers print of each object toolhist reads (`inspect_live`, `mini_swe_live`).

Imported inside the framework's own environment, with toolhist from ``PYTHONPATH`` (the checkout under test).
"""

import toolhist


def read(value, *, unsent=False):
    """The object's class and the session toolhist read from it: format, turns and blocks (unsent kinds)."""
    session = toolhist.load(value)
    found = {
        "class": f"{type(value).__module__}.{type(value).__name__}",
        "format": session.source.format,
        "turns": [
            [m.speaker, [b.model_dump(mode="json", exclude={"provider_data"}) for b in m.blocks]]
            for m in session.messages
        ],
    }
    if unsent:
        found["unsent"] = [u.kind for u in session.unsent]
    return found
