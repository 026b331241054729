"""The error patterns `toolhist.explain` matches: one compiled regex per (rule, variant), as data.

Each pattern names the rule slug (``research/providers.md`` §10, or the slug its provider section
implies), the provider whose rules predict it, and the wording variant it recognises. Matching is
case-insensitive and tolerant of the drift seen in the wild (§0.2): ``preceeding``/``preceding``, any
quote character around names, optional backticks. Where only the letter case tells two senders apart
(Kimi lower-cases OpenAI's texts, DeepSeek capitalises them), a scoped ``(?-i:…)`` group checks it.

The order of `PATTERNS` matters: the first match wins, so variants come before the general form.

Named groups a pattern may set: ``id``/``id2`` (one id each), ``ids`` (a list, cut at the end of the
sentence), ``mi`` (a message index written in words, e.g. DeepSeek's ``at message index 3``). Payload
paths (``messages.[3].role``, ``contents[2].parts[0]``) are not captured here: `toolhist.explain`
scans the whole text for them, so a pattern does not have to predict where a provider puts them.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from typing import Literal

_TOKENS = {
    "%q": "['\"`\u2018\u2019]",
    "%id": "(?P<id>[^\\s'\"`,]{1,256})",
    "%ids": "(?P<ids>[^\\n]{1,4000})",
    "%n": "(?:\\d{1,9}|[A-Za-z_]{1,16}|<\\w{1,16}>|\\{\\w{1,16}\\}|\\*{1,8})",
}
"""Shorthands inside the regex sources below: any quote, one id, an id list up to the end of the line,
an index (or the placeholder a reporter or a relay put in its place: ``X``, ``N``, ``<n>``, ``{id}``, ``position``, ``***``)."""


@dataclass(frozen=True)
class Pattern:
    """One recognisable wording of one provider rule."""

    rule: str
    """Rule slug."""
    provider: str | None
    """The toolhist provider whose rules predict this text; None for client-side checks (AI SDK, LangGraph)."""
    variant: str | None
    """Which wording or sender this is (``deepseek``, ``qwen``, ``preceeding-typo``, ``old``…); None for the main form."""
    source: str
    """The regular expression, shorthands expanded; bounded quantifiers only, so huge input cannot make it
    backtrack for long."""
    culprit: Literal["first", "last"] = "first"
    """Which payload path in the text is the offending one (``messages[7] and messages[8]``: the last)."""
    side: Literal["call", "result"] | None = None
    """Whether the ids in the text name the call or the result that breaks the rule (for locating by id)."""

    @functools.cached_property
    def regex(self) -> re.Pattern[str]:
        """``source`` compiled with re.IGNORECASE, when first matched.

        Compiling every pattern took a third of a second, paid by every command and every import of
        ``toolhist`` (the package imports `toolhist.explain`), although only explaining a pasted error
        matches them.
        """
        return re.compile(self.source, re.IGNORECASE)


def _p(
    rule: str,
    provider: str | None,
    variant: str | None,
    source: str,
    *,
    culprit: Literal["first", "last"] = "first",
    side: Literal["call", "result"] | None = None,
) -> Pattern:
    for token in ("%ids", "%id", "%q", "%n"):  # longest token first: %ids contains %id
        source = source.replace(token, _TOKENS[token])
    return Pattern(rule, provider, variant, source, culprit, side)


_OC, _RESP, _ANT, _GEM, _MIS, _KIMI, _BRK = (
    "openai-chat",
    "openai-responses",
    "anthropic",
    "gemini",
    "mistral",
    "kimi",
    "bedrock",
)
_QWEN = r"InternalError\.Algo\.InvalidParameter:\s*"
_KIMI_LC = r"(?<![A-Za-z])"
"""Kimi sends OpenAI's texts with the first letter in lower case: a letter before it means another text."""
_ASSISTANT = r"n assistant message with %qtool_calls%q must be followed by tool messages responding to each %qtool_call_id%q"

# One row per line: these are tables, and read better unwrapped.
# fmt: off
PATTERNS: tuple[Pattern, ...] = (
    # --- OpenAI Chat and compatible servers (§1c) -----------------------------------------------
    _p("oai.tool_orphan", _OC, "qwen", _QWEN + r"messages with role %qtool%q must (?:be a response to|follow) a prece{1,2}ding message"),
    _p("oai.tool_orphan", _OC, "deepseek", r"(?-i:M)essages with role %qtool%q must be a response to a prece{1,2}ding message"),
    _p("oai.tool_orphan", _OC, "must-follow", r"messages with role %qtool%q must follow a prece{1,2}ding message"),
    _p("oai.tool_orphan", _KIMI, "kimi", _KIMI_LC + r"(?-i:i)nvalid parameter: messages with role %qtool%q must be a response to a prece{1,2}ding message"),
    _p("oai.tool_orphan", _OC, "preceeding-typo", r"messages with role %qtool%q must be a response to a preceeding message"),
    _p("oai.tool_orphan", _OC, None, r"messages with role %qtool%q must be a response to a preceding message"),
    _p("oai.tool_orphan", _OC, "minimax", r"tool call result does not follow tool call"),
    _p("oai.call_unanswered", _OC, "qwen", _QWEN + "a" + _ASSISTANT),
    _p("oai.call_unanswered", _KIMI, "kimi", _KIMI_LC + r"(?-i:a)" + _ASSISTANT + r"\.?(?:\s*The following tool_call_ids did not have response messages:\s*%ids)?", side="call"),
    _p("oai.call_unanswered", _OC, "insufficient", "a" + _ASSISTANT + r"\.?\s*\(insufficient tool messages following tool_calls message\)"),
    _p("oai.call_unanswered", _OC, None, "a" + _ASSISTANT + r"\.?(?:\s*The following tool_call_ids did not have response messages:\s*%ids)?", side="call"),
    _p("oai.tool_id_unknown", _KIMI, "kimi", _KIMI_LC + r"(?-i:i)nvalid parameter: %q?tool_call_id%q? of %q%id%q not found in %q?tool_calls%q? of previous message", side="result"),
    _p("oai.tool_id_unknown", _OC, None, r"%q?tool_call_id%q? of %q%id%q not found in %q?tool_calls%q? of previous message", side="result"),
    _p("oai.tool_id_unknown", _OC, "minimax", r"tool result%qs tool id\(%q?(?P<id>[^()\s'\"`]{1,256})%q?\) not found", side="result"),
    _p("oai.user_tool_calls", _OC, "groq", r"for %q?role:\w{1,20}%q? the following must be satisfied\W{0,8}%q?messages\.\d+%q?\s*:\s*property %qtool_calls%q is unsupported"),
    _p("oai.tool_id_missing", _OC, "groq", r"for %q?role:tool%q? the following must be satisfied\s*\[\(%q?messages\.\d{1,9}\.tool_call_id%q?\s*:\s*property %q?tool_call_id%q? is missing"),
    _p("oai.tool_id_missing", _KIMI, "kimi", _KIMI_LC + r"(?-i:m)issing parameter %qtool_call_id%q: messages with role %qtool%q must have a %qtool_call_id%q"),
    _p("oai.tool_id_missing", _OC, None, r"messages with role %qtool%q must have a %qtool_call_id%q"),
    _p("oai.dup_tool_result", _KIMI, "kimi", _KIMI_LC + r"(?-i:i)nvalid parameter: Duplicate value for %qtool_call_id%q of %q%id%q?", culprit="last", side="result"),
    _p("oai.dup_tool_result", _OC, None, r"Duplicate value for %qtool_call_id%q of %q%id%q?", culprit="last", side="result"),
    _p("oai.empty_tool_calls", _OC, "qwen", r"Empty tool_calls is not supported in message"),
    _p("oai.empty_tool_calls", _KIMI, "kimi", _KIMI_LC + r"(?-i:i)nvalid %qmessages\[\d+\]\.tool_calls%q: empty array"),
    _p("oai.empty_tool_calls", _OC, None, r"(?:Invalid )?%qmessages\[%n\]\.tool_calls%q: empty array"),
    _p("oai.empty_fn_name", _KIMI, "kimi", _KIMI_LC + r"(?-i:i)nvalid %qmessages\[\d+\]\.tool_calls\[\d+\]\.function\.name%q: empty string"),
    _p("oai.empty_fn_name", _OC, None, r"(?:Invalid )?%qmessages\[%n\]\.tool_calls\[%n\]\.function\.name%q: empty string"),
    _p("oai.id_len", _OC, None, r"(?:Invalid )?%qmessages\[%n\]\.tool_calls\[%n\]\.id%q: string too long"),
    _p("oai.null_content", _KIMI, "kimi", _KIMI_LC + r"(?-i:i)nvalid value for %qcontent%q: expected a string, got null"),
    _p("oai.null_content", _OC, None, r"Invalid value for %qcontent%q: expected a string, got null"),
    _p("oai.null_content", _OC, "lm-studio", r"Invalid %qcontent%q: %qcontent%q field must be a string or an array of objects"),
    _p("oai.null_content", _OC, "llama.cpp", r"Expected %qcontent%q to be a string or an array"),
    _p("oai.system_role_unsupported", _OC, None, r"Unsupported value: %qmessages\[\d+\]\.role%q does not support %q\w{1,20}%q with this model"),
    _p("oai.function_name_missing", _OC, None, r"messages with role %qfunction%q must have a %qname%q"),
    _p("oai.call_type_missing", _OC, "azure", r"Missing required parameter: %qmessages\[\d+\]\.tool_calls\[\d+\]\.type%q"),
    _p("oai.image_outside_user", _OC, None, r"Image URLs are only allowed for messages with role %quser%q, but this message with role %q\w{1,20}%q contains an image URL"),
    _p("pplx.alternate", _OC, "perplexity", r"After the \(optional\) system message\(s\), user or tool message\(s\) should alternate with assistant message\(s\)"),
    # --- DeepSeek and Kimi reasoning replay (§6, §7b) -----------------------------------------------
    _p("ds.reasoning_required", _OC, "deepseek", r"Missing %q?reasoning_content%q? field in the assistant message(?: at message index (?P<mi>\d{1,9}))?"),
    _p("ds.reasoning_required", _OC, "deepseek", r"The %qreasoning_content%q in the thinking mode must be passed back to the API"),
    _p("ds.reasoning_forbidden", _OC, "deepseek", r"The reasoning_content is an intermediate result for display purposes only"),
    _p("ds.alternate", _OC, "deepseek", r"deepseek-reasoner does not support successive user or assistant messages", culprit="last"),
    _p("kimi.reasoning", _KIMI, None, r"thinking is enabled but %q?reasoning_content%q? is missing in assistant tool call message(?: at index (?P<mi>\d{1,9}))?"),
    _p("kimi.thinking_effort_conflict", _KIMI, None, r"cannot specify both %qthinking%q and %qreasoning_effort%q"),
    _p("tmpl.alternate", _MIS, "vllm-template", r"conversation roles must alternate user/assistant/user/assistant"),
    # --- OpenAI Responses (§2c) ---------------------------------------------------------------------
    _p("resp.adjacency", _RESP, "deepseek", r"No tool output found for tool call %id", side="call"),
    _p("resp.call_unanswered", _RESP, None, r"No tool output found for function call %id", side="call"),
    _p("resp.call_unanswered", _RESP, "custom", r"No tool output found for custom tool call %id", side="call"),
    _p("resp.output_orphan", _RESP, None, r"No tool call found for function call output with call_id %id", side="result"),
    _p("resp.output_orphan", _RESP, "custom", r"No tool call found for custom tool call output with call_id %id", side="result"),
    _p("resp.fc_needs_reasoning", _RESP, None, r"Item %q%id%q of type %qfunction_call%q was provided without its required %qreasoning%q item(?::\s*%q(?P<id2>[^'\"`\s]{1,256})%q)?", side="call"),
    _p("resp.fc_needs_reasoning", _RESP, "message", r"Item %q%id%q of type %qmessage%q was provided without its required %qreasoning%q item"),
    _p("resp.fc_needs_reasoning", _RESP, "clause", r"without its required %qreasoning%q item"),  # the defining clause, retyped without the item's type (continuedev/continue#11994)
    _p("resp.reasoning_dangling", _RESP, None, r"Item %q%id%q of type %qreasoning%q was provided without its required following item"),
    _p("resp.dup_item", _RESP, None, r"Duplicate item found with id %id"),
    _p("resp.dup_item", _RESP, "compat-call-id", r"Duplicate %qcall_id%q:"),
    _p("resp.item_id_prefix", _RESP, None, r"Invalid %qinput\[\d+\]\.id%q:\s*%q(?P<id>[^'\"`\s]{0,256})%q\.?\s*Expected an ID that begins with"),
    _p("resp.call_id_len", _RESP, None, r"Invalid %qinput\[\d+\]\.call_id%q: string too long"),
    _p("resp.reasoning_summary", _RESP, None, r"Input\[\d+\] missing required field %q?summary"),
    _p("resp.role_tool", _RESP, None, r"Invalid value: %qtool%q\.\s*Supported values are: %qassistant%q, %qsystem%q, %qdeveloper%q,? and %quser%q"),
    _p("resp.item_not_persisted", _RESP, None, r"Item with id %q%id%q not found\.?\s*Items are not persisted when %q?store%q? is set to false"),
    _p("resp.encrypted_foreign", _RESP, None, r"The encrypted content (?:for item (?P<id>[\w.=/+-]{1,256}) |[\w.=/+-]{0,512} )?could not be verified"),
    # --- Anthropic (§3c) --------------------------------------------------------------------------
    _p("ant.result_missing", _ANT, None, r"%q?tool_use%q? ids were found without %q?tool_result%q? blocks immediately after(?::\s*%ids)?", side="call"),
    _p("ant.result_missing", _ANT, "old", r"Did not find \d+ %q?tool_result%q? block\(s\) at the beginning of this message"),
    _p("ant.result_orphan", _ANT, None, r"unexpected %q?tool_use_id%q? found in %q?tool_result%q? blocks(?::\s*%ids)?", side="result"),
    _p("ant.server_result_orphan", _ANT, None, r"unexpected %q?tool_use_id%q? found in %q?\w{1,64}_tool_result%q? blocks(?::\s*%ids)?", side="result"),
    _p("ant.dup_tool_result", _ANT, None, r"each %q?tool_use%q? must have a single result\.?\s*Found multiple %q?tool_result%q? blocks with id:\s*%ids", side="result"),
    _p("ant.dup_tool_use_id", _ANT, None, r"%q?tool_use%q? ids must be unique"),
    _p("ant.id_pattern", _ANT, "server-tool", r"server_tool_use\.id: String should match pattern"),
    _p("ant.id_pattern", _ANT, None, r"tool_use\.id: String should match pattern"),
    _p("ant.tool_name_pattern", _ANT, None, r"tools\.\d+(?:\.\w+)?\.name: String should match pattern"),
    _p("ant.tools_required", _ANT, None, r"Requests which include %q?tool_use%q? or %q?tool_result%q? blocks must define tools"),
    _p("ant.empty_content", _ANT, None, r"all messages must have non-empty content except for the optional final assistant message"),
    _p("ant.empty_text", _ANT, "whitespace", r"text content blocks must contain non-whitespace text"),
    _p("ant.empty_text", _ANT, None, r"text content blocks must be non-empty"),
    _p("ant.first_user", _ANT, None, r"first message must use the %quser%q role"),
    _p("ant.alternate", _ANT, "old", r"roles must alternate between %quser%q and %qassistant%q"),
    _p("ant.thinking_not_first", _ANT, None, r"If an assistant message contains any thinking blocks, the first block must be"),
    _p("ant.thinking_first", _ANT, "found-text", r"Expected %q?thinking%q? or %q?redacted_thinking%q?, but found %q?text%q?"),
    _p("ant.thinking_first", _ANT, None, r"Expected %q?thinking%q? or %q?redacted_thinking%q?, but found"),
    _p("ant.thinking_immutable", _ANT, None, r"%q?thinking%q? or %q?redacted_thinking%q? blocks in the latest assistant message cannot be modified"),
    _p("ant.thinking_signature", _ANT, "missing", r"\.thinking\.signature: Field required"),
    _p("ant.thinking_signature", _ANT, "binding", r"Invalid %q?signature%q? in %q?thinking%q? block\.?\s*The block is bound to a different conversation"),
    _p("ant.thinking_signature", _ANT, None, r"Invalid %q?signature%q? in %q?thinking%q? block"),
    _p("ant.thinking_disabled", _ANT, None, r"When thinking is disabled, an %q?assistant%q? message in the final position cannot contain %q?thinking"),
    _p("ant.clear_thinking_needs_thinking", _ANT, None, r"%q?clear_thinking_20251015%q? strategy requires %q?thinking%q? to be\s+enabled"),
    _p("ant.prefill_unsupported", _ANT, None, r"This model does not support assistant message prefill"),
    # --- Gemini (§4c) -----------------------------------------------------------------------------
    _p("gem.fc_position", _GEM, None, r"function call turn comes immediately after a user turn or after a function response turn"),
    _p("gem.fc_position", _GEM, "clause", r"function call turn comes immediately after a user turn"),  # the defining clause quoted alone (google-gemini/gemini-cli#26956)
    _p("gem.fr_position", _GEM, None, r"function response turn comes immediately after a function call turn"),
    _p("gem.fr_count", _GEM, None, r"number of function response parts is equal to the number of function call parts"),
    _p("gem.thought_sig", _GEM, None, r"Function call is missing a %q?thought_signature%q? in functionCall parts"),
    _p("gem.thought_sig", _GEM, "vertex", r"function call [^\n]{1,300}? ?in the \d+\. content block is missing a ?%q?thought_signature"),
    _p("gem.thought_sig_invalid", _GEM, None, r"Corrupted thought signature"),
    _p("gem.thought_sig_invalid", _GEM, "vertex", r"Unable to submit request because Thought signature is not valid"),
    _p("gem.parts_nonempty", _GEM, None, r"contents\.parts must not be empty"),
    _p("gem.parts_nonempty", _GEM, "vertex", r"Unable to submit request because it must include at least one parts field"),  # anomalyco/opencode#17519; agents' fixes for empty parts cite it
    _p("gem.part_oneof", _GEM, None, r"required oneof field %qdata%q must have one initialized field"),
    _p("gem.part_oneof", _GEM, "vertex-empty-text", r"Unable to submit request because it has an empty text parameter"),
    _p("gem.part_oneof_multi", _GEM, None, r"\(oneof\), oneof field %qdata%q is already set"),
    _p("gem.role", _GEM, None, r"Please use a valid role: user, model"),
    _p("gem.fn_name_format", _GEM, None, r"Invalid function name\. Must start with a letter or an underscore"),
    _p("gem.no_trailing_model", _GEM, None, r"Requests ending with a model turn are not supported"),
    _p("gem.fc_fr_mixed", _GEM, None, r"function call turn contains at least one function_call part which can not be mixed with function_response parts"),
    _p("gem.alternation_old", _GEM, "old", r"multiturn requests ends? with a user role or a function response"),
    # --- Mistral (§5c) ----------------------------------------------------------------------------
    _p("mis.order", _MIS, "old", r"Unexpected role RoleEnum\.\w+"),
    _p("mis.user_after_tool", _MIS, None, r"Unexpected role %quser%q after role %qtool%q"),  # the pair the check splits from mis.order
    _p("mis.order", _MIS, None, r"Unexpected role %q\w{1,20}%q after role %q\w{1,20}%q"),
    _p("mis.count", _MIS, None, r"Not the same number of function calls and responses"),
    _p("mis.id_format", _MIS, None, r"Tool call id was (?P<id>[^\n]{0,256}?) but must be a-z, A-Z, 0-9, with a length of 9"),
    _p("mis.last_role", _MIS, None, r"Expected last role User or Tool \(or Assistant with prefix[^)\n]{0,80}\) for serving but got"),
    _p("mis.call_id_missing", _MIS, None, r"Tool call id has to be defined in serving mode"),
    _p("mis.id_missing", _MIS, None, r"Tool call id has to be defined(?!\s*[A-Za-z])"),  # not mis.call_id_missing, cut short
    _p("mis.dup_result", _MIS, None, r"Duplicate tool call id %id in tool results", side="result"),
    _p("mis.unexpected_result", _MIS, None, r"Unexpected tool call id %id in tool results", side="result"),
    _p("mis.dup_call", _MIS, None, r"Duplicate tool call id(?: %id)? in assistant message", side="call"),
    _p("mis.content_xor_calls", _MIS, None, r"Assistant message must have either content or tool_calls, but not both"),
    _p("mis.empty", _MIS, None, r"Conversation must have at least one message"),
    _p("mis.name_format", _MIS, None, r"Function name was [^\n]{0,256}? but must be a-z, A-Z, 0-9, or contain underscores and dashes"),
    _p("mis.first", _MIS, None, r"Conversation must start with a user message or system message"),
    # --- Bedrock Converse (§7a) -------------------------------------------------------------------
    _p("brk.first_user", _BRK, None, r"A conversation must start with a user message"),
    _p("brk.alternate", _BRK, None, r"A conversation must alternate between user and assistant roles"),
    _p("brk.result_missing", _BRK, None, r"Expected toolResult blocks at messages?\.%n\.content for the following Ids:\s*%ids", side="call"),
    _p("brk.result_count", _BRK, None, r"number of toolResult blocks (?:at messages?\.%n\.content )?exceeds the number of toolUse blocks"),
    _p("brk.dup_ids", _BRK, None, r"toolUse blocks at messages?\.%n\.content contain duplicate Ids:\s*%ids", side="call"),
    _p("brk.mixed_turn", _BRK, "tool-use", r"Conversation blocks and tool use blocks cannot be provided in the same turn"),
    _p("brk.mixed_turn", _BRK, None, r"Conversation blocks and tool result blocks cannot be provided in the same turn"),
    _p("brk.toolconfig", _BRK, None, r"toolConfig field must be defined when using (?:the )?toolUse and toolResult content blocks"),
    _p("brk.nonempty", _BRK, None, r"content field at messages?\.%n\.content\.\d+\.toolResult cannot be empty when status value is error"),
    _p("brk.blank_text", _BRK, None, r"text field in the ContentBlock object at messages?\.%n\.content\.\d+ is blank"),
    _p("brk.empty_content", _BRK, None, r"content field in the Message object at messages\.\[?\d+\]? is empty"),
    _p("brk.id_pattern", _BRK, None, r"Value %q(?P<id>[^\n]{0,256}?)%q at %q?messages\.\d+\.member\.content\.\d+\.member\.tool(?:Use|Result)\.toolUseId%q? failed to satisfy constraint"),
    _p("brk.tool_name_pattern", _BRK, None, r"Value %q[^\n]{0,256}?%q at %q?toolConfig\.tools\.\d+\.member\.toolSpec\.name%q? failed to satisfy constraint"),
    _p("brk.tool_use_name", _BRK, None, r"Value %q[^\n]{0,256}?%q at %q?messages\.\d+\.member\.content\.\d+\.member\.toolUse\.name%q? failed to satisfy constraint"),
    _p("brk.prefill_tools", _BRK, None, r"included an %q?assistant%q? message in the final position, which would pre-fill the %q?assistant%q? response\.?\s*When using tools"),
    _p("brk.reasoning_null", _BRK, None, r"Value at %qmessages\.\d+\.member\.content\.\d+\.member\.reasoningContent[\w.]{0,80}%q failed to satisfy constraint: Member must not be null"),
    # --- client-side pre-flight checks (§9) --------------------------------------------------------
    _p("aisdk.missing_results", None, "ai-sdk-client", r"Tool results? (?:is|are) missing for tool calls? %ids", side="call"),
    _p("lg.invalid_chat_history", None, "langgraph-client", r"Found AIMessages with tool_calls that do not have a corresponding ToolMessage", side="call"),
)
# fmt: on

LANGGRAPH_IDS = re.compile(r"['\"]id['\"]\s*:\s*['\"]([^'\"\s]{1,256})['\"]")
"""LangGraph prints the unanswered calls as dict reprs; their ``'id'`` values are the call ids."""

# One row per line: these are tables, and read better unwrapped.
# fmt: off
RULE_INFO: dict[str, tuple[str, str]] = {
    # slug: (meaning, fix)
    "oai.tool_orphan": ("A tool message does not directly follow an assistant message with tool_calls (only sibling tool messages may sit between them), so the server cannot tell which call it answers.", "move_results (put the result right after its call), or synthesize_calls when the call is gone"),
    "oai.call_unanswered": ("An assistant message's tool_calls were not all answered by tool messages before the next non-tool message.", "close_orphans (a synthetic result per unanswered id) or move_results"),
    "oai.tool_id_unknown": ("A tool message's tool_call_id is not among the ids of the assistant tool_calls right before it.", "move_results; map_ids when the ids were rewritten on one side only"),
    "oai.tool_id_missing": ("A tool message has no tool_call_id.", "synthesize_calls (pair the result by position), or drop it with a Change"),
    "oai.dup_tool_result": ("Two tool messages answer the same tool_call_id.", "dedupe_results"),
    "oai.empty_tool_calls": ("An assistant message carries tool_calls: [] (the key must be omitted instead).", "drop_empty_tool_calls"),
    "oai.empty_fn_name": ("A tool call has an empty function name.", "none can: the tool is unknown; drop the call and its result with a Change"),
    "oai.id_len": ("A tool call id is longer than the 40 characters OpenAI accepts (ids from another provider often are).", "map_ids (shorter ids, the same on calls and results)"),
    "oai.null_content": ("A message has content null where the server wants a string (only an assistant message with tool_calls may have null).", "fill_empty_content"),
    "ds.reasoning_required": ("DeepSeek thinking mode: an assistant message with tool calls must send its reasoning_content back.", "fill_reasoning_content (an empty string is accepted)"),
    "ds.reasoning_forbidden": ("DeepSeek R1 (2025-01): reasoning_content must not be sent back in the history.", "drop reasoning_content from replayed assistant messages (drop_foreign_thinking)"),
    "ds.alternate": ("deepseek-reasoner (R1) rejects two successive user or two successive assistant messages.", "merge_turns"),
    "oai.system_role_unsupported": ("o1-mini and o1-preview reject a system message (other models accept it).", "demote_system (send the system text as a user message)"),
    "oai.function_name_missing": ("A legacy function message (role function) has no name.", "send the result as a tool message with its tool_call_id, or add the function's name"),
    "oai.user_tool_calls": ("tool_calls sit on a message that is not an assistant message (Groq rejects it).", "split_tool_calls (calls go out in an assistant message)"),
    "oai.call_type_missing": ("A tool call has no type (Azure wants type: function on every call).", "add type: function to every tool call"),
    "oai.image_outside_user": ("An image_url part is in a message that is not a user message (tool, assistant and system content is text).", "send the image in a user message after the tool messages"),
    "pplx.alternate": ("Perplexity wants, after the leading system messages, user or tool messages alternating with assistant messages (no system message later on).", "demote_system (a later system message goes out as a user message)"),
    "kimi.reasoning": ("Kimi thinking models: an assistant message with tool calls must replay reasoning_content.", "fill_reasoning_content (an empty string is accepted)"),
    "kimi.thinking_effort_conflict": ("Kimi accepts either thinking or reasoning_effort in a request, not both.", "none: a request option, not the history; send only one of the two"),
    "tmpl.alternate": ("The Mistral chat template (vLLM) wants user/assistant alternation after an optional system message.", "merge_turns"),
    "resp.call_unanswered": ("A function_call item (or one in the previous_response_id chain) has no function_call_output with its call_id.", "close_orphans (a synthetic function_call_output)"),
    "resp.output_orphan": ("A function_call_output names a call_id that no function_call in the input or the stored chain has.", "synthesize_calls, or drop the output with a Change"),
    "resp.fc_needs_reasoning": ("An item the model produced after reasoning (a function_call or message) is replayed without that reasoning item.", "replay the reasoning item with its call, or drop_foreign_thinking with the call when it came from another model"),
    "resp.reasoning_dangling": ("A reasoning item is replayed without the item it produced right after it.", "drop the dangling reasoning item (drop_foreign_thinking) or restore the item after it"),
    "resp.dup_item": ("Two input items carry the same id.", "dedupe_results / map_ids (unique item ids)"),
    "resp.item_id_prefix": ("An input item's id does not start with its type's prefix (fc for function_call, rs for reasoning…).", "map_ids (drop foreign item ids: id is optional on input)"),
    "resp.call_id_len": ("A call_id is longer than the 64 characters the Responses API accepts.", "map_ids"),
    "resp.adjacency": ("DeepSeek's Responses API wants each function_call_output right after its function_call.", "move_results"),
    "resp.reasoning_summary": ("A replayed reasoning item lacks the summary field this Responses implementation requires.", "drop_foreign_thinking, or send summary: []"),
    "resp.role_tool": ("A Chat-style role tool message was sent in Responses input, which takes function_call_output items for results.", "send each result as a function_call_output item with its call_id"),
    "resp.item_not_persisted": ("With store: false the server keeps nothing, so an input item sent by its server id was looked up and not found.", "drop_item_ids (ids are optional on input), or set store: true"),
    "resp.encrypted_foreign": ("A reasoning (or compaction) item's encrypted_content was made by another provider, organization or model family, which this one cannot decrypt: typically after a switch mid-conversation.", "drop_foreign_thinking (leave reasoning made elsewhere out); toolhist switch shows which items another provider made"),
    "ant.result_missing": ("A tool_use has no tool_result at the start of the next message, or text comes before the tool_result blocks there (ant.result_first sends the same text).", "close_orphans or move_results; results_first when the results are there but after text"),
    "ant.result_orphan": ("A tool_result names a tool_use_id that the previous assistant message does not have.", "move_results, or synthesize_calls when the call is gone"),
    "ant.server_result_orphan": ("A server tool result block has no server_tool_use block before it.", "drop the server result with its call, or keep them together"),
    "ant.dup_tool_result": ("Two tool_result blocks answer the same tool_use id.", "dedupe_results"),
    "ant.dup_tool_use_id": ("Two tool_use blocks in the request share an id.", "map_ids (make ids unique, results follow)"),
    "ant.id_pattern": ("A tool_use id has characters outside ^[a-zA-Z0-9_-]+$ (Kimi functions.x:0, MCP server.tool and piped ids fail).", "map_ids"),
    "ant.tool_name_pattern": ("A declared tool name has characters outside ^[a-zA-Z0-9_-]{1,128}$ (1-64 before mid-2025).", "none in the history: rename the tool in the declarations and in every call"),
    "ant.tools_required": ("The history has tool_use or tool_result blocks but the request declares no tools.", "add_tool_declarations"),
    "ant.empty_content": ("A message other than a final assistant message has empty content.", "fill_empty_content"),
    "ant.empty_text": ("A text block is empty, or a message holds only whitespace text.", "fill_empty_content"),
    "ant.first_user": ("The first message is not a user message (2024 rule; current enforcement unverified).", "prepend a user turn (merge_turns)"),
    "ant.alternate": ("Two assistant (or user) turns in a row (obsolete 2024 rule: the API now merges them).", "merge_turns"),
    "ant.thinking_first": ("With thinking enabled, the final assistant message (the last tool_use/tool_result round) must start with its thinking block.", "replay the thinking block, or disable thinking; drop_foreign_thinking cannot restore a signature"),
    "ant.thinking_not_first": ("An assistant message holds thinking blocks after another block; with thinking on, they must come first.", "put the thinking blocks back at the start of the message, as the model returned them"),
    "ant.thinking_immutable": ("A thinking block in the latest assistant message differs from what the model returned.", "replay the thinking block byte for byte"),
    "ant.thinking_signature": ("A thinking block's signature is not valid here (another model, provider or conversation made it).", "drop_foreign_thinking"),
    "ant.thinking_disabled": ("The final assistant message has thinking blocks while the request disables thinking.", "drop_foreign_thinking, or enable thinking"),
    "ant.clear_thinking_needs_thinking": ("The request asks the API to clear thinking blocks (context_management clear_thinking_20251015) while thinking is off.", "enable thinking, or remove the clear_thinking_20251015 edit"),
    "ant.prefill_unsupported": ("Claude 4.6 and later reject a request that ends on an assistant message (prefill).", "append_user_turn (end the request with a user turn)"),
    "gem.fc_position": ("A model turn with functionCall parts does not come right after a user turn or a function-response turn.", "merge_turns / move_results"),
    "gem.fr_position": ("A function-response turn does not come right after a function-call turn.", "move_results, or synthesize_calls when the call is gone"),
    "gem.fr_count": ("The number of functionResponse parts differs from the number of functionCall parts of the call turn.", "close_orphans and dedupe_results, all responses in one turn"),
    "gem.thought_sig": ("Gemini 3: a functionCall part is replayed without its thoughtSignature.", "replay the signature; for foreign calls the documented bypass signature (drop_foreign_thinking)"),
    "gem.thought_sig_invalid": ("A thoughtSignature came from another model, route or key.", "drop_foreign_thinking"),
    "gem.parts_nonempty": ("A content has an empty parts list.", "fill_empty_content"),
    "gem.part_oneof": ("A part sets no data field (often a blank text part next to a functionResponse).", "fill_empty_content (drop the empty part)"),
    "gem.part_oneof_multi": ("A part sets more than one data field (text and inlineData in one part, say).", "split_parts (one part per data field)"),
    "gem.role": ("A content's role is neither user nor model (tool or function results must be sent with role user).", "map_roles"),
    "gem.fn_name_format": ("A declared function name breaks Gemini's rule: start with a letter or _, then letters, digits, _ . : -, at most 64 characters.", "sanitize_tool_names (rename in declarations and calls together)"),
    "gem.no_trailing_model": ("Newer Gemini models reject a request whose last turn is a model turn.", "append a user turn or drop the trailing model turn"),
    "gem.fc_fr_mixed": ("A content mixes functionCall and functionResponse parts: calls and their responses belong in separate turns.", "split_tool_calls (calls in a model turn, responses in the next user turn)"),
    "gem.alternation_old": ("2023 Gemini: a request must end with a user turn or a function response.", "append a user turn"),
    "mis.order": ("Mistral allows only certain role successions (no tool right after user, no system after assistant or tool; a user message after a tool message is mis.user_after_tool).", "merge_turns (insert an assistant bridge) or move_results"),
    "mis.user_after_tool": ("A user message comes right after a tool message: Mistral rejected it in 2025 (an assistant message must come between them); recorded 2026 traffic shows the hosted API accepting it.", "merge_turns, or an assistant bridge turn between the tool results and the user message"),
    "mis.count": ("The number of tool messages differs from the number of tool_calls before them.", "close_orphans and dedupe_results"),
    "mis.id_format": ("Mistral tool call ids must be exactly 9 characters of a-z, A-Z, 0-9.", "map_ids"),
    "mis.last_role": ("In serving mode the last message must be user or tool (or assistant with prefix set).", "append a user turn or drop the trailing assistant message"),
    "mis.id_missing": ("A tool message has no tool_call_id.", "synthesize_calls / map_ids"),
    "mis.dup_result": ("Two tool results answer the same tool call id.", "dedupe_results"),
    "mis.unexpected_result": ("A tool result names an id the assistant message before it did not call.", "move_results"),
    "mis.dup_call": ("An assistant message has two tool calls with the same id.", "map_ids"),
    "mis.content_xor_calls": ("Older Mistral validators: an assistant message may have content or tool_calls, not both.", "split_tool_calls"),
    "mis.empty": ("The request has no messages.", "none can: there is no history to send"),
    "mis.call_id_missing": ("A tool call has no id (Mistral needs one in serving mode).", "map_ids (give the call an id)"),
    "mis.name_format": ("A function name (in a call, a tool message or a declaration) breaks ^[a-zA-Z0-9_-]{1,64}$.", "none can without renaming the tool in the declarations, the calls and the results together"),
    "mis.first": ("The conversation must start with a user or system message.", "prepend a user turn"),
    "brk.first_user": ("A Bedrock conversation must start with a user message.", "prepend a user turn"),
    "brk.alternate": ("Bedrock wants strict user/assistant alternation (a tool-result turn and a user text turn must be merged).", "merge_turns"),
    "brk.result_missing": ("A toolUse has no toolResult in the next user turn.", "close_orphans or move_results"),
    "brk.result_count": ("A turn has more toolResult blocks than the previous turn had toolUse blocks.", "dedupe_results; parallel results in one message"),
    "brk.dup_ids": ("Two toolUse blocks in one message share an id.", "map_ids"),
    "brk.mixed_turn": ("This model rejects text blocks and tool blocks in the same turn.", "split_tool_calls"),
    "brk.toolconfig": ("The history has toolUse/toolResult blocks but the request has no toolConfig.", "add_tool_declarations"),
    "brk.nonempty": ("A toolResult with status error has empty content.", "fill_empty_content"),
    "brk.blank_text": ("A text block is blank.", "fill_empty_content"),
    "brk.empty_content": ("A message has an empty content list.", "fill_empty_content"),
    "brk.id_pattern": ("A toolUseId is not 1-64 characters of [a-zA-Z0-9_.:-] (the current AWS pattern; an older one also refused . and :, so Kimi functions.x:0 ids failed).", "map_ids"),
    "brk.tool_name_pattern": ("A declared toolSpec name is not 1-64 characters of [a-zA-Z0-9_-].", "none in the history: rename the tool in the declarations and in every call"),
    "brk.tool_use_name": ("A toolUse block in the history names a tool outside 1-64 characters of [a-zA-Z0-9_-].", "sanitize_tool_names (rename in declarations and calls together)"),
    "brk.prefill_tools": ("Claude on Bedrock with tools configured rejects a request that ends on an assistant message.", "append_user_turn (end the request with a user turn)"),
    "brk.reasoning_null": ("A reasoningContent block has no text.", "drop_foreign_thinking"),
    "aisdk.missing_results": ("The Vercel AI SDK found tool calls without results before the next user or system message (checked client-side, before any provider sees the request).", "close_orphans, or convertToModelMessages(..., { ignoreIncompleteToolCalls: true })"),
    "lg.invalid_chat_history": ("LangGraph found AIMessages whose tool_calls have no matching ToolMessage (checked client-side).", "close_orphans, or update_state with ToolMessages for the open calls"),
}
# fmt: on
"""What each rule means in plain words, and the curation pass that repairs it."""
