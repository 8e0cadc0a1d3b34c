"""A real browser for the web table's tests (issue 35, part 5): Debian's headless Chromium, driven
by Playwright (``playwright`` from the test extras, launched on the system's ``chromium``, never a
browser Playwright downloads).

The test run provides the browser itself, as it starts its own PostgreSQL: where ``chromium`` is
missing it installs Debian's package (``apt-get install chromium``, as root, once per machine, one
worker at a time under a file lock). Where it cannot, the test fails with one line saying what to
install; it never skips.

Chromium runs with the flags this closed network needs (no background networking, no component
updates, no sync: otherwise it keeps trying to reach Google's hosts) and, as root, without its
sandbox. Each test gets its own browser with an empty profile. The driver's own tasks are named
for the Discord harness to leave out when it waits for the bot (``harness-ignore``).

Screenshots go under ``test-output/web/`` at the repository's root (or ``$TEST_OUTPUT/web``), one
per page kind, for a person to review after the run.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import shutil
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
ARGS = [
    "--headless=new",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]
LOCK = Path("/tmp/wizard-referee-chromium.lock")
INSTALL = "apt-get install -y -q --no-install-recommends chromium"


def chromium() -> str:
    """The system's Chromium, installed from Debian's packages first where it is missing."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(f"The browser tests need Chromium: install Debian's package ({INSTALL}).", pytrace=False)
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # one worker installs; the others wait, then find it
        found = shutil.which("chromium")
        if found:
            return found
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        done = subprocess.run(INSTALL.split(), env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:  # a fresh machine's package lists may be empty
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
            done = subprocess.run(INSTALL.split(), env=env, capture_output=True, text=True, check=False)
        found = shutil.which("chromium")
        if done.returncode != 0 or not found:
            last = (done.stderr or done.stdout).strip().splitlines()[-1:] or ["no output"]
            pytest.fail(f"Chromium could not be installed ({INSTALL}): {last[0]}", pytrace=False)
        return found


def cairo() -> None:
    """The system's cairo library (the web table's board pictures, ``web/picture.py``), installed
    from Debian's packages where it is missing (as :func:`chromium`)."""
    import ctypes.util

    if ctypes.util.find_library("cairo"):
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        needed = "The board pictures need cairo: install Debian's package (apt-get install libcairo2)."
        pytest.fail(needed, pytrace=False)
    with LOCK.open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if ctypes.util.find_library("cairo"):
            return
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        command = ["apt-get", "install", "-y", "-q", "libcairo2"]
        if subprocess.run(command, env=env, capture_output=True, check=False).returncode != 0:
            subprocess.run(["apt-get", "update", "-q"], env=env, capture_output=True, check=False)
            subprocess.run(command, env=env, capture_output=True, check=False)
        if not ctypes.util.find_library("cairo"):
            pytest.fail("cairo could not be installed (apt-get install libcairo2).", pytrace=False)


@contextlib.asynccontextmanager
async def browser() -> AsyncIterator[Any]:
    """A headless Chromium (a Playwright ``Browser``), closed afterwards."""
    from playwright.async_api import async_playwright

    path = chromium()
    args = [*ARGS, "--no-sandbox"] if os.geteuid() == 0 else ARGS
    before = asyncio.all_tasks()
    async with async_playwright() as driver:
        for task in asyncio.all_tasks() - before:  # the driver's own pipe readers: not the bot's work
            task.set_name(f"harness-ignore playwright {task.get_name()}")
        launched = await driver.chromium.launch(executable_path=path, args=args)
        try:
            yield launched
        finally:
            await launched.close()


def shots() -> Path:
    """The folder the screenshots go to (made if missing)."""
    base = Path(os.environ["TEST_OUTPUT"]) if os.environ.get("TEST_OUTPUT") else ROOT / "test-output"
    folder = base / "web"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


#: How a page is read at a phone's width: its horizontal overflow, and the smallest text on it in
#: CSS px (an SVG text's font size times the scale its board is drawn at).
MEASURE = """() => {
  const overflow = document.documentElement.scrollWidth - window.innerWidth;
  let smallest = Infinity, where = "";
  for (const el of document.querySelectorAll("body *")) {
    const own = [...el.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    if (!own || el.closest("title") || el.tagName === "title") continue;
    const box = el.getBoundingClientRect();
    if (box.width === 0 && box.height === 0) continue;
    let size = parseFloat(getComputedStyle(el).fontSize);
    if (el instanceof SVGElement && el.getScreenCTM) size *= el.getScreenCTM().a;
    if (size < smallest) { smallest = size; where = el.tagName + ": " + el.textContent.trim().slice(0, 40); }
  }
  return {overflow, smallest, where};
}"""


__all__ = ["ARGS", "MEASURE", "browser", "cairo", "chromium", "shots"]
