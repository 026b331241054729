"""Strategy ``toolhist``: the reference repair (DESIGN §6), changing only what the target refuses.

A history the target provider accepts as it is needs no repair, and gets none. The passes below
each leave alone what the target takes, so on such a history they find nothing to do; when they do
change something, the history's own violations are checked (`toolhist.curation.given`, the check
every page shows): without one it goes out exactly as given, ids included; with some, every Change
says which violation it repairs (`toolhist.curation.fixes`; those that repair an error come first).
The passes, in order:

1. ``split_tool_calls``   blocks into the speaker that can carry them (seed 000 failure mode A)
2. ``map_ids``            which call each result answers; ids to pair on (no Change)
3. ``dedupe_calls``       a call recorded twice is kept once
4. ``synthesize_calls``   a call for each result whose call was compacted away
5. ``dedupe_results``     one result per call; differing copies reported as conflicts
6. ``fill_empty_content`` no blank text or empty thinking, no empty turn
7. ``drop_foreign_thinking`` reasoning the target would be sent and refuses (foreign or unsigned)
8. ``move_results``       results in the tool turn right after their call (Responses: after it)
9. ``close_orphans``      a synthetic result for every unanswered call (orphaned or pending)
   ``split_tool_calls``   again: text a tool message kept that more results now follow goes after them
10. ``sanitize_tool_names`` names the provider's pattern accepts (declarations renamed alike)
11. ``drop_item_ids``     Responses call ids whose reasoning item is gone
12. ``merge_turns``       the provider's turn order (Bedrock alternation, Gemini, Mistral)
13. ``model_requirements`` model-specific needs: DeepSeek/Kimi reasoning_content, Gemini 3 signatures
14. ``demote_system``      o1-mini / o1-preview: system text as a user message
15. ``append_user_turn``   Claude 4.6+ (and Claude on Bedrock after a tool round): no final assistant message
16. ``drop_final_thinking`` Anthropic without thinking: none in the final assistant turn
17. ``map_ids`` (sent ids) every id the target takes stays; the others go out as seed 001 canonical ids in
    the target's form (`toolhist.curation.sent_ids`), each a Change
18. ``add_tool_declarations`` declarations where a body in the target's own format has none

Before all that, if Anthropic thinking is on and the open tool round has no signed thinking block
to replay, ``disable_thinking`` removes ``thinking`` from the request (the repair the 400 names).

Unlike the other strategies, ``toolhist`` does not run ``conform_to_sdk``: values the official SDK's
request types refuse but the provider takes (Codex's id-less reasoning items, a tool message's
``name``) stay, since the provider accepts them (``toolhist render --sdk`` reports them). The curated
session holds the ids that are sent (no edge mapping). Strategy ``canonical``
(`toolhist.curation.canonical`) runs the same passes with every id canonical, as seed 001 asks.
"""

from __future__ import annotations

from toolhist.curation.adjacency import late_ok, move_results_for
from toolhist.curation.base import Curation, Pass, run_passes
from toolhist.curation.close import close_orphans
from toolhist.curation.content import fill_empty_content
from toolhist.curation.declarations import add_tool_declarations
from toolhist.curation.dedupe import dedupe_results
from toolhist.curation.final_turn import demote_system, end_on_user
from toolhist.curation.fixes import attribute
from toolhist.curation.given import as_given
from toolhist.curation.items import drop_item_ids
from toolhist.curation.names import rename_declarations, sanitize_tool_names
from toolhist.curation.pairing import Mode, dedupe_calls, map_ids
from toolhist.curation.reasoning import model_requirements
from toolhist.curation.request import disable_thinking
from toolhist.curation.sent_ids import sent_ids
from toolhist.curation.shared import shared
from toolhist.curation.split import split_tool_calls, split_tool_text
from toolhist.curation.strategies import StrategyDef
from toolhist.curation.synthesize import synthesize_calls
from toolhist.curation.thinking import drop_final_thinking, drop_foreign_thinking
from toolhist.curation.turns import merge_turns
from toolhist.model import Message, Session


def passes(session: Session, provider: str, renamed: dict[str, str], mode: Mode = "keep") -> list[Pass]:
    """The reference pipeline for ``provider`` (``renamed`` collects tool renames).

    Passes 2-5, 8 and 9 depend only on the history and its format, so their result is shared
    between providers (`toolhist.curation.shared`): a history curated for every provider pays for
    them once. ``mode`` is `pairing.map_ids`'s: ``keep`` ends with the ids that are sent
    (`sent_ids`), ``canonical`` leaves every id canonical for the edge to map.
    """
    fmt = session.source.format
    late = late_ok(provider, session.request.get("model"))
    provider_independent = [map_ids(fmt, mode), dedupe_calls, synthesize_calls, dedupe_results]
    pipeline = [
        split_tool_calls(provider),
        shared(session, f"reference:{fmt}:{mode}", provider_independent),
        fill_empty_content(provider, fmt, session.request.get("model")),
        drop_foreign_thinking(provider, fmt),
        shared(session, f"reference:move_close:{late}", [move_results_for(late), close_orphans]),
        split_tool_text(provider),
        sanitize_tool_names(provider, renamed, declared=bool(session.tools)),
        drop_item_ids(provider, fmt),
        merge_turns(provider, fmt),
        model_requirements(provider, session.request),
        demote_system(provider, session.request),
        end_on_user(provider, session.request),
        drop_final_thinking(provider, session.request if fmt == provider else {}),
    ]
    return [*pipeline, sent_ids(provider, fmt)] if mode == "keep" else pipeline


def repair(
    session: Session,
    provider: str,
    tail: tuple[Message, ...],
    *,
    strategy: str = "toolhist",
    extra: tuple[Pass, ...] = (),
) -> Curation:
    """The passes over ``session`` (+ ``tail``) for ``provider``, whether or not it needs them.

    ``toolhist`` runs them in ``keep`` mode without ``conform_to_sdk``; ``canonical`` in canonical
    mode with it, ``extra`` passes after the pipeline (its id-map recorder).
    """
    mode: Mode = "keep" if strategy == "toolhist" else "canonical"
    conform = strategy != "toolhist"

    def run(given: Session) -> tuple[Curation, dict[str, str]]:
        renamed: dict[str, str] = {}
        pipeline = [*passes(given, provider, renamed, mode), *extra]
        return run_passes(given, provider, strategy, pipeline, tail, conform=conform), renamed

    curation, renamed = run(session)
    adjusted, disabled = disable_thinking(session, curation.session.messages, provider)
    if disabled is not None:  # the request changes what the passes must do (final-turn thinking)
        curation, renamed = run(adjusted)
        curation = curation.model_copy(update={"original": session, "changes": (disabled, *curation.changes)})
    tools = rename_declarations(session.tools, provider, renamed) if session.tools is not None else None
    if tools != session.tools:
        curated = curation.session.model_copy(update={"tools": tools})
        curation = curation.model_copy(update={"session": curated})
    return add_tool_declarations(curation, provider)


def curate(session: Session, provider: str, tail: tuple[Message, ...]) -> Curation:
    """Repair ``session`` (+ ``tail``) for ``provider``: nothing when the provider accepts it as it is.

    The passes run first: when they find nothing to do, the history goes out as given without
    checking it. Otherwise the history's own violations decide: none, and it goes out as given
    (a pass found something the provider takes); some, and each Change names those it repairs.
    """
    curation = repair(session, provider, tail)
    found = as_given(session, provider, tail) if curation.changes else ()
    if not found:
        curated = session.model_copy(update={"messages": (*session.messages, *tail)}) if tail else session
        return Curation(session=curated, changes=(), strategy="toolhist", provider=provider, original=session)
    return curation.model_copy(update={"changes": attribute(curation.changes, found)})


def sent_as_curated(session: Session, provider: str) -> tuple[Session, dict[str, str]]:
    """The curated session already holds the ids that are sent (`sent_ids`): nothing to map at the edge."""
    return session, {}


STRATEGIES = {
    "toolhist": StrategyDef(
        name="toolhist",
        summary="the reference: changes only what the target refuses (none for a history it accepts), each "
        "Change naming the rule it repairs; ids it refuses become seed 001 canonical ids in its form",
        curate=curate,
        edge_ids=sent_as_curated,
    )
}
