"""The practice hint's words (cogs/hints.py): the move in the prompt's words, a one-line reason
taken from what the computer's search found, the estimate in what it measures, and the Play this
button's stateless custom id."""

from __future__ import annotations

from bot.matches import Hint
from cogs.hints import hint_reason, hint_text, hint_view

SAID = "You bet 6 and lay down False Card (0), Recycle (6)."


def hint(**kw: object) -> Hint:
    base: dict[str, object] = dict(match_id=7, game="firewall", seat=0, seat_step=3, text=SAID, chance=0.74)
    base["action"] = {"type": "turn"}
    base.update(kw)
    return Hint(**base)  # type: ignore[arg-type]


def test_the_hint_is_told_in_the_prompts_words_with_one_line_why_and_a_play_this_button() -> None:
    h = hint(
        games=400,
        tries=250,
        runner_up={"type": "turn"},
        runner_up_text="You bet 3 and lay down Middle (5).",
        runner_up_chance=0.61,
        runner_up_tries=90,
    )
    text = hint_text(h)
    assert "You bet 6 and cast False Card (0), Recycle (6)." in text and "lay down" not in text
    (why,) = [line for line in text.splitlines() if line.startswith("Why:")]
    assert (
        why
        == "Why: in 400 games played out from here it won 74%; the next best (you bet 3 and cast Middle (5)) won 61%."
    )
    assert "Your chance to win from here, as the computer judges it: **74%**." in text
    (button,) = hint_view(h).children
    assert button.custom_id == "hintplay:7:0:3" and button.label == "Play this"


def test_the_reason_never_claims_more_than_the_search_found() -> None:
    assert hint_reason(hint(games=0)) == "Why: it is the only move you can make here."
    # Arena's normal level plays at once when all its scripts agree (rules.ai.arena_portfolio)
    agreed = hint_reason(hint(games=0, choices=12))
    assert agreed == "Why: every way of playing this turn the computer weighs starts with this move."
    alone = hint_reason(hint(games=50, tries=50))
    assert alone == "Why: the only move worth trying; in 50 games played out from here it won 74%."
    tie = hint_reason(hint(games=80, tries=50, runner_up={"type": "turn"}, runner_up_chance=0.741, runner_up_tries=30))
    assert "did about as well" in tie
    # the runner-up scored more on fewer tries: the reason says so instead of calling it worse
    odd = hint_reason(hint(games=80, tries=70, runner_up={"type": "turn"}, runner_up_chance=0.9, runner_up_tries=3))
    assert "won 90% but in only 3" in odd and "less sure" in odd


def test_at_a_table_a_score_is_the_share_of_players_finished_ahead_of() -> None:
    h = hint(
        game="magic-duel",
        text="You cast Codu.",
        seats=4,
        games=100,
        tries=60,
        runner_up={"type": "play"},
        runner_up_text="You cast Badef.",
        runner_up_chance=0.4,
        runner_up_tries=20,
    )
    text = hint_text(h)
    assert "finished ahead of 74% of the others" in text and "(you cast Badef) finished ahead of 40%" in text
    assert "you finish ahead of **74%** of the other players" in text and "chance to win" not in text


def test_an_arena_hint_where_the_scripts_agree_says_so_not_only_move() -> None:
    """The thinker counts the seat's moves: a search that played nothing out on a position with
    many moves is not called the only move."""
    import pickle

    from bot.thinker import hint as think_hint
    from rules.ai.arena_portfolio import proposals
    from rules.ai.ismcts import LEVELS
    from rules.ai.ismcts import search as tree_search
    from rules.arena.game import Phase
    from tests.rules.arena.helpers import W1, W2, duel, state, to_action

    m = duel("draconic_magus", "blood_mage", pos={W1: "E2", "p1-m1": "J1", W2: "E8", "p2-m1": "A10"})
    to_action(m, spell="arcane_rocket")
    st = state(m)
    for _ in range(30):
        if st.phase == Phase.ACTION and st.active == 0 and len(proposals(st, 0)) == 1 and len(st.legal_actions(0)) > 1:
            break
        m.apply(0, tree_search(st, 0, LEVELS["normal"], seed=1).action)
    else:
        raise AssertionError("no agreeing position")
    found = think_hint(pickle.dumps(st), 0, "normal", 1)
    assert found.games == 0 and found.choices == len(st.legal_actions(0)) > 1
