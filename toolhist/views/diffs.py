"""Curation views: the aligned before/after table, the change log, the id map, and strategies compared.

`aligned_frame` turns a `toolhist.diff.Diff` into one row per aligned pair, the before message on
the left and the after message on the right (a blank side for an inserted or deleted message), so
a page can show them side by side and colour the rows that changed. Diff a curation against
`Curation.sent_session` (`curation_diff`): the after side shows the ids that are sent. The change
log says which rule each Change repairs (those come first); `id_map_frame` is strategy
``canonical``'s one table of ids; a strategy that did not run is a ``not run`` row saying how to
install it, with no counts. On a log that ends on pending calls, `pending_sentence` says why the
verdict as sent finds no error where the change log repairs one. Pure: sessions in, frames out.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from toolhist._gc import paused
from toolhist.curation import Change, Curation
from toolhist.curation.compare import compare
from toolhist.diff import Diff, DiffRow, by_identity, diff, summarize_message
from toolhist.model import Session

STATUS_COLORS = {
    "same": "",
    "changed": "background-color: #fff3cd",
    "inserted": "background-color: #d4edda",
    "deleted": "background-color: #f8d7da",
    "moved": "background-color: #d1ecf1",
}
"""Row background per diff status (light, so the text stays readable in both themes' tables)."""


def row_styles(frame: pd.DataFrame) -> pd.DataFrame:
    """Each cell's CSS: its row's `STATUS_COLORS` (a ``Styler.apply(..., axis=None)`` function).

    A column at a time: the row-wise apply (a Series per row) was half of the Curation page's
    rerun under Streamlit's ``marshall_styler`` (0.53 -> 0.26 s for 214 rows at 10,000 messages).
    """
    colors = frame["status"].map(STATUS_COLORS)
    return pd.DataFrame(dict.fromkeys(frame.columns, colors), index=frame.index)


@paused  # a row per message: 100,000 small dicts, no cycles (see toolhist._gc)
def aligned_frame(d: Diff, width: int = 90, *, changed_only: bool = False) -> pd.DataFrame:
    """One row per diff row: ``before #``, ``before``, ``status``, ``after #``, ``after``, ``changes``.

    ``changes`` lists the Change numbers (positions in the change log) that concern the row.
    ``changed_only``: the rows that are not ``same`` only, indexed by their position among all rows
    (the whole frame filtered on ``status``, without summarizing the messages no row shows: at
    100,000 messages most of the whole frame's time).
    """
    summary = by_identity(lambda message: summarize_message(message, width))  # shared messages once
    a, b = d.before.messages, d.after.messages
    rows: Sequence[DiffRow] = d.rows
    index: list[int] | None = None
    if changed_only:
        index = [n for n, row in enumerate(rows) if row.status != "same"]
        rows = [rows[n] for n in index]
    columns = {  # a column at a time, not a dict per row: 100,000 rows at 100,000 messages
        "before #": pd.array([row.before for row in rows], dtype="Int64"),
        "before": [summary(a[row.before]) if row.before is not None else "" for row in rows],
        "status": [row.status for row in rows],
        "after #": pd.array([row.after for row in rows], dtype="Int64"),
        "after": [summary(b[row.after]) if row.after is not None else "" for row in rows],
        "changes": [", ".join(map(str, row.changes)) if row.changes else "" for row in rows],
    }
    if not rows:  # no rows: every text column of the type rows of strings give it
        text = "str" if changed_only and d.rows else object  # as the whole frame filtered keeps it
        return pd.DataFrame(columns, columns=list(columns)).astype(
            {name: text for name in columns if name not in ("before #", "after #")}
        )
    return pd.DataFrame(columns, columns=list(columns), index=index)


def curation_diff(curation: Curation) -> Diff:
    """`toolhist.diff.diff` of the history given and the curated one as sent (ids as the payload has them)."""
    return diff(curation.original, curation.sent_session(), curation.changes)


def changes_frame(changes: Sequence[Change]) -> pd.DataFrame:
    """The change log: one row per Change, numbered as `aligned_frame` refers to them.

    ``fixes`` names the rules of the history's violations the Change repairs (those Changes come
    first); ``call id`` is the id as the history had it, with ``→`` the id sent for a rewrite.
    """
    records = [
        {
            "#": n,
            "fixes": ", ".join(c.fixes),
            "pass": c.pass_,
            "action": c.action,
            "call id": _call(c),
            "before": position_words(c.before),
            "after": position_words(c.after),
            "reason": c.reason,
        }
        for n, c in enumerate(changes)
    ]
    return pd.DataFrame.from_records(
        records, columns=["#", "fixes", "pass", "action", "call id", "before", "after", "reason"]
    )


def _call(change: Change) -> str:
    new = change.detail.get("new_id") if change.action == "rewrite_id" else None
    return f"{change.call_id or ''} → {new}" if isinstance(new, str) else change.call_id or ""


def id_map_frame(curation: Curation) -> pd.DataFrame:
    """`Curation.id_map` as a table: ``message``, ``source id``, ``canonical id``, ``sent to <provider>``."""
    sent = f"sent to {curation.provider}"
    records = [
        {
            "message": row.message,
            "source id": row.source or "(made by curation)",
            "canonical id": row.canonical,
            sent: row.sent,
        }
        for row in curation.id_map
    ]
    frame = pd.DataFrame.from_records(records, columns=["message", "source id", "canonical id", sent])
    frame["message"] = frame["message"].astype("Int64")
    return frame


def per_pass(changes: Sequence[Change]) -> str:
    """``close_orphans 88 · dedupe_results 1,253``: how many Changes each pass made, in change-log order.

    The change log of a long history is a table of 100,000 rows; this line is what it adds up to.
    """
    counts: dict[str, int] = {}
    for c in changes:
        counts[c.pass_] = counts.get(c.pass_, 0) + 1
    return " · ".join(f"{name} {n:,}" for name, n in counts.items())


def position_words(position: object) -> str:
    """``message 10, block 0``, or empty for no position: the words of a page and a shared report.

    ``toolhist curate`` prints ``10.0``, which reads as a number outside a terminal.
    """
    message = getattr(position, "message", None)
    if message is None:
        return ""
    block = getattr(position, "block", None)
    return f"message {message}" + (f", block {block}" if block is not None else "")


def compare_strategies(session: Session, provider: str, strategies: Sequence[str]) -> pd.DataFrame:
    """`toolhist.curation.compare.compare` as a table: one row per strategy.

    Columns: ``strategy``, ``status`` (``ran``, or ``not run: … install it with `toolhist peers
    install``` / ``no answer: …``), ``changes``, ``messages`` (after), ``errors left``, ``warnings
    left`` (all empty for a strategy that did not run, never zero), ``actions`` (changes by action),
    ``rules left`` (the error rules still broken) and ``library`` (the real library and version a
    peer strategy ran).
    """
    records: list[dict[str, object]] = []
    for name, result in compare(session, provider, strategies).items():
        ran = result.status == "ran"
        records.append(
            {
                "strategy": name,
                "status": "ran" if ran else result.describe(),
                "changes": result.changes,
                "messages": result.messages,
                "errors left": sum(result.errors.values()) if ran else None,
                "warnings left": sum(result.warnings.values()) if ran else None,
                "actions": ", ".join(f"{action} {n}" for action, n in result.actions.items()),
                "rules left": ", ".join(result.errors),
                "library": result.library or "",
            }
        )
    return _compare_frame(records)


COMPARE_COLUMNS = (
    "strategy", "status", "changes", "messages", "errors left", "warnings left", "actions", "rules left",
    "library",
)  # fmt: skip
"""The columns of `compare_strategies` (and of `not_run_yet`)."""


def not_run_yet(statuses: dict[str, str]) -> pd.DataFrame:
    """Rows of `compare_strategies`' shape for strategies not run yet: strategy → its status; no counts."""
    blank = {"actions": "", "rules left": "", "library": ""}
    return _compare_frame(
        [{"strategy": name, "status": status, **blank} for name, status in statuses.items()]
    )


def _compare_frame(records: list[dict[str, object]]) -> pd.DataFrame:
    frame = pd.DataFrame.from_records(records, columns=list(COMPARE_COLUMNS))
    for column in ("changes", "messages", "errors left", "warnings left"):
        frame[column] = frame[column].astype("Int64")
    return frame


def row_caption(position: int, status: str, changes: str) -> str:
    """The line above a picked before/after row: its status and the change log entries behind it.

    ``changes`` is the row's ``changes`` cell (`aligned_frame`: change numbers, ``"0, 3"``). Shown
    bare ("inserted, changes 0"), an inserted row read as if nothing had changed it; the numbers
    are the ``#`` column of the change log below, so they are written as such.
    """
    numbers = [f"#{n}" for n in changes.split(", ")] if changes else []
    if not numbers:
        return f"Row {position}: {status}"
    which = "change" if len(numbers) == 1 else "changes"
    return f"Row {position}: {status}, by {which} {', '.join(numbers)} of the change log below"


def focus_row(frame: pd.DataFrame, message: int | None) -> int | None:
    """Which row of an `aligned_frame` (position) to open first.

    The row holding ``message`` on the before side (a deep link's ``msg``), or the row right after it
    when the curation left the message alone and changed that one (a call's violation is repaired by
    the result inserted after it); with no ``msg``, the first row that is not ``same``, else None.
    """
    statuses = list(frame["status"])
    if message is not None:
        hits = [n for n, b in enumerate(frame["before #"]) if b is not pd.NA and int(b) == message]
        if hits:
            n = hits[0]
            after = n + 1 < len(statuses) and statuses[n] == "same" and statuses[n + 1] != "same"
            return n + 1 if after else n
    changed = [n for n, status in enumerate(statuses) if status != "same"]
    return changed[0] if changed else None


def pending_closed(changes: Sequence[Change]) -> int:
    """The repairs that close a call the log leaves pending (``close_orphans`` marks them ``pending``)."""
    return sum(bool(c.fixes) and c.action == "close" and c.detail.get("state") == "pending" for c in changes)


def pending_sentence(n: int) -> str:
    """Why "Errors before" and the change log disagree on a log that ends on pending calls (issue 24).

    An agent log is judged as the next request (`toolhist.judgement`): the agent sends the pending
    results with it, so the verdict has nothing to say about them; the history as given stops before
    them, and that is what strategy ``toolhist`` repairs (a request cannot end on unanswered calls).
    """
    return (
        f"The log ends on {n:,} pending tool call(s): Errors before judges it as the next request, where "
        "the agent sends their results, while the history as given has no results for them, which is "
        f"what {n:,} close change(s) repair."
    )


COUNTS = ("changes", "messages", "errors left", "warnings left")
"""The counts of `compare_strategies`, empty (never zero) for a strategy that did not run."""


NOT_RUN = "not run"
"""A count of a strategy that did not run, as a page shows it."""


def compared_view(frame: pd.DataFrame) -> pd.DataFrame:
    """`compare_strategies` rows as a page shows them: a count of a strategy that did not run reads `NOT_RUN`.

    Streamlit draws an empty count as "None", which reads as an answer; the ``status`` column beside
    it says why the strategy did not run and how to run it. The counts become text (``"3"``,
    ``"not run"``): a column of numbers cannot hold the words.
    """
    shown = frame.copy()
    for column in COUNTS:
        shown[column] = [NOT_RUN if pd.isna(n) else str(int(n)) for n in frame[column]]
    return shown


def why_changes(changes: Sequence[Change], provider: str, errors_before: int, pending: int) -> str | None:
    """Why a strategy changes a history that ``provider`` accepts as sent, in words; None when it does not.

    The headline says "accepts" and "Errors before 0" beside a count of changes: without this sentence
    the page contradicts itself. Each group of changes is named by what it is for: closing the calls the
    log leaves pending (judged as the next request, the agent sends their results; the history as given
    has none), repairing a warning, or a pass's own reason (what the format cannot carry, ids…).
    """
    if errors_before or not changes:
        return None
    parts: list[str] = []
    if pending:
        parts.append(
            f"{pending:,} close the tool call(s) the log ends on, still waiting for their results: the "
            f"verdict as sent judges the next request, where the agent sends those results, but the history "
            f"as given has none, and a request to {provider} cannot end on an unanswered call"
        )
    rest = [
        c for c in changes if not (c.fixes and c.action == "close" and c.detail.get("state") == "pending")
    ]
    groups: dict[str, list[Change]] = {}
    for c in rest:
        groups.setdefault(c.pass_, []).append(c)
    for name, group in groups.items():
        warned = sorted({rule for c in group for rule in c.fixes})
        why = f"repair warning(s) {', '.join(warned)}" if warned else group[0].reason
        parts.append(f"{len(group):,} by {name}: {why}")
    return (
        f"Why {len(changes):,} change(s) when {provider} accepts the history as sent: "
        + "; ".join(parts)
        + "."
    )
