"""The code a benchmark measures: packages as they were at a git revision (the baseline), or a
copy of the working tree's (so every round of a run measures the same code while it is edited)."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def checkout(rev: str, into: Path, packages: Sequence[str]) -> Path | None:
    """``packages`` as they were at ``rev``, extracted under ``into``; None without git (or
    without the revision)."""
    try:
        data = subprocess.run(
            ["git", "archive", "--format=tar", rev, *packages], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return None
    into.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=BytesIO(data)) as tar:
        tar.extractall(into, filter="data")
    return into


def snapshot(into: Path, packages: Sequence[str]) -> Path:
    """A copy of the working tree's ``packages`` under ``into``."""
    into.mkdir(parents=True, exist_ok=True)
    for package in packages:
        shutil.copytree(ROOT / package, into / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    return into
