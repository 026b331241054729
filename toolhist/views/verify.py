"""What the Verify page shows: the cached plan of a request, and the ledger as a table.

Nothing here sends: `toolhist.verify.confirm` does, called by the page only after the user turned
sending on and pressed the button. The plan is cached per session key, provider, strategy, model and
route (rendering a long history costs seconds); the key is read from the environment when sending
and is never in the plan, the cache or the page's state.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from toolhist.formats.document import Document
from toolhist.model import Session
from toolhist.providers import provider_for
from toolhist.verify import Plan, plan
from toolhist.verify.endpoints import ENDPOINTS, REGION_VARS
from toolhist.verify.plan import RouteChoice
from toolhist.views.state import Opened

COLUMNS = ["time (UTC)", "provider", "model", "strategy", "status", "predicted", "answered", "outcome"]


def environment(provider: str) -> tuple[tuple[str, str], ...]:
    """What a plan reads from the environment, for the cache key.

    Base URLs and region as set, and which key variables are set: their names only, never a key.
    """
    endpoint = ENDPOINTS[provider_for(provider).name]
    moved = [(name, os.environ.get(name, "")) for name in (*endpoint.base_vars, *REGION_VARS)]
    keys = [(name, "set" if os.environ.get(name) else "") for name in endpoint.key_vars]
    return tuple(moved + keys)


def no_model_here(reason: str) -> str:
    """A planning error in the page's words: the Model box, not the CLI's ``--model``."""
    return reason.replace("give one with --model", "type one in the Model box")


def planned(opened: Opened, provider: str, strategy: str, *, model: str | None, route: RouteChoice) -> Plan:
    """`toolhist.verify.plan` of the open session, cached per session key, choices and `environment`."""
    choices = (provider, strategy, model, route, environment(provider))
    return _planned(opened.key, choices, opened.document, opened.session)


@st.cache_resource(max_entries=16, show_spinner=False)
def _planned(key: str, choices: tuple[Any, ...], _document: Document, _session: Session) -> Plan:
    provider, strategy, model, route, _ = choices
    return plan(_document, _session, provider, strategy=strategy, model=model, route=route)


def ledger_frame(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    """One row per send, newest first: what was predicted, what the provider answered, the outcome."""
    table = [
        {
            "time (UTC)": r.get("time"),
            "provider": r.get("provider"),
            "model": r.get("model"),
            "strategy": r.get("strategy"),
            "status": (r.get("answer") or {}).get("status"),
            "predicted": ", ".join((r.get("predicted") or {}).get("errors") or []) or "accepted",
            "answered": (r.get("answer") or {}).get("rule") or "-",
            "outcome": r.get("outcome"),
        }
        for r in reversed(rows)
    ]
    return pd.DataFrame(table, columns=COLUMNS)
