"""Arena's prompts: the first screen of what a seat is asked, and the handlers of its clicks.

Arena is open information, so the awaited player's prompt is posted in the channel; only that player
may use its components (the platform checks). What the seat is asked is the engine's decision
(``ctx.decision``): its ``kind`` picks the screen (``screens.SCREENS``; a kind this UI does not know
gets one button per legal action), every control is built from its ``choices`` (the seat's legal
actions) and every click is checked against them, so only legal squares, targets and choices are
ever offered, and a refused click says why. Player 1 and Player 2 are roles (the view's
``player_one``); the screens follow whoever is asked.

Custom ids. Every component's custom_id is ``m:<match>:<seat>:<step>:<payload>`` (``ctx.cid``). A
prompt is stateless: a screen's state is in its payloads, so a prompt works after a restart. A
payload is ``<head>`` or ``<head>.<arg>``; ``HANDLERS`` maps each head to its handler, and a head
not in it is refused ("That button does not belong to this prompt."). The grammar (messages already
posted carry these payloads, so none may change meaning):

    payload          control  meaning
    back             button   the prompt's first screen again (from a second screen)
    dsel             select   show a Discipline's card (value: the Discipline id)
    dok.<did>        button   choose Discipline <did>
    dnm.<did>        button   choose it and name the Wizard: asks for text (payload dname.<did>)
    dname.<did>      modal    the Wizard's name (value: the text)
    rt               button   a random terrain layout, mirrored about the centre
    edge.<side>      button   the starting edge: north, south, west or east
    col.<kind>       select   a square, step 1: its column (value "C"); the next screen has sq.<kind>
    sq.<kind>        select   a square (value "C4"); a move (sq.mv) first shows the confirm screen
    okm.<square>     button   confirm the move to <square> (e.g. okm.C4)
    fav.<points>     button   spend Crowd Favour on the crowd (0: keep it)
    sp.<spell>       button   the spell of the turn (a spell id)
    rr.<die>         button   the hometown chant: re-roll die <die> (from 0)
    sb               button   the Noble Scholar's +2 to the roll
    sb.<die>         button   the Noble Scholar's +2 to die <die> (from 0)
    bp               button   the Blood Mage's sacrifice: D6 damage for an extra die (when it can
                              knock out your own Wizard, first the confirm screen)
    bpok             button   the Blood Mage's sacrifice, confirmed on the warning's screen
    decl             button   decline the follow-up (keep the roll, stay, end the Domination ...)
    act              select   the target of the Action (value: a model id, e.g. p2-m1): shows the
                              confirm screen
    oka.<model>      button   confirm the Action on <model> (a model id, e.g. oka.p2-m1)
    actn             button   the Action without a target
    ext              button   put out the flames
    ea               button   end the activation
    sel.<model>      button   activate a model, or switch to it (a model id)
    et               button   end the turn (asks to confirm while models can still move or act)
    etok             button   end the turn, confirmed
    any.<i>          button   the fallback screen: legal action number <i> (from 0)

Confirm screens (``confirm``): a move, an Action on a target and a sacrifice that can knock out
the player's own Wizard are shown with their cost before they commit: Confirm (``okm``, ``oka``,
``bpok``) or Back (``back``). They belong to the prompt's step, so a Confirm clicked again after
the choice committed is out of date. Messages posted before the confirm step carry ``sq.mv`` and
``act`` selects: those now open the confirm screen (nothing commits without it).

Square kinds (``col.<kind>``, ``sq.<kind>``; ``controls.SQUARE_KINDS``): ``mv`` move, ``ws``
witch step, ``tp`` teleport, ``pm`` place a Minion (Necromancer), ``pt`` place terrain, ``dw`` /
``dm`` deploy the Wizard / the Minion, ``su`` summon a Minion.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from annotated_types import MaxLen

from rules import ActionModel
from rules.arena import (
    Act,
    BloodPact,
    ChooseDiscipline,
    ChooseEdge,
    ChooseSpell,
    Decline,
    EndActivation,
    EndTurn,
    Extinguish,
    Move,
    RandomTerrain,
    Reroll,
    ScholarBonus,
    SelectModel,
    SpendFavour,
    label,
    parse_label,
)
from rules.arena.actions import Edge

from ..base import AskText, Prompt, PromptContext, Submit, clip
from .confirm import act_confirm, move_confirm, pact_confirm, pact_warning
from .controls import SQUARE_KINDS, Ctx
from .screens import (
    EDGE_TEXT,
    FOREIGN,
    SCREENS,
    discipline_card_screen,
    end_turn_confirm,
    fallback_screen,
    legal_of,
    row_screen,
)
from .text import DATA

Reply = Submit | Prompt | AskText
Handler = Callable[[PromptContext, str, Sequence[str]], Reply]

TARGET_REFUSED = "That target is out of range, obscured or not allowed; choose another."
#: The longest Wizard's name the rules accept (``ChooseDiscipline.name``).
NAME_MAX = next(m.max_length for m in ChooseDiscipline.model_fields["name"].metadata if isinstance(m, MaxLen))


def prompt(ctx: Ctx) -> Prompt:
    """The first screen of what the seat is asked now."""
    legal = legal_of(ctx)
    if ctx.decision is None or not legal:
        return Prompt("Nothing to decide right now. Watch the board!")
    screen = SCREENS.get(ctx.decision.kind, fallback_screen)
    return screen(ctx, legal)


# ------------------------------------------------------------------------------ clicks


def handle(ctx: Ctx, payload: str, values: Sequence[str]) -> Reply:
    """A click (``payload``, the values of a select or a modal's text): the handler of its head."""
    head, _, arg = payload.partition(".")
    handler = HANDLERS.get(head)
    if handler is None:
        raise ValueError(FOREIGN)
    return handler(ctx, arg, values)


def _submit(ctx: Ctx, action: ActionModel, why: str = "That choice is not legal now.") -> Submit:
    """Submit ``action`` if it is one of the decision's choices; else refuse with ``why``."""
    if action not in legal_of(ctx):
        raise ValueError(why)
    return Submit(action)


def _fixed(make: Callable[[], ActionModel], why: str = "That choice is not legal now.") -> Handler:
    """A button for one action, whatever its payload's argument."""
    return lambda ctx, arg, values: _submit(ctx, make(), why)


def _of_arg(make: Callable[[str], ActionModel], why: str = "That choice is not legal now.") -> Handler:
    """A button for the action its payload's argument names (``sp.<spell>``, ``rr.<die>`` ...)."""
    return lambda ctx, arg, values: _submit(ctx, make(arg), why)


def _back(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    return prompt(ctx)


def _show_card(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    return discipline_card_screen(ctx, values[0] if values else "")


def _ask_name(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    if arg not in DATA.disciplines:
        raise ValueError("Unknown Discipline.")
    return AskText(
        f"Name your {DATA.disciplines[arg].name}",
        "Your Wizard's name",
        f"dname.{arg}",
        placeholder="e.g. Morgana the Bold",
        max_length=NAME_MAX,
    )


def _named(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    name = " ".join((values[0] if values else "").split())
    if not name:
        raise ValueError("The name may not be blank.")
    if len(name) > NAME_MAX:
        raise ValueError(f"A Wizard's name has at most {NAME_MAX} characters.")
    if ChooseDiscipline(discipline=arg) not in legal_of(ctx):
        raise ValueError("That Discipline cannot be chosen now.")
    return Submit(ChooseDiscipline(discipline=arg, name=name))


def _edge(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    if arg not in EDGE_TEXT:
        raise ValueError("Unknown edge.")
    return _submit(ctx, ChooseEdge(side=cast(Edge, arg)))


def _column(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    if arg not in SQUARE_KINDS or not values:
        raise ValueError(FOREIGN)
    return row_screen(ctx, arg, values[0])


def _at(text: str) -> tuple[int, int]:
    try:
        return parse_label(text)
    except (ValueError, IndexError) as e:
        raise ValueError(f"{clip(text, 20)!r} is not a square.") from e


def _square(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    """A square: a move shows the confirm screen, the other kinds commit."""
    if arg not in SQUARE_KINDS or not values:
        raise ValueError(FOREIGN)
    at = _at(values[0])
    submit = _submit(ctx, SQUARE_KINDS[arg].action(at), f"{label(at)} is not a legal square now; choose another.")
    return move_confirm(ctx, at) if arg == "mv" else submit


def _confirm_move(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    at = _at(arg)
    return _submit(ctx, Move(to=at), f"{label(at)} is not a legal square now; choose another.")


def _target(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    """A target: the confirm screen of the Action on it."""
    target = values[0] if values else ""
    _submit(ctx, Act(target=target), TARGET_REFUSED)
    return act_confirm(ctx, target)


def _confirm_target(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    return _submit(ctx, Act(target=arg), TARGET_REFUSED)


def _blood_pact(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    """The sacrifice: the confirm screen first when it can knock out the player's own Wizard."""
    submit = _submit(ctx, BloodPact())
    return pact_confirm(ctx) if pact_warning(ctx) is not None else submit


def _end_turn(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    """End the turn, after a confirmation while a model can still be activated, move or act."""
    legal = legal_of(ctx)
    if any(isinstance(a, SelectModel | Move | Act) for a in legal):
        return end_turn_confirm(ctx)
    return _submit(ctx, EndTurn())


def _any(ctx: Ctx, arg: str, values: Sequence[str]) -> Reply:
    legal = legal_of(ctx)
    i = int(arg)
    if not 0 <= i < len(legal):
        raise ValueError("That choice is out of date.")
    return Submit(legal[i])


#: The handler of each payload head (the grammar is in the module docstring).
HANDLERS: dict[str, Handler] = {
    "back": _back,
    "dsel": _show_card,
    "dok": _of_arg(lambda d: ChooseDiscipline(discipline=d), "That Discipline cannot be chosen now."),
    "dnm": _ask_name,
    "dname": _named,
    "rt": _fixed(RandomTerrain, "Terrain has been placed already: place the rest by hand."),
    "edge": _edge,
    "col": _column,
    "sq": _square,
    "okm": _confirm_move,
    "fav": _of_arg(lambda n: SpendFavour(points=int(n)), "You cannot spend that much Crowd Favour."),
    "sp": _of_arg(lambda s: ChooseSpell(spell=s), "That spell is not among your options this turn."),
    "rr": _of_arg(lambda n: Reroll(die=int(n))),
    "sb": _of_arg(lambda n: ScholarBonus(die=int(n)) if n else ScholarBonus()),
    "bp": _blood_pact,
    "bpok": _fixed(BloodPact),
    "decl": _fixed(Decline),
    "act": _target,
    "oka": _confirm_target,
    "actn": _fixed(Act),
    "ext": _fixed(Extinguish),
    "ea": _fixed(EndActivation),
    "sel": _of_arg(lambda m: SelectModel(model=m), "That model cannot be activated now."),
    "et": _end_turn,
    "etok": _fixed(EndTurn),
    "any": _any,
}
