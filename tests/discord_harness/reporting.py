"""Failure reporting: violations (requests Discord would reject, 429s) and bot errors (exceptions
discord.py logged, lost task exceptions) are raised at the next check, once each; inside
``expect_violations``/``expect_bot_errors`` they are collected instead, for negative tests."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from dataclasses import dataclass, field

from .records import HarnessError


class BotErrors(HarnessError):
    pass


class ProtocolViolation(HarnessError):
    """The bot sent something Discord would reject (schema, limits, rate limits, or an invalid call)."""


@dataclass
class Expected:
    """Collected by :meth:`Reporter.expect_violations`."""

    violations: list[str] = field(default_factory=list)
    bot_errors: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return "\n".join(self.violations + self.bot_errors)


class Reporter:
    """Reports each violation and bot error once (the lists are the fake server's and the harness's)."""

    def __init__(self, violations: list[str], bot_errors: list[str]):
        self.violations = violations
        self.bot_errors = bot_errors
        self.reported_violations = 0
        self.reported_errors = 0
        self.expecting = 0  # inside expect_violations/expect_bot_errors: report nothing

    def check(self) -> None:
        if self.expecting:
            return
        new_violations = self.violations[self.reported_violations :]
        new_errors = self.bot_errors[self.reported_errors :]
        self.reported_violations = len(self.violations)
        self.reported_errors = len(self.bot_errors)
        if new_violations:
            text = "\n\n".join(new_violations)
            if new_errors:
                text += "\n\nand the bot logged:\n" + "\n".join(new_errors)
            raise ProtocolViolation("the bot sent requests Discord would reject:\n" + text)
        if new_errors:
            raise BotErrors("the bot raised/logged errors:\n" + "\n\n".join(new_errors))

    @contextlib.contextmanager
    def expect_violations(self) -> Iterator[Expected]:
        caught = Expected()
        start_v, start_e = len(self.violations), len(self.bot_errors)
        self.expecting += 1
        try:
            yield caught
        finally:
            self.expecting -= 1
            caught.violations.extend(self.violations[start_v:])
            caught.bot_errors.extend(self.bot_errors[start_e:])
            self.reported_violations = max(self.reported_violations, len(self.violations))
            self.reported_errors = max(self.reported_errors, len(self.bot_errors))
        if not caught.violations:
            raise AssertionError("expected the bot to send something Discord rejects, but every request was valid")

    @contextlib.contextmanager
    def expect_bot_errors(self) -> Iterator[Expected]:
        caught = Expected()
        start_e = len(self.bot_errors)
        self.expecting += 1
        try:
            yield caught
        finally:
            self.expecting -= 1
            caught.bot_errors.extend(self.bot_errors[start_e:])
            self.reported_errors = max(self.reported_errors, len(self.bot_errors))
        if not caught.bot_errors:
            raise AssertionError("expected the bot to log an error, but it did not")
