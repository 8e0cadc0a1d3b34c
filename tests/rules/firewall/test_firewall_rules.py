"""Firewall rule scenarios. Each test cites the ruling it checks (``docs/rulings/firewall.md#<anchor>``, or
``docs/actions/firewall.md#<anchor>`` for the action format), sometimes with a few words of the rule."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.core import CHANCE, Result
from rules.errors import IllegalAction, MalformedAction, NotYourTurn
from rules.firewall import SPELLS, Firewall, FirewallState, LarcenyChoice, Order, RecycleChoice, Shuffle, Turn
from rules.firewall.spells import DECK
from rules.match import Match, MatchLog

from .helpers import (
    EXAMPLES,
    arrange,
    example_log,
    kinds,
    of,
    one,
    public,
    results,
    scripted_spells_match,
    spell,
    start,
    turn,
)

ROOT = Path(__file__).resolve().parents[3]


def snapshot(st: FirewallState) -> tuple:
    return (json.dumps(st.view(None)), json.dumps(st.view(0)), json.dumps(st.view(1)), st.awaiting)


# ---------------------------------------------------------------------------- set-up


def test_setup_bridge_wall_wizards_mana_and_hands():
    # docs/rulings/firewall.md#bridge (the wall on 9, the wizards on 6 and 12 of flagstones 0..18) and
    # docs/rulings/firewall.md#starting-mana-and-hand (50 mana; five spells drawn, and the false card in hand).
    m = start([1, 2, 3, 4, 5], [10, 11, 12, 13, 14])
    st = m.state
    v = st.view(None)
    assert v["bridge"] == {"length": 19, "broken": [], "wall": 9, "wizards": [6, 12], "round_start_wall": 9}
    assert [p["mana"] for p in v["players"]] == [50, 50]
    assert [p["hand_size"] for p in v["players"]] == [6, 6]
    assert [p["stock_count"] for p in v["players"]] == [9, 9]
    assert st.view(0)["you"]["hand"] == [0, 1, 2, 3, 4, 5]
    assert st.view(1)["you"]["hand"] == [0, 10, 11, 12, 13, 14]
    assert "hand" not in json.dumps(v["players"]).replace("hand_size", "")
    assert m.awaiting.seats == {0, 1}


def test_shuffles_are_chance_actions_and_the_order_stays_secret():
    # docs/rulings/firewall.md#shuffles: each stock is shuffled by a logged chance action; the order stays secret.
    m = Match.new("firewall", seed=4)
    assert [e.action["type"] for e in m.log] == ["shuffle", "shuffle"]
    shuffles = of(m.events, "shuffle")
    assert shuffles == [{"seat": 0, "stock_count": 14}, {"seat": 1, "stock_count": 14}]
    draws = [e for e in m.events if e.kind == "draw"]
    assert [e.visible_to for e in draws] == [frozenset({0}), frozenset({1})]
    st = Firewall().new_state()
    with pytest.raises(IllegalAction, match="exactly once"):
        st.apply(CHANCE, Shuffle(seat=0, order=(1,) * 14))
    with pytest.raises(IllegalAction, match="seat 0"):
        st.apply(CHANCE, Shuffle(seat=1, order=tuple(DECK)))


def test_card_catalogue_has_every_spell_with_a_text():
    # docs/rulings/firewall.md#spell-cards: the 15 cards "0 - False Card" .. "14 - Suction"; the UI shows the texts.
    assert sorted(SPELLS) == list(range(15))
    assert [SPELLS[n].name for n in (0, 4, 14)] == ["False Card", "End of Round", "Suction"]
    assert all(s.text and s.number == n for n, s in SPELLS.items())


# ---------------------------------------------------------------------------- a plain turn


def test_stronger_attack_pushes_one_flagstone_and_bets_are_paid():
    # docs/rulings/firewall.md#one-flagstone-push: "ONLY ONE FLAGSTONE, no matter how much was the balance";
    # docs/rulings/firewall.md#bets-are-paid: each pays their bet from their mana.
    st = arrange()
    ev = turn(st, (40, []), (1, []))
    assert one(ev, "attack") == {"bets": [40, 1], "powers": [40, 1], "stronger": 0, "toward": 1}
    assert one(ev, "wall") == {"from": 9, "to": 10, "toward": 1, "steps": 1, "reason": "attack", "reached": None}
    assert one(ev, "turn_end")["mana"] == [10, 49]
    assert st.wall == 10 and [p.mana for p in st.players] == [10, 49]


def test_equal_attacks_do_not_move_the_wall():
    # docs/rulings/firewall.md#one-flagstone-push: equal attacks, no move.
    st = arrange()
    ev = turn(st, (7, []), (7, []))
    assert one(ev, "wall")["toward"] is None and st.wall == 9
    assert [p.mana for p in st.players] == [43, 43]


def test_a_seat_cannot_change_its_submission_and_the_reveal_waits_for_both():
    # docs/rulings/firewall.md#secret-turn: "When each opponent declares being ready, both will reveal"
    st = arrange()
    ev = st.apply(0, Turn(bet=3))
    assert kinds(ev) == ["submitted", "submitted_private"] and st.awaiting.seats == {1}
    with pytest.raises(NotYourTurn):
        st.apply(0, Turn(bet=4))


# ---------------------------------------------------------------------------- illegal inputs


@pytest.mark.parametrize(
    ("action", "message"),
    [
        ({"type": "turn", "bet": 0}, "bet at least 1 and at most your 50 mana"),
        ({"type": "turn", "bet": 51}, "bet at least 1 and at most your 50 mana"),
        ({"type": "turn", "bet": 5, "spells": [9]}, r"Winner Loses \(9\) is not in your hand"),
        ({"type": "turn", "bet": 5, "spells": [15]}, r"card 15 \(15\) is not in your hand"),
        ({"type": "turn", "bet": 5, "spells": [7, 7]}, "more than once"),
        ({"type": "turn", "bet": 5, "spells": [7], "clone": 8}, "did not play Clone"),
        ({"type": "turn", "bet": 5, "spells": [2]}, "Say which spell Clone copies"),
        ({"type": "turn", "bet": 5, "spells": [2], "clone": 5}, r"Clone cannot copy Middle \(5\)"),
        ({"type": "recycle", "bet": 5}, "asked for your turn choice now, not recycle"),
    ],
)
def test_illegal_inputs_are_refused_readably_and_change_nothing(action, message):
    # docs/rulings/firewall.md#legal-turn (a bet 1 .. the remaining mana, spells from the hand, each once) and
    # docs/rulings/firewall.md#clone (a target only with Clone, never a Clone); docs/actions/firewall.md#errors:
    # refused, nothing changes.
    st = arrange(([2, 7], [8]), last_played=([], [8, 13]))
    before = snapshot(st)
    with pytest.raises(IllegalAction, match=message):
        st.apply(0, action)
    assert snapshot(st) == before


def test_bet_above_remaining_mana_is_refused():
    # docs/rulings/firewall.md#legal-turn: any amount of the remaining mana, at least 1.
    st = arrange(mana=(12, 50))
    with pytest.raises(IllegalAction, match="at most your 12 mana"):
        st.apply(0, Turn(bet=13))
    st.apply(0, Turn(bet=12))


# ---------------------------------------------------------------------------- order of spells


def test_false_card_has_no_effect_and_returns_to_the_hand():
    # docs/rulings/firewall.md#false-card: "It has no effect whatsoever", and the false card is never discarded.
    st = arrange(([7], []))
    ev = turn(st, (5, [0]), (5, [0]))
    assert not of(ev, "spell") and not of(ev, "cancel")
    assert one(ev, "reveal")["spells"] == [[0], [0]]
    assert st.players[0].hand == [0, 7] and 0 not in st.players[0].discard


def test_identical_spells_cancel_each_other():
    # docs/rulings/firewall.md#identical-spells-cancel: spells both players played are discarded with no effect.
    st = arrange(([7, 8], [8, 13]))
    ev = turn(st, (5, [7, 8]), (5, [8, 13]))
    assert one(ev, "cancel") == {"cards": [8]}
    assert [d["card"] for d in of(ev, "spell")] == [7, 13]
    assert one(ev, "attack")["powers"] == [12, 5]
    assert st.players[0].discard == [7, 8] and st.players[1].discard == [8, 13]


def test_spells_apply_in_number_order_across_both_players():
    # docs/rulings/firewall.md#application-order: the spells of both sides apply "by following their numbering".
    st = arrange(([7, 8, 13], [5, 10, 12]))
    ev = turn(st, (3, [13, 8, 7]), (4, [12, 10, 5]))
    assert [d["card"] for d in of(ev, "spell")] == [5, 7, 8, 10, 12, 13]
    # Attack Boost (7) before Double Dose (8): (3 + 7) x 2
    assert one(ev, "attack")["powers"] == [20, 4]


# ---------------------------------------------------------------------------- each spell


def test_muteness_silences_every_other_spell_this_turn_and_the_rest_of_the_round():
    # docs/rulings/firewall.md#muteness: no spell has any effect for the rest of the round, this turn's included; a
    # spell cast later in the round is lost.
    st = arrange(([1, 7, 13], [8, 10, 14]), mana=(40, 50))
    ev = turn(st, (5, [1, 7]), (5, [8, 10]))
    assert results(ev) == [(1, "applied"), (7, "muted"), (8, "muted"), (10, "muted")]
    assert one(ev, "attack")["powers"] == [5, 5] and st.muted and st.view(None)["muted"]
    ev = turn(st, (5, [13]), (5, [14]))
    assert results(ev) == [(13, "muted"), (14, "muted")]
    assert [p.mana for p in st.players] == [30, 40]
    assert 13 in st.players[0].discard  # "lost and discarded"


def test_muteness_ends_with_the_round():
    # docs/rulings/firewall.md#muteness and docs/rulings/firewall.md#new-round: Muteness outlasts its turn, for that
    # round only.
    st = arrange(([1, 4], [7]), mana=(50, 50))
    turn(st, (5, [1]), (5, []))
    ev = turn(st, (5, [4]), (5, []))  # End of Round is muted: the round goes on
    assert spell(ev, 4)[0]["result"] == "muted" and st.round == 1
    turn(st, (40, []), (1, []))  # seat 0 is out of mana: the round ends
    assert st.round == 2 and not st.muted
    ev = turn(st, (5, []), (5, [7]))
    assert spell(ev, 7)[0]["result"] == "applied"


def test_two_mutenesses_cancel_and_nothing_is_muted():
    # docs/rulings/firewall.md#muteness: "Two Mutenesses cancel (rule 6), so nothing is silenced."
    st = arrange(([1, 7], [1]))
    ev = turn(st, (5, [1, 7]), (5, [1]))
    assert one(ev, "cancel")["cards"] == [1] and not st.muted
    assert spell(ev, 7)[0]["result"] == "applied"


def test_clone_copies_a_spell_the_opponent_played_on_the_previous_turn():
    # docs/rulings/firewall.md#clone: the caster takes a spell the opponent played on the previous turn and applies it
    # as their own, at its number; the copied card stays on its owner's discard pile.
    st = arrange(([2], [7, 13]))
    turn(st, (5, []), (5, [7, 13]))
    assert st.view(0)["you"]["clone_options"] == [7, 13]
    ev = turn(st, (5, [2], 7), (5, []))
    clone = spell(ev, 2)[0]
    assert clone["result"] == "applied" and clone["target"] == 7
    boost = spell(ev, 7)[0]
    assert boost["caster"] == 0 and boost["owner"] == 1 and boost["source"] == "clone"
    assert one(ev, "attack")["powers"] == [12, 5]
    # the copied card stays on its owner's discard pile; the Clone goes to the caster's
    assert st.players[1].discard == [7, 13] and st.players[0].discard == [2]


def test_clone_of_a_double_dose_stacks_with_your_own():
    # docs/rulings/firewall.md#clone: the copy applies "according to its priority number": two Double Doses double
    # twice.
    st = arrange(([2, 8], [8]))
    turn(st, (5, []), (5, [8]))
    ev = turn(st, (3, [2, 8], 8), (20, []))
    assert [d["card"] for d in of(ev, "spell")] == [2, 8, 8]
    assert one(ev, "attack")["powers"] == [12, 20]


def test_clone_with_nothing_to_clone_fizzles():
    # docs/rulings/firewall.md#clone: with nothing to copy, Clone is allowed (a bluff) and is discarded without effect.
    st = arrange(([2], []))
    ev = turn(st, (5, [2]), (5, []))
    assert spell(ev, 2)[0]["result"] == "no_effect" and st.players[0].discard == [2]


def test_clone_reaches_the_last_turn_of_the_previous_round():
    # docs/rulings/firewall.md#clone: "previous turn" is the last turn played, even when it ended the previous round.
    st = arrange(([2], [4, 7]))
    turn(st, (5, []), (5, [4, 7]))  # End of Round: the round ends
    assert st.round == 2
    assert st.clone_options(0) == [4, 7]
    ev = turn(st, (5, [2], 7), (5, []))
    assert one(ev, "attack")["powers"] == [12, 5]


def test_clone_cannot_copy_a_clone_and_copies_muteness_at_once():
    # docs/rulings/firewall.md#clone: Clone never copies a Clone; a copied Muteness (number 1, already passed) applies
    # at once.
    st = arrange(([2, 7], [1, 2]))
    turn(st, (5, []), (5, [2]))  # Bob's Clone fizzles
    assert st.clone_options(0) == []
    st = arrange(([2, 7], [8]), last_played=([], [1]))  # Bob's Muteness ended the previous round
    ev = turn(st, (5, [2, 7], 1), (5, [8]))
    assert results(ev) == [(2, "applied"), (1, "applied"), (7, "muted"), (8, "muted")]


def test_larceny_steals_and_the_caster_chooses_in_a_follow_up():
    # docs/rulings/firewall.md#larceny: the opponent's spells of the turn go to the larcener, who chooses in a follow-up
    # which to apply and which to discard; stolen cards go back to their owner's discard pile.
    st = arrange(([3], [7, 13]), mana=(30, 30))
    ev = turn(st, (5, [3]), (5, [7, 13]))
    assert one(ev, "choice") == {"seat": 0, "kind": "larceny", "stolen": [7, 13]}
    assert st.awaiting.seats == {0} and st.view(None)["pending_choice"]["kind"] == "larceny"
    assert st.view(None)["players"][1]["in_play"] == [7, 13]
    with pytest.raises(IllegalAction, match="only apply spells you stole"):
        st.apply(0, LarcenyChoice(apply=(8,)))
    with pytest.raises(NotYourTurn):
        st.apply(1, LarcenyChoice(apply=()))
    ev = st.apply(0, LarcenyChoice(apply=(7,)))
    assert one(ev, "larceny") == {"seat": 0, "apply": [7], "discard": [13]}
    assert spell(ev, 7)[0]["caster"] == 0 and spell(ev, 7)[0]["stolen"]
    assert one(ev, "attack")["powers"] == [12, 5]
    assert [p.mana for p in st.players] == [25, 25]  # no Reserve Boost for anyone
    assert st.players[1].discard == [7, 13]  # stolen cards go back to their owner's pile


def test_larceny_of_a_resistance_protects_the_larcener():
    # docs/rulings/firewall.md#larceny and docs/rulings/firewall.md#resistance: a stolen Resistance protects the
    # larcener.
    st = arrange(([3], [11]))
    turn(st, (1, [3]), (30, [11]))
    ev = st.apply(0, LarcenyChoice(apply=(11,)))
    res = spell(ev, 11)[0]
    assert res["caster"] == 0 and res["blocked"] is True
    assert one(ev, "wall")["toward"] is None and st.wall == 9


def test_larceny_steals_a_spell_copied_by_clone():
    # docs/rulings/firewall.md#larceny: a card the opponent copied with Clone is stolen too; the Clone itself (2)
    # resolved before Larceny (3).
    st = arrange(([2], [3]), last_played=([], [8]))
    ev = turn(st, (5, [2], 8), (5, [3]))
    assert one(ev, "choice")["stolen"] == [8]
    ev = st.apply(1, LarcenyChoice(apply=(8,)))
    dose = spell(ev, 8)[0]
    assert (dose["caster"], dose["owner"], dose["source"], dose["stolen"]) == (1, 1, "clone", True)
    assert one(ev, "attack")["powers"] == [5, 10]


def test_larceny_does_not_reach_lower_numbers_and_nothing_to_steal_no_prompt():
    # docs/rulings/firewall.md#larceny and docs/rulings/firewall.md#application-order: the opponent's Muteness (1) or
    # Clone (2) resolve before Larceny (3); with nothing to steal there is no prompt.
    st = arrange(([3], []))
    ev = turn(st, (5, [3]), (5, []))
    assert spell(ev, 3)[0]["result"] == "no_effect" and "choice" not in kinds(ev)


def test_larceny_time_out_applies_the_selfish_spells():
    # docs/rulings/firewall.md#larceny: on time-out Larceny applies 7, 8, 11, 12, 13, 14 and discards the others.
    st = arrange(([3], [5, 7, 9, 14]))
    turn(st, (5, [3]), (5, [5, 7, 9, 14]))
    default = st.default_action(0)
    assert default == LarcenyChoice(apply=(7, 14))
    assert st.default_action(1) is None


def test_larceny_of_recycle_asks_the_larcener_for_a_new_bet():
    # docs/rulings/firewall.md#recycle: "A stolen Recycle lets the larcener change *their own* bet."
    st = arrange(([3], [6]))
    turn(st, (10, [3]), (10, [6]))
    st.apply(0, LarcenyChoice(apply=(6,)))
    assert st.awaiting.seats == {0} and st.asked(0).kind == "recycle"
    assert st.view(0)["you"]["recycle"] == {"bet": 10, "min": 5, "max": 15}
    ev = st.apply(0, RecycleChoice(bet=15))
    assert one(ev, "attack")["powers"] == [15, 10] and st.players[0].mana == 35


def test_end_of_round_stops_everything_and_bets_are_not_paid():
    # docs/rulings/firewall.md#end-of-round: the round ends at once, the wall stays, the spells not yet applied are lost
    # and neither bet is paid (design note).
    st = arrange(([4, 13], [5, 8]), wall=10, round_start_wall=9, wizards=(6, 12), mana=(30, 20))
    ev = turn(st, (10, [4, 13]), (9, [5, 8]))
    assert results(ev) == [(4, "applied"), (5, "lost"), (8, "lost"), (13, "lost")]
    assert one(ev, "turn_end")["paid"] == [0, 0]
    end = one(ev, "round_end")
    assert end["reason"] == "end_of_round" and end["wall"] == 10 and end["wizards"] == [7, 13]
    assert end["broken"] == [0, 18]
    assert st.round == 2 and [p.mana for p in st.players] == [50, 50]
    assert st.players[1].discard == [5, 8]


def test_middle_sends_the_wall_back_and_the_turn_goes_on():
    # docs/rulings/firewall.md#middle: the wall goes back to where it stood when the round began, then the turn goes on.
    st = arrange(([5], []), wall=11, round_start_wall=9, wizards=(6, 12))
    ev = turn(st, (5, [5]), (6, []))
    middle = spell(ev, 5)[0]
    assert (middle["wall_from"], middle["wall_to"]) == (11, 9)
    assert one(ev, "wall") == {"from": 9, "to": 8, "toward": 0, "steps": 1, "reason": "attack", "reached": None}


def test_recycle_changes_the_bet_for_the_fight_and_the_payment():
    # docs/rulings/firewall.md#recycle: the bet changes by up to five; the caster fights and pays with the new bet.
    st = arrange(([6], []), mana=(12, 50))
    ev = turn(st, (10, [6]), (12, []))
    assert one(ev, "choice") == {"seat": 0, "kind": "recycle", "bet": 10, "min": 5, "max": 12}
    before = snapshot(st)
    for bad in (4, 13):
        with pytest.raises(IllegalAction, match="from 5 to 12"):
            st.apply(0, RecycleChoice(bet=bad))
    assert snapshot(st) == before
    assert st.default_action(0) == RecycleChoice(bet=10)  # docs/rulings/firewall.md#time-outs: the bet stays
    ev = st.apply(0, RecycleChoice(bet=12))
    assert one(ev, "recycle") == {"seat": 0, "bet_from": 10, "bet_to": 12}
    assert one(ev, "attack")["powers"] == [12, 12]
    assert one(ev, "turn_end")["paid"] == [12, 12] and one(ev, "turn_end")["mana"] == [0, 38]


def test_recycle_with_no_room_to_change_asks_nothing():
    # docs/rulings/firewall.md#recycle: "With no room to change (bet 1 and 1 mana) there is no prompt."
    st = arrange(([6], []), mana=(1, 50))
    ev = turn(st, (1, [6]), (1, []))
    assert spell(ev, 6)[0]["result"] == "no_effect" and "choice" not in kinds(ev)
    assert one(ev, "turn_end")["paid"] == [1, 1]


def test_suction_counts_the_opponents_recycled_bet():
    # docs/rulings/firewall.md#reserve-boost-and-suction: "Suction adds the opponent's bet (after any Recycle), never
    # the attack."
    st = arrange(([14], [6]), mana=(20, 50))
    turn(st, (2, [14]), (10, [6]))
    ev = st.apply(1, RecycleChoice(bet=15))
    d = spell(ev, 14)[0]
    assert (d["gain"], d["mana_from"], d["mana_to"]) == (15, 20, 35)
    assert st.players[0].mana == 33


def test_a_cast_spell_is_discarded_and_cannot_be_cast_again():
    # docs/rulings/firewall.md#spells-are-discarded: once applied a card is discarded; 14 spells for the whole match.
    st = arrange(([7], []))
    turn(st, (5, [7]), (5, []))
    assert st.players[0].hand == [0] and st.players[0].discard == [7]
    with pytest.raises(IllegalAction, match=r"Attack Boost \(7\) is not in your hand"):
        st.apply(0, Turn(bet=5, spells=(7,)))


def test_clone_may_copy_a_spell_that_was_cancelled():
    # docs/rulings/firewall.md#clone: eligible is every spell the opponent revealed on that turn, "whether it worked or
    # not (cancelled, silenced, lost to End of Round, stolen)".
    st = arrange(([2, 7], [7]))
    turn(st, (5, [7]), (5, [7]))  # the two Attack Boosts cancel
    assert st.clone_options(0) == [7]
    ev = turn(st, (5, [2], 7), (5, []))
    assert spell(ev, 7)[0]["source"] == "clone" and one(ev, "attack")["powers"] == [12, 5]


def test_a_copy_applies_after_the_card_of_the_same_number_already_waiting():
    # docs/rulings/firewall.md#application-order: two spells with the same number apply seat 0 first, a copy after the
    # card already waiting.
    st = arrange(([2, 8], [8]))
    turn(st, (5, []), (5, [8]))
    ev = turn(st, (3, [2, 8], 8), (20, []))
    assert [(d["card"], d["source"]) for d in of(ev, "spell")] == [(2, "hand"), (8, "hand"), (8, "clone")]


def test_attack_boost_adds_seven_but_only_the_bet_is_paid():
    # docs/rulings/firewall.md#attack-boost-and-double-dose: attack +7, but only the bet is paid.
    st = arrange(([7], []))
    ev = turn(st, (3, [7]), (9, []))
    assert spell(ev, 7)[0]["power_to"] == 10
    assert one(ev, "wall")["toward"] == 1 and st.players[0].mana == 47


def test_double_dose_doubles_the_attack():
    # docs/rulings/firewall.md#attack-boost-and-double-dose: the caster's attack is doubled.
    st = arrange(([], [8]))
    ev = turn(st, (11, []), (6, [8]))
    assert one(ev, "attack")["powers"] == [11, 12] and st.wall == 8 and st.players[1].mana == 44


def test_winner_loses_reverses_the_move_and_does_nothing_when_equal():
    # docs/rulings/firewall.md#winner-loses-and-inferno: Winner Loses moves the wall toward the stronger attack; it has
    # no effect when the wall is not due to move.
    st = arrange(([9], []))
    ev = turn(st, (20, [9]), (5, []))
    assert spell(ev, 9)[0]["toward_to"] == 0 and st.wall == 8
    st = arrange(([9], []))
    ev = turn(st, (5, [9]), (5, []))
    assert spell(ev, 9)[0]["result"] == "no_effect" and st.wall == 9


def test_inferno_moves_two_and_stops_on_a_wizard():
    # docs/rulings/firewall.md#winner-loses-and-inferno: Inferno moves the wall two flagstones, or one when that one
    # reaches a wizard.
    st = arrange(([10], []))
    ev = turn(st, (20, [10]), (5, []))
    assert one(ev, "wall")["to"] == 11 and one(ev, "wall")["steps"] == 2
    st = arrange(([10], []), wall=11, wizards=(6, 12), round_start_wall=9)
    ev = turn(st, (20, [10]), (5, []))
    assert one(ev, "wall") == {"from": 11, "to": 12, "toward": 1, "steps": 1, "reason": "attack", "reached": 1}
    assert one(ev, "round_end")["hit"] == 1


def test_inferno_does_nothing_when_the_wall_is_not_due_to_move():
    # docs/rulings/firewall.md#winner-loses-and-inferno: Winner Loses and Inferno "do nothing when the wall is not due
    # to move".
    st = arrange(([10], []))
    ev = turn(st, (5, [10]), (5, []))
    assert spell(ev, 10)[0]["result"] == "no_effect" and st.wall == 9


def test_two_winner_loses_one_copied_reverse_twice():
    # docs/rulings/firewall.md#winner-loses-and-inferno: "Two Winner Loses (one copied) reverse twice."
    st = arrange(([2, 9], []), last_played=([], [9]))
    ev = turn(st, (20, [2, 9], 9), (5, []))
    assert results(ev) == [(2, "applied"), (9, "applied"), (9, "applied")]
    assert one(ev, "wall")["toward"] == 1 and st.wall == 10


def test_winner_loses_with_inferno_pushes_the_stronger_back_two():
    # docs/rulings/firewall.md#application-order: Winner Loses (9) reverses, then Inferno (10) doubles the distance.
    st = arrange(([9], [10]))
    ev = turn(st, (30, [9]), (5, [10]))
    assert one(ev, "wall")["to"] == 7 and one(ev, "wall")["toward"] == 0


def test_resistance_blocks_a_move_toward_the_caster_only():
    # docs/rulings/firewall.md#resistance: the wall never moves toward the caster.
    st = arrange(([11], []))
    ev = turn(st, (1, [11]), (40, []))
    assert spell(ev, 11)[0]["blocked"] and st.wall == 9
    st = arrange(([11], []))
    ev = turn(st, (40, [11]), (1, []))
    assert spell(ev, 11)[0]["result"] == "no_effect" and st.wall == 10


def test_resistance_after_winner_loses_stops_the_reversed_move():
    # docs/rulings/firewall.md#resistance: it also cancels a move that Winner Loses turned toward its caster.
    st = arrange(([9, 11], []))
    ev = turn(st, (30, [9, 11]), (5, []))
    assert st.wall == 9 and one(ev, "wall")["toward"] is None


def test_bad_loser_does_not_pay_when_the_wall_moves_toward_them():
    # docs/rulings/firewall.md#bad-loser: a caster toward whom the wall actually moved does not pay the bet.
    st = arrange(([12], []))
    ev = turn(st, (10, [12]), (20, []))
    assert one(ev, "turn_end")["paid"] == [0, 20] and st.players[0].mana == 50
    st = arrange(([12], []))
    ev = turn(st, (30, [12]), (20, []))
    assert one(ev, "turn_end")["paid"] == [30, 20]


def test_bad_loser_with_winner_loses_the_stronger_is_spared():
    # docs/rulings/firewall.md#bad-loser counts the actual move: after Winner Loses the wall moves toward the stronger
    # attacker.
    st = arrange(([12], [9]))
    ev = turn(st, (30, [12]), (5, [9]))
    assert one(ev, "wall")["toward"] == 0
    assert one(ev, "turn_end")["paid"] == [0, 5] and st.players[0].mana == 50


def test_bad_loser_is_paid_when_resistance_stops_the_wall():
    # docs/rulings/firewall.md#bad-loser: "A wall stopped by Resistance did not move: the bet is paid."
    st = arrange(([11, 12], []))
    ev = turn(st, (5, [11, 12]), (30, []))
    assert one(ev, "turn_end")["paid"] == [5, 30]


def test_reserve_boost_is_capped_at_fifty():
    # docs/rulings/firewall.md#reserve-boost-and-suction: mana +13, never above 50;
    # docs/rulings/firewall.md#attack-move-then-pay: spells apply before the bets are paid.
    st = arrange(([13], []), mana=(45, 50))
    ev = turn(st, (5, [13]), (5, []))
    d = spell(ev, 13)[0]
    assert (d["mana_from"], d["mana_to"], d["capped"]) == (45, 50, True)
    assert st.players[0].mana == 45
    st = arrange(([13], []), mana=(20, 50))
    turn(st, (5, [13]), (5, []))
    assert st.players[0].mana == 28


def test_suction_adds_the_opponents_bet_not_attack_capped_at_fifty():
    # docs/rulings/firewall.md#reserve-boost-and-suction: Suction adds the opponent's bet (not the power of the attack),
    # never above 50.
    st = arrange(([14], [7, 8]), mana=(20, 50))
    ev = turn(st, (2, [14]), (6, [7, 8]))
    d = spell(ev, 14)[0]
    assert (d["gain"], d["mana_from"], d["mana_to"], d["capped"]) == (6, 20, 26, False)
    assert st.players[0].mana == 24
    st = arrange(([14], []), mana=(40, 50))
    ev = turn(st, (2, [14]), (30, []))
    assert spell(ev, 14)[0]["mana_to"] == 50 and st.players[0].mana == 48


# ---------------------------------------------------------------------------- mana runs out


def test_a_push_onto_a_wizard_is_paid_before_the_round_ends():
    # docs/rulings/firewall.md#round-ends-on-a-wizard and docs/rulings/firewall.md#push-onto-a-wizard-is-paid: the round
    # is over, but the turn is paid first.
    st = arrange(wall=11, wizards=(6, 12), round_start_wall=9)
    ev = turn(st, (20, []), (5, []))
    assert one(ev, "wall")["reached"] == 1
    assert one(ev, "turn_end")["paid"] == [20, 5] and one(ev, "turn_end")["mana"] == [30, 45]
    assert one(ev, "round_end")["reason"] == "wall_reached" and [p.mana for p in st.players] == [50, 50]


def test_running_out_of_mana_the_other_moves_the_wall_per_point_stopping_on_the_wizard():
    # docs/rulings/firewall.md#out-of-mana: the other player moves the wall one flagstone per mana point left, until it
    # reaches the wizard.
    st = arrange(mana=(5, 40))
    ev = turn(st, (5, []), (30, []))  # wall 9 -> 8; seat 0 at 0, seat 1 has 10 left
    oom = one(ev, "out_of_mana")
    assert oom == {"out": [0], "mover": 1, "points": 10, "from": 8, "to": 6, "reached": 0}
    end = one(ev, "round_end")
    assert end["reason"] == "wall_reached" and end["hit"] == 0 and end["wizards"] == [3, 9]


def test_running_out_of_mana_short_of_the_wizard_ends_the_round_there():
    # docs/rulings/firewall.md#out-of-mana: when the wall does not reach the wizard, the round ends and the wizards
    # stand three steps from it.
    st = arrange(mana=(50, 2))
    ev = turn(st, (49, []), (2, []))  # wall 9 -> 10; seat 1 at 0; seat 0 has 1 left
    oom = one(ev, "out_of_mana")
    assert (oom["from"], oom["to"], oom["reached"]) == (10, 11, None)
    end = one(ev, "round_end")
    assert end["reason"] == "out_of_mana" and end["wall"] == 11 and end["wizards"] == [8, 14]
    assert st.round == 2 and st.round_start_wall == 11


def test_both_out_of_mana_the_round_ends_where_the_wall_stands():
    # docs/rulings/firewall.md#out-of-mana: both at 0, the round ends where the wall stands.
    st = arrange(mana=(10, 10))
    ev = turn(st, (10, []), (10, []))
    oom = one(ev, "out_of_mana")
    assert oom["out"] == [0, 1] and oom["mover"] is None
    assert one(ev, "round_end")["wall"] == 9 and st.round == 2


# ---------------------------------------------------------------------------- rounds, collapse, falling


def test_round_end_resets_mana_draws_three_and_breaks_the_ends():
    # docs/rulings/firewall.md#collapse-and-falls (one more flagstone breaks at each end: 0 and 18, then 1 and 17)
    # and docs/rulings/firewall.md#new-round (mana back to 50, three spells drawn).
    m = start([1, 2, 3, 4, 5, 6, 7, 8], [9, 10, 11, 12, 13, 14, 1, 2])
    for _ in range(3):
        turn(m, (10, []), (1, []))
    st = m.state
    assert st.round == 2 and st.wall == 12 and [p.wizard for p in st.players] == [9, 15]
    assert st.broken() == [0, 18] and [p.mana for p in st.players] == [50, 50]
    assert st.view(0)["you"]["hand"] == [0, 1, 2, 3, 4, 5, 6, 7, 8]
    assert st.view(None)["players"][1]["stock_count"] == 6
    assert [e.data["drawn"] for e in m.events if e.kind == "draw"][-2:] == [[6, 7, 8], [14, 1, 2]]


def test_an_empty_stock_draws_nothing_at_the_end_of_a_round():
    # docs/rulings/firewall.md#new-round: three more spells from the stock, "as many as remain".
    st = arrange((list(range(1, 14)), list(DECK)), mana=(1, 50))
    ev = turn(st, (1, []), (1, []))  # seat 0 out of mana: seat 1's 49 push the wall onto seat 0
    assert one(ev, "round_end")["hit"] == 0
    draws = of(ev, "draw")
    assert [(d["seat"], d["drawn"], d["stock_count"]) for d in draws] == [(0, [14], 0), (1, [], 0)]
    assert st.players[0].hand == [0, *DECK]


def test_pushed_wizard_falls_on_a_broken_flagstone_and_loses():
    # docs/rulings/firewall.md#collapse-and-falls: a wizard on a broken flagstone falls and loses the match.
    st = arrange(wall=12, wizards=(9, 15), broken=1, round_=2)
    turn(st, (10, []), (1, []))
    turn(st, (10, []), (1, []))
    ev = turn(st, (10, []), (1, []))
    end = one(ev, "round_end")
    assert end["wizards"] == [12, 18] and end["broken"] == [0, 1, 17, 18] and end["fallen"] == [1]
    assert st.is_terminal and st.outcome.seats[0].result is Result.WIN
    assert "falls into the lava (flagstone 18)" in st.outcome.summary
    assert one(ev, "fall") == {"fallen": [1], "positions": [12, 18]}


def test_off_the_end_of_the_bridge_is_a_fall_too():
    # docs/rulings/firewall.md#collapse-and-falls: a wizard beyond the end of the bridge falls too.
    st = arrange(wall=15, wizards=(12, 18 - 2), broken=2, round_=3, round_start_wall=15)
    st.players[1].wizard = 16
    ev = turn(st, (10, []), (1, []))  # wall 15 -> 16 reaches seat 1; wizards 13 and 19
    assert one(ev, "round_end")["fallen"] == [1] and "beyond the end" in st.outcome.summary


def test_both_wizards_falling_at_once_is_a_draw():
    # docs/rulings/firewall.md#collapse-and-falls: both falling at once is a draw (design note).
    st = arrange(wall=9, wizards=(6, 12), broken=6, round_=7, mana=(5, 5))
    ev = turn(st, (5, []), (5, []))
    end = one(ev, "round_end")
    assert end["fallen"] == [0, 1] and end["broken"] == list(range(7)) + list(range(12, 19))
    assert [s.result for s in st.outcome.seats] == [Result.DRAW, Result.DRAW]


# ---------------------------------------------------------------------------- views and secrecy


def test_pending_choice_never_leaks_before_the_reveal():
    # docs/rulings/firewall.md#secret-turn and docs/rulings/firewall.md#channel-view: a choice stays secret until the
    # reveal.
    st = arrange(([7, 8], [13]))
    before = {s: st.view(s) for s in (None, 1)}
    ev = st.apply(0, Turn(bet=17, spells=(0, 7, 8)))
    assert [e.visible_to for e in ev] == [None, frozenset({0})]
    assert all("17" not in e.text for e in public(ev))
    after = {s: st.view(s) for s in (None, 1)}
    for s in (None, 1):
        after[s]["players"][0]["submitted"] = False
        after[s]["players"][0]["asked"] = "turn"
        after[s]["awaiting"] = before[s]["awaiting"]
        assert after[s] == before[s]
    assert st.view(0)["you"]["submitted"] == {"type": "turn", "bet": 17, "spells": [0, 7, 8], "clone": None}


def test_view_shape_after_a_turn():
    # docs/rulings/firewall.md#channel-view: what the channel and each seat see after a turn.
    st = arrange(([7], [12]))
    turn(st, (6, [0, 7]), (4, [12]))
    v = st.view(None)
    assert set(v) == {
        "game", "variant", "phase", "round", "turn", "turns_total", "bridge", "muted", "players",
        "last_turn", "resolving", "pending_choice", "awaiting",
    }  # fmt: skip
    lt = v["last_turn"]
    assert lt["bets"] == [6, 4] and lt["spells"] == [[0, 7], [12]] and lt["powers"] == [13, 4]
    assert lt["wall_from"] == 9 and lt["wall_to"] == 10 and lt["paid"] == [6, 0] and lt["mana_after"] == [44, 50]
    assert [e["card"] for e in lt["effects"]] == [7, 12]
    assert v["players"][0]["discard"] == [7] and v["players"][1]["last_played"] == [12]
    you = st.view(0)["you"]
    assert set(you) == {"seat", "asked", "hand", "stock_count", "submitted", "clone_options", "max_bet"}


# ---------------------------------------------------------------------------- variants


def test_full_hand_variant_holds_every_spell_and_draws_nothing():
    # docs/rulings/firewall.md#variants: variant 1 ("full_hand"), every spell in hand from the start, no draws.
    m = Match.new("firewall", {"variant": "full_hand"})
    assert not m.log and m.state.view(1)["you"]["hand"] == list(range(15))
    turn(m, (50, []), (1, []))  # seat 0 out of mana: seat 1 pushes the wall 9 -> 6
    assert m.state.round == 2 and m.state.view(1)["you"]["hand"] == list(range(15))
    assert not [e for e in m.events if e.kind == "draw"]


def test_chosen_order_variant_each_player_orders_their_stock_in_secret():
    # docs/rulings/firewall.md#variants: variant 2 ("chosen_order"), each player orders their own stock in secret, then
    # draws 5, and 3 per round, as usual.
    m = Match.new("firewall", {"variant": "chosen_order"})
    assert m.awaiting.seats == {0, 1} and m.state.asked(0).kind == "order"
    with pytest.raises(IllegalAction, match="exactly once"):
        m.act(0, Order(stock=(1, 2, 3)))
    ev = m.act(0, Order(stock=tuple(range(14, 0, -1))))
    assert [e.visible_to for e in ev] == [None, frozenset({0})]
    assert m.state.view(1).get("you", {}).get("stock") == list(DECK)  # seat 1 sees only its own
    m.act(1, Order(stock=tuple(DECK)))
    assert m.state.view(0)["you"]["hand"] == [0, 10, 11, 12, 13, 14]
    assert m.state.view(1)["you"]["hand"] == [0, 1, 2, 3, 4, 5]
    assert m.state.default_action(0) is None


def test_unknown_variant_is_refused():
    # docs/rulings/firewall.md#variants and docs/actions/firewall.md#options: only the three variants exist.
    with pytest.raises(MalformedAction, match="variant"):
        Firewall({"variant": "quick"})


# ---------------------------------------------------------------------------- forfeit, examples, CLI


def test_legal_turn_actions_cover_bets_and_hand_subsets():
    # docs/rulings/firewall.md#legal-turn: every bet 1 .. mana with every subset of the hand (and each Clone target).
    st = arrange(([2, 7], []), mana=(3, 50), last_played=([], [8, 13]))
    acts = st.legal_actions(0)
    # hand {0, 2, 7}: 4 subsets without Clone + 4 x 2 targets with it, for each bet 1..3
    assert len(acts) == 3 * (4 + 8)
    for i in range(len(acts)):
        probe = arrange(([2, 7], []), mana=(3, 50), last_played=([], [8, 13]))
        probe.apply(0, acts[i])


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_logs_replay_and_match_how_they_were_played(name):
    # docs/actions/firewall.md#examples and docs/actions/firewall.md#replay: each example log replays to its recorded
    # outcome.
    path = ROOT / "examples" / "firewall" / name
    raw = json.loads(path.read_text())
    assert raw == example_log(EXAMPLES[name])  # generated by playing (tests/rules/firewall/helpers.py)
    m = Match.replay(MatchLog.model_validate(raw))
    assert m.outcome is not None and m.outcome.to_json(m.seats) == raw["outcome"]
    res = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(path)], capture_output=True, text=True, cwd=ROOT, check=False
    )
    assert res.returncode == 0, res.stdout


def test_every_example_file_is_generated():
    # docs/actions/firewall.md#examples: every example file is generated by playing.
    files = {p.name for p in (ROOT / "examples" / "firewall").glob("*.json")}
    assert files == set(EXAMPLES) and len(files) >= 3


def test_cli_play_random_finishes():
    # docs/rulings/firewall.md#match-ends-by-round-seven: random play always ends (python -m rules play-random).
    res = subprocess.run(
        [sys.executable, "-m", "rules", "play-random", "firewall", "--seed", "9"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert res.returncode == 0 and json.loads(res.stdout)["outcome"] is not None


# ---------------------------------------------------------------------------- the bets seen (public)


def test_every_revealed_bet_is_kept_with_the_mana_and_distance_it_was_made_at():
    # docs/rulings/firewall.md#revealed-bets-are-public: "both will reveal their bets": once revealed, a bet
    # is public; the state keeps each one (for the computer's opponent model, rules/ai/firewall.py)
    # with the bettor's mana and the wall's distance from its wizard before the turn.
    st = arrange(mana=(30, 40))
    assert [st.bets_of(0), st.bets_of(1)] == [[], []]
    st.apply(0, Turn(bet=5))
    assert [st.bets_of(0), st.bets_of(1)] == [[], []]  # submitted, not revealed: still secret
    st.apply(1, Turn(bet=7))
    assert [st.bets_of(0), st.bets_of(1)] == [[(30, 3, 5)], [(40, 3, 7)]]
    twin = st.clone()
    turn(st, (10, []), (2, []))  # the wall was at 8: two flagstones from Ann's wizard, four from Bob's
    assert [st.bets_of(0), st.bets_of(1)] == [[(30, 3, 5), (25, 2, 10)], [(40, 3, 7), (33, 4, 2)]]
    assert [twin.bets_of(0), twin.bets_of(1)] == [[(30, 3, 5)], [(40, 3, 7)]]  # a copy keeps its own


def test_a_bet_changed_by_recycle_is_kept_as_it_was_laid():
    # docs/rulings/firewall.md#revealed-bets-are-public and docs/rulings/firewall.md#recycle: the bet shown at the
    # reveal is the one kept.
    st = arrange(([6], []), mana=(12, 50))
    turn(st, (10, [6]), (12, []))
    st.apply(0, RecycleChoice(bet=12))
    assert [st.bets_of(0), st.bets_of(1)] == [[(12, 3, 10)], [(50, 3, 12)]]


def test_the_bets_seen_are_rebuilt_by_replaying_the_log():
    # docs/rulings/firewall.md#revealed-bets-are-public: the bets seen are not in the view; replaying the log
    # rebuilds them.
    m = scripted_spells_match()
    again = Match.replay(MatchLog.model_validate(example_log(scripted_spells_match)))
    state = m.state
    assert isinstance(state, FirewallState) and isinstance(again.state, FirewallState)
    assert len(state.bets_of(0)) == len(state.bets_of(1)) == state.turns_total > 3
    assert again.state.bets_seen == state.bets_seen


def test_a_long_history_of_bets_pickles_and_copies():
    # docs/rulings/firewall.md#revealed-bets-are-public: the state keeps every revealed bet.
    # The bot pickles a match's state (a computer's move is thought out in another process; an idle
    # match is frozen): the bets seen go flat, however long the match, and come back the same.
    import copy
    import pickle

    st = arrange()
    turn(st, (5, []), (7, []))
    for k in range(5_000):  # far more turns than a match has: a chain this deep would defeat pickle
        st.bets_seen = (st.bets_seen, (50, 3, k % 50 + 1), (50, 3, k % 49 + 1))
    again = pickle.loads(pickle.dumps(st, protocol=pickle.HIGHEST_PROTOCOL))
    assert isinstance(again, FirewallState)
    assert again.bets_of(0) == st.bets_of(0) and again.bets_of(1) == st.bets_of(1)
    assert len(again.bets_of(1)) == 5_001 and again.bets_of(1)[0] == (50, 3, 7)
    assert snapshot(again) == snapshot(st)
    assert copy.deepcopy(st).bets_of(0) == st.bets_of(0)
    turn(again, (3, []), (2, []))  # plays on (the wall is two flagstones from Ann: Bob won the first turn)
    assert again.bets_of(0)[-1] == (45, 2, 3) and len(st.bets_of(0)) == 5_001
