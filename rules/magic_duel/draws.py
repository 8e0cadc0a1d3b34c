"""Drawing cards in Magic Duel: from the Deck of Risk and the Deck of Advantage, the extra card of
advantage of a trick's winner, and the Cursed Spell that closes both decks."""

from __future__ import annotations

from ..core import Event
from .cards import CURSE, labels
from .table import ONLY_SEAT, SEAT_REF, MagicDuelTable


def draw(table: MagicDuelTable, seat: int, from_risk: int, from_adv: int, extra: bool = False) -> list[Event]:
    """``seat`` draws ``from_risk`` cards from the Deck of Risk, then ``from_adv`` from the Deck of
    Advantage, stopping at the Cursed Spell (which closes the decks)."""
    risk = table.risk
    if from_risk:
        if from_risk > len(risk):
            raise IndexError("pop from empty list")
        got_risk = risk[:from_risk]
        del risk[:from_risk]
    else:
        got_risk = []
    adv = table.advantage
    got_adv = adv[:from_adv]
    cursed = CURSE in got_adv
    if cursed:
        i = got_adv.index(CURSE)
        del got_adv[i:]
        del adv[: i + 1]
    else:
        if len(got_adv) < from_adv:
            raise IndexError("pop from empty list")
        del adv[:from_adv]
    got = got_risk + got_adv
    hand = table.hands[seat]
    hand += got
    who = SEAT_REF[seat]
    events: list[Event] = []
    if (got or not cursed) and table.narrate:
        what = (
            "the extra card of advantage"
            if extra
            else f"{len(got_risk)} from the Deck of Risk and {len(got_adv)} from the Deck of Advantage"
        )
        events.append(
            Event(
                "extra_card" if extra else "draw",
                f"{who} draws {what}.",
                {
                    "seat": seat,
                    "risk": len(got_risk),
                    "advantage": len(got_adv),
                    "hand_size": len(hand),
                    "risk_deck": len(risk),
                    "advantage_deck": len(adv),
                },
            )
        )
        events.append(
            Event(
                "draw_private",
                f"You draw {labels(got) or 'nothing'}.",
                {"seat": seat, "from_risk": got_risk, "from_advantage": got_adv, "extra": extra},
                ONLY_SEAT[seat],
            )
        )
    if cursed:
        table.cursed_by = seat
        events.append(
            Event(
                "cursed_spell",
                f"{who} draws the Cursed Spell! Both decks are closed: one last trick with the cards in hand.",
                {
                    "seat": seat,
                    "hand_size": len(hand),
                    "risk_deck": len(risk),
                    "advantage_deck": len(adv),
                    "hand_sizes": [len(h) for h in table.hands],
                },
            )
        )
    return events
