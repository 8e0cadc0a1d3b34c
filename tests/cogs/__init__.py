"""Helpers shared by test modules about the Discord side (cogs and their flows)."""
