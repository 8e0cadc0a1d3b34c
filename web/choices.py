"""A seat's decision as a browser asks it (issue 35, part 3): one field at a time, each offering only
values some legal action has, so every game's every step is played with the same few clicks and
nothing here restates a rule.

The engine's :class:`rules.core.Decision` lists every legal action (a Firewall turn may have 25,600:
each bet with each set of spells). :func:`build` narrows them by the picks made so far and asks
the next field whose legal values differ: the action's kind first (when there are several), then
its fields in the order the action declares them; a field every remaining action agrees on is
decided without asking. A list field (the spells of a turn, a Deck's cards) is built an item at a
time, each offering the items that can come next, with "Done" when the list so far is itself
legal. When one action is left, the page asks to confirm it.

The picks travel in the page's address (``?p=``, :func:`encode`), so a step is a plain link, the
back button undoes it, and nothing is kept on the server. A pick no legal action has (a stale
or altered address) is answered with :class:`BadPicks`, a message a player can read.
"""

from __future__ import annotations

import base64
import json
import types
import typing
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.actions import ActionModel
from rules.core import Bound, Decision, Game

TYPE = "type"
DONE = "done"  # the pick that closes a list field
MAX_PICKS = 64  # more picks than any action has fields and items: an altered address
Pick = tuple[str, Any]  # (field, value as JSON); a list field: one pick per item, then DONE


class BadPicks(ValueError):
    """The address's picks fit no legal action (the step moved on, or the address was altered)."""


@dataclass(frozen=True)
class Option:
    """One value the player may pick now: its words, its value as JSON (``key``: that value's JSON
    text, which a board uses to make the square or model it names clickable) and the picks after
    choosing it."""

    label: str
    value: Any
    key: str
    picks: str


@dataclass(frozen=True)
class Asked:
    """What the page asks now: ``field`` (None once one action is left, then ``action`` is it),
    its ``options``, the picks made so far as words (``made``), and the address of one pick back
    (``back``; None with no pick made)."""

    question: str
    field: str | None
    options: tuple[Option, ...]
    made: tuple[tuple[str, str], ...]
    action: ActionModel | None
    back: str | None
    count: int  # the legal actions the picks leave
    #: the numeric limits of the field asked (a bet of 1 to 50: ``Decision.bounds``): the page
    #: offers a number box; None: the options only
    bound: Bound | None = None
    #: while the kind is asked: one click on the board that picks the kind and its first field at
    #: once (an Arena square to move to, a model to target), where only one kind has that value
    shortcuts: tuple[Option, ...] = ()


def with_typed(picks: list[Pick], field: str | None, typed: str | None) -> list[Pick]:
    """The picks with a number typed in the page's number box for ``field`` (a bet); BadPicks
    for anything but a whole number."""
    if not field or typed is None:
        return picks
    text = typed.strip()
    if not text.lstrip("-").isdigit() or len(text) > 9:
        raise BadPicks(f"The {title(field).lower()} must be a whole number, not {typed[:20]!r}.")
    return [*picks, (field, int(text))]


def encode(picks: Sequence[Pick]) -> str:
    """The picks as the address carries them (empty for none)."""
    if not picks:
        return ""
    raw = json.dumps([list(p) for p in picks], separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode(text: str | None) -> list[Pick]:
    """The picks an address carries; :class:`BadPicks` for anything that is not a list of picks."""
    if not text:
        return []
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise BadPicks("This link's choices cannot be read: start the move again.") from None
    if (
        not isinstance(data, list)
        or len(data) > MAX_PICKS
        or not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in data)
    ):
        raise BadPicks("This link's choices cannot be read: start the move again.")
    return [(str(p[0]), p[1]) for p in data]


def is_list_field(model: type[ActionModel], name: str) -> bool:
    """Whether ``name`` holds a list of items, picked one at a time: ``tuple[X, ...]``, or a tuple
    of three or more items (a Deck's five cards). A pair (``tuple[int, int]``, a square) is one
    value, picked at once."""
    annotation = model.model_fields[name].annotation
    for arg in _alternatives(annotation):
        if typing.get_origin(arg) is tuple:
            args = typing.get_args(arg)
            if (len(args) == 2 and args[1] is Ellipsis) or len(args) > 2:
                return True
    return False


def _alternatives(annotation: Any) -> tuple[Any, ...]:
    if typing.get_origin(annotation) in (typing.Union, types.UnionType):
        return typing.get_args(annotation)
    return (annotation,)


def _json(value: Any) -> Any:
    """A field's value as JSON compares it (tuples as lists)."""
    if isinstance(value, tuple | list):
        return [_json(v) for v in value]
    return value


def _fields(model: type[ActionModel]) -> list[str]:
    return [name for name in model.model_fields if name != TYPE]


def _kind(action: ActionModel) -> str:
    return str(getattr(action, TYPE, type(action).__name__))


class _Narrowing:
    """The picks read against one action model: the kind, the one-value fields and the list
    fields' items so far (a list field's pick is one item; ``DONE`` closes the list)."""

    def __init__(self, picks: Sequence[Pick], model: type[ActionModel] | None) -> None:
        self.kind: str | None = None
        self.scalars: dict[str, Any] = {}
        self.lists: dict[str, list[Any]] = {}
        self.closed: set[str] = set()
        self.unknown = False  # a pick names a field this model does not have
        for name, value in picks:
            if name == TYPE:
                if self.kind is not None or self.scalars or self.lists:
                    raise BadPicks("This link's choices are out of order: start the move again.")
                self.kind = str(value)
            elif model is None or name not in model.model_fields:
                self.unknown = True
            elif not is_list_field(model, name):
                if name in self.scalars:
                    raise BadPicks("This link picks one thing twice: start the move again.")
                self.scalars[name] = value
            elif name in self.closed:
                raise BadPicks("This link picks one thing twice: start the move again.")
            elif value == DONE:
                self.lists.setdefault(name, [])
                self.closed.add(name)
            else:
                self.lists.setdefault(name, []).append(value)

    def fits(self, action: ActionModel) -> bool:
        if self.unknown or (self.kind is not None and _kind(action) != self.kind):
            return False
        for name, value in self.scalars.items():
            if _json(getattr(action, name)) != value:
                return False
        for name, items in self.lists.items():
            have = _json(getattr(action, name))
            if not isinstance(have, list) or have[: len(items)] != items:
                return False
            if name in self.closed and len(have) != len(items):
                return False
        return True


def _narrowed(picks: Sequence[Pick], choices: Iterable[ActionModel]) -> tuple[list[ActionModel], _Narrowing | None]:
    """The actions the picks leave, in one pass (the picks read once per action model)."""
    read: dict[type[ActionModel], _Narrowing] = {}
    left: list[ActionModel] = []
    for action in choices:
        model = type(action)
        narrowing = read.get(model)
        if narrowing is None:
            narrowing = read[model] = _Narrowing(picks, model)
        if narrowing.fits(action):
            left.append(action)
    return left, (read[type(left[0])] if left else None)


def words(game: Game[Any, Any, Any], name: str, value: Any) -> str:
    """One value of a field in a player's words (a card's or a spell's name, a square's label)."""
    label = game.value_label(name, tuple(value) if isinstance(value, list) else value)
    if label is not None:
        return label
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        return ", ".join(words(game, name, v) for v in value) or "none"
    shown = str(value).replace("_", " ")
    return shown[:1].upper() + shown[1:]


def title(name: str) -> str:
    """A field's or an action kind's name as a heading ("end_activation" -> "End activation")."""
    text = name.replace("_", " ").strip()
    return text[:1].upper() + text[1:]


def action_words(game: Game[Any, Any, Any], action: ActionModel) -> str:
    """An action in one line: its kind and each field's value in words."""
    parts = [f"{title(n)}: {words(game, n, _json(getattr(action, n)))}" for n in _fields(type(action))]
    return title(_kind(action)) + (" · " + " · ".join(parts) if parts else "")


def build(game: Game[Any, Any, Any], decision: Decision, picks: Sequence[Pick]) -> Asked:
    """What to ask after ``picks`` (see the module's docstring); :class:`BadPicks` when no legal
    action fits them."""
    _Narrowing(picks, None)  # the order of the picks, whatever the actions
    for name, value in picks:
        bound = decision.bound(name)
        if bound is not None and value not in bound:
            raise BadPicks(f"The {title(name).lower()} must be from {bound.low} to {bound.high}.")
    left, narrowing = _narrowed(picks, decision.choices)
    if not left or narrowing is None:
        raise BadPicks("That choice is not open any more (the match moved on, or the link was changed): choose again.")
    made = tuple(
        (title(n) if n != TYPE else "Action", title(str(v)) if n == TYPE else words(game, n, v))
        for n, v in picks
        if v != DONE
    )
    back = encode(picks[:-1]) if picks else None
    kinds = sorted({_kind(a) for a in left})
    if narrowing.kind is None and len(kinds) > 1:
        options = tuple(Option(title(k), k, json.dumps(k), encode([*picks, (TYPE, k)])) for k in kinds)
        return Asked(
            "What do you do?", TYPE, options, made, None, back, len(left), shortcuts=_shortcuts(game, left, picks)
        )
    model = type(left[0])
    for name in _fields(model):
        if name in narrowing.scalars or name in narrowing.closed:
            continue
        if is_list_field(model, name):
            asked = _next_item(game, name, left, narrowing.lists.get(name, []), picks)
        else:
            asked = _one_value(game, name, left, picks)
        if asked is not None:
            return Asked(asked[0], name, asked[1], made, None, back, len(left), decision.bound(name))
    # every field decided (by a pick, or by every action left agreeing): one action is left
    return Asked("Confirm your move", None, (), made, left[0], back, len(left))


def _shortcuts(game: Game[Any, Any, Any], left: Sequence[ActionModel], picks: Sequence[Pick]) -> tuple[Option, ...]:
    """For each kind, the values of its first one-value field (a model to select, a square to move
    to: even one), each as the picks of that kind and that value; a value two kinds share is left
    out (the player picks the kind)."""
    by_kind: dict[str, list[ActionModel]] = {}
    for action in left:
        by_kind.setdefault(_kind(action), []).append(action)
    found: dict[str, Option | None] = {}
    for kind, actions in sorted(by_kind.items()):
        model = type(actions[0])
        for name in _fields(model):
            if is_list_field(model, name):
                break
            values = {json.dumps(_json(getattr(a, name)), sort_keys=True): _json(getattr(a, name)) for a in actions}
            values.pop("null", None)
            for key, value in values.items():
                option = Option(words(game, name, value), value, key, encode([*picks, (TYPE, kind), (name, value)]))
                found[key] = None if key in found else option
            break
    return tuple(o for o in found.values() if o is not None)


def _one_value(game: Game[Any, Any, Any], name: str, left: Sequence[ActionModel], picks: Sequence[Pick]) -> Any:
    values: dict[str, Any] = {}
    for action in left:
        value = _json(getattr(action, name))
        values.setdefault(json.dumps(value, sort_keys=True), value)
    if len(values) == 1:
        return None  # every action left agrees: decided without asking
    options = tuple(
        Option(words(game, name, value), value, key, encode([*picks, (name, value)])) for key, value in values.items()
    )
    return f"Choose the {title(name).lower()}", options


def _next_item(
    game: Game[Any, Any, Any], name: str, left: Sequence[ActionModel], items: list[Any], picks: Sequence[Pick]
) -> Any:
    following: dict[str, Any] = {}
    can_stop = False
    full: set[str] = set()
    for action in left:
        have = _json(getattr(action, name))
        full.add(json.dumps(have, sort_keys=True))
        if len(have) == len(items):
            can_stop = True
        else:
            item = have[len(items)]
            following.setdefault(json.dumps(item, sort_keys=True), item)
    if len(full) == 1:
        return None  # every action left has the same list: decided without asking
    options = [
        Option(words(game, name, item), item, key, encode([*picks, (name, item)])) for key, item in following.items()
    ]
    if can_stop:
        label = "Done" if items else "None"
        options.append(Option(label, DONE, json.dumps(DONE), encode([*picks, (name, DONE)])))
    what = title(name).lower()
    question = f"Add to the {what} ({len(items)} so far)" if items else f"Choose the {what}"
    return question, tuple(options)


__all__ = [
    "DONE",
    "Asked",
    "BadPicks",
    "Option",
    "Pick",
    "action_words",
    "build",
    "decode",
    "encode",
    "with_typed",
    "is_list_field",
    "words",
]
