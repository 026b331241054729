"""``python -m toolhist``: the same as the ``toolhist`` command."""

import sys

from toolhist.cli import main

sys.exit(main())
