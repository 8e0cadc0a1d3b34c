"""Firewall's /howto entry: the one-screen summary with its picture's panels, and the tip for a
player's first match."""

from __future__ import annotations

from ..howto import HowTo, Step

HOWTO = HowTo(
    goal="Push the Fire Wall onto your rival: a wizard left standing on lava falls and loses.",
    turn=(
        "Both wizards secretly bet mana (1 to what they have) and lay spells face down. Reveal: the "
        "higher attack (bet + spells) pushes the wall one flagstone toward the other wizard, and "
        "**both** pay their bets. Identical spells cancel; the False Card bluffs."
    ),
    end=(
        "A round ends when the wall reaches a wizard, End of Round is cast or mana runs out; the "
        "wizards step back and the bridge loses a flagstone at each end. Mana resets to 50 each round."
    ),
    steps=(
        Step("fw-bridge", "19 flagstones, the Fire Wall in the middle"),
        Step("fw-bet", "Bet mana and lay spells in secret"),
        Step("fw-push", "Higher attack pushes the wall"),
        Step("fw-lava", "A wizard on lava falls and loses"),
    ),
)

#: the one thing a player must know in their first match (one line)
FIRST_MATCH_TIP = (
    "Both bets are paid whoever wins the turn, and mana only comes back (50) at the next round: "
    "do not spend it all at once."
)
