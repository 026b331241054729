"""The app's choice of library version for the ``litellm`` and ``openai-agents`` strategies.

A strategy that runs a real library gets a select box of the versions it can run (the one selected
by default: `toolhist.peers.versions.selected`, the pin, the one installed here, every version in the
peers cache). Another version than the default is passed on spelled with it (``litellm@1.110.2``):
the cached results are then per version, and every table says which version ran (its ``library``
column does for the default one too).
"""

from __future__ import annotations

import streamlit as st

from toolhist.peers.env import find, installed_versions
from toolhist.peers.pins import LIBRARY_OF_STRATEGY, PINS
from toolhist.peers.versions import Selected, describe, installed, selected, split_strategy


def _key(library: str) -> str:
    return f"peer_version_{library}"


def options(library: str) -> dict[str, str]:
    """Version → its label, the default first; a version without its environment says so."""
    found: list[Selected] = [selected(library), Selected(library, PINS[library], "pin")]
    here = installed(library)
    if here is not None:
        found.append(Selected(library, here, "installed here"))
    found += [Selected(library, e.versions.get(library, "?"), "named") for e in installed_versions(library)]
    out: dict[str, str] = {}
    for chosen in found:
        if chosen.version in out:
            continue
        label = describe(chosen) if chosen.why != "named" else f"{library} {chosen.version} (cached)"
        out[chosen.version] = label + ("" if find(library, chosen.version) else ", not installed")
    return out


def pick_version(strategy: str) -> str:
    """``strategy`` spelled with the version picked in the sidebar when it runs a library, else as is."""
    base, _ = split_strategy(strategy)
    library = LIBRARY_OF_STRATEGY.get(base)
    if library is None:
        return strategy
    labels = options(library)
    if st.session_state.get(_key(library)) not in labels:
        st.session_state.pop(_key(library), None)
    version = st.sidebar.selectbox(
        f"{library} version", list(labels), format_func=labels.__getitem__, key=_key(library)
    )
    return _spelled(base, library, str(version))


def with_version(strategy: str) -> str:
    """``strategy`` with the version last picked for its library (the default when none was)."""
    library = LIBRARY_OF_STRATEGY.get(strategy)
    if library is None:
        return strategy
    return _spelled(strategy, library, st.session_state.get(_key(library)) or selected(library).version)


def _spelled(strategy: str, library: str, version: str) -> str:
    """``litellm@1.110.2``, or plain ``litellm`` for the default version (what every other page runs)."""
    return strategy if version == selected(library).version else f"{strategy}@{version}"
