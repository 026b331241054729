"""The Curation page's diff and the rows of its before/after table, cached per session key.

The diff of a curation (`toolhist.views.diffs.curation_diff`) gives the page its counts; the table
shows either every row or, by default on a long history, the changed ones only. At 100,000 messages
summarizing every message for the whole table was most of the table's time, while the changed rows
are a few thousand: so the diff is cached once, and each table (all rows, changed rows) is built
from it when first shown, then cached too. A rerun whose inputs did not change computes nothing.
Entries are recorded under their session (`toolhist.views.kept.record`) and go with it.
"""

from __future__ import annotations

import pandas as pd
import streamlit as st

from toolhist.curation import Curation
from toolhist.diff import Diff, Status
from toolhist.views.diffs import aligned_frame, curation_diff
from toolhist.views.kept import record


@st.cache_resource(max_entries=16, show_spinner=False)
def diffed(key: str, provider: str, strategy: str, _curation: Curation) -> tuple[dict[Status, int], Diff]:
    """`curation_diff` of a curation (ids as sent) and its rows per status, cached (a second at 100,000)."""
    record(key, diffed, key, provider, strategy, None)
    found = curation_diff(_curation)
    return found.counts(), found


@st.cache_resource(max_entries=16, show_spinner=False)
def table(key: str, provider: str, strategy: str, changed_only: bool, _diff: Diff) -> pd.DataFrame:
    """`aligned_frame` of ``_diff`` (`diffed` for the same key, provider, strategy): all or changed rows."""
    record(key, table, key, provider, strategy, changed_only, None)
    return aligned_frame(_diff, changed_only=changed_only)
