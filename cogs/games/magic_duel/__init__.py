"""magic_duel: its Discord prompts, channel posts and pictures."""
