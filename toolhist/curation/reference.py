"""Strategy ``toolhist``: the reference repair (DESIGN §6).

Valid for the target provider with the fewest changes, nothing lost silently: every drop, move,
synthesis, rename and id rewrite is a Change with its reason. The passes, in order:

1. ``split_tool_calls``   blocks into the speaker that can carry them (seed 000 failure mode A)
2. ``map_ids``            seed 001 canonical ids; which call each result answers
3. ``dedupe_calls``       a call recorded twice is kept once
4. ``synthesize_calls``   a call for each result whose call was compacted away
5. ``dedupe_results``     one result per call; differing copies reported as conflicts
6. ``fill_empty_content`` no blank text or empty thinking, no empty turn
7. ``drop_foreign_thinking`` reasoning goes back only to the provider that wrote it, signed
8. ``move_results``       results in the tool turn right after their call
9. ``close_orphans``      a synthetic result for every unanswered call (orphaned or pending)
10. ``sanitize_tool_names`` names the provider's pattern accepts (declarations renamed alike)
11. ``drop_item_ids``     Responses call ids whose reasoning item is gone
12. ``merge_turns``       the provider's turn order (Bedrock alternation, Gemini, Mistral)
13. ``model_requirements`` model-specific needs: DeepSeek/Kimi reasoning_content, Gemini 3 signatures
14. ``demote_system``      o1-mini / o1-preview: system text as a user message
15. ``append_user_turn``   Claude 4.6+ (and Claude on Bedrock after a tool round): no final assistant message
16. ``drop_final_thinking`` Anthropic without thinking: none in the final assistant turn
17. ``add_tool_declarations`` minimal declarations where Anthropic or Bedrock need them

Before all that, if Anthropic thinking is on and the open tool round has no signed thinking block
to replay, ``disable_thinking`` removes ``thinking`` from the request (the repair the 400 names).

Ids are canonical in the curated history and mapped to the provider's own form only when the
payload is rendered (`toolhist.providers.idmap.map_ids`).
"""

from __future__ import annotations

from toolhist.curation.adjacency import move_results
from toolhist.curation.base import Curation, Pass, run_passes
from toolhist.curation.close import close_orphans
from toolhist.curation.content import fill_empty_content
from toolhist.curation.declarations import add_tool_declarations
from toolhist.curation.dedupe import dedupe_results
from toolhist.curation.final_turn import demote_system, end_on_user
from toolhist.curation.items import drop_item_ids
from toolhist.curation.names import rename_declarations, sanitize_tool_names
from toolhist.curation.pairing import dedupe_calls, map_ids
from toolhist.curation.reasoning import model_requirements
from toolhist.curation.request import disable_thinking
from toolhist.curation.shared import shared
from toolhist.curation.split import split_tool_calls
from toolhist.curation.strategies import StrategyDef
from toolhist.curation.synthesize import synthesize_calls
from toolhist.curation.thinking import drop_final_thinking, drop_foreign_thinking
from toolhist.curation.turns import merge_turns
from toolhist.model import Message, Session
from toolhist.providers.idmap import map_ids as edge_map_ids


def passes(session: Session, provider: str, renamed: dict[str, str]) -> list[Pass]:
    """The reference pipeline for ``provider`` (``renamed`` collects tool renames).

    Passes 2-6, 8 and 9 depend only on the history and its format, so their result is shared
    between providers (`toolhist.curation.shared`): a history curated for every provider pays for
    them once.
    """
    fmt = session.source.format
    provider_independent = [map_ids(fmt), dedupe_calls, synthesize_calls, dedupe_results, fill_empty_content]
    return [
        split_tool_calls(provider),
        shared(session, f"reference:{fmt}", provider_independent),
        drop_foreign_thinking(provider, fmt),
        shared(session, "reference:move_close", [move_results, close_orphans]),
        sanitize_tool_names(provider, renamed),
        drop_item_ids(provider),
        merge_turns(provider),
        model_requirements(provider, session.request),
        demote_system(provider, session.request),
        end_on_user(provider, session.request),
        drop_final_thinking(provider, session.request if fmt == provider else {}),
    ]


def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    """Repair ``session`` (+ ``tail``) for ``provider``."""
    renamed: dict[str, str] = {}
    curation = run_passes(session, provider, "toolhist", passes(session, provider, renamed), tail)
    adjusted, disabled = disable_thinking(session, curation.session.messages, provider)
    if disabled is not None:  # the request changes what the passes must do (final-turn thinking)
        renamed = {}
        curation = run_passes(adjusted, provider, "toolhist", passes(adjusted, provider, renamed), tail)
        curation = curation.model_copy(update={"original": session, "changes": (disabled, *curation.changes)})
    tools = rename_declarations(session.tools, provider, renamed) if session.tools is not None else None
    if tools != session.tools:
        curated = curation.session.model_copy(update={"tools": tools})
        curation = curation.model_copy(update={"session": curated})
    return add_tool_declarations(curation, provider)


STRATEGIES = {
    "toolhist": StrategyDef(
        name="toolhist",
        summary="the reference: valid for the target with the fewest changes, every change recorded, seed 001 ids",
        curate=curate,
        edge_ids=edge_map_ids,
    )
}
