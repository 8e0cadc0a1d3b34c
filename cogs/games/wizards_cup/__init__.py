"""wizards_cup: its Discord prompts (``prompts.py``), channel posts (``posts.py``) and card display
(``cards.py``), wired together by ``ui.UI``."""
