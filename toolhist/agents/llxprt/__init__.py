"""llxprt-code: its IContent history (`icontent`), debug logs (`debug`) and checkpoints (`checkpoint`)."""
