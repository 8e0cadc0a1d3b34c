"""The Discord bot: settings, the entry point (``python -m bot``) and the match service."""

from . import errors as _errors  # noqa: F401  (keeps the bot's loggers to one line per database outage)
