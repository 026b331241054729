"""Gemini CLI: its chat recordings and checkpoints (`reader`)."""
