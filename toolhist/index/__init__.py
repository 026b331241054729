"""A local index of this machine's sessions: fast listings, search across every session, kept verdicts.

``toolhist sessions`` reads it (its listing, ``--verdict``, and ``--search``/``--tool``/``--call-id``/
``--rule``), and so does the app's "This machine" list and its search (`toolhist.views.machine_search`).
One SQLite file under the user's cache (`toolhist.index.db`), filled incrementally:

- `toolhist.index.listing`: the listing's header fields per file, read again only when a file's
  size or modification time changes; sessions that vanished are taken out;
- `toolhist.index.update`: each session read whole once per change, for its search text
  (`toolhist.index.extract`: each message's first 4,096 characters, tool names, call ids) and, when
  asked, its verdicts (where it ran, or on a named provider), one transaction per session;
- `toolhist.index.query`: the search.

The agents' files are only read (stores through read-only SQLite connections); nothing is written
near them.
"""

from toolhist.index.db import INDEX_ENV, IndexProblem, check_location, connect, default_path, forget, opened
from toolhist.index.listing import Listing, Progress, list_indexed
from toolhist.index.query import Hit, Query, Results, search
from toolhist.index.update import WHERE_IT_RAN, Pending, Stopped, judged_rows, pending, refresh

__all__ = [
    "INDEX_ENV",
    "WHERE_IT_RAN",
    "Hit",
    "IndexProblem",
    "Listing",
    "Pending",
    "Progress",
    "Query",
    "Results",
    "Stopped",
    "check_location",
    "connect",
    "default_path",
    "forget",
    "judged_rows",
    "list_indexed",
    "opened",
    "pending",
    "refresh",
    "search",
]
