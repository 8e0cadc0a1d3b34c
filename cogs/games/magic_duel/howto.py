"""Magic Duel's /howto entry: the one-screen summary with its picture's panels, and the tip for a
player's first match."""

from __future__ import annotations

from ..howto import HowTo, Step

HOWTO = HowTo(
    goal="Win tricks with spells made of playing cards; the first to the target score (default 3) wins.",
    turn=(
        "Each trick every wizard casts one combination: ✨ Cantrip (1 card), ⚡ Codu (2 of a value), "
        "🔥 Thrack (3), 💥 Raquav (4), 🛡️ Badef (a Joker), 🌟 Jokulme (both Jokers). The strongest "
        "combination wins the trick (same kind: higher value; an Ace beats a King). Then everyone "
        "refills to 7, from the Deck of Advantage or the Deck of Risk."
    ),
    end=(
        "Drawing the Cursed Spell closes the decks: one last trick, then the hand is scored: most "
        "tricks = 1 point, +1 per wizard with no trick."
    ),
    steps=(
        Step("md-hand", "Hold 7 cards"),
        Step("md-combos", "Cast one combination a trick"),
        Step("md-trick", "The strongest spell wins the trick"),
        Step("md-score", "Most tricks scores; first to 3 wins"),
    ),
)

#: the one thing a player must know in their first match (one line)
FIRST_MATCH_TIP = (
    "Cast one combination per trick (1, 2, 3 or 4 cards of one value); the most tricks scores, "
    "so keep strong combinations for tricks you can win."
)
