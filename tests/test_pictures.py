"""Pictures are drawn once per thing they show (PictureCache) and encoded without the slow
``optimize`` pass; the cache stays bounded and is safe from the rendering threads."""

from __future__ import annotations

import io
from concurrent.futures import ThreadPoolExecutor

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
    assert Image.open(io.BytesIO(a)).getpixel((10, 10)) == (255, 0, 0)


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
