"""Claude Code: its session JSONL (`reader`), threaded as Claude Code threads it (`thread`)."""
