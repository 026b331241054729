"""Put the checkout first on ``sys.path``: ``cd TREE && python benchmarks/X.py`` measures TREE's toolhist.

Python puts the script's folder (``benchmarks/``) first on the path, not the checkout; ``toolhist``
then came from wherever the interpreter's environment installed it (an editable install of another
checkout), so a benchmark run in one worktree with another's venv measured the other tree's code
(found in stop 44: "landed" figures that were main's). Imported by every benchmark that imports
toolhist, before it does.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path[:1]:
    sys.path.insert(0, ROOT)
