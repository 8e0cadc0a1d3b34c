"""Helpers the games share for their part of the live board (see cogs/table.py)."""

from __future__ import annotations

from collections.abc import Sequence

from .base import Post


def board_from_post(post: Post, keep: Sequence[str]) -> Post:
    """A board from a channel post: the embeds whose title starts with one of ``keep``, and the
    pictures they show."""
    embeds = [e for e in post.embeds if any((e.title or "").startswith(k) for k in keep)]
    refs = {e.image.url for e in embeds} | {e.thumbnail.url for e in embeds}
    return Post(embeds, [f for f in post.files if f"attachment://{f.filename}" in refs])


__all__ = ["board_from_post"]
