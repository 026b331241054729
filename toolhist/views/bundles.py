"""The "Bundles" source and the captured-request banner: what the guard kept (`toolhist.guard.bundle`).

Plain values only (no Streamlit): the pages show them with ``st.dataframe`` and ``st.text``, which
escape whatever a provider's answer or a model name holds.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pandas as pd

from toolhist.explain import Explanation, explain
from toolhist.guard.bundle import BundleInfo, error_text
from toolhist.model import Session

BUNDLES_ENV = "TOOLHIST_BUNDLES"
"""The folder the app lists bundles from by default (the guard's ``capture=`` folder)."""


def default_folder() -> str:
    """``$TOOLHIST_BUNDLES``, else ``bundles`` (relative to where the app was started)."""
    return os.environ.get(BUNDLES_ENV, "bundles")


def bundles_frame(rows: Sequence[BundleInfo]) -> pd.DataFrame:
    """One row per bundle, newest first as given: time, provider, model, status, rule, error, file."""
    return pd.DataFrame(
        [
            {
                "time (UTC)": r.time,
                "provider": r.provider,
                "model": r.model or "",
                "status": r.status,
                "rule": r.rule or "",
                "error": r.error,
                "file": r.path,
            }
            for r in rows
        ],
        columns=["time (UTC)", "provider", "model", "status", "rule", "error", "file"],
    )


def label(row: BundleInfo) -> str:
    """The bundle in the picker."""
    return f"{row.time} · {row.provider} · {row.status} · {row.rule or 'no known rule'}"


@dataclass(frozen=True)
class Captured:
    """What the home page says about a session opened from a bundle."""

    headline: str
    """``anthropic (claude-sonnet-4-6) answered 400 to this request, sent by anthropic 2.12.0…``."""
    error: str
    """The provider's recorded answer."""
    explanation: Explanation | None
    """That answer explained against the session (rule, culprit), when it is an error."""


def captured(session: Session) -> Captured | None:
    """The banner for a session read from a bundle, or None for any other session."""
    bundle: Any = session.metadata.get("bundle")
    if not isinstance(bundle, dict):
        return None
    response = bundle.get("response") or {}
    status = response.get("status")
    model = f" ({bundle['model']})" if bundle.get("model") else ""
    where = " inside a 200 event stream" if response.get("stream_error") else ""
    headline = (
        f"{bundle.get('provider')}{model} answered {status}{where} to this request, "
        f"sent by {bundle.get('sdk', 'an unknown client')} (guard: {bundle.get('mode', '?')}) "
        f"at {bundle.get('time', '?')}"
    )
    text = error_text(bundle)
    return Captured(headline=headline, error=text, explanation=explain(text, session) if text else None)
