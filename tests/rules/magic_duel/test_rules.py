"""Magic Duel rule scenarios. Each test cites the ruling it checks (``docs/rulings/magic-duel.md#<anchor>``),
whose *Rule:* line says which part of the game's rules it implements; a short quote may follow."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from rules.core import CHANCE, Forfeit, Result
from rules.errors import GameOver, IllegalAction, MalformedAction, NotYourTurn
from rules.magic_duel import (
    CURSE,
    Deal,
    Draw,
    MagicDuel,
    Phase,
    PlayCards,
    classify,
    combinations_in,
    deck_ids,
    parse_card,
)
from rules.magic_duel.tricks import end_hand
from rules.match import Match, MatchLog

from .helpers import accounting, arrange, draw, kinds, make_deal, play, public, start, trick, verdict

ROOT = Path(__file__).resolve().parents[3]


# ---------------------------------------------------------------------------- cards and set-up


def test_card_ids_one_and_two_decks():
    # docs/rulings/magic-duel.md#decks "one 54-card deck (52 + 2 Jokers)"; docs/rulings/magic-duel.md#card-ids
    one = deck_ids(1)
    assert len(one) == 54 and len(set(one)) == 54
    assert {"AS", "10H", "QC", "KD", "JK1", "JK2"} <= set(one)
    two = deck_ids(2)
    assert len(two) == 108 and len(set(two)) == 108 and {"AS#2", "JK1#2", "10H#2"} <= set(two)
    assert parse_card("10H").value == 10 and parse_card("AS").value == 1 and parse_card("KC").value == 13
    assert parse_card("JK2#2").joker and parse_card("JK2#2").deck == 2
    for bad in ("CURSE", "1H", "11S", "AX", "AS#1", "AS#x", "", "JK3"):
        assert parse_card(bad) is None


@pytest.mark.parametrize("n", range(2, 9))
def test_set_up_for_2_to_8_players(n):
    # docs/rulings/magic-duel.md#the-deal: 7 cards each, one card per player to the Deck of Risk
    # docs/rulings/magic-duel.md#cursed-spell-card: one Cursed Spell whatever the number of decks
    # docs/rulings/magic-duel.md#decks: one deck for 2 to 5 players, two for 6 to 8;
    # docs/rulings/magic-duel.md#player-count
    m = Match.new("magic-duel", seed=n, seats=[f"P{i}" for i in range(n)])
    st = m.state
    decks = 1 if n <= 5 else 2
    assert st.game.decks == decks
    assert all(len(h) == 7 for h in st.hands)
    assert len(st.risk) == n
    assert st.advantage.count(CURSE) == 1
    assert len(st.advantage) == 54 * decks - 8 * n + 1
    accounting(st)
    v = m.state.view(None)
    assert v["decks"] == {"risk": n, "advantage": len(st.advantage), "closed": False}
    assert v["turn_order"] == list(range(n)) and v["leader"] == 0 and v["to_act"] == 0
    assert m.log[0].seat == CHANCE and m.log[0].action["type"] == "deal"


def test_options_decks_and_points():
    # docs/rulings/magic-duel.md#decks, docs/rulings/magic-duel.md#points-to-win (default 3),
    # docs/rulings/magic-duel.md#player-count
    assert MagicDuel({}, 4).options.points_to_win == 3
    assert MagicDuel({"decks": 2}, 3).decks == 2
    with pytest.raises(IllegalAction, match="cannot deal 7 cards to each of 7 players"):
        MagicDuel({"decks": 1}, 7)
    with pytest.raises(MalformedAction):
        MagicDuel({"points_to_win": 0}, 2)
    with pytest.raises(MalformedAction):
        MagicDuel({"jokers": 3}, 2)
    with pytest.raises(IllegalAction, match="2 to 8 players"):
        MagicDuel({}, 9)


def test_a_bad_deal_is_refused():
    # docs/rulings/magic-duel.md#the-deal and docs/rulings/magic-duel.md#cursed-spell-card: the Curse is in the Deck of
    # Advantage only
    m = Match(MagicDuel({}, 2), 0, ["a", "b"])
    good = make_deal(m.game)
    hand0 = list(good.hands[0])
    no_curse = tuple(c for c in good.advantage if c != CURSE)
    bad_curse = Deal(hands=((CURSE, *hand0[1:]), good.hands[1]), risk=good.risk, advantage=(hand0[0], *no_curse))
    with pytest.raises(IllegalAction, match="Cursed Spell"):
        m.apply(CHANCE, bad_curse)
    short = Deal(hands=(tuple(hand0[:6]), good.hands[1]), risk=good.risk, advantage=good.advantage)
    with pytest.raises(IllegalAction, match="must be dealt 7 cards"):
        m.apply(CHANCE, short)
    twice = Deal(hands=((hand0[1], *hand0[1:]), good.hands[1]), risk=good.risk, advantage=good.advantage)
    with pytest.raises(IllegalAction, match="every card exactly once"):
        m.apply(CHANCE, twice)
    with pytest.raises(IllegalAction, match="one card per player"):
        m.apply(CHANCE, Deal(hands=good.hands, risk=good.risk[:1], advantage=(good.risk[1], *good.advantage)))
    with pytest.raises(IllegalAction, match="too many outcomes"):
        m.state.legal_actions(CHANCE)
    with pytest.raises(IllegalAction, match="referee"):
        m.state._check(0, good)
    m.apply(CHANCE, good)
    assert m.state.phase is Phase.TRICK


# ---------------------------------------------------------------------------- combinations


def test_combinations_recognised():
    # docs/rulings/magic-duel.md#combinations: Cantrip one card, Codu/Thrack/Raquav 2/3/4 of a value, Badef one Joker,
    # Jokulme two Jokers
    assert classify(["7H"]).kind.title == "Cantrip"
    assert classify(["7H", "7C"]).kind.title == "Codu"
    assert classify(["7H", "7C", "7S"]).kind.title == "Thrack"
    assert classify(["7H", "7C", "7S", "7D"]).kind.title == "Raquav"
    assert classify(["JK1"]).kind.title == "Badef"
    assert classify(["JK1", "JK2"]).kind.title == "Jokulme"
    for bad in (["7H", "8H"], ["7H", "JK1"], ["JK1", "JK2", "JK1#2"], ["7H", "7C", "7S", "7D", "7H#2"], ["7H", "7H"]):
        assert classify(bad) is None
    hand = ["7H", "7C", "7S", "JK1", "JK2", "KD"]
    combos = {tuple(sorted(c)) for c in combinations_in(hand)}
    assert ("JK1", "JK2") in combos and ("7C", "7H", "7S") in combos and ("KD",) in combos
    assert len(combos) == 2 + 1 + 3 + 3 + 1 + 1  # 2 Badef, Jokulme, 3 sevens, 3 Codu, Thrack, K


KIND_CARDS = {
    # (first player's cards, second player's cards); values 9 vs 5 so "higher value" is the first
    "Cantrip": (["9S"], ["5S"]),
    "Codu": (["9S", "9H"], ["5S", "5H"]),
    "Thrack": (["9S", "9H", "9D"], ["5S", "5H", "5D"]),
    "Raquav": (["9S", "9H", "9D", "9C"], ["5S", "5H", "5D", "5C"]),
    "Badef": (["JK1"], ["JK1#2"]),
    "Jokulme": (["JK1", "JK2"], ["JK1#2", "JK2#2"]),
}
STRENGTH = {"Cantrip": 1, "Codu": 2, "Thrack": 3, "Raquav": 4}


def expected(a: str, b: str) -> tuple[str, int | None]:
    """The seed's answer for seat 0 casting kind a, seat 1 kind b: (rule, winner or None = tie)."""
    if a == "Jokulme":
        return ("first_jokulme" if b == "Jokulme" else "jokulme"), 0
    if b == "Jokulme":
        return "jokulme", 1
    if a == "Badef" and b == "Badef":
        return "badef_vs_badef", None
    if "Badef" in (a, b):
        other = b if a == "Badef" else a
        if other == "Cantrip":
            return "badef_over_cantrip", (0 if a == "Badef" else 1)
        return "badef_tie", None
    if a == b:
        return "higher_value", 0
    return "stronger_kind", (0 if STRENGTH[a] > STRENGTH[b] else 1)


@pytest.mark.parametrize("a", list(KIND_CARDS))
@pytest.mark.parametrize("b", list(KIND_CARDS))
def test_every_combination_against_every_other(a, b):
    # docs/rulings/magic-duel.md#kind-order, docs/rulings/magic-duel.md#jokulme (the first Jokulme wins),
    # docs/rulings/magic-duel.md#badef-with-three-players (Badef beats a Cantrip, ties the rest; Badef against Badef
    # ties)
    m, events = trick([KIND_CARDS[a][0], KIND_CARDS[b][1]], options={"decks": 2})
    rule, winner = expected(a, b)
    v = verdict(events)
    assert v["rule"] == rule, v["reason"]
    if winner is None:
        assert v["kind"] == "trick_tied"
        # docs/rulings/magic-duel.md#tied-trick: replayed at once, nothing gathered or drawn
        assert m.state.tricks_count() == [0, 0]
        assert set(KIND_CARDS[a][0]) <= set(m.state.hands[0]) and set(KIND_CARDS[b][1]) <= set(m.state.hands[1])
        assert m.awaiting.seats == {0} and m.state.trick.replay == 1 and m.state.trick.number == 1
        assert "replay" in kinds(events) and "draw" not in kinds(events)
    else:
        assert v["kind"] == "trick_won" and v["winner"] == winner
        assert m.state.tricks_count()[winner] == 1
        assert v["combination"] == (a if winner == 0 else b)
    accounting(m.state)


@pytest.mark.parametrize("a", ["Cantrip", "Codu", "Thrack", "Raquav"])
def test_same_kind_lower_value_loses_whoever_casts_first(a):
    # docs/rulings/magic-duel.md#value-and-suit-order "A < 2 < ... < K", whoever casts first
    _, events = trick([KIND_CARDS[a][1], KIND_CARDS[a][0]])
    v = verdict(events)
    assert v["winner"] == 1 and v["rule"] == "higher_value"


def test_value_order_of_cantrips():
    # docs/rulings/magic-duel.md#value-and-suit-order: A < 2 < ... < Q < K
    ranks = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q"]
    for lo, hi in zip(ranks, ranks[1:], strict=False):
        _, events = trick([[f"{hi}D"], [f"{lo}C"]])
        assert verdict(events)["winner"] == 0, (lo, hi)
    _, events = trick([["QC"], ["KD"]])
    assert verdict(events)["winner"] == 1


# ---------------------------------------------------------------------------- exceptions


@pytest.mark.parametrize("order", [0, 1])
def test_ace_beats_king(order):
    # docs/rulings/magic-duel.md#ace-over-king "the ace wins the round"
    plays = [["AD"], ["KC"]] if order == 0 else [["KC"], ["AD"]]
    _, events = trick(plays)
    v = verdict(events)
    assert v["rule"] == "ace_over_king" and plays[v["winner"]] == ["AD"]


def test_ace_codu_beats_king_codu_but_not_a_kind_above():
    # docs/rulings/magic-duel.md#ace-over-king: the same rules among Codus
    _, events = trick([["KC", "KS"], ["AD", "AH"]])
    assert verdict(events)["winner"] == 1 and verdict(events)["rule"] == "ace_over_king"
    # docs/rulings/magic-duel.md#ace-over-king: between combinations of the same kind only: a Codu of Kings beats a lone
    # Ace
    _, events = trick([["KC", "KS"], ["AD"]])
    assert verdict(events)["winner"] == 0 and verdict(events)["rule"] == "stronger_kind"


def test_ace_and_king_cantrips_the_ace_wins_the_round_whatever_else_is_cast():
    # docs/rulings/magic-duel.md#ace-over-king: among Cantrips the Ace wins the round even against a middle card
    # (a deliberate change: before, the Kings were out and the Queen won; see the ruling)
    _, events = trick([["AD"], ["KC"], ["QS"]])
    v = verdict(events)
    assert v["winner"] == 0 and v["rule"] == "ace_over_king" and v["kings_out"] == [1] and v["runner_up"] == 1
    assert "the Ace wins the trick" in v["reason"]
    _, events = trick([["QS"], ["JH"], ["KC"], ["AH"]])  # whoever casts first
    v = verdict(events)
    assert v["winner"] == 3 and v["rule"] == "ace_over_king" and v["kings_out"] == [2]
    _, events = trick([["KC"], ["AD"], ["KS"]])
    v = verdict(events)
    assert v["winner"] == 1 and v["rule"] == "ace_over_king" and v["kings_out"] == [0, 2]
    _, events = trick([["AD"], ["KC"], ["QS"], ["AC"]])  # two Aces: suits decide between them
    v = verdict(events)
    assert v["winner"] == 3 and v["rule"] == "ace_over_king" and "Of the Aces" in v["reason"]
    _, events = trick([["AD"], ["2C"], ["QS"]])  # no King: the Ace is the lowest card
    assert verdict(events)["winner"] == 2
    # a stronger kind still wins: a Codu beats the Ace and King Cantrips
    _, events = trick([["AD"], ["KC"], ["5S", "5H"]])
    v = verdict(events)
    assert v["winner"] == 2 and v["rule"] == "stronger_kind" and v["runner_up"] == 0


def test_ace_over_king_among_codus_with_three_players():
    # docs/rulings/magic-duel.md#ace-over-king-three-players: among Codus (and up) with an Ace, a King and a
    # middle one (none unbeaten) the Kings are out and the normal order decides
    _, events = trick([["AD", "AH"], ["KC", "KS"], ["QS", "QH"]])
    v = verdict(events)
    assert v["winner"] == 2 and v["kings_out"] == [1] and v["rule"] == "higher_value"
    _, events = trick([["AD", "AH"], ["KC", "KS"], ["AC", "AS"]])
    v = verdict(events)
    assert v["winner"] == 2 and v["rule"] == "ace_over_king"


def test_suits_break_ties():
    # docs/rulings/magic-duel.md#value-and-suit-order "♦ < ♥ < ♠ < ♣"
    suits = ["D", "H", "S", "C"]
    for i, lo in enumerate(suits):
        for hi in suits[i + 1 :]:
            _, events = trick([[f"7{hi}"], [f"7{lo}"]])
            assert verdict(events)["winner"] == 0 and verdict(events)["rule"] == "higher_suit"
            _, events = trick([[f"7{lo}"], [f"7{hi}"]])
            assert verdict(events)["winner"] == 1
    # docs/rulings/magic-duel.md#suits-of-a-combination: the highest suit of each combination first
    _, events = trick([["7S", "7H"], ["7C", "7D"]])
    assert verdict(events)["winner"] == 1


def test_exact_duplicates_and_next_suit_with_two_decks():
    # docs/rulings/magic-duel.md#exact-duplicates: the one cast first wins
    _, events = trick([["7C#2"], ["7C"]])
    v = verdict(events)
    assert v["winner"] == 0 and v["rule"] == "played_first"
    _, events = trick([["7C", "7D"], ["7C#2", "7D#2"]])
    assert verdict(events)["winner"] == 0 and verdict(events)["rule"] == "played_first"
    # docs/rulings/magic-duel.md#suits-of-a-combination: same highest suit, the next suit down decides before "played
    # first"
    _, events = trick([["7C", "7D"], ["7C#2", "7H"]])
    assert verdict(events)["winner"] == 1 and verdict(events)["rule"] == "higher_suit"


def test_jokulme_against_everything_and_first_jokulme():
    # docs/rulings/magic-duel.md#jokulme: wins any combination; of several, the first cast wins
    _, events = trick([["5S", "5H", "5D", "5C"], ["JK1", "JK2"], ["JK1#2"]])
    assert verdict(events)["winner"] == 1 and verdict(events)["rule"] == "jokulme"
    _, events = trick([["KS"], ["JK1#2", "JK2"], ["JK1", "JK2#2"]])
    assert verdict(events)["winner"] == 1 and verdict(events)["rule"] == "first_jokulme"


def test_badef_with_three_players():
    # docs/rulings/magic-duel.md#badef-with-three-players: tied when the best non-Badef spell is a Codu or better
    # and no Jokulme was cast
    _, events = trick([["KS"], ["JK1"], ["QS", "QH"]])
    assert verdict(events)["kind"] == "trick_tied" and verdict(events)["rule"] == "badef_tie"
    _, events = trick([["KS"], ["JK1"], ["QS"]])
    assert verdict(events)["winner"] == 1 and verdict(events)["rule"] == "badef_over_cantrip"
    _, events = trick([["KS"], ["JK1"], ["JK2"]])
    assert verdict(events)["kind"] == "trick_tied" and verdict(events)["rule"] == "badef_vs_badef"


def test_badef_tie_takes_back_keeps_risk_discard_and_same_leader_replays():
    # docs/rulings/magic-duel.md#tied-trick: replayed at once by the same leader, nothing gathered or drawn;
    # a Risk discard stays on the Deck of Risk
    m = start(3, [["JK1", "2C"], ["9S", "9H", "3D"], ["4C"]], risk=["5D", "6D", "7D"])
    play(m, 0, "JK1", risk="2C")
    play(m, 1, "9S", "9H")
    events = play(m, 2, "4C")
    assert kinds(public(events)) == ["play_face_down", "reveal", "trick_tied", "replay"]
    st = m.state
    assert st.risk[0] == "2C" and len(st.risk) == 4
    assert "JK1" in st.hands[0] and "2C" not in st.hands[0] and len(st.hands[0]) == 6
    assert len(st.hands[1]) == 7 and len(st.hands[2]) == 7
    assert m.awaiting.seats == {0} and st.trick.replay == 1
    v = st.view(None)
    assert v["trick"]["plays"] == [] and v["last_trick"]["tied"] is True and v["last_trick"]["rule"] == "badef_tie"
    play(m, 0, "JK1")
    play(m, 1, "3D")
    events = play(m, 2, "4C")
    assert verdict(events)["winner"] == 0 and verdict(events)["rule"] == "badef_over_cantrip"
    accounting(m.state)


def test_badef_against_badef_deadlock_first_badef_wins():
    # docs/rulings/magic-duel.md#badef-deadlock: Badef against Badef when both wizards hold only that card would
    # replay forever: the first Badef cast wins
    st, _ = arrange(2, [["JK2"], ["JK1"]], last=True, closed=True)
    events = st.apply(0, PlayCards(cards=("JK2",)))
    events += st.apply(1, PlayCards(cards=("JK1",)))
    v = verdict(events)
    assert v["winner"] == 0 and v["rule"] == "badef_deadlock"
    # not a deadlock while someone holds another card
    st, _ = arrange(2, [["JK2", "3C"], ["JK1"]], last=True, closed=True)
    st.apply(0, PlayCards(cards=("JK2",)))
    events = st.apply(1, PlayCards(cards=("JK1",)))
    assert verdict(events)["kind"] == "trick_tied"


def test_three_player_trick_turn_order_and_winner_leads():
    # docs/rulings/magic-duel.md#casting-in-turn: each casts once, in turn order; docs/rulings/magic-duel.md#draw-order:
    # refill in the trick's order, the winner draws the extra card and leads the next trick
    m = start(3, [["2C"], ["8S", "8H"], ["QS"]])
    assert m.awaiting.seats == {0}
    with pytest.raises(NotYourTurn):
        play(m, 1, "8S")
    play(m, 0, "2C")
    play(m, 1, "8S", "8H")
    events = play(m, 2, "QS")
    v = verdict(events)
    assert v["winner"] == 1 and v["rule"] == "stronger_kind" and v["runner_up"] == 2
    assert v["tricks"] == [0, 1, 0] and v["gathered"] == 4
    # draw in turn order (the trick's order, leader first)
    assert m.awaiting.seats == {0}
    draw(m, 0)
    draw(m, 1)
    events = draw(m, 2)
    assert "extra_card" in kinds(events)
    assert [len(h) for h in m.state.hands] == [7, 8, 7]
    assert m.awaiting.seats == {1} and m.state.view(None)["turn_order"] == [1, 2, 0]


def test_eight_player_trick_with_two_decks():
    # docs/rulings/magic-duel.md#player-count, docs/rulings/magic-duel.md#decks (two decks for 6 to 8),
    # docs/rulings/magic-duel.md#badef-with-three-players
    plays = [["QS"], ["4S", "4H"], ["JK1"], ["9D", "9C#2", "9H"], ["AH"], ["9D#2", "9C", "9S"], ["KC"], ["2D"]]
    m, events = trick(plays)
    assert m.game.decks == 2
    v = verdict(events)
    assert v["kind"] == "trick_tied" and v["rule"] == "badef_tie"  # a Badef against a Thrack
    # replay, seat 2 casting a plain card: of the two Thracks of 9s, the suits decide from the highest
    # down (♣♠♦ over ♣♥♦): docs/rulings/magic-duel.md#suits-of-a-combination
    filler = next(c for c in m.state.hands[2] if c != "JK1")
    for s, p in enumerate(plays):
        events = play(m, s, *(p if s != 2 else [filler]))
    v = verdict(events)
    assert v["winner"] == 5 and v["rule"] == "higher_suit" and v["combination"] == "Thrack"
    assert len(m.state.gathered[5][0]) == 1 + 2 + 1 + 3 + 1 + 3 + 1 + 1
    accounting(m.state)


# ---------------------------------------------------------------------------- face-down / face-up


def test_face_down_play_stays_secret_until_the_reveal():
    # docs/rulings/magic-duel.md#cast-a-spell, docs/rulings/magic-duel.md#channel-view: a face-down spell stays secret
    # until the reveal
    m = start(3, [["9S", "9H"], ["4C"], ["KD"]])
    events = play(m, 0, "9S", "9H")
    (pub,) = public(events)
    assert pub.kind == "play_face_down" and pub.data["count"] == 2 and "cards" not in pub.data
    (priv,) = [e for e in events if e.visible_to]
    assert priv.visible_to == {0} and priv.data["cards"] == ["9S", "9H"]
    spectator = m.state.view(None)
    assert spectator["trick"]["plays"] == [
        {"seat": 0, "face_up": False, "count": 2, "cards": None, "combination": None}
    ]
    assert "9S" not in json.dumps(spectator) and "you" not in spectator
    assert "9S" not in json.dumps(m.state.view(1))
    assert m.state.view(0)["you"]["played"] == ["9S", "9H"]
    play(m, 1, "4C")
    events = play(m, 2, "KD")
    reveal = next(e for e in events if e.kind == "reveal")
    assert reveal.data["plays"][0]["cards"] == ["9S", "9H"] and reveal.data["plays"][0]["combination"] == "Codu"
    assert m.state.view(None)["last_trick"]["plays"] == reveal.data["plays"]


def test_risk_discard_makes_the_play_face_up():
    # docs/rulings/magic-duel.md#cast-a-spell: with a Risk card the spell is cast face-up;
    # docs/rulings/magic-duel.md#risk-card: the Risk card goes face-down on top of the Deck of Risk, seen by its owner
    # only
    m = start(2, [["9S", "3C"], ["4C"]], risk=["5D", "6D"])
    events = play(m, 0, "9S", risk="3C")
    (pub,) = public(events)
    assert pub.kind == "play_face_up" and pub.data["cards"] == ["9S"] and pub.data["risk"] is True
    assert "3C" not in json.dumps(pub.data) and "3C" not in pub.text
    assert m.state.risk == ["3C", "5D", "6D"]
    v = m.state.view(None)
    assert v["trick"]["plays"][0] == {"seat": 0, "face_up": True, "count": 1, "cards": ["9S"], "combination": "Cantrip"}
    assert v["decks"]["risk"] == 3 and "3C" not in json.dumps(v)
    assert m.state.view(0)["you"]["risked"] == "3C"


def test_illegal_plays_are_refused_with_readable_messages():
    # docs/rulings/magic-duel.md#refused-actions, docs/rulings/magic-duel.md#combinations
    m = start(2, [["9S", "9H", "3C", "JK1"], ["4C"]])
    before = m.state.view(0)
    with pytest.raises(IllegalAction, match="You do not hold"):
        play(m, 0, "KC")
    with pytest.raises(IllegalAction, match="not a combination"):
        play(m, 0, "9S", "3C")
    with pytest.raises(IllegalAction, match="not a combination"):
        play(m, 0, "9S", "JK1")
    with pytest.raises(IllegalAction, match="Name each card once"):
        play(m, 0, "9S", risk="9S")
    with pytest.raises(IllegalAction, match="You do not hold"):
        play(m, 0, "9S", risk="KC")
    with pytest.raises(IllegalAction, match="draw"):
        m.act(0, Draw(risk=1))
    with pytest.raises(NotYourTurn, match="waiting for"):
        play(m, 1, "4C")
    with pytest.raises(MalformedAction):
        m.act(0, {"type": "play", "cards": []})
    with pytest.raises(MalformedAction):
        m.act(0, {"type": "play", "cards": ["9S"], "face": "up"})
    with pytest.raises(MalformedAction):
        m.act(0, {"type": "cast"})
    assert m.state.view(0) == before and len(m.log) == 1


def test_legal_actions_include_risk_variants_and_are_accepted():
    # docs/rulings/magic-duel.md#cast-a-spell (with or without a Risk card), docs/rulings/magic-duel.md#refused-actions
    m = start(2, [["9S", "9H", "3C", "JK1", "JK2", "7D", "8D"]])
    legal = m.state.legal_actions(0)
    assert PlayCards(cards=("JK1", "JK2")) in legal
    assert PlayCards(cards=("9H", "9S"), risk="3C") in legal
    assert len(legal) == len(set(legal))
    for a in legal:
        probe = Match.replay(m.to_log())
        probe.act(0, a)


# ---------------------------------------------------------------------------- drawing


def test_draw_from_either_deck_risk_first_and_events():
    # docs/rulings/magic-duel.md#draw-action: N cards from the Deck of Risk (first), the rest from the Deck of
    # Advantage; docs/rulings/magic-duel.md#hand-size: back to 7; docs/rulings/magic-duel.md#draw-order: the winner's
    # extra card
    m = start(2, [["9S", "3C"], ["4C"]], risk=["5D", "6D"], advantage=["2H", "2S", "2C"])
    play(m, 0, "9S", risk="3C")
    play(m, 1, "4C")  # seat 0 wins, 2 cards short; seat 1 one short
    assert m.awaiting.seats == {0} and m.state.phase is Phase.DRAW
    assert m.state.view(None)["draw"] == {"seat": 0, "need": 2, "winner": 0}
    assert m.state.legal_actions(0) == [Draw(risk=0), Draw(risk=1), Draw(risk=2)]
    with pytest.raises(IllegalAction, match="You draw 2 cards"):
        draw(m, 0, 3)
    with pytest.raises(IllegalAction, match="from the Deck of Advantage, not 2"):
        m.act(0, Draw(risk=1, advantage=2))
    with pytest.raises(IllegalAction, match="draw back to 7 cards"):
        play(m, 0, "3C")
    events = m.act(0, Draw(risk=1, advantage=1))
    pub = public(events)
    assert pub[0].kind == "draw" and pub[0].data["risk"] == 1 and pub[0].data["advantage"] == 1
    priv = [e for e in events if e.visible_to]
    assert priv[0].data["from_risk"] == ["3C"] and priv[0].data["from_advantage"] == ["2H"]
    assert "3C" not in json.dumps([e.data for e in pub])
    events = draw(m, 1, 1)
    assert [e.data for e in events if e.kind == "draw_private"][0]["from_risk"] == ["5D"]
    extra = [e for e in events if e.kind == "extra_card"]
    assert extra and extra[0].data["seat"] == 0
    assert sorted(m.state.hands[0]).count("2S") == 1 and len(m.state.hands[0]) == 8
    accounting(m.state)


def test_draw_is_automatic_when_the_risk_deck_is_empty_and_default_is_advantage():
    # docs/rulings/magic-duel.md#draw-action: automatic when the Deck of Risk is empty;
    # docs/rulings/magic-duel.md#empty-deck-of-risk
    m = start(2, [["9S"], ["4C"]], risk=["5D", "6D"])
    m.state.risk.clear()  # arranged: both Risk cards taken
    m.state.set_aside += ["5D", "6D"]
    play(m, 0, "9S")
    events = play(m, 1, "4C")
    assert kinds(public(events)).count("draw") == 2 and m.awaiting.seats == {0} and m.state.phase is Phase.TRICK
    # docs/rulings/magic-duel.md#time-outs: on a draw, everything from the Deck of Advantage; on a play, no default
    m = start(2, [["9S"], ["4C"]])
    assert m.state.default_action(0) is None
    play(m, 0, "9S")
    play(m, 1, "4C")
    assert m.state.default_action(0) == Draw(risk=0) and m.state.default_action(1) is None


# ---------------------------------------------------------------------------- the Cursed Spell


def test_a_draw_cannot_take_more_than_the_deck_of_risk_holds():
    # docs/rulings/magic-duel.md#empty-deck-of-risk: a player cannot draw from it;
    # docs/rulings/magic-duel.md#draw-action: N cards from the Deck of Risk, the rest from the Deck of Advantage
    m = start(2, [["9S", "9H", "9C"], ["4C"]], risk=["5D", "6D"])
    play(m, 0, "9S", "9H", "9C")
    play(m, 1, "4C")  # seat 0 wins and needs 3 cards; the Deck of Risk holds 2
    assert m.state.legal_actions(0) == [Draw(risk=0), Draw(risk=1), Draw(risk=2)]
    with pytest.raises(IllegalAction, match="The Deck of Risk has only 2 cards"):
        draw(m, 0, 3)
    draw(m, 0, 2)  # seat 1 then draws from the Deck of Advantage alone; seat 0 takes the extra card
    assert m.state.risk == [] and [len(h) for h in m.state.hands] == [8, 7]
    accounting(m.state)


def test_cursed_spell_closes_decks_and_one_last_trick():
    # docs/rulings/magic-duel.md#cursed-spell-stops-draw: the decks close, one last trick with the cards in hand
    m = start(3, [["9S", "9H"], ["4C"], ["5C"]], advantage=["2H"], curse_at=1)
    play(m, 0, "9S", "9H")
    play(m, 1, "4C")
    play(m, 2, "5C")
    events = draw(m, 0, 0)  # seat 0 draws 2H, then the Curse stops the draw
    assert kinds(public(events)) == ["draw", "cursed_spell"]
    st = m.state
    assert st.closed and st.cursed_by == 0 and st.phase is Phase.TRICK and st.trick.last
    assert [len(h) for h in st.hands] == [6, 6, 6]  # nobody else draws, no extra card
    cursed = next(e for e in events if e.kind == "cursed_spell")
    assert cursed.data["seat"] == 0 and "extra_card" not in kinds(events)
    v = st.view(None)
    assert v["decks"]["closed"] is True and v["cursed_by"] == 0 and v["trick"]["last"] is True
    assert m.awaiting.seats == {0}
    accounting(st)
    play(m, 0, "2H")
    play(m, 1, st.hands[1][0])
    events = play(m, 2, st.hands[2][0])
    assert "hand_scored" in kinds(events) and "draw" not in kinds(events)
    # docs/rulings/magic-duel.md#new-hands: a new hand is dealt until a player reaches the points to win
    assert m.state.hand_no == 2 and m.state.phase is Phase.TRICK and m.log[-1].seat == CHANCE
    # docs/rulings/magic-duel.md#turn-order: the next hand is led by the next seat
    assert m.state.view(None)["leader"] == 1


def test_curse_as_extra_card_and_player_with_no_cards_passes():
    # docs/rulings/magic-duel.md#no-cards-pass: a player with no cards passes the last trick
    st, _ = arrange(3, [["9S"], [], ["5C", "6C"]], last=True, closed=True)
    assert st.awaiting.seats == {0}
    st.apply(0, PlayCards(cards=("9S",)))
    assert st.awaiting.seats == {2}
    assert st.view(None)["trick"]["passed"] == [1] and st.view(None)["players"][1]["passed"]
    events = st.apply(2, PlayCards(cards=("6C",)))
    assert verdict(events)["winner"] == 0 and "hand_scored" in kinds(events)
    # the Curse drawn as the extra card: the winner gets nothing, decks close
    # (docs/rulings/magic-duel.md#cursed-spell-stops-draw)
    m = start(2, [["9S"], ["4C"]], curse_at=2)
    play(m, 0, "9S")
    play(m, 1, "4C")
    draw(m, 0)
    events = draw(m, 1)
    assert kinds(public(events))[-1] == "cursed_spell" and m.state.trick.last and len(m.state.hands[0]) == 7


# ---------------------------------------------------------------------------- scoring


def score(counts, points=None, n=None):
    n = n or len(counts)
    st, _ = arrange(n, [["2C"]] * n, gathered=counts, points=points or [0] * n, options={"points_to_win": 50})
    events = end_hand(st)
    return st, next(e for e in events if e.kind == "hand_scored").data


@pytest.mark.parametrize(
    ("counts", "awarded", "doubled"),
    [
        ([3, 0], [4, 0], True),  # 1 + 1 for the trickless, doubled: nobody else gathered any
        ([2, 1], [1, 0], False),
        ([1, 1], [1, 1], False),  # most tricks tied: each tied player gets the points
        ([2, 1, 0], [2, 0, 0], False),
        ([3, 0, 0], [6, 0, 0], True),
        ([2, 2, 0], [2, 2, 0], False),
        ([1, 1, 1, 1], [1, 1, 1, 1], False),
        ([0, 4, 0, 0, 0, 0, 0, 0], [0, 16, 0, 0, 0, 0, 0, 0], True),
        ([0, 0], [0, 0], False),  # no trick at all: nobody scores
    ],
)
def test_hand_scoring(counts, awarded, doubled):
    # docs/rulings/magic-duel.md#hand-scoring: 1 point for the most tricks, plus 1 per player with no trick, doubled
    # when nobody else gathered any; tied for most, each tied player scores; no trick, nobody scores
    st, data = score(counts)
    assert data["awarded"] == awarded and data["doubled"] == doubled and st.points == awarded


def test_hand_scoring_does_not_count_removed_players():
    # docs/rulings/magic-duel.md#hand-scoring: removed players are not counted, so a player who left is no
    # player "that gathered in 0 tricks" (docs/rulings/magic-duel.md#removed-player)
    st, _ = arrange(3, [["2C"], ["3C"], ["4C"]], gathered=[2, 0, 0], options={"points_to_win": 50})
    st.apply(2, Forfeit())
    data = next(e for e in end_hand(st) if e.kind == "hand_scored").data
    assert data["zero_tricks"] == [1] and data["doubled"] is True
    assert data["awarded"] == [4, 0, 0]  # (1 + 1) doubled; with seat 2 counted it would be 6


def test_game_end_single_and_shared_victory_with_ranks():
    # docs/rulings/magic-duel.md#game-end: the most points wins, equal most points share the victory;
    # docs/rulings/magic-duel.md#new-hands: below the points to win, a new hand
    st, _ = arrange(3, [["2C"]] * 3, gathered=[2, 0, 1], points=[2, 2, 0])
    events = end_hand(st)
    assert st.is_terminal and st.outcome.winners == [0] and st.outcome.ranks == (1, 2, 3)
    assert events[-1].kind == "game_end"
    st, _ = arrange(3, [["2C"]] * 3, gathered=[1, 1, 0], points=[1, 1, 0])
    end_hand(st)
    assert st.outcome.winners == [0, 1] and st.outcome.ranks == (1, 1, 3)
    assert "share the victory" in st.outcome.summary
    assert [s.result for s in st.outcome.seats] == [Result.WIN, Result.WIN, Result.LOSS]
    st, _ = arrange(2, [["2C"]] * 2, gathered=[1, 2], points=[2, 0])
    end_hand(st)  # seat 0 has 2 < 3; seat 1 gets 1: nobody at 3 yet
    assert not st.is_terminal and st.phase is Phase.DEAL and st.points == [2, 1]


# ---------------------------------------------------------------------------- forfeits


def test_forfeit_with_three_players_removes_the_seat_and_play_goes_on():
    # docs/rulings/magic-duel.md#removed-player: a player who leaves is removed, their cards set aside; the others play
    # on
    m = start(3, [["9S", "9H"], ["4C"], ["KD"]])
    play(m, 0, "9S", "9H")
    events = m.act(0, Forfeit(reason="left"))
    assert kinds(events) == ["forfeit"] and events[0].data["remaining"] == [1, 2]
    st = m.state
    assert st.removed == [0] and st.hands[0] == [] and st.trick.plays == [] and len(st.set_aside) == 7
    accounting(st)
    assert m.awaiting.seats == {1}
    v = st.view(None)
    assert v["removed"] == [0] and v["players"][0]["removed"] and v["seat_order"] == [1, 2]
    with pytest.raises(NotYourTurn):
        play(m, 0, "4C")
    with pytest.raises(IllegalAction, match="already left"):
        m.act(0, Forfeit())
    play(m, 1, "4C")
    events = play(m, 2, "KD")
    assert verdict(events)["winner"] == 2
    assert m.awaiting.seats == {1}  # draws skip the removed seat


def test_forfeit_of_the_awaited_seat_moves_on_and_last_one_wins():
    # docs/rulings/magic-duel.md#removed-player: the next player is asked; docs/rulings/magic-duel.md#last-player-wins
    m = start(4, [["9S"], ["4C"], ["KD"], ["2D"]])
    play(m, 0, "9S")
    m.act(1, Forfeit(reason="timeout"))
    assert m.awaiting.seats == {2}
    m.act(3, Forfeit())
    events = play(m, 2, "KD")  # the trick ends with seats 0 and 2 only
    assert verdict(events)["winner"] == 2
    events = m.act(2, Forfeit(reason="left"))
    assert events[-1].kind == "game_end" and m.outcome.winners == [0]
    # docs/rulings/magic-duel.md#last-player-wins: removed players rank last, in reverse order of removal
    assert m.outcome.ranks == (1, 4, 2, 3)
    with pytest.raises(GameOver):
        m.act(0, Forfeit())


def test_forfeit_during_draw_and_new_hand_skips_removed():
    # docs/rulings/magic-duel.md#removed-player: later hands skip them;
    # docs/rulings/magic-duel.md#cursed-spell-stops-draw
    m = start(3, [["9S"], ["4C"], ["KD"]], curse_at=0, options={"points_to_win": 10})
    play(m, 0, "9S")
    play(m, 1, "4C")
    play(m, 2, "KD")
    assert m.awaiting.seats == {0} and m.state.trick_winner == 2
    m.act(2, Forfeit())  # the trick winner leaves during the draw
    assert m.state.removed == [2] and m.awaiting.seats == {0}
    accounting(m.state)
    events = draw(m, 0)  # Curse at once: last trick, led by the next active seat after the winner
    assert "cursed_spell" in kinds(events) and m.state.leader == 0
    for _ in range(2):
        s = min(m.awaiting.seats)
        m.act(s, PlayCards(cards=(m.state.hands[s][0],)))
    assert m.state.hand_no == 2 and m.state.hands[2] == [] and len(m.state.risk) == 2
    accounting(m.state)


def test_trick_winner_leaves_during_the_draw_no_extra_card_next_seat_leads():
    # docs/rulings/magic-duel.md#removed-player: "a Risk card they put down stays on the Deck of Risk ... nobody gets
    # the extra card and the next seat after them leads"
    m = start(3, [["9S"], ["4C"], ["KD", "3H"]], risk=["5D", "6D", "7D"])
    play(m, 0, "9S")
    play(m, 1, "4C")
    play(m, 2, "KD", risk="3H")  # seat 2 wins; draws in the trick's order from seat 0
    assert m.awaiting.seats == {0} and m.state.trick_winner == 2
    m.act(2, Forfeit(reason="left"))
    assert m.state.risk[0] == "3H" and "3H" not in m.state.set_aside
    draw(m, 0)
    events = draw(m, 1)
    assert "extra_card" not in kinds(events) and m.state.phase is Phase.TRICK
    assert m.state.leader == 0 and m.awaiting.seats == {0}
    assert [len(h) for h in m.state.hands] == [7, 7, 0]
    accounting(m.state)


def test_two_player_forfeit_ends_the_game():
    # docs/rulings/magic-duel.md#last-player-wins: with 2 players, the usual forfeit
    m = start(2, [["9S"], ["4C"]])
    events = m.act(1, Forfeit())
    assert events[-1].kind == "game_end" and m.outcome.winners == [0] and m.outcome.ranks == (1, 2)


# ---------------------------------------------------------------------------- logs and examples


EXAMPLES = sorted((ROOT / "examples" / "magic-duel").glob("*.json"))


def test_there_are_examples_including_three_players():
    # docs/rulings/magic-duel.md#replayable-logs
    assert len(EXAMPLES) >= 3
    assert any(len(json.loads(p.read_text())["seats"]) == 3 for p in EXAMPLES)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_every_example_log_replays(path):
    # docs/rulings/magic-duel.md#replayable-logs: the same match and the recorded outcome
    log = MatchLog.model_validate_json(path.read_text())
    assert log.game == "magic-duel"
    m = Match.replay(log)
    assert m.outcome is not None and m.outcome.to_json(m.seats) == log.outcome
    res = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert res.returncode == 0, res.stdout
    assert Counter(e["kind"] for e in json.loads(res.stdout)["events"])["deal"] >= 1
