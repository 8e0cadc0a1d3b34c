"""wizards_cup: its Discord prompts, channel posts and pictures."""
