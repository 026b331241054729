import sys

from toolhist.cli import main

sys.exit(main())
