"""explain(): every catalogued provider text (research/providers.md §1c-§7a, §10), bare and inside every wrapper."""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import pytest

from toolhist import load
from toolhist.explain import MAX_CHARS, explain
from toolhist.explain_patterns import PATTERNS, RULE_INFO
from toolhist.providers import provider_for


class Case(NamedTuple):
    raw: str
    provider: str | None
    rule: str
    variant: str | None = None
    call_ids: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()


ANT_THINKING_FIRST = "messages.5.content.0.type: Expected `thinking` or `redacted_thinking`, but found `tool_use`. When `thinking` is enabled, a final `assistant` message must start with a thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable `thinking`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
LANGGRAPH = (
    "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. Here are the first few of those tool calls: "
    "[{'name': 'read_file', 'args': {'path': 'src/app.py'}, 'id': 'call_kQ2mV8rT1xYzA9bC3dE4fG5h', 'type': 'tool_call'}].\n\n"
    "Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage "
    "(result of a tool invocation to return to the LLM) - this is required by most LLM providers.\n"
    "For troubleshooting, visit: https://python.langchain.com/docs/troubleshooting/errors/INVALID_CHAT_HISTORY"
)

# fmt: off
CASES: list[Case] = [
    # OpenAI Chat and compatible (§1c, §10)
    Case("Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", "openai-chat", "oai.tool_orphan", "preceeding-typo"),
    Case("Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'.", "openai-chat", "oai.tool_orphan"),
    Case("Messages with role 'tool' must be a response to a preceding message with 'tool_calls'", "openai-chat", "oai.tool_orphan", "deepseek"),
    Case('<400> InternalError.Algo.InvalidParameter: messages with role "tool" must be a response to a preceeding message with "tool_calls".', "openai-chat", "oai.tool_orphan", "qwen"),
    Case('Invalid parameter: messages with role "tool" must follow a preceding message with "tool_calls".', "openai-chat", "oai.tool_orphan", "must-follow"),
    Case("400 invalid params, tool call result does not follow tool call (2013)", "openai-chat", "oai.tool_orphan", "minimax"),
    Case("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_7fQm2XkP9aLr4TnB8vYc1sDe", "openai-chat", "oai.call_unanswered", None, ("call_7fQm2XkP9aLr4TnB8vYc1sDe",)),
    Case("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_Ab12Cd34Ef56Gh78Ij90Kl12, call_Mn34Op56Qr78St90Uv12Wx34", "openai-chat", "oai.call_unanswered", None, ("call_Ab12Cd34Ef56Gh78Ij90Kl12", "call_Mn34Op56Qr78St90Uv12Wx34")),
    Case("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)", "openai-chat", "oai.call_unanswered", "insufficient"),
    Case('<400> InternalError.Algo.InvalidParameter: An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". The following tool_call_ids did not have response messages: message[532].role', "openai-chat", "oai.call_unanswered", "qwen", (), ("messages[532]",)),
    Case("an assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: Agent:0", "kimi", "oai.call_unanswered", "kimi", ("Agent:0",)),
    Case("Invalid parameter: 'tool_call_id' of 'call_Q8mZ3vX1nB7kL2pR5tY9wC4e' not found in 'tool_calls' of previous message.", "openai-chat", "oai.tool_id_unknown", None, ("call_Q8mZ3vX1nB7kL2pR5tY9wC4e",)),
    Case("invalid params, tool result's tool id(call_function_g094w5htkglv_1) not found (2013)", "openai-chat", "oai.tool_id_unknown", "minimax", ("call_function_g094w5htkglv_1",)),
    Case("Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.", "openai-chat", "oai.tool_id_missing"),
    Case("'messages.3' : for 'role:tool' the following must be satisfied[('messages.3.tool_call_id' : property 'tool_call_id' is missing)]", "openai-chat", "oai.tool_id_missing", "groq", (), ("messages[3]",)),
    Case("Invalid parameter: Duplicate value for 'tool_call_id' of 'call_gmd4tanjXcwOxfPawOnDmq6R', in messages[7] and messages[8].", "openai-chat", "oai.dup_tool_result", None, ("call_gmd4tanjXcwOxfPawOnDmq6R",), ("messages[7]", "messages[8]")),
    Case("Invalid 'messages[2].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.", "openai-chat", "oai.empty_tool_calls", None, (), ("messages[2]",)),
    Case("Empty tool_calls is not supported in message", "openai-chat", "oai.empty_tool_calls", "qwen"),
    Case("Invalid 'messages[69].tool_calls[0].function.name': empty string. Expected a string with minimum length 1, but got an empty string instead.", "openai-chat", "oai.empty_fn_name", None, (), ("messages[69].tool_calls[0]",)),
    Case("Invalid 'messages[36].tool_calls[0].id': string too long. Expected a string with maximum length 40, but got a string with length 51 instead.", "openai-chat", "oai.id_len", None, (), ("messages[36].tool_calls[0]",)),
    Case("Invalid value for 'content': expected a string, got null.", "openai-chat", "oai.null_content"),
    Case("Invalid 'content': 'content' field must be a string or an array of objects.", "openai-chat", "oai.null_content", "lm-studio"),
    Case("Expected 'content' to be a string or an array", "openai-chat", "oai.null_content", "llama.cpp"),
    # Kimi: OpenAI's texts with the first letter in lower case (kimi-cli#2405; toolhist.providers.kimi)
    Case("invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.", "kimi", "oai.tool_orphan", "kimi"),
    Case("invalid parameter: 'tool_call_id' of 'functions.bash:3' not found in 'tool_calls' of previous message.", "kimi", "oai.tool_id_unknown", "kimi", ("functions.bash:3",)),
    Case("missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.", "kimi", "oai.tool_id_missing", "kimi"),
    Case("invalid parameter: Duplicate value for 'tool_call_id' of 'functions.read_file:0', in messages[3] and messages[4].", "kimi", "oai.dup_tool_result", "kimi", ("functions.read_file:0",), ("messages[3]", "messages[4]")),
    Case("invalid 'messages[5].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.", "kimi", "oai.empty_tool_calls", "kimi", (), ("messages[5]",)),
    Case("invalid 'messages[7].tool_calls[1].function.name': empty string. Expected a string with minimum length 1, but got an empty string instead.", "kimi", "oai.empty_fn_name", "kimi", (), ("messages[7].tool_calls[1]",)),
    Case("invalid value for 'content': expected a string, got null.", "kimi", "oai.null_content", "kimi"),
    Case("After the optional system message, conversation roles must alternate user/assistant/user/assistant/...", "mistral", "tmpl.alternate", "vllm-template"),
    # DeepSeek and Kimi (§6, §7b)
    Case("Missing `reasoning_content` field in the assistant message at message index 3. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls", "openai-chat", "ds.reasoning_required", "deepseek", (), ("messages[3]",)),
    Case("The `reasoning_content` in the thinking mode must be passed back to the API.", "openai-chat", "ds.reasoning_required", "deepseek"),
    Case("Missing reasoning_content field in the assistant message", "openai-chat", "ds.reasoning_required", "deepseek"),
    Case("The reasoning_content is an intermediate result for display purposes only and will not be included in the context for inference. Please remove the reasoning_content from your message to reduce network traffic.", "openai-chat", "ds.reasoning_forbidden", "deepseek"),
    Case("deepseek-reasoner does not support successive user or assistant messages (messages[20] and messages[21] in your input)", "openai-chat", "ds.alternate", "deepseek", (), ("messages[20]", "messages[21]")),
    Case("thinking is enabled but reasoning_content is missing in assistant tool call message at index 4", "kimi", "kimi.reasoning", None, (), ("messages[4]",)),
    Case("thinking is enabled but reasoning_content is missing in assistant tool call message", "kimi", "kimi.reasoning"),
    Case("cannot specify both 'thinking' and 'reasoning_effort'", "kimi", "kimi.thinking_effort_conflict"),
    # OpenAI Responses (§2c)
    Case("No tool output found for function call call_xIYf9aMh3kHqC2wLuVd7nRtE.", "openai-responses", "resp.call_unanswered", None, ("call_xIYf9aMh3kHqC2wLuVd7nRtE",)),
    # Codex's freeform apply_patch (Soju06/codex-lb#1168)
    Case("No tool output found for custom tool call call_sCfJ2kD8pQ4mN7vL1xR9tY3w.", "openai-responses", "resp.call_unanswered", "custom", ("call_sCfJ2kD8pQ4mN7vL1xR9tY3w",)),
    Case("No tool call found for custom tool call output with call_id call_sCfJ2kD8pQ4mN7vL1xR9tY3w.", "openai-responses", "resp.output_orphan", "custom", ("call_sCfJ2kD8pQ4mN7vL1xR9tY3w",)),
    Case("No tool call found for function call output with call_id call_5JpT8sWq1nZk3Lm7Vx9Rb2Cd.", "openai-responses", "resp.output_orphan", None, ("call_5JpT8sWq1nZk3Lm7Vx9Rb2Cd",)),
    Case("Item 'fc_68a2f1c93e8c8193b5d7a0e4f6c21b7d' of type 'function_call' was provided without its required 'reasoning' item: 'rs_68a2f1c7a1f48193a3c9e2d5b7f04e1a'.", "openai-responses", "resp.fc_needs_reasoning", None, ("fc_68a2f1c93e8c8193b5d7a0e4f6c21b7d", "rs_68a2f1c7a1f48193a3c9e2d5b7f04e1a")),
    Case("Item 'msg_68b0d4e2c5a08190a1b2c3d4e5f60718' of type 'message' was provided without its required 'reasoning' item: 'rs_68b0d4e1f9c88190b7a6c5d4e3f21009'.", "openai-responses", "resp.fc_needs_reasoning", "message", ("msg_68b0d4e2c5a08190a1b2c3d4e5f60718",)),
    Case("Item 'msg_...' was provided without its required 'reasoning' item: 'rs_...'.", "openai-responses", "resp.fc_needs_reasoning", "clause"),
    Case("Item 'rs_6890a4b1c2d38195a7e1f0b2c3d4e5f6' of type 'reasoning' was provided without its required following item.", "openai-responses", "resp.reasoning_dangling", None, ("rs_6890a4b1c2d38195a7e1f0b2c3d4e5f6",)),
    Case("Duplicate item found with id fc_689e3b1f7c4c8193a0b1c2d3e4f5a6b7. Remove duplicate items from your input and try again.", "openai-responses", "resp.dup_item", None, ("fc_689e3b1f7c4c8193a0b1c2d3e4f5a6b7",)),
    Case("Duplicate 'call_id': undefined", "openai-responses", "resp.dup_item", "compat-call-id"),
    Case("Invalid 'input[3].id': '__fake_id__'. Expected an ID that begins with 'fc'.", "openai-responses", "resp.item_id_prefix", None, ("__fake_id__",), ("input[3]",)),
    Case("Invalid 'input[66].id': 'item_df7e40c3f04fc8ade5c3800e'. Expected an ID that begins with 'rs'.", "openai-responses", "resp.item_id_prefix", None, ("item_df7e40c3f04fc8ade5c3800e",), ("input[66]",)),
    Case("Invalid 'input[95].call_id': string too long. Expected a string with maximum length 64, but got a string with length 116 instead.", "openai-responses", "resp.call_id_len", None, (), ("input[95]",)),
    Case("No tool output found for tool call call_00_kR4tN8wQ2mX6vB1zL9pJ3sH7", "openai-responses", "resp.adjacency", "deepseek", ("call_00_kR4tN8wQ2mX6vB1zL9pJ3sH7",)),
    Case("Input[4] missing required field `summary`", "openai-responses", "resp.reasoning_summary", None, (), ("input[4]",)),
    # Anthropic (§3c)
    Case("messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01D7FLrfh4GYq7yT1ULFeyMV. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", "anthropic", "ant.result_missing", None, ("toolu_01D7FLrfh4GYq7yT1ULFeyMV",), ("messages.3",)),
    Case("messages.12: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_vrtx_01AbCdEfGhIjKlMnOpQrStUv, toolu_vrtx_01WxYzAbCdEfGhIjKlMnOpQr. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", "anthropic", "ant.result_missing", None, ("toolu_vrtx_01AbCdEfGhIjKlMnOpQrStUv", "toolu_vrtx_01WxYzAbCdEfGhIjKlMnOpQr"), ("messages.12",)),
    Case("messages.4: Did not find 1 `tool_result` block(s) at the beginning of this message. Messages following `tool_use` blocks must begin with a matching number of `tool_result` blocks.", "anthropic", "ant.result_missing", "old", (), ("messages.4",)),
    Case("messages.6.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01XyZ9aBcDeFgHiJkLmNoPqR. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", "anthropic", "ant.result_orphan", None, ("toolu_01XyZ9aBcDeFgHiJkLmNoPqR",), ("messages.6.content.0",)),
    Case("messages.8.content.1: unexpected `tool_use_id` found in `advisor_tool_result` blocks: srvtoolu_01Hk7MnPqRsTuVwXyZaBcDeF. Each `advisor_tool_result` block must have a corresponding `server_tool_use` block before it.", "anthropic", "ant.server_result_orphan", None, ("srvtoolu_01Hk7MnPqRsTuVwXyZaBcDeF",), ("messages.8.content.1",)),
    Case("messages.4.content.1: each tool_use must have a single result. Found multiple `tool_result` blocks with id: toolu_01Kq7RmV3xWbN9cP2sLdE5fH", "anthropic", "ant.dup_tool_result", None, ("toolu_01Kq7RmV3xWbN9cP2sLdE5fH",), ("messages.4.content.1",)),
    Case("messages.1.content.2: `tool_use` ids must be unique", "anthropic", "ant.dup_tool_use_id", None, (), ("messages.1.content.2",)),
    Case("messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'", "anthropic", "ant.id_pattern", None, (), ("messages.1.content.1",)),
    Case("messages.3.content.0.server_tool_use.id: String should match pattern '^srvtoolu_[a-zA-Z0-9_]+$'", "anthropic", "ant.id_pattern", "server-tool", (), ("messages.3.content.0",)),
    Case("tools.12.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,64}$'", "anthropic", "ant.tool_name_pattern", None, (), ("tools.12",)),
    Case("tools.0.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'", "anthropic", "ant.tool_name_pattern", None, (), ("tools.0",)),
    Case("messages.3.content.0: If an assistant message contains any thinking blocks, the first block must be 'thinking' or 'redacted_thinking'. Found 'text'.", "anthropic", "ant.thinking_not_first", None, (), ("messages.3.content.0",)),
    Case("Requests which include `tool_use` or `tool_result` blocks must define tools.", "anthropic", "ant.tools_required"),
    Case("messages.5: all messages must have non-empty content except for the optional final assistant message", "anthropic", "ant.empty_content", None, (), ("messages.5",)),
    Case("messages: text content blocks must be non-empty", "anthropic", "ant.empty_text"),
    Case("messages: text content blocks must contain non-whitespace text", "anthropic", "ant.empty_text", "whitespace"),
    Case('messages: first message must use the "user" role', "anthropic", "ant.first_user"),
    Case('messages: roles must alternate between "user" and "assistant", but found multiple "assistant" roles in a row', "anthropic", "ant.alternate", "old"),
    Case(ANT_THINKING_FIRST, "anthropic", "ant.thinking_first", None, (), ("messages.5.content.0",)),
    Case(ANT_THINKING_FIRST.replace("found `tool_use`", "found `text`").replace("docs.claude.com", "docs.anthropic.com"), "anthropic", "ant.thinking_first", "found-text", (), ("messages.5.content.0",)),
    Case("messages.7.content.0: `thinking` or `redacted_thinking` blocks in the latest assistant message cannot be modified. These blocks must remain as they were in the original response.", "anthropic", "ant.thinking_immutable", None, (), ("messages.7.content.0",)),
    Case("messages.3.content.0.thinking.signature: Field required", "anthropic", "ant.thinking_signature", "missing", (), ("messages.3.content.0",)),
    Case("messages.1.content.0: Invalid `signature` in `thinking` block", "anthropic", "ant.thinking_signature", None, (), ("messages.1.content.0",)),
    Case('messages.1.content.0: Invalid `signature` in `thinking` block. The block is bound to a different conversation. Remove the block, or set `thinking.block_binding.prefix_mismatch_behavior` to "drop_block". That setting requires the `thinking-binding-controls-2026-08-01` value in the `anthropic-beta` header. The `system` prompt differs from the one this block was created with.', "anthropic", "ant.thinking_signature", "binding", (), ("messages.1.content.0",)),
    Case("messages.9.content.0: When thinking is disabled, an `assistant` message in the final position cannot contain `thinking`. To use thinking blocks, enable `thinking` in your request.", "anthropic", "ant.thinking_disabled", None, (), ("messages.9.content.0",)),
    # Gemini (§4c)
    Case("Please ensure that function call turn comes immediately after a user turn or after a function response turn.", "gemini", "gem.fc_position"),
    Case("function call turn comes immediately after a user turn", "gemini", "gem.fc_position", "clause"),
    Case("Please ensure that function response turn comes immediately after a function call turn.", "gemini", "gem.fr_position"),
    Case("Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.", "gemini", "gem.fr_count"),
    Case("Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call `default_api:read_file` , position 2. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.", "gemini", "gem.thought_sig"),
    Case("Unable to submit request because function call `run_shell_command` in the 5. content block is missing a `thought_signature`. Learn more: https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures", "gemini", "gem.thought_sig", "vertex"),
    Case("Corrupted thought signature.", "gemini", "gem.thought_sig_invalid"),
    Case("Unable to submit request because Thought signature is not valid.. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini", "gemini", "gem.thought_sig_invalid", "vertex"),
    Case("* GenerateContentRequest.contents[3].parts: contents.parts must not be empty.", "gemini", "gem.parts_nonempty", None, (), ("contents[3]",)),
    Case("Unable to submit request because it must include at least one parts field, which describes the prompt input. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini", "gemini", "gem.parts_nonempty", "vertex"),
    Case("* GenerateContentRequest.contents[4].parts[1].data: required oneof field 'data' must have one initialized field", "gemini", "gem.part_oneof", None, (), ("contents[4].parts[1]",)),
    Case("Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again. Learn more: https://cloud.google.com/vertex-ai/generative-ai/docs/model-reference/gemini", "gemini", "gem.part_oneof", "vertex-empty-text"),
    Case("Invalid value at 'contents[0].parts[1]' (oneof), oneof field 'data' is already set. Cannot set 'inlineData'", "gemini", "gem.part_oneof_multi", None, (), ("contents[0].parts[1]",)),
    Case("Please use a valid role: user, model.", "gemini", "gem.role"),
    Case("* GenerateContentRequest.tools[0].function_declarations[4].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 64.", "gemini", "gem.fn_name_format", None, (), ("tools[0].function_declarations[4]",)),
    Case("Requests ending with a model turn are not supported.", "gemini", "gem.no_trailing_model"),
    Case("Please ensure that multiturn requests ends with a user role or a function response.", "gemini", "gem.alternation_old", "old"),
    # Mistral (§5c)
    Case("Unexpected role 'user' after role 'tool'", "mistral", "mis.user_after_tool"),
    Case("Unexpected role 'tool' after role 'user'", "mistral", "mis.order"),
    Case("Unexpected role RoleEnum.tool", "mistral", "mis.order", "old"),
    Case("Not the same number of function calls and responses", "mistral", "mis.count"),
    Case("Tool call id was call_7fQm2XkP9aLr4TnB8vYc1sDe but must be a-z, A-Z, 0-9, with a length of 9.", "mistral", "mis.id_format", None, ("call_7fQm2XkP9aLr4TnB8vYc1sDe",)),
    Case("Expected last role User or Tool (or Assistant with prefix True) for serving but got assistant", "mistral", "mis.last_role"),
    Case("Expected last role User or Tool (or Assistant with prefix or continue_final_message set to True) for serving but got assistant", "mistral", "mis.last_role"),
    Case("Tool call id has to be defined.", "mistral", "mis.id_missing"),
    Case("Tool call id has to be defined in serving mode.", "mistral", "mis.call_id_missing"),
    Case("Conversation must have at least one message", "mistral", "mis.empty"),
    Case("Function name was github.create_issue but must be a-z, A-Z, 0-9, or contain underscores and dashes, with a maximum length of 64.", "mistral", "mis.name_format"),
    Case("Duplicate tool call id D681PevKs in tool results", "mistral", "mis.dup_result", None, ("D681PevKs",)),
    Case("Unexpected tool call id a1B2c3D4e in tool results", "mistral", "mis.unexpected_result", None, ("a1B2c3D4e",)),
    Case("Duplicate tool call id Zx9Yw8Vu7 in assistant message", "mistral", "mis.dup_call", None, ("Zx9Yw8Vu7",)),
    Case("Duplicate tool call id in assistant message", "mistral", "mis.dup_call"),
    Case("Assistant message must have either content or tool_calls, but not both.", "mistral", "mis.content_xor_calls"),
    Case("Conversation must start with a user message or system message", "mistral", "mis.first"),
    # Bedrock Converse (§7a)
    Case("A conversation must start with a user message. Try again with a conversation that starts with a user message.", "bedrock", "brk.first_user"),
    Case("A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.", "bedrock", "brk.alternate"),
    Case("Expected toolResult blocks at messages.2.content for the following Ids: tooluse_kZJMlvQmRJ6eAyJE5GIl7Q, tooluse_Xy7bN2pQ4rS6tU8vW0zA1c", "bedrock", "brk.result_missing", None, ("tooluse_kZJMlvQmRJ6eAyJE5GIl7Q", "tooluse_Xy7bN2pQ4rS6tU8vW0zA1c"), ("messages.2",)),
    Case("The number of toolResult blocks at messages.4.content exceeds the number of toolUse blocks of previous turn.", "bedrock", "brk.result_count", None, (), ("messages.4",)),
    Case("The toolUse blocks at messages.1.content contain duplicate Ids: tooluse_3mYq8RkTQeGv0bLx2nPz9w", "bedrock", "brk.dup_ids", None, ("tooluse_3mYq8RkTQeGv0bLx2nPz9w",), ("messages.1",)),
    Case("messages.2.content: Conversation blocks and tool result blocks cannot be provided in the same turn.", "bedrock", "brk.mixed_turn", None, (), ("messages.2",)),
    Case("messages.1.content: Conversation blocks and tool use blocks cannot be provided in the same turn.", "bedrock", "brk.mixed_turn", "tool-use", (), ("messages.1",)),
    Case("The toolConfig field must be defined when using the toolUse and toolResult content blocks.", "bedrock", "brk.toolconfig"),
    Case("toolConfig field must be defined when using the toolUse and toolResult content blocks.", "bedrock", "brk.toolconfig"),
    Case("The toolConfig field must be defined when using toolUse and toolResult content blocks.", "bedrock", "brk.toolconfig"),
    Case("The content field at messages.6.content.0.toolResult cannot be empty when status value is error.", "bedrock", "brk.nonempty", None, (), ("messages.6.content.0",)),
    Case("The text field in the ContentBlock object at messages.3.content.0 is blank. Add text to the text field, and try again.", "bedrock", "brk.blank_text", None, (), ("messages.3.content.0",)),
    Case("The content field in the Message object at messages.[3] is empty. Add a ContentBlock object to the content field and try again.", "bedrock", "brk.empty_content", None, (), ("messages.3",)),
    Case("Value 'functions.read_file:0' at 'messages.1.member.content.0.member.toolUse.toolUseId' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+", "bedrock", "brk.id_pattern", None, ("functions.read_file:0",), ("messages.1.content.0",)),
    Case("Value 'call_kQ2mV8rT1xYzA9bC3dE4fG5hJ6kL7mN8pQ9rS0tU1vW2xY3zA4bC5dE6fG7hI8' at 'messages.2.member.content.0.member.toolResult.toolUseId' failed to satisfy constraint: Member must have length less than or equal to 64", "bedrock", "brk.id_pattern", None, ("call_kQ2mV8rT1xYzA9bC3dE4fG5hJ6kL7mN8pQ9rS0tU1vW2xY3zA4bC5dE6fG7hI8",), ("messages.2.content.0",)),
    Case("Value 'mcp.github.create_issue' at 'toolConfig.tools.3.member.toolSpec.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+", "bedrock", "brk.tool_name_pattern", None, (), ("tools.3",)),
    Case("Value at 'messages.2.member.content.1.member.reasoningContent.reasoningText.text' failed to satisfy constraint: Member must not be null", "bedrock", "brk.reasoning_null", None, (), ("messages.2.content.1",)),
    # Calibration (issue 16): real texts of the rules added then, from the threads each rule's source cites
    Case("Unsupported value: 'messages[0].role' does not support 'system' with this model.", "openai-chat", "oai.system_role_unsupported", None, (), ("messages[0]",)),
    Case("Missing parameter 'name': messages with role 'function' must have a 'name'.", "openai-chat", "oai.function_name_missing"),
    Case("'messages.1' : for 'role:user' the following must be satisfied[('messages.1' : property 'tool_calls' is unsupported, did you mean 'tool_call_id'?)]", "openai-chat", "oai.user_tool_calls", "groq", (), ("messages[1]",)),
    Case("Missing required parameter: 'messages[2].tool_calls[0].type'.", "openai-chat", "oai.call_type_missing", "azure", (), ("messages[2].tool_calls[0]",)),
    Case("Invalid 'messages[2]'. Image URLs are only allowed for messages with role 'user', but this message with role 'tool' contains an image URL.", "openai-chat", "oai.image_outside_user", None, (), ("messages[2]",)),
    Case("After the (optional) system message(s), user or tool message(s) should alternate with assistant message(s).", "openai-chat", "pplx.alternate", "perplexity"),
    Case("Invalid value: 'tool'. Supported values are: 'assistant', 'system', 'developer', and 'user'.", "openai-responses", "resp.role_tool"),
    Case("Item with id 'rs_04962823ecde01b901698e138042688193a657e07614b238c3' not found. Items are not persisted when `store` is set to false. Try again with `store` set to true, or remove this item from your input.", "openai-responses", "resp.item_not_persisted", None, ("rs_04962823ecde01b901698e138042688193a657e07614b238c3",)),
    # openclaw/openclaw#70654 (gpt-5.4 after claude-opus-4.6, 2026-04): the item it names is the culprit
    Case("400 The encrypted content for item rs_0a1b2c3d4e5f could not be verified. Reason: Encrypted content item_id did not match the target item id.", "openai-responses", "resp.encrypted_foreign", None, ("rs_0a1b2c3d4e5f",)),
    Case("This model does not support assistant message prefill. The conversation must end with a user message.", "anthropic", "ant.prefill_unsupported"),
    # anthropics/claude-code#11229 (Claude Code 2.0.36, 2025-11); CLIProxyAPI quotes the 2026 wording
    Case("`clear_thinking_20251015` strategy requires `thinking` to be enabled", "anthropic", "ant.clear_thinking_needs_thinking"),
    Case("`clear_thinking_20251015` strategy requires `thinking` to be enabled or adaptive", "anthropic", "ant.clear_thinking_needs_thinking"),
    Case("Please ensure that function call turn contains at least one function_call part which can not be mixed with function_response parts.", "gemini", "gem.fc_fr_mixed"),
    Case("Value 'fs.read' at 'messages.1.member.content.0.member.toolUse.name' failed to satisfy constraint: Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+", "bedrock", "brk.tool_use_name", None, (), ("messages.1.content.0",)),
    Case("Your API request included an `assistant` message in the final position, which would pre-fill the `assistant` response. When using tools, pre-filling the `assistant` response is not supported.", "bedrock", "brk.prefill_tools"),
    # client-side checks (§9, §10)
    Case("Tool result is missing for tool call call_3nR8sQ2vX7kL1mP4tY9wB6cD.", None, "aisdk.missing_results", "ai-sdk-client", ("call_3nR8sQ2vX7kL1mP4tY9wB6cD",)),
    Case("Tool results are missing for tool calls call_3nR8sQ2vX7kL1mP4tY9wB6cD, call_9hJ2kL5mN8pQ1rS4tU7vW0xY.", None, "aisdk.missing_results", "ai-sdk-client", ("call_3nR8sQ2vX7kL1mP4tY9wB6cD", "call_9hJ2kL5mN8pQ1rS4tU7vW0xY")),
    Case(LANGGRAPH, None, "lg.invalid_chat_history", "langgraph-client", ("call_kQ2mV8rT1xYzA9bC3dE4fG5h",)),
]
# fmt: on


def _anthropic_json(text: str) -> str:
    return json.dumps({"type": "error", "error": {"type": "invalid_request_error", "message": text}})


def openrouter(text: str, case: Case) -> str:
    meta = {"raw": _anthropic_json(text), "provider_name": "Anthropic", "is_byok": False}
    return json.dumps(
        {
            "error": {"message": "Provider returned error", "code": 400, "metadata": meta},
            "user_id": "user_2xK9mQ7vLpR3",
        }
    )


def vertex(text: str, case: Case) -> str:
    return json.dumps(
        {"error": {"code": 400, "message": _anthropic_json(text), "status": "INVALID_ARGUMENT"}}
    )


def openai_json(text: str, case: Case) -> str:
    return json.dumps(
        {"error": {"message": text, "type": "invalid_request_error", "param": None, "code": None}}
    )


def litellm(text: str, case: Case) -> str:
    return f"litellm.BadRequestError: AnthropicException - {text}"


def bedrock(text: str, case: Case) -> str:
    if case.provider == "anthropic":
        return f"The model returned the following errors: {text}"
    return f"ValidationException: An error occurred (ValidationException) when calling the Converse operation: {text}"


def ai_sdk(text: str, case: Case) -> str:
    return f"AI_APICallError: {text}"


def relay(text: str, case: Case) -> str:
    return (
        f"{text} (request id: 2025061514230918740559726354851) (request id: 20250615142309123456789abcdef0)"
    )


def python_repr(text: str, case: Case) -> str:
    return "Error code: 400 - " + repr(
        {"error": {"message": text, "type": "invalid_request_error", "param": None, "code": None}}
    )


Wrapper = Callable[[str, Case], str]
WRAPPERS: dict[str, tuple[Wrapper | None, Callable[[Case], tuple[str, ...]]]] = {
    "bare": (None, lambda case: ()),
    "openrouter": (openrouter, lambda case: ("openrouter", "json")),
    "vertex": (vertex, lambda case: ("vertex", "json")),
    "json": (openai_json, lambda case: ("json",)),
    "litellm": (litellm, lambda case: ("litellm",)),
    "bedrock": (
        bedrock,
        lambda case: ("bedrock-model",) if case.provider == "anthropic" else ("bedrock-validation",),
    ),
    "ai-sdk": (ai_sdk, lambda case: ("ai-sdk",)),
    "relay": (relay, lambda case: ("relay-request-id",)),
    "python-repr": (python_repr, lambda case: ("python-repr",)),
}


@pytest.mark.parametrize("wrapper", list(WRAPPERS))
@pytest.mark.parametrize(
    "case", CASES, ids=[f"{i:02d}-{c.rule}-{c.variant or 'main'}" for i, c in enumerate(CASES)]
)
def test_every_catalogued_text_in_every_wrapper(case: Case, wrapper: str) -> None:
    wrap, expected_wrappers = WRAPPERS[wrapper]
    text = wrap(case.raw, case) if wrap is not None else case.raw
    got = explain(text)
    assert (got.provider, got.rule, got.variant) == (case.provider, case.rule, case.variant)
    assert got.error_text == case.raw
    assert got.wrappers == expected_wrappers(case)
    assert got.call_ids == case.call_ids
    assert got.paths == case.paths
    assert got.reason is None
    assert got.meaning == RULE_INFO[case.rule][0]


def test_table_covers_every_pattern() -> None:
    matched = {(c.rule, c.variant) for c in CASES}
    assert {(p.rule, p.variant) for p in PATTERNS} == matched


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "the error text is empty"),
        ("   \n\t ", "the error text is empty"),
        (
            "502 Bad Gateway: upstream connect error or disconnect/reset before headers",
            "no known provider error pattern matched",
        ),
        ("\x00\x9f\ufffd\x1b[31m\x00PK\x03\x04", "no known provider error pattern matched"),
        (
            '{"error": {"message": "Rate limit reached for gpt-4o", "type": "requests", "code": "rate_limit_exceeded"}}',
            "no known provider error pattern matched",
        ),
        ("{" * 5000 + "}" * 5000, "no known provider error pattern matched"),
    ],
)
def test_unknown_text_names_no_rule_and_says_why(text: str, reason: str) -> None:
    got = explain(text)
    assert (got.provider, got.rule, got.reason) == (None, None, reason)


def test_unknown_json_envelope_is_still_peeled() -> None:
    got = explain(
        '{"error": {"message": "Rate limit reached for gpt-4o", "type": "requests", "code": "rate_limit_exceeded"}}'
    )
    assert (got.error_text, got.wrappers) == ("Rate limit reached for gpt-4o", ("json",))


def test_huge_text_is_bounded() -> None:
    text = (
        " " * 3_000_000
        + "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'."
    )
    start = time.perf_counter()
    got = explain(text)
    elapsed = time.perf_counter() - start
    assert (got.rule, got.reason) == (
        None,
        f"no known provider error pattern matched (only the first {MAX_CHARS} characters were read)",
    )
    assert elapsed < 5.0


def test_openai_param_names_the_path() -> None:
    text = "Error code: 400 - {'error': {'message': \"Invalid parameter: Duplicate value for 'tool_call_id' of 'call_gmd4tanjXcwOxfPawOnDmq6R', in messages[7] and messages[8].\", 'type': 'invalid_request_error', 'param': 'messages.[8].tool_call_id', 'code': None}}"
    got = explain(text)
    assert (got.rule, got.paths, got.indices) == ("oai.dup_tool_result", ("messages[8]", "messages[7]"), (8,))


def test_real_nested_gateway_texts() -> None:
    inner = {
        "type": "error",
        "error": {
            "type": "invalid_request_error",
            "message": "messages.1.content.1.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
        },
    }
    router = {
        "error": {
            "message": "Provider returned error",
            "code": 400,
            "metadata": {"raw": json.dumps(inner), "provider_name": "Anthropic", "is_byok": False},
        },
        "user_id": "user_2xK9mQ7vLpR3",
    }
    text = (
        "litellm.BadRequestError: OpenrouterException - "
        + json.dumps(router)
        + " (request id: 20250615142309) (request id: 20250615142310)"
    )
    got = explain(text)
    assert (got.provider, got.rule, got.wrappers, got.paths) == (
        "anthropic",
        "ant.id_pattern",
        ("relay-request-id", "litellm", "openrouter", "json"),
        ("messages.1.content.1",),
    )
    gemini = '[GeminiAPI] Stream request failed: 400 [{\n  "error": {\n    "code": 400,\n    "message": "Please ensure that function response turn comes immediately after a function call turn.",\n    "status": "INVALID_ARGUMENT"\n  }\n}\n]'
    got = explain(gemini)
    assert (got.provider, got.rule, got.wrappers) == ("gemini", "gem.fr_position", ("json",))
    boto = "ValidationException: An error occurred (ValidationException) when calling the InvokeModel operation: The model returned the following errors: messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_bdrk_01ABCdefGHIjklMNOpqrSTUv. Each `tool_use` block must have a corresponding `tool_result` block in the next message."
    got = explain(boto)
    assert (got.provider, got.rule, got.wrappers, got.call_ids) == (
        "anthropic",
        "ant.result_missing",
        ("bedrock-validation", "bedrock-model"),
        ("toolu_bdrk_01ABCdefGHIjklMNOpqrSTUv",),
    )


def test_fix_comes_from_the_registered_provider_rule() -> None:
    got = explain("Invalid value for 'content': expected a string, got null.")
    assert got.fix == provider_for("openai-chat").rule("oai.null_content").fix


ORPHAN_BODY: dict[str, Any] = {
    "model": "gpt-4o",
    "messages": [
        {"role": "system", "content": "You are a careful coding assistant."},
        {"role": "user", "content": "What does src/app.py do?"},
        {"role": "assistant", "content": "Let me look at the file."},
        {
            "role": "tool",
            "tool_call_id": "call_Q8mZ3vX1nB7kL2pR5tY9wC4e",
            "content": "import flask\napp = flask.Flask(__name__)",
        },
        {"role": "user", "content": "Well?"},
    ],
}


def test_session_maps_the_culprit_to_the_canonical_message() -> None:
    session = load(ORPHAN_BODY)
    text = "Error code: 400 - {'error': {'message': \"Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.\", 'type': 'invalid_request_error', 'param': 'messages.[3].role', 'code': None}}"
    got = explain(text, session=session)
    assert (got.rule, got.paths, got.indices) == ("oai.tool_orphan", ("messages[3]",), (3,))
    assert (got.message_index, got.block_index) == (3, 0)
    assert explain(text).message_index is None


def test_session_locates_by_call_id_when_the_text_has_no_path() -> None:
    session = load(ORPHAN_BODY)
    got = explain(
        "Invalid parameter: 'tool_call_id' of 'call_Q8mZ3vX1nB7kL2pR5tY9wC4e' not found in 'tool_calls' of previous message.",
        session=session,
    )
    assert (got.message_index, got.block_index) == (3, 0)


def test_an_id_not_in_the_session_names_no_culprit_even_with_a_path() -> None:
    """A 400 from another run: its path lands on a message here, but its id is nowhere in this session."""
    session = load(ORPHAN_BODY)
    text = (
        "Error code: 400 - {'error': {'message': \"Invalid parameter: 'tool_call_id' of "
        "'call_NotInThisSession0000000000' not found in 'tool_calls' of previous message.\", "
        "'type': 'invalid_request_error', 'param': 'messages.[3].role', 'code': None}}"
    )
    got = explain(text, session=session)
    assert (got.rule, got.call_ids, got.indices) == (
        "oai.tool_id_unknown",
        ("call_NotInThisSession0000000000",),
        (3,),
    )
    assert (got.message_index, got.block_index) == (None, None)
    # the same text with the id this session holds names message 3
    found = explain(
        text.replace("call_NotInThisSession0000000000", "call_Q8mZ3vX1nB7kL2pR5tY9wC4e"), session=session
    )
    assert (found.message_index, found.block_index) == (3, 0)


# Every registered provider rule's own text, filled with real-looking values, explains to that provider
# and rule, so `check` and `explain` agree. Rules that share another rule's text say which one explains it.
FILL: dict[str, Any] = {
    "ids": "call_Ab12Cd34Ef56Gh78Ij90Kl12, call_Mn34Op56Qr78St90Uv12Wx34",
    "id": "call_Q8mZ3vX1nB7kL2pR5tY9wC4e",
    "call_id": "call_Q8mZ3vX1nB7kL2pR5tY9wC4e",
    "reasoning": "rs_68a2f1c7a1f48193a3c9e2d5b7f04e1a",
    "prefix": "fc",
    "index": 3,
    "first": 3,
    "second": 4,
    "call": 0,
    "block": 1,
    "part": 1,
    "tool": 0,
    "decl": 2,
    "position": 2,
    "length": 51,
    "name": "read.file",
    "field": "inlineData",
    "found": "tool_use",
    "role": "assistant",
    "previous": "tool",
    "requirement": "be non-empty",
    "constraint": "Member must satisfy regular expression pattern: [a-zA-Z0-9_-]+",
}
FILL_FOR: dict[str, list[dict[str, Any]]] = {
    "resp.call_unanswered": [{"what": "function call"}, {"what": "custom tool call"}],
    "resp.output_orphan": [{"what": "function call"}, {"what": "custom tool call"}],
    "ant.tool_name_pattern": [{"limit": 128}, {"limit": 64}],  # the API's pattern now, and before 2025-06
    "ant.server_result_orphan": [
        {"kind": "web_search_tool_result", "id": "srvtoolu_01Hk7MnPqRsTuVwXyZaBcDeF"}
    ],
    "ant.id_pattern": [
        {"kind": "tool_use", "pattern": "^[a-zA-Z0-9_-]+$"},
        {"kind": "server_tool_use", "pattern": "^srvtoolu_[a-zA-Z0-9_]+$"},
    ],
    "ant.thinking_signature": [
        {"problem": ": Invalid `signature` in `thinking` block"},
        {"problem": ".thinking.signature: Field required"},
    ],
    "brk.id_pattern": [{"kind": "toolUse", "id": "functions.read:0"}, {"kind": "toolResult", "id": "a|b"}],
    "ant.empty_text": [{"requirement": "be non-empty"}, {"requirement": "contain non-whitespace text"}],
    "mis.user_after_tool": [{"role": "user", "previous": "tool"}],
}
EXPLAINED_AS = {
    # The provider sends ant.result_missing's text for these (research/providers.md §10).
    ("anthropic", "ant.result_first"): ("anthropic", "ant.result_missing"),
    ("anthropic", "ant.tool_use_last"): ("anthropic", "ant.result_missing"),
    # The same text as another rule's: a srvtoolu_ id on a plain tool_use (a recorded 400), and Claude 4.6
    # prefill through Bedrock (strands-agents/sdk-python#1694 quotes Anthropic's text).
    ("anthropic", "ant.server_tool_as_tool_use"): ("anthropic", "ant.result_missing"),
    ("bedrock", "brk.prefill_unsupported"): ("anthropic", "ant.prefill_unsupported"),
    # Warnings split from a rule by recorded traffic (issue 16): the provider's text is the rule's.
    ("bedrock", "brk.consecutive_user"): ("bedrock", "brk.alternate"),
    ("anthropic", "ant.reused_tool_use_id"): ("anthropic", "ant.dup_tool_use_id"),
}
NOT_AN_HTTP_ERROR = {"kimi.id_format"}  # a toolhist warning: Kimi accepts the request


def _rule_texts() -> list[tuple[str, str, str]]:
    from toolhist.providers import all_rules

    out = []
    for rule in all_rules():
        if rule.id in NOT_AN_HTTP_ERROR:
            continue
        for extra in FILL_FOR.get(rule.id, [{}]):
            out.append((rule.provider, rule.id, rule.template.format(**{**FILL, **extra})))
    return out


@pytest.mark.parametrize(("provider", "rule", "text"), _rule_texts(), ids=lambda v: str(v)[:40])
def test_every_provider_rule_text_explains_to_that_rule(provider: str, rule: str, text: str) -> None:
    got = explain(text)
    assert (got.provider, got.rule) == EXPLAINED_AS.get((provider, rule), (provider, rule))
    assert got.error_text == text
    assert got.fix == provider_for(got.provider or "").rule(got.rule or "").fix


def test_every_registered_rule_is_explained_or_said_why_not() -> None:
    from toolhist.providers import all_rules

    explained = {p.rule for p in PATTERNS}
    registered = {r.id for r in all_rules()}
    shared = {rule for _, rule in EXPLAINED_AS}
    assert registered - explained == shared | NOT_AN_HTTP_ERROR
