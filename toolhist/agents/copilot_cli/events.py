"""The Copilot CLI's session events: which exist, which carry history, and the texts the CLI writes itself.

Copilot CLI (github/copilot-cli) is closed source. Its event log is specified by its open SDK,
github/copilot-sdk, whose ``nodejs/src/generated/session-events.ts`` is generated from the CLI's
``session-events.schema.json`` ("Union of all session event variants emitted by the Copilot CLI
runtime"; read at cc0438d66e3e68c333537cb935d9425d4e4ed8d5). Every line of ``events.jsonl`` is one
event ``{type, data, id, parentId, timestamp, ephemeral?, agentId?}``; ``ephemeral`` events "are not
persisted to the session event log on disk" and are "not replayed on session resume"
(``docs/features/streaming-events.md``).

What the model was sent is pinned by the SDK's replaying CAPI proxy: ``test/snapshots/**.yaml``
record every request the CLI made in the SDK's end-to-end tests, as chat messages (system, user,
assistant with ``tool_calls``, tool). The texts below come from those recordings.
"""

from __future__ import annotations

from typing import Final

EVENT_TYPES: Final = frozenset(
    {
        "abort",
        "assistant.idle",
        "assistant.intent",
        "assistant.message",
        "assistant.message_delta",
        "assistant.message_start",
        "assistant.reasoning",
        "assistant.reasoning_delta",
        "assistant.server_tool_progress",
        "assistant.streaming_delta",
        "assistant.tool_call_delta",
        "assistant.turn_end",
        "assistant.turn_start",
        "assistant.usage",
        "auto_mode_switch.completed",
        "auto_mode_switch.requested",
        "capabilities.changed",
        "command.completed",
        "command.execute",
        "command.queued",
        "commands.changed",
        "elicitation.completed",
        "elicitation.requested",
        "exit_plan_mode.completed",
        "exit_plan_mode.requested",
        "external_tool.completed",
        "external_tool.requested",
        "factory.run_settled",
        "factory.run_started",
        "factory.run_updated",
        "hook.end",
        "hook.progress",
        "hook.start",
        "mcp.headers_refresh_completed",
        "mcp.headers_refresh_required",
        "mcp.oauth_completed",
        "mcp.oauth_required",
        "mcp.prompts.list_changed",
        "mcp.resources.list_changed",
        "mcp.tools.list_changed",
        "mcp_app.tool_call_complete",
        "model.call_failure",
        "pending_messages.modified",
        "permission.completed",
        "permission.requested",
        "sampling.completed",
        "sampling.requested",
        "session.auto_mode_resolved",
        "session.autopilot_objective_changed",
        "session.background_tasks_changed",
        "session.binary_asset",
        "session.canvas.closed",
        "session.canvas.opened",
        "session.canvas.recorded",
        "session.canvas.registry_changed",
        "session.canvas.removed",
        "session.canvas.unavailable",
        "session.compaction_complete",
        "session.compaction_start",
        "session.context_changed",
        "session.context_cleared",
        "session.custom_agents_updated",
        "session.custom_notification",
        "session.error",
        "session.extensions.attachments_pushed",
        "session.extensions_loaded",
        "session.handoff",
        "session.idle",
        "session.info",
        "session.managed_settings_enforced",
        "session.managed_settings_resolved",
        "session.mcp_server_status_changed",
        "session.mcp_servers_loaded",
        "session.mode_changed",
        "session.model_change",
        "session.permissions_changed",
        "session.plan_changed",
        "session.remote_steerable_changed",
        "session.resume",
        "session.schedule_cancelled",
        "session.schedule_created",
        "session.schedule_rearmed",
        "session.session_limits_changed",
        "session.shutdown",
        "session.skills_loaded",
        "session.snapshot_rewind",
        "session.start",
        "session.task_complete",
        "session.title_changed",
        "session.todos_changed",
        "session.tools_updated",
        "session.truncation",
        "session.usage_checkpoint",
        "session.usage_info",
        "session.warning",
        "session.workspace_file_changed",
        "session_limits_exhausted.completed",
        "session_limits_exhausted.requested",
        "skill.invoked",
        "subagent.completed",
        "subagent.deselected",
        "subagent.failed",
        "subagent.selected",
        "subagent.started",
        "system.message",
        "system.notification",
        "tool.execution_complete",
        "tool.execution_partial_result",
        "tool.execution_progress",
        "tool.execution_start",
        "tool.user_requested",
        "tool_search.activated",
        "ui.ephemeral_query",
        "user.message",
        "user_input.completed",
        "user_input.requested",
    }
)
"""Every event type of the SDK's ``SessionEvent`` union (its 116 ``Session event "…"`` variants).
A type outside it is one this reader cannot know: skipped and named, never fatal."""

HISTORY: Final = frozenset(
    {
        "system.message",
        "user.message",
        "assistant.message",
        "tool.execution_complete",
        "session.compaction_start",
        "session.compaction_complete",
        "session.context_cleared",
        "session.snapshot_rewind",
        "session.truncation",
        "session.model_change",
        "session.start",
        "session.resume",
        "abort",
        "model.call_failure",
        "system.notification",
    }
)
"""The events this reader turns into messages, unsent records or notes; every other known event is
UI, telemetry or streaming (deltas repeat the final ``assistant.message``) and carries nothing the
model is sent."""

INTERRUPTED: Final = "The execution of this tool, or a previous tool was interrupted."
"""The result the CLI sends for a call left unanswered when the turn was aborted
(github/copilot-sdk ``test/snapshots/abort/should_abort_during_active_tool_execution.yaml``; the
proxy's ``normalizeInterruptedToolResult`` maps the CLI's other interruption texts to it)."""

SUMMARY_HEAD: Final = (
    "Some of the conversation history has been summarized to free up context.\n\n"
    "You were originally given instructions from a user over one or more turns. "
    "Here were the user messages:\n"
)
"""How the first user message after a compaction begins (github/copilot-sdk
``test/snapshots/compaction/should_trigger_compaction_with_low_threshold_and_emit_events.yaml``, the
third request): the earlier user messages in ``<user_message>`` tags, then the summary."""
SUMMARY_TAIL: Final = "\nHere is a summary of the prior context:\n<summary>\n{summary}\n</summary>"

REASONING_REASON: Final = (
    "reasoning the model returned; its encrypted part is 'Session-bound and stripped on resume' "
    "(session-events.ts AssistantMessageData reasoningOpaque / encryptedContent), so a resumed session "
    "sends the turn without it"
)
SUBAGENT_REASON: Final = (
    "a sub-agent's own conversation (events with agentId): it runs in its own context, and the main "
    "agent sees only the task tool's result (session-events.ts: agentId 'Sub-agent instance identifier')"
)
DETAILED_REASON: Final = (
    "the tool's display text: result.detailedContent is the 'Full detailed tool result for UI/timeline "
    "display'; the model is sent result.content (session-events.ts ToolExecutionCompleteResult)"
)
SYSTEM_REPLACED_REASON: Final = (
    "an earlier system prompt: every request carries the latest system.message, which replaced this one"
)
COMPACTED_REASON: Final = (
    "replaced by the compaction summary (session.compaction_complete summaryContent): after it the CLI "
    "sends the summary in place of the earlier history"
)
CLEARED_REASON: Final = "dropped by /clear (session.context_cleared): the CLI starts the history afresh"
REWOUND_REASON: Final = "removed by a rewind (session.snapshot_rewind): the CLI no longer replays it"
EMPTY_REASON: Final = "an assistant message with no text and no tool requests: nothing of it is sent"
NOTIFICATION_REASON: Final = (
    "a runtime notification shown in the timeline; the model receives notifications as user.message "
    "events (session-events.ts UserMessageDelivery: 'a background-task notification waking an idle "
    "agent is idle'), inferred, so this display event is not replayed itself"
)
USER_TOOL_REASON: Final = (
    "a tool the user ran (isUserRequested / tool.user_requested) with no assistant request in the "
    "history: the CLI's treatment of its result is not public, so it is kept apart"
)
FAILURE_REASON: Final = (
    "a model call that failed (model.call_failure): the request is recorded, not an answer; "
    "nothing of it enters the history"
)
