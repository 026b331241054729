"""Strategy ``pydantic-ai``: the history as pydantic-ai's own model classes send it (`send`).

Like the real-library strategies (`toolhist.peers.strategies`), the body pydantic-ai sent is read
back with the provider's reader: that Session is the curated history and its differences from the
given one are the Changes (`toolhist.peers.diffing`), so ``compare`` shows which rules pydantic-ai's
mapping fixes or breaks. Where pydantic-ai raises before sending, or the provider has no route here
(Bedrock), the history is kept as given with one ``keep`` Change that says why.
"""

from __future__ import annotations

from toolhist.agents.pydantic_ai.send import ROUTES, sent_body, version
from toolhist.curation.strategies import StrategyDef
from toolhist.peers.strategies import in_process, sent_ids

NAME = "pydantic-ai"


curate = in_process(
    NAME,
    ROUTES,
    sent_body,
    version,
    "pydantic-ai is not run for {provider} here (BedrockConverseModel needs boto3); "
    "the history is shown as given",
)
"""What pydantic-ai sends ``provider`` for ``session`` (plus ``tail``)."""


STRATEGIES = {
    NAME: StrategyDef(
        name=NAME,
        summary="pydantic-ai's own model classes map the history (offline, a mock transport); "
        "its request body read back",
        curate=curate,
        edge_ids=sent_ids,
    )
}
