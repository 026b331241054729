"""The strategies that start a real library run when the user asks, so a page's first view stays fast.

Curation's "Strategies compared" and Switch ran every strategy on a page's first visit; starting the
real libraries (`toolhist.curation.strategies.LIBRARY_STRATEGIES`) took most of it: 50 s for
Curation on the bundled sample, LiteLLM's first import alone 24 to 29 s on a loaded 2-core box. Now the
built-in strategies run at once and each library strategy waits for one button (`BUTTON`), with a
status that says why. A library that is not installed costs nothing to find out (its environment or
module is looked up, never imported), so its "not run … install it with …" row is shown at once.
"""

from __future__ import annotations

from collections.abc import Sequence

from toolhist.curation.strategies import LIBRARY_STRATEGIES
from toolhist.extras import EXTRAS, missing
from toolhist.peers.env import find
from toolhist.peers.pins import LIBRARY_OF_STRATEGY
from toolhist.peers.strategies import LABEL
from toolhist.peers.versions import resolve, selected, split_strategy

BUTTON = "Compare with the libraries too"
"""The one button a page offers for every library strategy not run yet."""


def starts_library(strategy: str) -> bool:
    """Whether ``strategy`` (``litellm`` or ``litellm@1.110.2``) starts a real library."""
    return split_strategy(strategy)[0] in LIBRARY_STRATEGIES


def installed(strategy: str) -> bool:
    """Whether what ``strategy`` starts is installed here, asked without importing or starting it.

    A peers library: its environment at the version the strategy names (else the selected one); a
    framework run in this process: the modules of its extra (named like the strategy).
    """
    base, wanted = split_strategy(strategy)
    library = LIBRARY_OF_STRATEGY.get(base)
    if library is not None:
        return find(library, resolve(library, wanted) if wanted else selected(library).version) is not None
    return base not in EXTRAS or not missing(base)


def deferred(strategies: Sequence[str], asked: bool, picked: str) -> list[str]:
    """Which of ``strategies`` wait for `BUTTON`: the installed library ones, unless ``asked``.

    ``picked`` (the strategy the page curates with) runs: the user asked for it, and its library is
    started already.
    """
    if asked:
        return []
    base = split_strategy(picked)[0]
    return [s for s in strategies if starts_library(s) and split_strategy(s)[0] != base and installed(s)]


def waiting(strategy: str) -> str:
    """The status of a library strategy not run yet, saying why and how to run it."""
    base = split_strategy(strategy)[0]
    return (
        f"not run yet: it starts {LABEL.get(base, base)}, whose first start takes seconds to tens of "
        f"seconds; press “{BUTTON}”"
    )
