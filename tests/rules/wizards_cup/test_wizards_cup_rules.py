"""Wizards Cup rule scenarios. Each test cites the ruling it checks by its anchor in
docs/rulings/wizards-cup.md (or docs/actions/wizards-cup.md); that ruling's *Rule:* line says which
part of the game's rules it implements."""

from __future__ import annotations

import pytest

from rules.core import CHANCE, Result
from rules.errors import IllegalAction, MalformedAction, NotYourTurn
from rules.match import Match
from rules.wizards_cup import (
    ELEMENT_BEATS,
    BotanistChoice,
    ChooseDeck,
    Element,
    Phase,
    Plan,
    RandomPick,
    Swap,
    WizardsCup,
    load_card_set,
)

from .helpers import arrange, discards, duels, start, texts

CARDS = load_card_set()


def only_duel(events):
    (d,) = duels(events)
    return d


# ---------------------------------------------------------------------------- the card set


def test_default_set_honours_the_rulebook_facts():
    # docs/rulings/wizards-cup.md#own-card-set: 18 Wizard cards per player, the two sets identical; 8 of the 18 are Void
    assert len(CARDS.cards) == 18
    assert sum(c.element is Element.VOID for c in CARDS.cards) == 8
    # a Shadow card worth 10
    assert any(c.element is Element.SHADOW and c.value == 10 for c in CARDS.cards)
    # a Water Wizard worth more than a Nature Wizard
    assert CARDS["water-wizard"].value > CARDS["nature-wizard"].value
    assert {c.power.value for c in CARDS.cards if c.power} == {"immediate", "permanent", "dormant"}


@pytest.mark.parametrize("winner", list(Element))
@pytest.mark.parametrize("loser", list(Element))
def test_element_compatibility_diagram(winner, loser):
    # docs/rulings/wizards-cup.md#element-diagram: Water beats Fire, Nature beats Water, Fire beats Nature, Light
    # beats Shadow, Water / Fire / Nature beat Light; Void has no weakness
    expected = {
        ("Water", "Fire"),
        ("Nature", "Water"),
        ("Fire", "Nature"),
        ("Light", "Shadow"),
        ("Water", "Light"),
        ("Fire", "Light"),
        ("Nature", "Light"),
    }
    assert ((winner, loser) in ELEMENT_BEATS) == ((winner.value, loser.value) in expected)


# ---------------------------------------------------------------------------- set-up


def test_random_first_card_is_chance_public_and_in_the_deck():
    # docs/rulings/wizards-cup.md#random-pick: the opponent picks 1 card at random and reveals it; it is one of the
    # 6 cards of the Deck (docs/rulings/wizards-cup.md#deck-building)
    m = Match.new("wizards-cup", seed=3, seats=["Ann", "Bob"])
    assert [e.seat for e in m.log] == [CHANCE, CHANCE]
    pick0 = m.log[0].action["card"]
    spectator = m.state.view(None)
    assert spectator["players"][0]["random_pick"] == pick0
    others = [c for c in CARDS.ids if c != pick0]
    with pytest.raises(IllegalAction, match="already in your Deck"):
        m.act(0, ChooseDeck(cards=(pick0, *others[:4])))
    m.act(0, ChooseDeck(cards=tuple(others[:5])))
    assert m.state.view(0)["you"]["deck"] == [pick0, *others[:5]]


def test_a_test_can_force_the_random_pick():
    # docs/rulings/wizards-cup.md#random-pick: a chance action, so a test or a log can force any card (seat 0's first)
    m = Match(WizardsCup(), 0, ["Ann", "Bob"])
    m.apply(CHANCE, RandomPick(seat=0, card="assassin"))
    with pytest.raises(IllegalAction, match="seat 1"):
        m.apply(CHANCE, RandomPick(seat=0, card="shaman"))
    m.apply(CHANCE, RandomPick(seat=1, card="shaman"))
    assert m.state.players[0].random_pick == "assassin" and m.state.players[1].random_pick == "shaman"


def test_deck_choice_is_secret():
    # docs/rulings/wizards-cup.md#deck-building: "select 5 more cards" unseen by the opponent
    m = start(
        ["assassin", "cleric", "fire-wizard", "mentor", "jester"],
        "shaman",
        ["nature-wizard", "water-wizard", "soldier", "matron", "botanist"],
        "detective",
    )
    # before the round ran, check what a spectator learnt from the set-up events
    setup = [e for e in m.events if e.kind in ("deck_chosen", "planned")]
    assert setup and all("cleric" not in e.text.lower() for e in setup)
    private = [e for e in m.events if e.visible_to is not None]
    assert private and all(e.visible_to in (frozenset({0}), frozenset({1})) for e in private)


def test_planning_uses_the_deck_and_leaves_one_waiting_card():
    # docs/rulings/wizards-cup.md#planning: 5 of the 6 Deck cards in the order they will be played; the sixth is the
    # Waiting card
    m = Match(WizardsCup(), 0, ["Ann", "Bob"])
    m.apply(CHANCE, RandomPick(seat=0, card="assassin"))
    m.apply(CHANCE, RandomPick(seat=1, card="shaman"))
    m.apply(0, ChooseDeck(cards=("cleric", "fire-wizard", "mentor", "jester", "matron")))
    before = m.state.view(0)
    with pytest.raises(IllegalAction, match="your Deck is"):
        m.apply(0, Plan(order=("assassin", "cleric", "fire-wizard", "mentor", "jester"), waiting="botanist"))
    with pytest.raises(IllegalAction):
        m.apply(0, Plan(order=("assassin", "assassin", "fire-wizard", "mentor", "jester"), waiting="matron"))
    assert m.state.view(0) == before
    m.apply(0, Plan(order=("assassin", "cleric", "fire-wizard", "mentor", "jester"), waiting="matron"))
    assert m.state.players[0].waiting == "matron"


def test_each_player_reveals_the_first_card_of_their_deck():
    # docs/rulings/wizards-cup.md#first-reveal: both reveal the first card of their Deck at the same time
    m = start(
        ["assassin", "cleric", "fire-wizard", "mentor", "jester"],
        "shaman",
        ["nature-wizard", "water-wizard", "soldier", "matron", "botanist"],
        "detective",
    )
    first = next(e for e in m.events if e.kind == "duel_start")
    assert first.data["cards"] == ["assassin", "nature-wizard"]


# ---------------------------------------------------------------------------- criteria B and C


def test_water_wizard_loses_to_nature_wizard_despite_higher_value():
    # docs/rulings/wizards-cup.md#element-diagram: the Water Wizard loses to the Nature Wizard despite its higher Value
    st, ev = arrange({"pile": ["water-wizard"]}, {"pile": ["nature-wizard"]})
    d = only_duel(ev)
    assert (d["criterion"], d["reason"], d["winner"]) == ("element", "Nature beats Water", 1)


def test_nature_and_void_do_not_interact_value_5_wins():
    # docs/rulings/wizards-cup.md#element: Nature and Void do not interact, so Values decide
    # (docs/rulings/wizards-cup.md#value): with no Dormant power, the Wizard with Value 5 wins
    st, ev = arrange({"pile": ["nature-wizard"]}, {"pile": ["mentor"]})
    d = only_duel(ev)
    assert (d["criterion"], d["reason"], d["winner"]) == ("value", "5 against 4", 0)


def test_weaker_element_loses_regardless_of_value():
    # docs/rulings/wizards-cup.md#element-diagram: a weaker Element always loses, whatever the Values
    st, ev = arrange({"pile": ["assassin"]}, {"pile": ["soldier"]})
    d = only_duel(ev)
    assert (d["reason"], d["winner"]) == ("Light beats Shadow", 1)


def test_loser_is_discarded_winner_stays_and_loser_side_draws():
    # docs/rulings/wizards-cup.md#end-of-duel: the loser goes face up on its owner's discard pile, the winner stays,
    # and each player with no Wizard in the Duel zone draws the top card of their Deck
    st, ev = arrange({"pile": ["assassin", "mentor"]}, {"pile": ["fire-wizard", "jester", "matron"]})
    starts = [e for e in ev if e.kind == "duel_start"]
    assert starts[1].data["entered"] == [{"seat": 1, "card": "jester"}]
    first = duels(ev)[0]
    assert first["winner"] == 0 and first["losers"] == [1] and first["cards"] == ["assassin", "fire-wizard"]
    assert starts[1].data["cards"] == ["assassin", "jester"]


def test_equal_adjusted_values_both_lose():
    # docs/rulings/wizards-cup.md#value: equal adjusted Values, both Wizards lose
    st, ev = arrange({"pile": ["water-wizard"]}, {"pile": ["jester"]})
    d = only_duel(ev)
    assert d["winner"] is None and d["losers"] == [0, 1]
    assert discards(ev) == [["water-wizard"], ["jester"]]


def test_identical_names_lose_their_powers_and_dormant_still_counts():
    # docs/rulings/wizards-cup.md#identical-names: identical Wizards lose their powers and Values decide; Dormant
    # powers still count
    st, ev = arrange({"pile": ["matron"], "discard": ["mentor"]}, {"pile": ["matron"]})
    d = only_duel(ev)
    # with its power a Matron would make the lower Value win; without, 5 beats 3
    assert (d["winner"], d["reason"]) == (0, "The Mentor +2: 5 against 3")
    assert any("identical names" in t for t in texts(ev))


# ---------------------------------------------------------------------------- round and game end


def test_opponent_wins_round_when_a_player_cannot_play():
    # docs/rulings/wizards-cup.md#no-wizard-left: a player who cannot draw a Wizard for the next duel loses the round
    st, ev = arrange({"pile": ["assassin"]}, {"pile": ["fire-wizard", "nature-wizard"]})
    end = next(e for e in ev if e.kind == "round_end")
    assert end.data["winners"] == [0] and end.data["tokens"] == [1, 0]
    # the round ends before Bob's second card is even drawn, because the Assassin stays (10 > 5)
    assert st.phase is Phase.PREPARE and st.round == 2


def test_both_win_the_round_when_neither_can_play():
    # docs/rulings/wizards-cup.md#no-wizard-left: if neither player can play, both win the round (a token each)
    st, ev = arrange({"pile": ["water-wizard"]}, {"pile": ["jester"]})
    end = next(e for e in ev if e.kind == "round_end")
    assert end.data["winners"] == [0, 1] and end.data["tokens"] == [1, 1]


def test_two_tokens_win_the_game():
    # docs/rulings/wizards-cup.md#victory-tokens: the player with 2 tokens wins
    st, ev = arrange({"pile": ["assassin"], "tokens": 1}, {"pile": ["fire-wizard"]})
    assert st.is_terminal
    assert [s.result for s in st.outcome.seats] == [Result.WIN, Result.LOSS]


def test_tiebreak_lower_total_and_shared_victory():
    # docs/rulings/wizards-cup.md#simultaneous-second-tokens: the lower Deck total wins; equal totals share the
    # victory
    st, ev = arrange({"pile": ["water-wizard"], "tokens": 1}, {"pile": ["jester"], "tokens": 1})
    assert st.is_terminal
    tb = next(e for e in ev if e.kind == "tiebreak")
    assert tb.data["totals"] == [6, 6]
    assert [s.result for s in st.outcome.seats] == [Result.DRAW, Result.DRAW]
    assert "shared victory" in st.outcome.summary

    # give Ann a cheaper Deck: the tie-break reads the 6 cards of the current Deck
    cheap = ["water-wizard", "shaman", "detective", "matron", "mentor", "botanist"]
    dear = ["jester", "assassin", "archmage", "cleric", "fire-wizard", "alchemist"]
    st2, ev2 = arrange(
        {"pile": ["water-wizard"], "tokens": 1, "team": cheap}, {"pile": ["jester"], "tokens": 1, "team": dear}
    )
    tb = next(e for e in ev2 if e.kind == "tiebreak")
    assert tb.data["totals"] == [6 + 1 + 2 + 3 + 4 + 3, 6 + 10 + 9 + 8 + 7 + 7]
    assert st2.outcome.winners == [0]


def test_swap_between_rounds_keeps_six_cards():
    # docs/rulings/wizards-cup.md#between-rounds: swap one Deck card for one of the 12 set aside; the Deck keeps 6
    # cards
    m = start(
        ["assassin", "cleric", "fire-wizard", "mentor", "jester"],
        "shaman",
        ["nature-wizard", "water-wizard", "soldier", "matron", "botanist"],
        "detective",
    )
    st = m.state
    assert st.phase is Phase.PREPARE and st.asked(0).kind == "swap" and st.asked(1).kind == "swap"
    assert len(st.unused(0)) == 12
    before = st.view(0)
    with pytest.raises(IllegalAction, match="not in your Deck"):
        m.act(0, Swap(remove="archmage", add="geomancer"))
    with pytest.raises(IllegalAction, match="12 unused"):
        m.act(0, Swap(remove="assassin", add="cleric"))
    assert st.view(0) == before
    m.act(0, Swap(remove="shaman", add="archmage"))
    assert sorted(st.players[0].team) == sorted(["assassin", "cleric", "fire-wizard", "mentor", "jester", "archmage"])
    assert st.asked(0).kind == "plan"  # docs/rulings/wizards-cup.md#own-pace: plan as soon as your own swap is done
    m.act(1, Swap())
    assert st.asked(1).kind == "plan"
    # docs/rulings/wizards-cup.md#between-rounds: then each player plans again (docs/rulings/wizards-cup.md#planning)
    m.act(0, Plan(order=("archmage", "cleric", "fire-wizard", "mentor", "jester"), waiting="assassin"))
    m.act(1, Plan(order=("nature-wizard", "water-wizard", "soldier", "matron", "botanist"), waiting="detective"))
    assert st.round >= 2 and any(e.kind == "round_start" and e.data["round"] == 2 for e in m.events)


def test_swap_is_secret_and_a_malformed_half_swap_is_refused():
    # docs/rulings/wizards-cup.md#between-rounds: the swap is a secret prompt; a swap names both cards or neither
    m = start(
        ["assassin", "cleric", "fire-wizard", "mentor", "jester"],
        "shaman",
        ["nature-wizard", "water-wizard", "soldier", "matron", "botanist"],
        "detective",
    )
    with pytest.raises(MalformedAction, match="neither"):
        m.act(0, {"type": "swap", "remove": "shaman"})
    events = m.act(0, Swap(remove="shaman", add="archmage"))
    public = [e for e in events if e.visible_to is None]
    assert public and all("archmage" not in e.text.lower() and "Archmage" not in e.text for e in public)


# ---------------------------------------------------------------------------- powers and FAQ


def test_shaman_both_lose():
    # docs/rulings/wizards-cup.md#shaman: with no other power in play, The Shaman makes both Wizards lose
    st, ev = arrange({"pile": ["shaman"]}, {"pile": ["assassin"]})
    d = only_duel(ev)
    assert (d["criterion"], d["losers"], d["reason"]) == ("power", [0, 1], "The Shaman: both Wizards lose")


def test_faq_two_immediate_powers_lower_printed_value_first_regardless():
    # docs/rulings/wizards-cup.md#precedence: the lower printed Value uses its power first;
    # docs/rulings/wizards-cup.md#first-verdict-stands: the other power still activates "regardless of the effect of the
    # first one"
    st, ev = arrange({"pile": ["shaman"]}, {"pile": ["cleric"], "discard": ["fire-wizard"]})
    t = texts(ev)
    shaman = next(i for i, x in enumerate(t) if x.startswith("The Shaman"))
    cleric = next(i for i, x in enumerate(t) if x.startswith("The Cleric"))
    assert shaman < cleric
    assert only_duel(ev)["losers"] == [0, 1]
    assert discards(ev)[1] == ["cleric"]  # the Fire Wizard went back under the Deck


def test_faq_precedence_ignores_dormant_value_changes():
    # docs/rulings/wizards-cup.md#precedence: Dormant Value changes do not count for the order. The Jester makes the
    # Cleric 6, below the Alchemist's 7; printed 8 still resolves after 7.
    st, ev = arrange({"pile": ["cleric"], "discard": ["mentor"]}, {"pile": ["alchemist"], "discard": ["jester"]})
    t = texts(ev)
    assert next(i for i, x in enumerate(t) if x.startswith("The Alchemist")) < next(
        i for i, x in enumerate(t) if x.startswith("The Cleric")
    )


def test_faq_may_powers_are_optional_botanist_choice():
    # docs/rulings/wizards-cup.md#botanist-choice: only a power that says "may" is optional; its owner chooses
    st, ev = arrange({"pile": ["botanist"], "waiting": "mentor"}, {"pile": ["mentor"]})
    assert st.awaiting.seats == {0}
    assert set(st.legal_actions(0)) == {BotanistChoice(discard=True), BotanistChoice(discard=False)}
    assert st.default_action(0) == BotanistChoice(discard=False)
    with pytest.raises(NotYourTurn):
        st.apply(1, BotanistChoice(discard=True))
    ev = st.apply(0, BotanistChoice(discard=False))
    d = only_duel(ev)
    assert any("keeps their Waiting card" in t for t in texts(ev))
    assert d["winner"] == 1 and d["reason"] == "4 against 3"
    assert discards(ev)[0] == ["botanist"]


def test_faq_botanist_discarded_dormant_applies():
    # docs/rulings/wizards-cup.md#dormant-read-live: the Dormant power of the Waiting card discarded by The Botanist
    # applies; a discarded Mentor gives the Botanist +2 (docs/rulings/wizards-cup.md#the-mentor)
    st, _ = arrange({"pile": ["botanist"], "waiting": "mentor"}, {"pile": ["mentor"]})
    ev = st.apply(0, BotanistChoice(discard=True))
    d = only_duel(ev)
    assert (d["winner"], d["reason"]) == (0, "The Mentor +2: 5 against 4")
    assert any(e.data.get("discarded") == "mentor" for e in ev)
    assert discards(ev)[0] == ["mentor"]


def test_faq_detective_brings_waiting_card_and_its_power_activates():
    # docs/rulings/wizards-cup.md#detective: the Waiting card placed by The Detective activates "when the card is
    # placed"
    st, ev = arrange({"pile": ["detective"], "waiting": "shaman"}, {"pile": ["fire-wizard"]})
    d = only_duel(ev)
    assert d["cards"] == ["shaman", "fire-wizard"] and d["losers"] == [0, 1]
    assert discards(ev)[0] == ["shaman"]  # the Detective is the Waiting card now, not discarded


def test_faq_detective_identical_newcomer_loses_powers():
    # docs/rulings/wizards-cup.md#detective: a newcomer identical to the opposing Wizard: both lose their powers
    # (docs/rulings/wizards-cup.md#identical-names)
    st, ev = arrange({"pile": ["detective"], "waiting": "matron", "discard": ["mentor"]}, {"pile": ["matron"]})
    d = only_duel(ev)
    assert (d["winner"], d["reason"]) == (0, "The Mentor +2: 5 against 3")


def test_detective_without_waiting_card_does_nothing():
    # docs/rulings/wizards-cup.md#detective: with no Waiting card (the Botanist discarded it) the Detective does nothing
    st, _ = arrange({"pile": ["botanist", "detective"], "waiting": "mentor"}, {"pile": ["jester", "fire-wizard"]})
    ev = st.apply(0, BotanistChoice(discard=True))  # Botanist loses 5 to 6; then the Detective enters
    assert any("has no Waiting card" in t for t in texts(ev))


def test_shaman_verdict_on_the_departed_detective_is_void():
    # docs/rulings/wizards-cup.md#verdict-on-departed-wizard: a verdict on a Wizard that has left the Duel zone is void
    st, ev = arrange({"pile": ["shaman"]}, {"pile": ["detective"], "waiting": "nature-wizard"})
    d = only_duel(ev)
    assert d["losers"] == [0] and d["winner"] == 1 and d["cards"] == ["shaman", "nature-wizard"]
    assert discards(ev) == [["shaman"], []]


def test_faq_revolutionary_discard_happens_before_the_loser_is_discarded():
    # docs/rulings/wizards-cup.md#when-it-wins-first: The Revolutionary's discard comes before the loser is discarded
    st, ev = arrange({"pile": ["revolutionary"]}, {"pile": ["necromancer", "fire-wizard"]})
    assert discards(ev)[1] == ["fire-wizard", "necromancer"]


def test_faq_revolutionary_beats_soldier_and_the_discard_happens():
    # docs/rulings/wizards-cup.md#when-it-wins-first: The Revolutionary beating The Soldier still makes a discard
    st, ev = arrange({"pile": ["revolutionary"]}, {"pile": ["soldier", "fire-wizard"]})
    assert discards(ev)[1] == ["fire-wizard", "soldier"]


def test_soldier_on_top_of_the_discard_protects_the_deck():
    # docs/rulings/wizards-cup.md#the-soldier: on top of its owner's discard pile, it stops the opponent's powers
    # making its owner discard
    st, ev = arrange({"pile": ["revolutionary"]}, {"pile": ["necromancer", "fire-wizard"], "discard": ["soldier"]})
    assert any("protects" in t for t in texts(ev))
    assert discards(ev)[1][:2] == ["soldier", "necromancer"]


def test_faq_blacksmith_cannot_beat_geomancer():
    # docs/rulings/wizards-cup.md#three-criteria: the Element decides before Values are compared, so The Blacksmith
    # cannot beat The Geomancer
    st, ev = arrange({"pile": ["blacksmith"]}, {"pile": ["geomancer"]})
    d = only_duel(ev)
    assert (d["criterion"], d["winner"], d["reason"]) == ("element", 1, "Water beats Fire")


def test_blacksmith_wins_when_values_decide():
    # docs/rulings/wizards-cup.md#the-blacksmith: if Values decide the duel, The Blacksmith wins
    st, ev = arrange({"pile": ["blacksmith"]}, {"pile": ["assassin"]})
    d = only_duel(ev)
    assert (d["winner"], d["reason"]) == (0, "The Blacksmith wins when Values decide, 5 against 10")


def test_matron_lower_value_wins():
    # docs/rulings/wizards-cup.md#the-matron: when Values decide, the lower Value wins
    # (docs/rulings/wizards-cup.md#value)
    st, ev = arrange({"pile": ["matron"]}, {"pile": ["fire-wizard"]})
    d = only_duel(ev)
    assert (d["winner"], d["reason"]) == (0, "The Matron: the lower Value wins, 3 against 7")


def test_new_matron_against_new_blacksmith_matron_first():
    # docs/rulings/wizards-cup.md#precedence: two new cards, the lower printed Value is resolved first
    st, ev = arrange({"pile": ["matron"]}, {"pile": ["blacksmith"]})
    assert only_duel(ev)["winner"] == 0


def test_blacksmith_already_in_play_takes_precedence_over_new_matron():
    # docs/rulings/wizards-cup.md#precedence: a Permanent power already in the Duel zone comes before new cards
    st, ev = arrange({"duel": "blacksmith"}, {"pile": ["matron"]})
    d = only_duel(ev)
    assert (d["winner"], d["reason"]) == (0, "The Blacksmith wins when Values decide, 5 against 3")


def test_mentor_adds_two_to_own_wizard():
    # docs/rulings/wizards-cup.md#the-mentor: your Wizard in the duel gets +2 (issue: "The Mentor +2: 7 against 6")
    st, ev = arrange({"pile": ["nature-wizard"], "discard": ["mentor"]}, {"pile": ["jester"]})
    assert only_duel(ev)["reason"] == "The Mentor +2: 7 against 6"


def test_dormant_power_only_while_visible_on_top():
    # docs/rulings/wizards-cup.md#dormant-read-live: a Dormant power applies "as long as it is visible" on top of the
    # discard pile (docs/rulings/wizards-cup.md#power-types)
    st, ev = arrange({"pile": ["nature-wizard"], "discard": ["mentor", "fire-wizard"]}, {"pile": ["jester"]})
    assert only_duel(ev)["winner"] == 1  # 5 against 6: the Mentor is covered


def test_jester_gives_the_opposing_wizard_minus_two():
    # docs/rulings/wizards-cup.md#the-jester: the opposing Wizard in the duel gets -2
    st, ev = arrange({"pile": ["fire-wizard"]}, {"pile": ["revolutionary"], "discard": ["jester"]})
    d = only_duel(ev)
    assert d["winner"] is None and d["reason"] == "Equal Values, both Wizards lose (The Jester -2: 5 against 5)"


def test_necromancer_counts_the_discard_pile():
    # docs/rulings/wizards-cup.md#the-necromancer: +1 for each card in its owner's discard pile
    st, ev = arrange({"pile": ["jester"], "discard": ["fire-wizard", "necromancer"]}, {"pile": ["fire-wizard"]})
    assert only_duel(ev)["reason"] == "The Necromancer +2: 8 against 7"


def test_alchemist_makes_the_opposing_wizard_void():
    # docs/rulings/wizards-cup.md#the-alchemist: the opposing Wizard counts as Void until the end of the duel
    st, ev = arrange({"pile": ["alchemist"]}, {"pile": ["fire-wizard"]})
    assert any("counts as Void" in t for t in texts(ev))
    assert only_duel(ev)["losers"] == [0, 1]  # Void against Void, 7 against 7


def test_archmage_cancels_a_new_permanent_power():
    # docs/rulings/wizards-cup.md#archmage: the Archmage's power, once resolved, stops the opposing Permanent power
    st, ev = arrange({"pile": ["archmage"]}, {"pile": ["matron"]})
    d = only_duel(ev)
    assert (d["winner"], d["reason"]) == (0, "9 against 3")


def test_archmage_in_play_cancels_a_new_immediate_power():
    # docs/rulings/wizards-cup.md#archmage: an Archmage already in play cancels what the opponent plays next
    # (docs/rulings/wizards-cup.md#precedence: cards already in play come first)
    st, ev = arrange({"duel": "archmage"}, {"pile": ["detective"], "waiting": "shaman"})
    d = only_duel(ev)
    assert d["cards"] == ["archmage", "detective"] and d["winner"] == 0


def test_archmage_cannot_undo_a_verdict_given_before_it():
    # docs/rulings/wizards-cup.md#first-verdict-stands: later powers cannot overturn a verdict
    # (docs/rulings/wizards-cup.md#archmage)
    st, ev = arrange({"pile": ["archmage"]}, {"pile": ["shaman"]})
    assert only_duel(ev)["losers"] == [0, 1]


def test_assassin_has_no_power():
    # docs/rulings/wizards-cup.md#no-power-cards: The Assassin, Shadow 10, has no power; Shadow and Fire do not
    # interact, so Values decide (docs/rulings/wizards-cup.md#element)
    st, ev = arrange({"pile": ["assassin"]}, {"pile": ["fire-wizard"]})
    assert only_duel(ev)["reason"] == "10 against 7"


def test_cleric_returns_top_discard_to_the_bottom_of_the_deck():
    # docs/rulings/wizards-cup.md#the-cleric: the top card of your discard pile goes to the bottom of your Deck
    st, ev = arrange({"pile": ["cleric"], "discard": ["mentor"]}, {"pile": ["jester", "assassin"]})
    assert any(e.data.get("moved") == "mentor" for e in ev)
    assert duels(ev)[0]["reason"] == "8 against 6"  # no Mentor bonus: it left the discard pile


def test_cleric_with_empty_discard_does_nothing():
    # docs/rulings/wizards-cup.md#the-cleric: with an empty discard pile there is no top card to move
    st, ev = arrange({"pile": ["cleric"]}, {"pile": ["jester"]})
    assert any("discard pile is empty" in t for t in texts(ev))


def test_geomancer_has_no_elemental_weakness():
    # docs/rulings/wizards-cup.md#the-geomancer: no elemental weakness (its Water still beats Fire)
    st, ev = arrange({"pile": ["geomancer"]}, {"pile": ["nature-wizard"]})
    d = only_duel(ev)
    assert (d["criterion"], d["winner"], d["reason"]) == ("value", 1, "5 against 4")
    st, ev = arrange({"pile": ["geomancer"]}, {"pile": ["fire-wizard"]})
    assert only_duel(ev)["reason"] == "Water beats Fire"


def test_plain_wizards_have_no_power():
    # docs/rulings/wizards-cup.md#no-power-cards: Fire Wizard, Water Wizard, Nature Wizard, The Assassin
    for card in ("fire-wizard", "water-wizard", "nature-wizard", "assassin"):
        assert CARDS[card].power is None


def test_detective_waiting_is_public_and_botanist_pauses_for_a_choice():
    # docs/rulings/wizards-cup.md#detective and docs/rulings/wizards-cup.md#botanist-choice: the Detective brings the
    # Botanist; the Botanist's "may" asks its owner, and the Detective now waits face down where
    # everyone saw it go.
    st, ev = arrange({"pile": ["detective", "assassin"], "waiting": "botanist"}, {"pile": ["jester"]})
    assert st.awaiting.seats == {0}
    spectator = st.view(None)
    assert spectator["players"][0]["waiting"] == "detective"
    assert spectator["players"][0]["duel"] == "botanist"
    assert st.view(1)["players"][0]["waiting"] == "detective"
    ev = st.apply(0, BotanistChoice(discard=True))
    assert any(e.data.get("discarded") == "detective" for e in ev)


# ---------------------------------------------------------------------------- decisions


def test_decisions_deck_plan_and_swap_are_secret_and_simultaneous_botanist_is_public():
    # docs/actions/wizards-cup.md#decisions: the Deck choice (docs/rulings/wizards-cup.md#deck-building), the plan
    # (docs/rulings/wizards-cup.md#planning) and the swap are secret, both players preparing at the same time; The
    # Botanist's "may" is its owner's choice alone, announced publicly (docs/rulings/wizards-cup.md#botanist-choice).
    m = Match(WizardsCup(), 0, ["Ann", "Bob"])
    m.apply(CHANCE, RandomPick(seat=0, card="mentor"))
    m.apply(CHANCE, RandomPick(seat=1, card="matron"))
    st = m.state
    for seat in (0, 1):
        d = st.asked(seat)
        assert d is not None and d.kind == "choose_deck" and d.secret and d.simultaneous and d.default is None
        assert len(d.choices) == 6188  # C(17, 5)
        assert st.view(seat)["you"]["asked"] == "choose_deck"
    m.apply(0, ChooseDeck(cards=("shaman", "detective", "jester", "alchemist", "archmage")))
    d = st.asked(0)
    assert d is not None and d.kind == "plan" and d.secret and d.simultaneous and len(d.choices) == 720
    assert st.view(None)["players"][1]["asked"] == "choose_deck" and not st.view(None)["players"][1]["ready"]
    swap = start(
        ["assassin", "cleric", "fire-wizard", "mentor", "jester"],
        "shaman",
        ["nature-wizard", "water-wizard", "soldier", "matron", "botanist"],
        "detective",
    ).state
    d = swap.asked(1)
    assert d is not None and d.kind == "swap" and d.secret and d.simultaneous
    assert len(d.choices) == 1 + 6 * 12 and d.choices[0] == Swap() and d.default == Swap()
    bot, _ = arrange({"pile": ["botanist"], "waiting": "mentor"}, {"pile": ["mentor"]})
    d = bot.asked(0)
    assert d is not None and d.kind == "botanist" and not d.secret and not d.simultaneous
    assert d.default == BotanistChoice(discard=False) and bot.asked(1) is None
    assert bot.view(1)["players"][1]["asked"] == "done" and bot.view(1)["players"][1]["ready"]


def test_a_forfeit_keeps_the_step_each_seat_had_reached_in_the_view():
    # docs/actions/wizards-cup.md#decisions: the view's "asked" shows each seat's step as it stood (as recorded in
    # the golden corpus).
    m = Match(WizardsCup(), 0, ["Ann", "Bob"])
    m.apply(CHANCE, RandomPick(seat=0, card="mentor"))
    m.apply(CHANCE, RandomPick(seat=1, card="matron"))
    m.apply(0, {"type": "forfeit"})
    assert m.state.asked(0) is None and m.state.asked(1) is None
    assert [p["asked"] for p in m.state.view(None)["players"]] == ["choose_deck", "choose_deck"]
