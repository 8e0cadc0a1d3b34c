"""arena: its Discord prompts, channel posts and pictures."""
