"""Pictures are drawn once per thing they show (PictureCache) and encoded without the slow
``optimize`` pass; the cache stays bounded and is safe from the rendering threads."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor
from types import SimpleNamespace

from PIL import Image

from cogs.games.pictures import PictureCache, canvas


def drawing(calls: list[int], colour: tuple[int, int, int]):
    def draw() -> Image.Image:
        calls.append(1)
        img, d = canvas(40, 20)
        d.rectangle([5, 5, 15, 15], fill=colour)
        return img

    return draw


def test_the_same_picture_is_drawn_once_and_each_file_is_fresh() -> None:
    cache = PictureCache()
    calls: list[int] = []
    first = cache.file("t", {"a": 1, "b": [1, 2]}, "x.png", drawing(calls, (255, 0, 0)))
    again = cache.file("t", {"b": [1, 2], "a": 1}, "y.png", drawing(calls, (255, 0, 0)))  # same inputs, any key order
    other = cache.file("t", {"a": 2, "b": [1, 2]}, "x.png", drawing(calls, (0, 255, 0)))
    assert len(calls) == 2 and (cache.hits, cache.misses) == (1, 2)
    assert again.filename == "y.png" and first.fp is not again.fp  # a File is sent once: never shared
    a, b = first.fp.read(), again.fp.read()
    assert a == b and a != other.fp.read()
    assert Image.open(io.BytesIO(a)).convert("RGB").getpixel((10, 10)) == (255, 0, 0)  # (a palette PNG)


def test_the_cache_is_bounded_by_count_and_bytes() -> None:
    cache = PictureCache(max_items=3)
    calls: list[int] = []
    for i in range(5):
        cache.file("t", i, "p.png", drawing(calls, (i, i, i)))
    assert len(cache._items) == 3
    cache.file("t", 0, "p.png", drawing(calls, (0, 0, 0)))  # the oldest went: drawn again
    assert len(calls) == 6
    small = PictureCache(max_bytes=1)
    small.file("t", 1, "p.png", drawing(calls, (1, 1, 1)))
    assert small._bytes == 0 and not small._items


def test_threads_share_the_cache() -> None:
    cache = PictureCache()
    calls: list[int] = []
    with ThreadPoolExecutor(8) as pool:
        files = list(pool.map(lambda i: cache.file("t", i % 4, "p.png", drawing(calls, (9, 9, 9))), range(64)))
    assert len(files) == 64 and len(cache._items) == 4 and cache.hits + cache.misses == 64


def test_a_picture_without_a_name_is_named_by_its_content() -> None:
    from cogs.games.pictures import CONTENT_NAMED

    cache, calls = PictureCache(), []
    red = cache.file("dot", {"c": "red"}, None, drawing(calls, (255, 0, 0)))
    again = cache.file("dot", {"c": "red"}, None, drawing(calls, (255, 0, 0)))
    blue = cache.file("dot", {"c": "blue"}, None, drawing(calls, (0, 0, 255)))
    assert CONTENT_NAMED.fullmatch(red.filename) and red.filename.startswith("dot-")
    assert red.filename == again.filename != blue.filename


def test_an_edit_keeps_a_picture_the_message_already_shows() -> None:
    import discord

    from cogs.games.base import Prompt
    from cogs.games.pictures import content_name

    def attachment(aid: int, filename: str) -> SimpleNamespace:  # what edit_kwargs reads of an Attachment
        return SimpleNamespace(id=aid, filename=filename)

    same = content_name("dot", b"red")
    shown = [attachment(1, same), attachment(2, "hand.png")]
    prompt = Prompt("", [], None, [discord.File(io.BytesIO(b"red"), filename=same)])
    assert prompt.edit_kwargs(shown)["attachments"] == [shown[0]]  # kept: the same picture
    other = Prompt("", [], None, [discord.File(io.BytesIO(b"blue"), filename=content_name("dot", b"blue"))])
    assert isinstance(other.edit_kwargs(shown)["attachments"][0], discord.File)  # another picture: uploaded
    hand = Prompt("", [], None, [discord.File(io.BytesIO(b"x"), filename="hand.png")])
    assert isinstance(hand.edit_kwargs(shown)["attachments"][0], discord.File)  # a plain name: uploaded again
    assert Prompt("", [], None, []).edit_kwargs(shown)["attachments"] == []  # no picture: removed


def test_prompts_show_the_situation_only_with_pictures_on() -> None:
    import random

    from cogs.games import get_ui
    from cogs.games.base import PromptContext
    from rules.match import Match

    for slug, kind, moves in (
        ("firewall", "firewall-bridge-", 8),
        ("arena", "arena-board-", 8),
        ("wizards-cup", "wc-situation-", 3),
    ):
        m = Match.new(slug, seed=5, seats=["a", "b"])
        rng = random.Random(2)
        for _ in range(moves):
            seat = next(iter(m.awaiting.seats))
            m.act(seat, m.state.sample_action(seat, rng))
        seat = next(iter(m.awaiting.seats))
        st = m.state
        for images in (True, False):
            ctx = PromptContext(1, seat, 0, ["a", "b"], st.view(seat), st.legal_actions(seat), images, st.asked(seat))
            prompt = get_ui(slug).prompt(ctx)
            names = [f.filename for f in prompt.files if f.filename.startswith(kind)]
            assert not any(e.thumbnail.url for e in prompt.embeds), slug  # never a thumbnail nobody can read
            own = [e.image.url for e in prompt.embeds if e.image.url and not e.image.url.endswith(tuple(names))]
            if images and not own:  # the situation at full size, as the prompt's picture
                assert len(names) == 1 and prompt.embeds[0].image.url == f"attachment://{names[0]}", slug
            elif images:  # a prompt with a picture of its own (Wizards Cup's cards) shows just that
                assert names == [] and own, slug
            else:
                assert names == [] and not prompt.files and not own, slug
