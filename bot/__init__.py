"""The Discord bot: settings, the entry point (``python -m bot``) and the match service."""
