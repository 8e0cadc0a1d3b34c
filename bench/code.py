"""The code a benchmark measures: packages as they were at a git revision (the baseline), or a
copy of the working tree's (so every round of a run measures the same code while it is edited)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Sequence
from io import BytesIO
from pathlib import Path
from typing import Any

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


def run_measured(module: str, args: Sequence[str], code: Path, *, cwd: Path, timeout: float, what: str) -> Any:
    """Run ``python -m module args`` in a fresh process (``PYTHONHASHSEED=0``) that measures the
    packages in ``code`` and prints ``{"code": {package: file}, "result": ...}``; check that every
    measured package came from ``code`` and return the result. ``what`` names the run in errors."""
    cmd = [sys.executable, "-m", module, *args]
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    out = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False, timeout=timeout)
    if out.returncode != 0:
        raise RuntimeError(f"{what} failed:\n{out.stderr[-3000:]}")
    reply: dict[str, Any] = json.loads(out.stdout)
    root = str(code.resolve())
    for package, file in reply["code"].items():
        if not str(file).startswith(root + os.sep):
            raise RuntimeError(f"{what} imported {package} from {file}, not from {root}")
    return reply["result"]
