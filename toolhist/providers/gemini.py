"""Google Gemini ``generateContent`` (``gemini``): rules, checks and the provider entry.

Gemini pairs function responses with calls by turn and count, not by id: a call turn must follow
a user (or function-response) turn, a response turn must follow a call turn and answer every call
part of it. Texts and sources: ``research/providers.md`` §4 and §10. Most Gemini texts carry no
index; the ones that do (``contents[N].parts[M]``) are 0-based, as the API prints them.

Model-dependent rules read ``model`` from the body. The REST API takes the model in the URL, so a
raw body without ``model`` is checked only against the rules every Gemini model enforces.
Both key spellings are checked: camelCase (REST) and snake_case (Python SDK dumps).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from toolhist.providers.base import Finding, Provider, Rule, bracketed, drained, model_of
from toolhist.providers.gemini_parts import RULES as PART_RULES
from toolhist.providers.gemini_parts import check_walk
from toolhist.providers.gemini_render import render

NAME = "gemini"
FN_NAME = re.compile(r"^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$")
"""The declared-name rule as the newest error text states it (letters, digits, ``_ . : -``, ≤64)."""
_VERSION = re.compile(r"gemini-(\d+)(?:\.(\d+))?")


def gemini_version(body: dict[str, Any]) -> tuple[int, int] | None:
    """(major, minor) of a ``gemini-X[.Y]…`` model name in the body, or None."""
    match = _VERSION.search(model_of(body))
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def _signatures_enforced(body: dict[str, Any]) -> bool:
    """Gemini 3 and later validate thought signatures; Gemini 3 Pro Image does not (Vertex docs)."""
    version = gemini_version(body)
    return version is not None and version >= (3, 0) and "image" not in model_of(body)


def _rejects_trailing_model(body: dict[str, Any]) -> bool:
    """Models from 3.6 on, and 3.5 Flash-Lite, no longer treat a final model turn as prefill.

    Google's latest-model page (quoted in cline/cline#12521, 2026-07) says prefill was removed from
    Gemini 3.6 Flash and 3.5 Flash-Lite on; LibreChat-AI/agents PR#323 measured gemini-3.5-flash
    (and 2.5) still answering 200, so 3.5 models other than Flash-Lite are not flagged.
    """
    version = gemini_version(body)
    if version is None:
        return False
    return version >= (3, 6) or (version == (3, 5) and "lite" in model_of(body))


RULES: tuple[Rule, ...] = (
    Rule(
        "gem.fc_position",
        NAME,
        "error",
        "a model turn with functionCall parts must come right after a user turn or a function-response turn",
        "Please ensure that function call turn comes immediately after a user turn or after a function response turn.",
        "google-gemini/gemini-cli#11814, #26956; continuedev/continue#11164"
        "; dates: google-gemini/gemini-cli#11814 (2025-10), #26956 (gemini-3.1-pro-preview-customtools, "
        "2026-05); continuedev/continue#11164 (Gemini 3.1 Pro, 2026-03)",
        "merge_turns (consecutive model turns become one); a history that opens with a call needs a user turn first",
        since="2025-10",
        observed="2026-05",
    ),
    Rule(
        "gem.fr_position",
        NAME,
        "error",
        "a function-response turn must come right after a function-call turn",
        "Please ensure that function response turn comes immediately after a function call turn.",
        "GoogleCloudPlatform/generative-ai PR#368; langchain-ai/langchain#27799"
        "; dates: GoogleCloudPlatform/generative-ai PR#368 (2024-01); "
        "google-gemini/deprecated-generative-ai-js#267 (Google's answer, 2025-02). Nothing later found",
        "move_results (or synthesize_calls when the call is gone)",
        since="2024-01",
        observed="2025-02",
    ),
    Rule(
        "gem.fr_count",
        NAME,
        "error",
        "the turn after a call turn must hold exactly one functionResponse part per functionCall part",
        "Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.",
        "google-gemini/gemini-cli#4217, #5443, #16415. A call turn followed by a turn with no responses at all "
        "(a cancelled tool run) is counted here too: inferred from the cancelled-run reports, not documented"
        "; dates: google-gemini/gemini-cli#4217 (gemini-2.5-pro, 2025-07), #5443 (gemini-2.5-flash, "
        "2025-08), #16415 (2026-01), #18509 (gemini-3-flash-preview, 2026-02), #23068 (2026-03)",
        "close_orphans (synthetic responses for unanswered calls) or dedupe_results",
        since="2025-07",
        observed="2026-03",
    ),
    Rule(
        "gem.thought_sig",
        NAME,
        "error",
        "Gemini 3+: the first functionCall part of every model step in the current turn must carry its thoughtSignature",
        "Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:{name}` , position {position}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.",
        "ai.google.dev/gemini-api/docs/thought-signatures (only the current turn is validated: every step since "
        "the last user turn with standard content); lbjlaq/Antigravity-Manager#139; nanbingxyz/5ire#405; "
        "csells/dartantic PR#86. position = 1-based index of the model turn in contents (inferred: a "
        "[user, call, response] history reports position 2)"
        "; dates: lbjlaq/Antigravity-Manager#139 (2025-12); csells/dartantic PR#86 (2026-01); "
        "nanbingxyz/5ire#405 (gemini-3-pro-preview, not gemini-2.5, 2026-02); Chevey339/kelivo#754 "
        "(2026-06); niki914/zafiro#100 (2026-08)",
        "none can restore a lost signature; add_signature_sentinel sends `skip_thought_signature_validator`, the "
        "value proxies use for unsigned calls (official wording unverified), or start a new user turn",
        applies=_signatures_enforced,
        since="2025-12",
        observed="2026-08",
    ),
    Rule(
        "gem.parts_nonempty",
        NAME,
        "error",
        "every content must have at least one part",
        "* GenerateContentRequest.contents[{index}].parts: contents.parts must not be empty.",
        "egoist/chatwise-releases#250; vercel/ai#3775"
        "; dates: langchain-ai/langchain-google#691 (gemini-2.0-flash-exp, 2025-01); vercel/ai#3775 "
        "(gemini-2.0-flash-001, 2025-03). Nothing later found",
        "fill_empty_content (or drop the empty turn with a Change)",
        since="2025-01",
        observed="2025-03",
    ),
    Rule(
        "gem.part_oneof",
        NAME,
        "error",
        "every part must set one data field (text, inlineData, fileData, functionCall, functionResponse, "
        "executableCode, codeExecutionResult); a part with only a thought signature is Gemini's own and valid",
        "* GenerateContentRequest.contents[{index}].parts[{part}].data: required oneof field 'data' must have one initialized field",
        '54xzh/FLIT#69 (blank text part next to a functionResponse); client fixes that skip `{"text": ""}` '
        'parts for this reason. Not checked for `{"text": ""}`: a proto3 oneof member set to its default '
        "is still set, and the traffic corpus has such parts accepted (gemini-3-flash-preview, "
        "gemini-3-pro-preview, 2026-01..02: pydantic/pydantic-ai tests/models/cassettes/test_google/"
        "test_google_instructions_only_with_tool_calls.yaml, Mirascope/mirascope python/tests/e2e); nor for "
        "signature-only parts (thoughtSignature / thought: true, gemini-2.5-flash and gemini-3-flash-preview, "
        "2026)"
        "; dates: boldsoftware/sketch#68 (2025-05); 54xzh/FLIT#69 (2026-05)",
        "fill_empty_content (drop blank text parts)",
        since="2025-05",
        observed="2026-05",
    ),
    Rule(
        "gem.part_oneof_multi",
        NAME,
        "error",
        "a part may set only one data field",
        "Invalid value at 'contents[{index}].parts[{part}]' (oneof), oneof field 'data' is already set. Cannot set '{field}'",
        "googleapis/google-cloud-dart#26 (text + inlineData in one part)"
        "; googleapis/google-cloud-dart#26 is undated in the index: later than the repository's PR#11 of "
        "2025-10, the only date that bounds it; a single report",
        "split_parts (one part per data field)",
        since="2025-10",
        observed="2025-10",
    ),
    Rule(
        "gem.no_trailing_model",
        NAME,
        "error",
        "Gemini 3.6+ and 3.5 Flash-Lite reject a request whose last content is a model turn",
        "Requests ending with a model turn are not supported.",
        "anomalyco/opencode#45359, #47034; livekit/agents-js#2108"
        "; dates: LibreChat-AI/agents PR#323 (gemini-3.6-flash and gemini-3.5-flash-lite 400, "
        "gemini-3.5-flash and gemini-2.5-flash 200, 2026-07); cline/cline#12521 (2026-07) quotes "
        "ai.google.dev/gemini-api/docs/latest-model: prefill removed from Gemini 3.6 Flash and 3.5 "
        "Flash-Lite on; anomalyco/opencode#45359 (Gemini 3.7 Flash, 2026-08), #47034 (gemini-3.8-flash, "
        "2026-09)",
        "append_user_turn (or drop the trailing model turn)",
        applies=_rejects_trailing_model,
        since="2026-07",
        observed="2026-09",
    ),
    Rule(
        "gem.role",
        NAME,
        "error",
        "content role must be user or model",
        "Please use a valid role: user, model.",
        "portkey.ai error library #10129; blog.wentuo.ai (Vertex); comments in several Vertex clients. Vertex "
        "also answers it for a content with no role; AI Studio accepts that, so a missing role is not flagged"
        "; langchain-ai/langchain-google#1059 (Vertex, gemini-2.5-flash, role 'function', 2025-07); "
        "router-for-me/CLIProxyAPI#17 (no role, gemini-2.5-flash through the Gemini CLI backend, 2025-08); "
        "the-open-agent/openagent#1666 (2025-10); https://blog.wentuo.ai/en?p=876 (undated)",
        "map_roles (assistant→model, tool results→user)",
        since="2025-07",
        observed="2025-10",
    ),
    Rule(
        "gem.fn_name_format",
        NAME,
        "error",
        "declared function names start with a letter or _, then letters, digits, _ . : -, at most 64 in all",
        "* GenerateContentRequest.tools[{tool}].function_declarations[{decl}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.",
        "maximhq/bifrost#1979 (2026 wording); google-gemini/gemini-cli#2966, #7869 (older wording without "
        "colons); kaitranntt/ccs#25 (`The GenerateContentRequest proto is invalid` variant)"
        "; dates: google-gemini/gemini-cli#6704 (gemini-2.5-pro, the older wording, 2025-08), #7869 "
        "(2025-09); kaitranntt/ccs#25 (2025-11); router-for-me/Cli-Proxy-API-Management-Center#120 (Gemini "
        "3.1 models, 2026-03); decolua/9router#369 (2026-03)",
        "sanitize_tool_names (rename in declarations and calls together)",
        since="2025-08",
        observed="2026-03",
    ),
    *PART_RULES,
)


def _get(d: dict[str, Any], camel: str, snake: str) -> Any:
    return d[camel] if camel in d else d.get(snake)


def _parts(content: Any) -> list[Any]:
    parts = content.get("parts") if isinstance(content, dict) else None
    return parts if isinstance(parts, list) else []


def _count(content: Any, camel: str, snake: str) -> int:
    return sum(1 for p in _parts(content) if isinstance(p, dict) and (camel in p or snake in p))


def _calls(content: Any) -> int:
    return _count(content, "functionCall", "function_call")


def _responses(content: Any) -> int:
    return _count(content, "functionResponse", "function_response")


def _response_only(content: Any) -> bool:
    parts = _parts(content)
    return bool(parts) and _responses(content) == len(parts)


def _fold_responses(contents: list[Any]) -> list[tuple[int, Any]]:
    """Contents with their index; consecutive function-response turns become one turn (at the first index).

    Gemini 2.5 answers the parallel calls of one turn when their responses come in separate user turns
    in a row (gemini-2.5-flash on AI Studio, 2026-02: crewAIInc/crewAI lib/crewai/tests/cassettes/agents/
    TestGeminiNativeToolCalling*), so for 2.5 models the count and position rules read such a run as one
    turn. Gemini 3 rejects it (cloudwego/eino-ext#571 gemini-3-pro-preview 2025-11; earendil-works/pi#5528
    gemini-3.1-pro-preview 2026-06), as do older reports without a model named (semantic-kernel#10597,
    2025-02), so a body naming no 2.5 model is not folded.
    """
    out: list[tuple[int, Any]] = []
    for i, content in enumerate(contents):
        if out and _response_only(content) and _response_only(out[-1][1]):
            first, merged = out[-1]
            out[-1] = (first, {**merged, "parts": [*_parts(merged), *_parts(content)]})
        else:
            out.append((i, content))
    return out


def check_turns(
    contents: list[Any], *, fold: bool = False, counts: list[tuple[int, int]] | None = None
) -> Iterator[Finding]:
    """Call / response turn order and counts (gem.fc_position, gem.fr_position, gem.fr_count).

    ``counts`` are each content's functionCall and functionResponse parts (`check_walk`'s), read
    instead of counted again; a folded body (``fold``) counts its merged turns itself.
    """
    if counts is None or fold:
        turns = _fold_responses(contents) if fold else list(enumerate(contents))
        counts = [(_calls(c), _responses(c)) for _, c in turns]
    else:
        turns = list(enumerate(contents))
    prev_calls = 0
    prev: Any = None
    for n, (i, content) in enumerate(turns):
        calls, responses = counts[n]
        if isinstance(content, dict):
            prev_role = prev.get("role") if isinstance(prev, dict) else None
            if calls and (prev is None or prev_calls or prev_role == "model"):
                yield Finding("gem.fc_position", ("contents", i))
            if responses and not prev_calls:
                yield Finding("gem.fr_position", ("contents", i))
            elif prev_calls and not calls and responses != prev_calls:
                # Also a call turn followed by a turn with no responses at all (a cancelled tool run).
                yield Finding("gem.fr_count", ("contents", i))
        prev, prev_calls = content, calls


def check_signatures(contents: list[Any], start: int | None = None) -> Iterator[Finding]:
    """The first functionCall part of each model step since the last user text turn needs a signature.

    ``start`` is the index after that turn (`check_walk` finds it); None: found here.
    """
    if start is None:
        start = 0
        for i, content in enumerate(contents):
            if (
                isinstance(content, dict)
                and content.get("role") != "model"
                and any(
                    isinstance(p, dict) and "functionResponse" not in p and "function_response" not in p
                    for p in _parts(content)
                )
            ):
                start = i + 1
    for i in range(start, len(contents)):
        content = contents[i]
        if not isinstance(content, dict) or content.get("role") != "model":
            continue
        for j, part in enumerate(_parts(content)):
            call = _get(part, "functionCall", "function_call") if isinstance(part, dict) else None
            if call is None:
                continue
            if not _get(part, "thoughtSignature", "thought_signature"):
                name = call.get("name") if isinstance(call, dict) else None
                yield Finding(
                    "gem.thought_sig",
                    ("contents", i, "parts", j),
                    {"name": name if isinstance(name, str) else "", "position": i + 1},
                )
            break


def check_declarations(body: dict[str, Any]) -> Iterator[Finding]:
    """Declared function names against the API's name rule."""
    tools = body.get("tools")
    for t, tool in enumerate(tools if isinstance(tools, list) else []):
        if not isinstance(tool, dict):
            continue
        key = "functionDeclarations" if "functionDeclarations" in tool else "function_declarations"
        decls = tool.get(key)
        for d, decl in enumerate(decls if isinstance(decls, list) else []):
            name = decl.get("name") if isinstance(decl, dict) else None
            if isinstance(name, str) and not FN_NAME.match(name):
                yield Finding("gem.fn_name_format", ("tools", t, key, d, "name"), {"tool": t, "decl": d})


def check(body: dict[str, Any]) -> Iterator[Finding]:
    """Every Gemini rule over a body (model-dependent ones are filtered by their ``applies``)."""
    raw = body.get("contents")
    contents = raw if isinstance(raw, list) else []
    found, mixed, counts, start = check_walk(contents)
    yield from drained(found)
    yield from check_turns(contents, fold=gemini_version(body) == (2, 5), counts=counts)
    yield from check_signatures(contents, start)
    if contents and isinstance(contents[-1], dict) and contents[-1].get("role") == "model":
        yield Finding("gem.no_trailing_model", ("contents", len(contents) - 1))
    yield from check_declarations(body)
    yield from drained(mixed)


PROVIDER = Provider(
    name=NAME, title="Google Gemini", rules=RULES, render=render, check=check, path_format=bracketed
)
