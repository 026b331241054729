"""One folder per agent or log source: where it keeps sessions, how it writes them, what says where it ran.

`toolhist.agents.registry` lists them; this ``__init__`` imports nothing, because every agent's
modules import the shared ones beside it (`toolhist.agents.headers`) and `toolhist.formats`.
"""
