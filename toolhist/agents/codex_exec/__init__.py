"""``codex exec --json`` event streams (`reader`) and the rollout they pair with (`pair`).

No folder of its own: users pipe the stream wherever they like. Where it ran: the stream does not
say; the paired rollout's ``session_meta.model_provider`` does (Codex's built-in ``openai`` is the
Responses API, as for `toolhist.agents.codex`).
"""

from toolhist.agents.codex_exec.reader import CodexExecReader
from toolhist.agents.spec import Agent
from toolhist.model import Session


def session_says(session: Session) -> tuple[str, str] | None:
    """The paired rollout's ``model_provider``, when the rollout was found."""
    if session.source.format != "codex-exec":
        return None
    rollout = session.metadata.get("rollout")
    named = rollout.get("model_provider") if isinstance(rollout, dict) else None
    if not isinstance(named, str) or not isinstance(rollout, dict):
        return None
    return named, f"the paired rollout's session_meta.model_provider ({rollout.get('path')})"


AGENT = Agent(
    id="codex-exec",
    name="Codex exec --json",
    readers=(CodexExecReader(),),
    wire_names={"openai": "openai-responses"},
    session_says=session_says,
)

__all__ = ["AGENT"]
