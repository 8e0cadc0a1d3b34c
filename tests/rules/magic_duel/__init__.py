"""Magic Duel rules tests (scenarios quote the rule text)."""
