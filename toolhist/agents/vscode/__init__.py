"""VS Code chat: its chat session JSON (`reader`)."""
