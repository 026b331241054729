"""Before/after diff of two histories, aligned by content rather than position.

`diff` lines up the messages of a session and of its curated (or otherwise edited) version and says,
per row, whether a message is the ``same``, ``changed`` (its blocks differ: an id rewritten, a result
removed), ``inserted``, ``deleted`` or ``moved``, and which `Change` records concern it.

Alignment runs in stages, each only on what the previous ones left unmatched:

1. exact content (speaker + blocks as JSON; metadata such as ``synthetic`` is ignored), in order:
   common prefix and suffix, then patience anchors (keys unique on both sides), recursively;
2. the same content elsewhere: a message that moved;
3. Changes about a whole message (``before`` and ``after`` without a block) that say where it went;
4. between two aligned messages, looser keys in turn: the content with every tool-call id blanked
   (an id rewrite), a shared call id (ids translated through ``rewrite_id`` Changes), then speaker
   and text.

The rows in order are the heaviest increasing chain of the pairs found (exact pairs weigh more than
loose ones); a pair off that chain is ``moved``. Everything is near-linear in the history length:
content classes are worked out once (`content_classes`: a full hash only where a cheap key is shared),
loose keys only for the few messages the exact stage leaves.
"""

from __future__ import annotations

import hashlib
from bisect import bisect_left, bisect_right
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from itertools import accumulate, pairwise
from operator import attrgetter
from typing import TYPE_CHECKING, Any, Final, Literal, TypeVar

import orjson
from pydantic import TypeAdapter

from toolhist._gc import paused
from toolhist.curation.base import Change
from toolhist.model import (
    Block,
    MediaBlock,
    Message,
    OpaqueBlock,
    Session,
    TextBlock,
    ThinkingBlock,
    ToolCallBlock,
    ToolResponseBlock,
)

if TYPE_CHECKING:
    import pandas as pd

Status = Literal["same", "changed", "inserted", "deleted", "moved"]
STATUSES: Final[tuple[Status, ...]] = ("same", "changed", "inserted", "deleted", "moved")
"""Row statuses, in the order `Diff.counts` lists them."""

_BLOCKS: Final = TypeAdapter(tuple[Block, ...])
_ID_FIELDS: Final = ("id", "raw_id", "call_id", "raw_call_id")
_SMALL_GAP: Final = 250_000
"""Largest (before x after) gap aligned with difflib when it has no unique anchor."""
_EXACT, _LOOSE = 2, 1
"""Pair weights for the ordering chain: an exact pair wins over a loose one."""
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class DiffRow:
    """One row: a message on either side (or both) and what happened to it."""

    before: int | None
    """Message index in the before session; ``None`` for an inserted message."""
    after: int | None
    """Message index in the after session; ``None`` for a deleted message."""
    status: Status
    """``same``, ``changed``, ``inserted``, ``deleted`` or ``moved``."""
    changes: tuple[int, ...] = ()
    """Indices (into the Change list given to `diff`) of the Changes about this row's messages."""

    def to_json(self) -> dict[str, Any]:
        """The row as JSON."""
        return {
            "before": self.before,
            "after": self.after,
            "status": self.status,
            "changes": list(self.changes),
        }


@dataclass(frozen=True, slots=True)
class Diff:
    """The aligned rows of two sessions, with the Changes that explain them."""

    before: Session
    """The session before (e.g. `Curation.original`)."""
    after: Session
    """The session after (e.g. `Curation.session`)."""
    changes: tuple[Change, ...]
    """The Changes the row ``changes`` indices point into."""
    rows: tuple[DiffRow, ...]
    """Rows in reading order: after order, with a deleted message just after its before-neighbour."""

    def counts(self) -> dict[Status, int]:
        """Rows per status (every status present, zero included)."""
        found = Counter(row.status for row in self.rows)
        return {status: found[status] for status in STATUSES}

    def message(self, row: DiffRow) -> Message:
        """The message a row shows: the after one, or the before one for a deleted row."""
        if row.after is not None:
            return self.after.messages[row.after]
        assert row.before is not None
        return self.before.messages[row.before]

    def to_frame(self) -> pd.DataFrame:
        """One DataFrame row per diff row: before, after, status, speaker, summary, changes."""
        import pandas as pd

        records = []
        for row in self.rows:
            message = self.message(row)
            records.append(
                {
                    "before": row.before,
                    "after": row.after,
                    "status": row.status,
                    "speaker": message.speaker,
                    "summary": summarize_message(message),
                    "changes": list(row.changes),
                }
            )
        columns = ["before", "after", "status", "speaker", "summary", "changes"]
        frame = pd.DataFrame.from_records(records, columns=columns)
        for column in ("before", "after"):
            frame[column] = frame[column].astype("Int64")
        return frame

    def to_json(self) -> dict[str, Any]:
        """``{"counts": {...}, "rows": [{before, after, status, speaker, summary, changes}]}``."""
        rows = []
        for row in self.rows:
            message = self.message(row)
            rows.append(row.to_json() | {"speaker": message.speaker, "summary": summarize_message(message)})
        return {"counts": self.counts(), "rows": rows}


@paused
def diff(before: Session, after: Session, changes: Sequence[Change] = ()) -> Diff:
    """Align ``before`` and ``after`` by content; tie each `Change` to the rows it is about.

    A Change ties to a row when its ``before.message`` is the row's before index, or its
    ``after.message`` the row's after index. ``changes`` are usually `Curation.changes`, with
    ``before=curation.original`` and ``after=curation.session``.
    """
    a, b = before.messages, after.messages
    ha, hb = content_classes(a, b)
    pairs: dict[int, tuple[int, int]] = {}  # before index -> (after index, weight)
    taken: set[int] = set()  # after indices already paired

    def pair(i: int, j: int, weight: int) -> None:
        pairs[i] = (j, weight)
        taken.add(j)

    # 1. exact content, in order
    anchors = _align(ha, hb, range(len(a)), range(len(b)))
    pairs.update((i, (j, _EXACT)) for i, j in anchors)  # 100,000 pairs at 100,000 messages: no call each
    taken.update(j for _, j in anchors)
    # 2. the same content elsewhere
    free: defaultdict[int, deque[int]] = defaultdict(deque)
    for j in range(len(b)):
        if j not in taken:
            free[hb[j]].append(j)
    if free:  # some after message is left
        for i in range(len(a)):
            if i not in pairs and free.get(ha[i]):
                pair(i, free[ha[i]].popleft(), _EXACT)
    # 3. whole-message Changes that say where a message went
    for change in changes:
        if change.before is None or change.after is None:
            continue
        if change.before.block is not None or change.after.block is not None:
            continue
        i, j = change.before.message, change.after.message
        if 0 <= i < len(a) and 0 <= j < len(b) and i not in pairs and j not in taken:
            pair(i, j, _LOOSE)
    # 4. loose keys between consecutive anchors
    renames = _renames(changes)
    bounds = [(-1, -1), *anchors, (len(a), len(b))]
    for (i0, j0), (i1, j1) in pairwise(bounds):
        if i1 - i0 < 2 or j1 - j0 < 2:  # consecutive anchors on a side (most of them): no gap
            continue
        left = [i for i in range(i0 + 1, i1) if i not in pairs]
        right = [j for j in range(j0 + 1, j1) if j not in taken]
        if left and right:
            for i, j in _loose(a, b, left, right, renames):
                pair(i, j, _LOOSE)

    chain = _heaviest_chain(pairs)
    rows = _rows(len(a), len(b), pairs=pairs, chain=chain, ha=ha, hb=hb, ties=_ties(changes))
    return Diff(before=before, after=after, changes=tuple(changes), rows=rows)


def by_identity(fn: Callable[[Message], T]) -> Callable[[Message], T]:
    """``fn`` worked out once per message object, for as long as the returned function lives.

    Messages are frozen, so one object always gives one answer; keyed by ``id`` (the objects stay
    alive in the sessions given, so an id is never reused while the memo is), not by hashing content.
    """
    memo: dict[int, T] = {}

    def once(message: Message) -> T:
        key = id(message)
        if key in memo:
            return memo[key]
        found = memo[key] = fn(message)
        return found

    return once


def content_classes(a: Sequence[Message], b: Sequence[Message]) -> tuple[list[int], list[int]]:
    """A number per message of ``a`` and of ``b``: equal exactly when `message_hash` is equal.

    Hashing every message as JSON was most of a diff (a second at 100,000 messages), and a curation
    shares nearly every message object with its original and changes few. So each distinct object
    gets a cheap content key first (speaker, each block's type and main string: `_MAIN`), which
    equal content always shares; a key only one object has is its class at once, and only the
    objects sharing a key (duplicates, and the few messages a curation rewrote) are hashed in full.
    """
    distinct = {id(message): message for message in a}  # a curation shares most objects with its input
    distinct.update(zip(map(id, b), b, strict=True))
    main = _MAIN
    number: dict[int, int] = {}  # id(message) -> class
    first: dict[tuple[object, ...], int] = {}  # rough key -> id of the first message with it
    alike: dict[tuple[object, ...], list[Message]] = {}  # rough keys more than one message has
    for key_id, message in distinct.items():
        key = (message.speaker, *[main[type(block)](block) for block in message.blocks])
        seen = first.setdefault(key, key_id)
        if seen != key_id:
            group = alike.get(key)
            if group is None:
                group = alike[key] = [distinct[seen]]
            group.append(message)
    classes = 0
    for key, key_id in first.items():
        if key not in alike:
            number[key_id] = classes
            classes += 1
            continue
        by_hash: dict[bytes, int] = {}
        for message in alike[key]:
            digest = message_hash(message)
            if digest not in by_hash:
                by_hash[digest] = classes
                classes += 1
            number[id(message)] = by_hash[digest]
    return [number[id(m)] for m in a], [number[id(m)] for m in b]


_MAIN: Final[dict[type[Block], Callable[[Block], object]]] = {
    TextBlock: attrgetter("type", "text"),
    ThinkingBlock: attrgetter("type", "text"),
    ToolCallBlock: attrgetter("type", "id", "name"),
    ToolResponseBlock: attrgetter("type", "call_id"),
    MediaBlock: attrgetter("type"),
    OpaqueBlock: attrgetter("type"),
}
"""Per block type, the part of a block `content_classes` keys on first: its type and main string."""


def message_hash(message: Message) -> bytes:
    """Digest of a message's speaker and blocks as JSON (metadata ignored)."""
    digest = hashlib.blake2b(message.speaker.encode(), digest_size=16)
    digest.update(b"\0")
    digest.update(_BLOCKS.dump_json(message.blocks))
    return digest.digest()


def summarize_message(message: Message, width: int = 100) -> str:
    """One line saying what a message holds: its text, calls and results."""
    parts = [_block_summary(block) for block in message.blocks]
    text = " | ".join(p for p in parts if p) or "(empty)"
    text = " ".join(text.split())
    return text if len(text) <= width else text[: width - 1] + "…"


def _block_summary(block: Block) -> str:
    if isinstance(block, TextBlock):
        return block.text
    if isinstance(block, ToolCallBlock):
        return f"call {block.name}({block.id})"
    if isinstance(block, ToolResponseBlock):
        outcome = f"error: {block.error}" if block.error else _short(block.result)
        return f"result {block.call_id}: {outcome}"
    if isinstance(block, ThinkingBlock):
        return "thinking (redacted)" if block.redacted else f"thinking: {block.text}"
    if isinstance(block, MediaBlock):
        return f"media {block.mime_type or block.filename or ''}".rstrip()
    if isinstance(block, OpaqueBlock):
        return f"opaque {block.data.get('type', block.source_format)}"
    return ""


def _short(value: object) -> str:
    return value if isinstance(value, str) else orjson.dumps(value).decode()


# --- stage 1: in-order alignment on exact keys --------------------------------------------------------------


def _align(
    ka: Sequence[Hashable], kb: Sequence[Hashable], left: Sequence[int], right: Sequence[int]
) -> list[tuple[int, int]]:
    """Monotone pairs (left[x], right[y]) with equal keys: prefix/suffix, patience anchors, recursively."""
    found: list[tuple[int, int]] = []
    stack = [(0, len(left), 0, len(right))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        while alo < ahi and blo < bhi and ka[left[alo]] == kb[right[blo]]:  # common prefix
            found.append((left[alo], right[blo]))
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and ka[left[ahi - 1]] == kb[right[bhi - 1]]:  # common suffix
            found.append((left[ahi - 1], right[bhi - 1]))
            ahi, bhi = ahi - 1, bhi - 1
        if alo == ahi or blo == bhi:
            continue
        sa = [ka[left[x]] for x in range(alo, ahi)]
        sb = [kb[right[y]] for y in range(blo, bhi)]
        unique = _patience(sa, sb)
        if unique:
            starts = [(0, 0), *((x + 1, y + 1) for x, y in unique)]
            ends = [*unique, (len(sa), len(sb))]
            stack.extend(  # a gap empty on either side has nothing to align: not stacked
                (alo + x0, alo + x1, blo + y0, blo + y1)
                for (x0, y0), (x1, y1) in zip(starts, ends, strict=True)
                if x0 < x1 and y0 < y1
            )
        else:
            unique = _fallback(sa, sb)
        found.extend((left[alo + x], right[blo + y]) for x, y in unique)
    found.sort()
    return found


def _patience(sa: Sequence[Hashable], sb: Sequence[Hashable]) -> list[tuple[int, int]]:
    """The longest increasing run of keys that occur exactly once on each side."""
    count_a = Counter(sa)
    count_b = Counter(sb)
    where_b = {key: y for y, key in enumerate(sb)}
    candidates = [(x, where_b[key]) for x, key in enumerate(sa) if count_a[key] == 1 and count_b[key] == 1]
    return _lis(candidates)


def _lis(candidates: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Longest subsequence of (x, y) pairs, x increasing, with y increasing too (patience sorting)."""
    tails: list[int] = []  # tails[k]: smallest y ending an increasing run of length k + 1
    tail_at: list[int] = []  # index into candidates of that run's last pair
    back: list[int] = []
    for n, (_, y) in enumerate(candidates):
        k = bisect_left(tails, y)
        if k == len(tails):
            tails.append(y)
            tail_at.append(n)
        else:
            tails[k], tail_at[k] = y, n
        back.append(tail_at[k - 1] if k else -1)
    run: list[tuple[int, int]] = []
    n = tail_at[-1] if tail_at else -1
    while n >= 0:
        run.append(candidates[n])
        n = back[n]
    run.reverse()
    return run


def _fallback(sa: Sequence[Hashable], sb: Sequence[Hashable]) -> list[tuple[int, int]]:
    """Pairs for a range with no unique anchor: difflib when small, else greedy in-order matching."""
    if len(sa) * len(sb) <= _SMALL_GAP:
        blocks = SequenceMatcher(None, sa, sb, autojunk=False).get_matching_blocks()
        return [(block.a + k, block.b + k) for block in blocks for k in range(block.size)]
    positions: defaultdict[Hashable, list[int]] = defaultdict(list)
    for y, key in enumerate(sb):
        positions[key].append(y)
    found: list[tuple[int, int]] = []
    last = -1
    for x, key in enumerate(sa):
        ys = positions.get(key)
        if ys:
            k = bisect_right(ys, last)
            if k < len(ys):
                last = ys[k]
                found.append((x, last))
    return found


# --- stage 4: loose keys inside a gap -----------------------------------------------------------------------


def _renames(changes: Sequence[Change]) -> dict[str, str]:
    """Old id → new id, from ``rewrite_id`` Changes."""
    renames: dict[str, str] = {}
    for change in changes:
        old, new = change.detail.get("old_id"), change.detail.get("new_id")
        if change.action == "rewrite_id" and isinstance(old, str) and isinstance(new, str):
            renames[old] = new
    return renames


def _loose(
    a: Sequence[Message], b: Sequence[Message], left: list[int], right: list[int], renames: dict[str, str]
) -> list[tuple[int, int]]:
    """Pairs between the unmatched messages of one gap: id-blind content, shared call ids, text."""
    found: list[tuple[int, int]] = []
    keyers: list[Callable[[Message, bool], Hashable]] = [
        _idless_key,
        lambda m, _: (m.speaker, _text(m)) if _text(m) else None,
    ]
    for n, keyer in enumerate(keyers):
        if not left or not right:
            break
        ka = {i: keyer(a[i], True) for i in left}
        kb = {j: keyer(b[j], False) for j in right}
        ka_seq = [ka[i] if ka[i] is not None else ("a", i) for i in left]
        kb_seq = [kb[j] if kb[j] is not None else ("b", j) for j in right]
        matched = [
            (left[x], right[y]) for x, y in _align(ka_seq, kb_seq, range(len(left)), range(len(right)))
        ]
        if n == 0:  # between the id-blind and the text key: shared call ids
            matched = _merge_monotone(
                matched, _shared_ids(a, b, left, right, renames=renames, matched=matched)
            )
        found.extend(matched)
        done_a, done_b = {i for i, _ in matched}, {j for _, j in matched}
        left = [i for i in left if i not in done_a]
        right = [j for j in right if j not in done_b]
    return found


def _idless_key(message: Message, _: bool) -> bytes:
    """The message's content with every tool id blanked, so an id rewrite still matches."""
    blocks = _BLOCKS.dump_python(message.blocks, mode="json")
    for block in blocks:
        for name in _ID_FIELDS:
            if name in block:
                block[name] = None
    return message.speaker.encode() + b"\0" + orjson.dumps(blocks, option=orjson.OPT_SORT_KEYS)


def _text(message: Message) -> str:
    return "\n".join(b.text for b in message.blocks if isinstance(b, TextBlock))


def _ids(message: Message) -> set[str]:
    ids: set[str] = set()
    for block in message.blocks:
        if isinstance(block, ToolCallBlock):
            ids.add(block.id)
        elif isinstance(block, ToolResponseBlock):
            ids.add(block.call_id)
    return ids


def _shared_ids(
    a: Sequence[Message],
    b: Sequence[Message],
    left: list[int],
    right: list[int],
    *,
    renames: dict[str, str],
    matched: list[tuple[int, int]],
) -> list[tuple[int, int]]:
    """Greedy in-order pairs of same-speaker messages that share a tool-call id (after renames)."""
    done_a, done_b = {i for i, _ in matched}, {j for _, j in matched}
    by_id: defaultdict[tuple[str, str], list[int]] = defaultdict(list)
    for j in right:
        if j not in done_b:
            for call_id in _ids(b[j]):
                by_id[(b[j].speaker, call_id)].append(j)
    found: list[tuple[int, int]] = []
    used: set[int] = set()
    last = -1
    for i in left:
        if i in done_a:
            continue
        ids = _ids(a[i]) | {renames[c] for c in _ids(a[i]) if c in renames}
        options = [j for c in ids for j in by_id.get((a[i].speaker, c), ()) if j > last and j not in used]
        if options:
            last = min(options)
            used.add(last)
            found.append((i, last))
    return found


def _merge_monotone(first: list[tuple[int, int]], extra: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """``first`` plus those of ``extra`` that keep the whole set increasing on both sides."""
    if not extra:
        return first
    merged = sorted(first + extra)
    keep = _lis(merged)
    return keep if len(keep) >= len(first) else first


# --- ordering and rows --------------------------------------------------------------------------------------


def _heaviest_chain(pairs: dict[int, tuple[int, int]]) -> set[int]:
    """Before indices of the heaviest chain of pairs increasing on both sides (Fenwick max-tree).

    A pair that every other pair can precede or follow (all pairs before it in before order have a
    smaller after index, all after it a larger one) is in every heaviest chain: it is taken at once.
    The Fenwick tree runs only over each run of the other pairs, where a curation moved something:
    at 100,000 messages a few hundred pairs, not 100,000 (a third of a second). The chain is the
    one the tree over all pairs would pick, ties included (`_run_chain` says why).
    """
    if not pairs:
        return set()
    order = sorted(pairs)
    js = [pairs[i][0] for i in order]
    if all(x < y for x, y in pairwise(js)):
        return set(order)  # already one chain (a curation that moved nothing): heavier than any part of it
    size = max(js) + 2
    below = list(accumulate(js, max))  # below[p]: the largest after index up to p
    above = list(accumulate(reversed(js), min))[::-1]  # above[p]: the smallest after index from p
    last = len(js) - 1
    chain: set[int] = set()
    run: list[int] = []  # positions in ``order`` of the pairs that are not free, since the last free one
    for p, j in enumerate(js):
        if (p == 0 or below[p - 1] < j) and (p == last or j < above[p + 1]):  # free: in every heaviest chain
            if run:
                chain.update(_run_chain([order[q] for q in run], pairs, size, j))
                run = []
            chain.add(order[p])
        else:
            run.append(p)
    if run:
        chain.update(_run_chain([order[q] for q in run], pairs, size, None))
    return chain


def _run_chain(run: list[int], pairs: dict[int, tuple[int, int]], size: int, next_j: int | None) -> set[int]:
    """The part of the heaviest chain within ``run`` (before indices, in order), as the whole tree picks it.

    Every pair before the run precedes every pair of it, and every pair after follows it, so in the
    tree over all pairs each total of the run is its total here plus the same offset, and every node
    outside the run holds less than any node of it: the same comparisons win. The run's chain ends
    where the query of the pair after it (after index ``next_j``) finds its best, or, for the last
    run, at the first pair reaching the best total. The tree is kept sparse but indexed by the
    after indices themselves, as in the tree over all pairs, so ties go the same way.
    """
    tree_best: dict[int, int] = {}
    tree_from: dict[int, int] = {}
    back: dict[int, int] = {}
    best_total, best_end = 0, -1

    def query(k: int) -> tuple[int, int]:
        best, at = 0, -1
        while k > 0:
            value = tree_best.get(k, 0)
            if value > best:
                best, at = value, tree_from[k]
            k -= k & -k
        return best, at

    for i in run:
        j, weight = pairs[i]
        prev_best, prev_at = query(j)  # best chain ending at an after index < j (position j + 1 is j's)
        total = prev_best + weight
        back[i] = prev_at
        k = j + 1
        while k <= size:
            if total > tree_best.get(k, 0):
                tree_best[k], tree_from[k] = total, i
            k += k & -k
        if total > best_total:
            best_total, best_end = total, i
    end = query(next_j)[1] if next_j is not None else best_end
    chain: set[int] = set()
    while end >= 0:
        chain.add(end)
        end = back[end]
    return chain


def _ties(changes: Sequence[Change]) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Change indices by the before message and by the after message they are about."""
    by_before: defaultdict[int, list[int]] = defaultdict(list)
    by_after: defaultdict[int, list[int]] = defaultdict(list)
    for n, change in enumerate(changes):
        if change.before is not None:
            by_before[change.before.message].append(n)
        if change.after is not None:
            by_after[change.after.message].append(n)
    return by_before, by_after


def _rows(
    len_a: int,
    len_b: int,
    *,
    pairs: dict[int, tuple[int, int]],
    chain: set[int],
    ha: list[int],
    hb: list[int],
    ties: tuple[dict[int, list[int]], dict[int, list[int]]],
) -> tuple[DiffRow, ...]:
    by_before, by_after = ties
    partner_b = {j: i for i, (j, _) in pairs.items()}
    in_chain_b = {pairs[i][0] for i in chain}

    def row(i: int | None, j: int | None, status: Status) -> DiffRow:
        found_before = by_before.get(i) if i is not None else None
        found_after = by_after.get(j) if j is not None else None
        if found_before is None and found_after is None:  # most rows: no Change is about them
            return DiffRow(i, j, status)
        found = (found_before or []) + (found_after or [])
        return DiffRow(i, j, status, tuple(sorted(set(found))))

    rows: list[DiffRow] = []
    i = j = 0
    while i < len_a or j < len_b:
        while i < len_a and i not in chain:  # deleted here; moved ones show at their after position
            if i not in pairs:
                rows.append(row(i, None, "deleted"))
            i += 1
        while j < len_b and j not in in_chain_b:
            if j in partner_b:
                rows.append(row(partner_b[j], j, "moved"))
            else:
                rows.append(row(None, j, "inserted"))
            j += 1
        if i < len_a and j < len_b:
            status: Status = "same" if ha[i] == hb[j] else "changed"
            if i in by_before or j in by_after:
                rows.append(row(i, j, status))
            else:  # most rows: no Change is about them (`row` without the call)
                rows.append(DiffRow(i, j, status))
            i, j = i + 1, j + 1
    return tuple(rows)


__all__ = [
    "STATUSES", "Diff", "DiffRow", "Status", "content_classes", "diff", "message_hash", "summarize_message",
]  # fmt: skip
