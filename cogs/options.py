"""Game options typed in a slash command: ``variant=full_hand points=5``.

Every game declares its options as a pydantic model (``Game.options_model``); this module reads
that model to offer completions and to turn the typed text into a dict. The game validates the
values itself (with readable errors), so nothing here knows any particular game.
"""

from __future__ import annotations

import re
import types
import typing
from dataclasses import dataclass
from typing import Any, Literal

from pydantic.fields import FieldInfo

from rules import GameOptions

_PAIR = re.compile(r"([A-Za-z_][\w]*)\s*=\s*([^\s,;]+)")
MAX_RANGE_CHOICES = 25


class OptionsSyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class OptionSpec:
    name: str
    values: tuple[str, ...]  # every accepted value, when there are few; else ()
    default: str
    help: str


def _bounds(info: FieldInfo) -> tuple[int | None, int | None]:
    lo = next((m.ge for m in info.metadata if getattr(m, "ge", None) is not None), None)
    hi = next((m.le for m in info.metadata if getattr(m, "le", None) is not None), None)
    return lo, hi


def _values(annotation: Any, info: FieldInfo) -> tuple[str, ...]:
    origin = typing.get_origin(annotation)
    if origin is Literal:
        return tuple(str(a) for a in typing.get_args(annotation))
    if origin in (typing.Union, types.UnionType):
        out: list[str] = []
        for arg in typing.get_args(annotation):
            out += ["auto"] if arg is type(None) else list(_values(arg, info))
        return tuple(dict.fromkeys(out))
    if annotation is bool:
        return ("true", "false")
    if annotation is int:
        lo, hi = _bounds(info)
        if lo is not None and hi is not None and hi - lo < MAX_RANGE_CHOICES:
            return tuple(str(v) for v in range(lo, hi + 1))
    return ()


def _show(value: Any) -> str:
    if value is None:
        return "auto"
    if isinstance(value, bool):
        return str(value).lower()
    return str(value)


def option_specs(model: type[GameOptions]) -> list[OptionSpec]:
    return [
        OptionSpec(name, _values(info.annotation, info), _show(info.default), info.description or "")
        for name, info in model.model_fields.items()
    ]


def parse_options_text(text: str | None, model: type[GameOptions]) -> dict[str, Any]:
    """``"variant=full_hand, points=5"`` → ``{"variant": "full_hand", "points": "5"}`` (the game
    converts and validates the values). Unknown names are refused with the known ones."""
    text = (text or "").strip()
    if not text:
        return {}
    specs = {s.name: s for s in option_specs(model)}
    pairs = _PAIR.findall(text)
    rest = _PAIR.sub("", text).strip(" ,;")
    if rest or not pairs:
        known = ", ".join(f"{n}=…" for n in specs) or "none"
        raise OptionsSyntaxError(f"Write options as name=value pairs, e.g. `{_example(specs)}`. Options: {known}.")
    out: dict[str, Any] = {}
    for name, value in pairs:
        if name not in specs:
            known = ", ".join(specs) or "this game has no options"
            raise OptionsSyntaxError(f"Unknown option {name!r}. Options: {known}.")
        out[name] = None if value == "auto" and "auto" in specs[name].values else value
    return out


def _example(specs: dict[str, OptionSpec]) -> str:
    for s in specs.values():
        if s.values:
            return f"{s.name}={s.values[-1]}"
    return "name=value"


def complete_options(current: str, model: type[GameOptions], limit: int = 25) -> list[str]:
    """Completions for the text typed so far: the pairs already typed, then each possible next pair."""
    specs = option_specs(model)
    typed = current.rstrip()
    head, _, last = current.rpartition(" ")
    done = {n for n, _ in _PAIR.findall(head)}
    out: list[str] = []
    if typed and _PAIR.fullmatch(last.strip()) and last.split("=")[0] in {s.name for s in specs}:
        out.append(typed)  # a complete pair: offer it as is
    for s in specs:
        if s.name in done:
            continue
        for value in s.values or (s.default,):
            pair = f"{s.name}={value}"
            if pair.startswith(last.strip()) or not last.strip():
                out.append((head + " " + pair).strip() if head else pair)
    return [o[:100] for o in dict.fromkeys(out)][:limit]


def describe_options(options: dict[str, Any], model: type[GameOptions]) -> str:
    """One line for the challenge message: the options that differ from the defaults."""
    defaults = model().model_dump(mode="json")
    changed = [f"{k}={_show(v)}" for k, v in options.items() if defaults.get(k) != v]
    return ", ".join(changed) or "standard"
