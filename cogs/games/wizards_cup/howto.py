"""Wizards Cup's /howto entry: the one-screen summary with its picture's panels, and the tip for a
player's first match."""

from __future__ import annotations

from ..howto import HowTo, Step

HOWTO = HowTo(
    goal="Build a team of 6 Wizards from your 18 cards and win 2 rounds (2 Victory tokens).",
    turn=(
        "Secretly order 5 of your 6 Wizards; the 6th is your face-down **Waiting card**. Then the "
        "first Wizards duel: **A.** Magic powers (Immediate, Permanent, Dormant), **B.** Element "
        "(Fire < Water < Nature < Fire; Shadow < Light; Light loses to Water, Fire and Nature; Void "
        "has no weakness), **C.** Value (equal: both lose). The loser goes to its discard pile, the "
        "winner stays and meets the next Wizard."
    ),
    end=(
        "A player who cannot send a new Wizard loses the round. Between rounds each player may swap "
        "one Deck card for one of their 12 others. Both reach 2 tokens at once: the lower Deck total wins."
    ),
    steps=(
        Step("wc-cards", "A Deck of 6: 1 drawn, 5 chosen of 18"),
        Step("wc-order", "Order 5; the 6th waits face down"),
        Step("wc-duel", "Duel: power, then Element, then Value"),
        Step("wc-cup", "2 Victory tokens win the Cup"),
    ),
)

#: the one thing a player must know in their first match (one line)
FIRST_MATCH_TIP = (
    "Once both teams are set you only watch: choose your 6 Wizards and the order of 5 with care; "
    "the 6th waits face down as your Waiting card."
)
