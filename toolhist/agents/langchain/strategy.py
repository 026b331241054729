"""Strategy ``langchain``: the history as LangChain's chat model integrations send it (`send`).

Like the real-library strategies (`toolhist.peers.strategies`), the body LangChain sent is read
back with the provider's reader: that Session is the curated history and its differences from the
given one are the Changes (`toolhist.peers.diffing`), so ``compare`` shows which rules LangChain's
mapping fixes or breaks. Where LangChain raises before sending, or the provider has no route here
(Gemini, Mistral, Bedrock: integrations the extra does not bring), the history is kept as given
with one ``keep`` Change that says why.
"""

from __future__ import annotations

from toolhist.agents.langchain.send import ROUTES, sent_body, version
from toolhist.curation.strategies import StrategyDef
from toolhist.peers.strategies import in_process, sent_ids

NAME = "langchain"


curate = in_process(
    NAME,
    ROUTES,
    sent_body,
    version,
    "LangChain is not run for {provider} here (its integration is not in the langchain extra); "
    "the history is shown as given",
)
"""What LangChain sends ``provider`` for ``session`` (plus ``tail``)."""


STRATEGIES = {
    NAME: StrategyDef(
        name=NAME,
        summary="LangChain's chat model integrations map the history (offline, a capture server on "
        "127.0.0.1); its request body read back",
        curate=curate,
        edge_ids=sent_ids,
    )
}
