"""The sessions each agent keeps on this machine: where they are, what their headers say, their verdicts.

``toolhist sessions`` and the app's "This machine" source. `list_sessions` reads headers only
(fast: a thousand sessions in well under two seconds); `judge` reads one session whole for its
verdict on the provider it ran on.
"""

from toolhist.machine.judge import judge
from toolhist.machine.listing import AGENTS, SessionRow, list_sessions
from toolhist.machine.places import HOME_ENV, Places, places
from toolhist.machine.ran_on import ran_on

__all__ = ["AGENTS", "HOME_ENV", "Places", "SessionRow", "judge", "list_sessions", "places", "ran_on"]
