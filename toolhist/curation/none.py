"""Strategy ``none``: no repair, ids as the source had them (what a naive client sends)."""

from __future__ import annotations

from toolhist.curation.base import Curation
from toolhist.curation.strategies import StrategyDef
from toolhist.model import Message, Session


def _curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    curated = session.model_copy(update={"messages": (*session.messages, *tail)}) if tail else session
    return Curation(session=curated, changes=(), strategy="none", provider=provider, original=session)


def _edge_ids(session: Session, provider: str) -> tuple[Session, dict[str, str]]:
    return session, {}


STRATEGIES = {
    "none": StrategyDef(
        name="none",
        summary="no repair; ids as the source had them (what a naive client sends)",
        curate=_curate,
        edge_ids=_edge_ids,
    )
}
