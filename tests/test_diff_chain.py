"""The heaviest chain of `toolhist.diff` picks what the tree over every pair picked, ties included.

`_heaviest_chain` runs its Fenwick tree only over the pairs a curation moved (the others are in
every heaviest chain). The oracle below is the tree over all pairs as it was before that
(toolhist main 19cb6c7, ``toolhist/diff.py``): on pair sets full of ties (weights 1 and 2, short
moves, long runs untouched) both must pick the very same chain, not merely one as heavy.
"""

from __future__ import annotations

import random
import sys
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

import toolhist.diff  # noqa: F401  # the module (the package exports the function `diff` under that name)

diff_module = sys.modules["toolhist.diff"]


def oracle(pairs: dict[int, tuple[int, int]]) -> set[int]:
    """The Fenwick max-tree over every pair (toolhist main 19cb6c7)."""
    if not pairs:
        return set()
    order = sorted(pairs)
    if all(pairs[i][0] < pairs[k][0] for i, k in pairwise(order)):
        return set(order)
    size = max(j for j, _ in pairs.values()) + 2
    tree_best = [0] * (size + 1)
    tree_from = [-1] * (size + 1)
    back: dict[int, int] = {}
    best_total, best_end = 0, -1
    for i in order:
        j, weight = pairs[i]
        k, prev_best, prev_at = j, 0, -1
        while k > 0:
            if tree_best[k] > prev_best:
                prev_best, prev_at = tree_best[k], tree_from[k]
            k -= k & -k
        total = prev_best + weight
        back[i] = prev_at
        k = j + 1
        while k <= size:
            if total > tree_best[k]:
                tree_best[k], tree_from[k] = total, i
            k += k & -k
        if total > best_total:
            best_total, best_end = total, i
    chain: set[int] = set()
    while best_end >= 0:
        chain.add(best_end)
        best_end = back[best_end]
    return chain


def shuffled_pairs(
    rng: random.Random, n: int, moves: int, span: int, gaps: bool
) -> dict[int, tuple[int, int]]:
    """``n`` in-order pairs, then ``moves`` after indices swapped within ``span``; weights 1 or 2."""
    js = list(range(n))
    for _ in range(moves):
        a = rng.randrange(n)
        b = min(n - 1, max(0, a + rng.randint(-span, span)))
        js[a], js[b] = js[b], js[a]
    befores = sorted(rng.sample(range(2 * n), n)) if gaps else list(range(n))
    afters = sorted(rng.sample(range(2 * n), n)) if gaps else list(range(n))
    return {befores[x]: (afters[js[x]], rng.choice((1, 2, 2))) for x in range(n)}


@settings(max_examples=400, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    n=st.integers(1, 60),
    moves=st.integers(0, 12),
    span=st.integers(1, 20),
    gaps=st.booleans(),
)
def test_the_chain_is_the_one_the_whole_tree_picks(
    seed: int, n: int, moves: int, span: int, gaps: bool
) -> None:
    pairs = shuffled_pairs(random.Random(seed), n, moves, span, gaps)
    assert diff_module._heaviest_chain(pairs) == oracle(pairs)


def test_long_runs_with_a_few_moves() -> None:
    rng = random.Random(7)
    for _ in range(30):
        pairs = shuffled_pairs(
            rng, 3000, rng.randint(1, 40), rng.choice((1, 3, 50, 3000)), rng.random() < 0.5
        )
        assert diff_module._heaviest_chain(pairs) == oracle(pairs)


def test_a_move_takes_the_pairs_it_crosses_out_of_the_free_ones() -> None:
    # 1 and 2 swapped after index: one of them is left out; 0 and 3 are in every heaviest chain
    pairs = {0: (0, 2), 1: (2, 2), 2: (1, 1), 3: (3, 1)}
    assert diff_module._heaviest_chain(pairs) == oracle(pairs) == {0, 1, 3}
