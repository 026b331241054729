"""OpenAI Codex CLI: its rollouts (`reader`), the history it replays (`history`) and sends (`normalize`)."""
