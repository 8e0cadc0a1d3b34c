"""firewall: its Discord prompts, channel posts and pictures."""
