"""An Arena match at its extremes (tests/cogs/test_arena_art.py, tests/cogs/test_picture_legibility.py): the
longest Wizard names, 2-digit Minion numbers and Health, every effect, 2-digit Crowd Favour, and a
tied Fire Breath that explodes for double damage."""

from __future__ import annotations

from cogs.games.arena.prompts import NAME_MAX
from rules.arena import Effect
from tests.rules.arena import helpers
from tests.rules.arena.helpers import M1, M2, W1, W2, duel, to_action


def extremes(m, names_len: int = NAME_MAX) -> None:
    """Both Wizards named as long as allowed, Minions numbered 12 with 12 Health, every effect on a
    Minion, 2-digit Crowd Favour."""
    st = helpers.state(m)
    st.players[0].wizard_name = "A" * names_len
    st.players[1].wizard_name = "Ŵ" * names_len
    free = [(x, y) for x in range(st.size) for y in range(st.size) if st.is_free((x, y))]
    for seat in (0, 1):
        st.players[seat].minion_count = 11
        x, y = free[seat]
        mid = helpers.add_minion(m, seat, f"{chr(65 + x)}{y + 1}")
        st.models[mid].health = st.models[mid].max_health = 12
        for kind in ("burning", "vines", "torment", "crippled", "hypnotic", "curse", "empower", "insult", "shield"):
            st.models[mid].effects.append(Effect(kind))
    st.players[0].favour, st.players[1].favour = 99, 88


def extreme_match():
    """Player 1's Draconic Magus against Player 2's Metallurgist (three-dice opposed rolls), with the
    extremes, and a Fire Breath that ties and explodes for double damage."""
    m = duel("draconic_magus", "metallurgist", pos={W1: "E4", W2: "E7", M1: "A1", M2: "F7"})
    extremes(m)
    to_action(m, spell="fire_breath", dice=(3, 3))
    events = helpers.act(m, W1, target=W2) + helpers.roll(m, 3, 3, 1)  # Skill 7 against Defence 7: a tie
    events += helpers.roll(m, 6, 1) + helpers.roll(m, 3, 3)  # the explosion goes to Ann: 12 damage
    return m, events
