"""What the spell screen explains: why the chosen cards are no combination (so Cast stays
disabled), and why a tied trick is cast again.

Why cards are no combination comes from the rules (``rules.magic_duel.not_a_combination``, judged
by ``classify``); this module only places it on the screen.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules import fill_names
from rules.magic_duel import SeatView, classify, combinations_in
from rules.magic_duel.cards import labels

from ..base import EMBED_FIELD_VALUE, clip
from .cards import combo_text, who

#: The rule text on a tied trick (the game's rule on Badef, implemented by
#: docs/rulings/magic-duel.md#tied-trick), quoted as written (its spelling too).
TIE_RULE = (
    "Competing against any cantrip this combination always wins. Competing against any other "
    "combination among the above, the round is considered as tied and the players must replay "
    "immidiately, without gathering in the tricks or drawing any cards."
)
#: The rulings behind a tie the text does not spell out (docs/rulings/magic-duel.md).
TIE_RULINGS = {
    "badef_tie": "",
    "badef_vs_badef": "Badef against Badef is also a tie (ruling 19).",
}


def keep_instead(cards: Sequence[str]) -> str:
    """The strongest combination among ``cards`` worded as a hint (``Keep 3♦ 3♥ for a Codu.``);
    "" when only single cards are."""
    best: tuple[int, tuple[str, ...]] | None = None
    for combo in combinations_in(list(cards)):
        if len(combo) > 1 and (best is None or len(combo) > best[0]):
            best = (len(combo), combo)
    if best is None:
        return ""
    got = classify(best[1])
    assert got is not None  # combinations_in lists combinations only
    return f"Keep {labels(got.cards)} for a {got.kind.title}."


def tied_trick(view: SeatView) -> Mapping[str, Any] | None:
    """The tied cast of the trick being cast again (the view's ``last_trick``), or None when the
    current trick is no recast."""
    trick, last = view["trick"], view["last_trick"]
    if trick is None or not trick["replay"] or last is None or not last["tied"]:
        return None
    if last["hand"] != view["hand"] or last["trick"] != trick["number"]:
        return None
    return last


def recast_note(view: SeatView, names: Sequence[str]) -> tuple[str, str] | None:
    """The spell screen's "why is this trick cast again" (a field: name, value), or None."""
    last = tied_trick(view)
    if last is None:
        return None
    trick = view["trick"]
    assert trick is not None
    times = f" (tied {trick['replay']} times)" if trick["replay"] > 1 else ""
    lines = ["It was tied:"]
    lines += [f"{who(p['seat'], names)}: {combo_text(p['cards'])}" for p in last["plays"]]
    lines += ["", f"**Why:** {fill_names(last['reason'], names)}"]
    ruling = TIE_RULINGS.get(last["rule"], "")
    lines.append(f"> **Badef**, the rule text: *{TIE_RULE}*" + (f"\n{ruling}" if ruling else ""))
    seat = view["you"]["seat"]
    mine = next((p for p in last["plays"] if p["seat"] == seat), None)
    if mine is not None:
        back = "Your spell is back in your hand: cast any combination, and risk a card if you like."
        if mine["face_up"]:
            back += " The card you put on the Deck of Risk stays there."
        lines += ["", back]
    name = f"🔁 Trick {trick['number']} is cast again{times}"
    return name, clip("\n".join(lines), EMBED_FIELD_VALUE)
