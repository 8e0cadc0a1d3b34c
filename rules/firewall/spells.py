"""The Firewall spell catalogue: number, name, kind and a short text (the project's own wording).

The number is the card's priority: the spells of a turn apply in ascending number. The UI shows
``SPELLS[n].text``.
"""

from __future__ import annotations

from dataclasses import dataclass

FALSE_CARD = 0
MUTENESS = 1
CLONE = 2
LARCENY = 3
END_OF_ROUND = 4
MIDDLE = 5
RECYCLE = 6
ATTACK_BOOST = 7
DOUBLE_DOSE = 8
WINNER_LOSES = 9
INFERNO = 10
RESISTANCE = 11
BAD_LOSER = 12
RESERVE_BOOST = 13
SUCTION = 14

#: The 14 real spells of each player's deck (the false card 0 is kept apart).
DECK: tuple[int, ...] = tuple(range(1, 15))


@dataclass(frozen=True)
class Spell:
    number: int
    name: str
    text: str
    #: Applied by default when stolen with Larceny and the larcener's time runs out: spells that
    #: only ever help the one who casts them (see docs/rulings/firewall.md).
    selfish: bool = False


SPELLS: dict[int, Spell] = {
    s.number: s
    for s in (
        Spell(0, "False Card", "Does nothing; hides whether you really cast spells. It always comes back to you."),
        Spell(1, "Muteness", "Every other spell has no effect for the rest of the round, this turn included."),
        Spell(2, "Clone", "Copy a spell your opponent played on the previous turn; it works for you at its number."),
        Spell(3, "Larceny", "Take the spells your opponent casts this turn: apply each for yourself, or discard it."),
        Spell(4, "End of Round", "The round stops now: the wall stays put, no bets are paid, later spells are lost."),
        Spell(5, "Middle", "The wall jumps back to where it stood when the round began; the turn goes on."),
        Spell(6, "Recycle", "Change your bet by up to 5 mana either way; you fight and pay with the new bet."),
        Spell(7, "Attack Boost", "Your attack gets +7 (you still pay only your bet).", selfish=True),
        Spell(8, "Double Dose", "Your attack is doubled (you still pay only your bet).", selfish=True),
        Spell(9, "Winner Loses", "If the wall is going to move, it moves toward the stronger attacker instead."),
        Spell(10, "Inferno", "If the wall is due to move, it moves two flagstones (stopping on a wizard it reaches)."),
        Spell(11, "Resistance", "The wall cannot move toward you this turn.", selfish=True),
        Spell(12, "Bad Loser", "If the wall moves toward you this turn, you do not pay your bet.", selfish=True),
        Spell(13, "Reserve Boost", "Gain 13 mana (never above 50).", selfish=True),
        Spell(14, "Suction", "Gain as much mana as your opponent bet (never above 50).", selfish=True),
    )
}


def spell_name(number: int) -> str:
    spell = SPELLS.get(number)
    return spell.name if spell else f"card {number}"


#: "Attack Boost (7)": how ``names`` shows each spell.
_LABELS: dict[int, str] = {n: f"{spell.name} ({n})" for n, spell in SPELLS.items()}


def names(numbers: list[int] | tuple[int, ...]) -> str:
    """ "Attack Boost (7), Double Dose (8)" - or "no spell"."""
    if not numbers:
        return "no spell"
    try:
        return ", ".join([_LABELS[n] for n in numbers])
    except KeyError:  # not a card: said as it is
        return ", ".join(f"{spell_name(n)} ({n})" for n in numbers)
