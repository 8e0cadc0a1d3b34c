"""The offline table ``python -m rules play``, driven by scripted input."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from rules.__main__ import main
from rules.match import Match, MatchLog
from rules.play import CLEAR
from rules.story import told


def first(count: int) -> int:
    return 1


def middle(count: int) -> int:
    return count // 2 + 1


#: the hot-seat games: seed and choice. Short whole games (the screens are the cost): Firewall's
#: first choice is always the smallest bet without a spell (700 turns), its middle one ends in 67;
#: Arena's seed 1 in 67 decisions (seed 3: 293)
HOT_SEAT = [
    pytest.param("wizards-cup", 2, 3, first, id="wizards-cup-2"),
    pytest.param("firewall", 2, 3, middle, id="firewall-2"),
    pytest.param("magic-duel", 4, 3, first, id="magic-duel-4"),
    pytest.param("arena", 2, 1, first, id="arena-2"),
]


def run(monkeypatch: pytest.MonkeyPatch, argv: list[str], stdin: str) -> tuple[int, str]:
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["play", *argv])
    return code, out.getvalue()


def replayed(path: Path) -> tuple[dict[str, object], Match]:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return raw, Match.replay(MatchLog.model_validate(raw))


class Choosing(io.StringIO):
    """Input that answers each list of choices ("Your choice (1-N): ") with the choice ``pick(N)``
    and anything else (the hot-seat pauses) with 1, for ``lines`` lines, then ends."""

    def __init__(self, out: io.StringIO, pick: Callable[[int], int], lines: int = 20000) -> None:
        super().__init__()
        self.out, self.pick, self.left = out, pick, lines

    def readline(self, size: int | None = -1) -> str:
        if self.left <= 0:
            return ""
        self.left -= 1
        asked = re.search(r"Your choice \(1-(\d+)\): $", self.out.getvalue()[-64:])
        return f"{self.pick(int(asked.group(1)))}\n" if asked else "1\n"


@pytest.mark.slow
@pytest.mark.parametrize(("game", "seats", "seed", "pick"), HOT_SEAT)
def test_hot_seat_full_game_replays(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str, seats: int, seed: int, pick: Callable[[int], int]
) -> None:
    log = tmp_path / "log.json"
    output = io.StringIO()
    monkeypatch.setattr(sys, "stdin", Choosing(output, pick))
    monkeypatch.setattr(sys, "stdout", output)
    code = main(["play", game, "--seats", str(seats), "--seed", str(seed), "--log", str(log)])
    out = output.getvalue()
    assert code == 0
    raw, match = replayed(log)
    assert match.awaiting.is_terminal and match.outcome is not None
    assert raw["outcome"] == match.outcome.to_json(match.seats)
    assert raw["seats"] == [f"Player {i + 1}" for i in range(seats)]
    assert "Outcome" in out and match.outcome.to_json(match.seats)["summary"] in out
    assert f"The log is saved in {log}" in out
    # every seat's private events are shown only to it, after the screen was cleared for it
    private = [e for e in match.events if e.visible_to is not None]
    assert private or game == "arena"
    texts: dict[str, set[str]] = {name: set() for name in match.seats}  # what each seat may see
    for event in private:
        for s in event.visible_to or ():
            texts[match.seats[s]].add(event.render(match.seats))
    shown: dict[str, set[str]] = {name: set() for name in match.seats}
    for screen in out.split(CLEAR):
        lines = [line.split("(only you see) ", 1)[1] for line in screen.splitlines() if "(only you see) " in line]
        if not lines:
            continue
        found = re.match(r"─* Pass to (.+?) ─", screen.lstrip())
        assert found, screen[:200]  # a screen with private events starts with the pause for its owner
        owner = found.group(1)
        assert set(lines) <= texts[owner], (owner, set(lines) - texts[owner])
        shown[owner].update(lines)
    end = out.find("The last secrets, now that the match is over")
    for event in private:
        # shown to its owner, or (no turn of theirs left) told at the end, marked as a secret
        text = event.render(match.seats)
        owners = [match.seats[s] for s in event.visible_to or ()]
        assert any(text in shown[o] for o in owners) or told(event, match.seats, revealed=True) in out[end:], text
    if game != "arena":  # secret choices: the pause before each
        assert "press Enter when only Player 2 can see the screen" in out


def test_game_against_random_seat_hides_its_secrets(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    code, out = run(
        monkeypatch, ["magic-duel", "--seats", "3", "--vs", "random", "--seed", "5", "--log", str(log)], "1\n" * 5000
    )
    assert code == 0
    assert CLEAR not in out and "Pass to" not in out  # one human: no hot-seat pauses
    _, match = replayed(log)
    assert match.seats == ["Player 1", "Random 2", "Random 3"]
    assert match.outcome is not None
    mine = [e for e in match.events if e.visible_to == frozenset({0})]
    theirs = [e for e in match.events if e.visible_to is not None and 0 not in e.visible_to]
    assert mine and theirs
    for e in mine:
        assert e.render(match.seats) in out
    seen = {e.render(match.seats) for e in mine}
    hidden = [e.render(match.seats) for e in theirs if e.render(match.seats) not in seen]
    assert hidden
    for text in hidden:
        assert text not in out


def test_output_is_deterministic_for_a_seed(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    outs = []
    for name in ("a", "b"):
        log = tmp_path / f"{name}.json"
        code, out = run(monkeypatch, ["wizards-cup", "--vs", "random", "--seed", "11", "--log", str(log)], "1\n" * 3000)
        assert code == 0
        outs.append(out.replace(str(log), "LOG"))
    assert outs[0] == outs[1]
    code, other = run(
        monkeypatch, ["wizards-cup", "--vs", "random", "--seed", "12", "--log", str(tmp_path / "c.json")], "1\n" * 3000
    )
    assert other.replace(str(tmp_path / "c.json"), "LOG") != outs[0]


def test_game_against_the_ai(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    pytest.importorskip("rules.ai")
    log = tmp_path / "log.json"
    code, out = run(monkeypatch, ["wizards-cup", "--vs", "ai:easy", "--seed", "2", "--log", str(log)], "1\n" * 3000)
    assert code == 0
    raw, match = replayed(log)
    assert match.seats == ["Player 1", "Computer 2 (easy)"]
    assert raw["outcome"] == match.outcome.to_json(match.seats) if match.outcome else False
    assert "Computer 2 (easy) has chosen." in out


def test_invalid_input_is_answered_and_asked_again(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    script = "0\n999999\nno such thing\n\n" + "1\n" * 3000
    code, out = run(monkeypatch, ["firewall", "--vs", "random", "--seed", "1", "--log", str(log)], script)
    assert code == 0
    assert "There is no choice 0: type a number from 1 to" in out
    assert "There is no choice 999999" in out
    assert "'no such thing' is not a choice" in out
    first = out.index("Your choice")
    assert out.count("Your choice", first, out.index("has chosen")) == 4 + 1  # three refusals + the empty line
    _, match = replayed(log)
    assert match.outcome is not None


def test_filter_and_pages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    code, out = run(monkeypatch, ["firewall", "--vs", "random", "--seed", "1", "--log", str(log)], "n\nbet=7\n")
    assert code == 130  # the input ended before the game did
    assert "page 2 of" in out
    tables = out.split("Your choice")
    page2 = [line for line in tables[1].splitlines() if "turn: bet=" in line]
    filtered = [line for line in tables[2].splitlines() if "turn: bet=" in line]
    assert page2 and filtered
    assert any("bet=7 " not in line for line in page2)
    assert all("bet=7 " in line for line in filtered)
    assert "bet=1 " in tables[0]


def test_end_of_input_saves_a_log_that_replays(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    code, out = run(monkeypatch, ["firewall", "--seed", "4", "--log", str(log)], "\n1\n\n1\n\n1\n")
    assert code == 130
    assert "Stopped before the end." in out
    raw, match = replayed(log)
    assert raw["outcome"] is None and not match.awaiting.is_terminal
    assert sum(1 for e in match.log if e.seat != "chance") == 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["chess"], "invalid choice: 'chess'"),
        (["firewall", "--vs", "robot"], "invalid player 'robot'"),
        (["firewall", "--vs", "ai:brutal"], "invalid player 'ai:brutal'"),
        (["firewall", "--seats", "3"], "Firewall is played by 2 players, not 3"),
        (["magic-duel", "--seats", "4", "--vs", "random", "--vs", "human"], "2 --vs players for 4 seats"),
        (["magic-duel", "--seed", "x"], "invalid seed: 'x'"),
        (["arena", "--seats", "0"], "invalid seat count: 0"),
    ],
)
def test_bad_options_are_argparse_errors(argv: list[str], message: str, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "rules", "play", *argv, "--log", str(tmp_path / "x.json")],
        input="",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert "usage: python -m rules play" in proc.stderr
    assert "error:" in proc.stderr and message in proc.stderr
    assert not (tmp_path / "x.json").exists()


@pytest.mark.slow
def test_subprocess_game_and_replay(tmp_path: Path) -> None:
    log = tmp_path / "log.json"
    proc = subprocess.run(
        [sys.executable, "-m", "rules", "play", "wizards-cup", "--vs", "random", "--seed", "8", "--log", str(log)],
        input="1\n" * 3000,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    rep = subprocess.run(
        [sys.executable, "-m", "rules", "replay", str(log)], capture_output=True, text=True, timeout=300
    )
    assert rep.returncode == 0, rep.stdout + rep.stderr
    assert json.loads(rep.stdout)["outcome"] == json.loads(log.read_text(encoding="utf-8"))["outcome"]


class ReviewAtTheEnd(io.StringIO):
    """Input that picks choice 1 at every prompt, then answers the end's offer with ``review``."""

    def __init__(self, out: io.StringIO, answer: str = "review") -> None:
        super().__init__()
        self.out, self.answer = out, answer

    def readline(self, size: int | None = -1) -> str:
        return f"{self.answer}\n" if self.out.getvalue().endswith("or press Enter to leave: ") else "1\n"


@pytest.mark.slow
def test_review_at_the_end_of_a_game_against_the_ai(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    from rules.ai.review import review

    log = tmp_path / "log.json"
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdin", ReviewAtTheEnd(out))
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["play", "wizards-cup", "--vs", "ai:normal", "--seed", "2", "--log", str(log)])
    assert code == 0
    text = out.getvalue()
    end = text.index("Type review to see the moves that cost you most")
    assert text.index(f"The log is saved in {log}") < end  # offered once the match is over and saved
    shown = text[end:]
    assert "Review of your" in shown and "as the computer judges them from what you saw" in shown
    _, match = replayed(log)
    found = review(match.to_log(), 0)  # the same review as the pure core's: a function of the log
    assert found.decisions > 0 and f"Review of your {found.decisions} decisions (Player 1)" in shown
    for n, m in enumerate(found.moments, 1):
        lines = shown.splitlines()
        at = next(i for i, line in enumerate(lines) if line.startswith(f"{n}. "))
        assert lines[at] == f"{n}. {m.label} (chance {round(m.before * 100)}% → {round(m.after * 100)}%)"
        assert lines[at + 1].startswith("   you played: ") and lines[at + 2].startswith("   the computer's move: ")
    if not found.moments:
        assert "no move of yours cost" in shown


def test_no_review_offered_without_a_computer_or_when_declined(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    code, out = run(
        monkeypatch, ["firewall", "--vs", "random", "--seed", "1", "--log", str(tmp_path / "a.json")], "1\n" * 3000
    )
    assert code == 0 and "Type review" not in out
    out2 = io.StringIO()
    monkeypatch.setattr(sys, "stdin", ReviewAtTheEnd(out2, answer=""))
    monkeypatch.setattr(sys, "stdout", out2)
    assert main(["play", "wizards-cup", "--vs", "ai:easy", "--seed", "2", "--log", str(tmp_path / "b.json")]) == 0
    assert "Type review" in out2.getvalue() and "Review of your" not in out2.getvalue()


def test_each_game_has_a_new_seed_and_a_finished_log_is_never_overwritten(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 34, item 6: without --seed each game is a new one (its seed shown, and in the log's
    name), and a log whose match has ended is never written over: the next free name is taken."""
    monkeypatch.chdir(tmp_path)
    seeds = iter([41, 42, 43])
    monkeypatch.setattr("rules.__main__.new_seed", lambda: next(seeds))
    for _ in range(2):
        code, out = run(monkeypatch, ["wizards-cup", "--vs", "random"], "1\n" * 3000)
        assert code == 0
    assert sorted(p.name for p in tmp_path.glob("*.json")) == ["wizards-cup-seed-41.json", "wizards-cup-seed-42.json"]
    assert "seed 42" in out
    first = (tmp_path / "wizards-cup-seed-41.json").read_text(encoding="utf-8")
    # the same seed again, or the same --log: a new file beside the finished one
    assert run(monkeypatch, ["wizards-cup", "--vs", "random", "--seed", "41"], "1\n" * 3000)[0] == 0
    assert (
        run(monkeypatch, ["wizards-cup", "--vs", "random", "--log", "wizards-cup-seed-41.json"], "1\n" * 3000)[0] == 0
    )
    assert (tmp_path / "wizards-cup-seed-41.json").read_text(encoding="utf-8") == first
    assert (tmp_path / "wizards-cup-seed-41-2.json").exists() and (tmp_path / "wizards-cup-seed-41-3.json").exists()


def test_a_log_path_is_taken_unless_a_finished_match_is_there(tmp_path: Path) -> None:
    from rules.__main__ import free_log_path, new_seed

    path = tmp_path / "game.json"
    assert free_log_path(str(path)) == str(path)  # nothing there
    path.write_text(json.dumps({"game": "firewall", "outcome": None}), encoding="utf-8")
    assert free_log_path(str(path)) == str(path)  # a match stopped before its end: played again
    path.write_text(json.dumps({"game": "firewall", "outcome": {"ranks": [1, 2]}}), encoding="utf-8")
    assert free_log_path(str(path)) == str(tmp_path / "game-2.json")
    (tmp_path / "game-2.json").write_text("not a log", encoding="utf-8")  # something else: kept too
    assert free_log_path(str(path)) == str(tmp_path / "game-3.json")
    assert len({new_seed() for _ in range(20)}) > 1


def test_the_ending_is_told_once_and_the_table_fits_80_columns(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Issue 34, item 6: Firewall's winning sentence (the lava) was told five times (its event, the
    game's end event, each seat's reason, the summary); it is told once, and the outcome table keeps
    a "why" column only where a seat's reason says more. Tables and panels fit the terminal (80
    columns here; 80 when the output is not a terminal)."""
    monkeypatch.setenv("COLUMNS", "80")
    log = tmp_path / "fw.json"
    code, out = run(monkeypatch, ["firewall", "--vs", "random", "--seed", "3", "--log", str(log)], "1\n" * 3000)
    assert code == 0
    _, match = replayed(log)
    summary = match.outcome.to_json(match.seats)["summary"] if match.outcome else ""
    assert "falls into the lava" in summary and out.count(summary) == 1
    assert "Outcome" in out and "why" not in out.split("Outcome", 1)[1]
    boxed = [line for line in out.splitlines() if line[:1] in set("┏┃┡│└╭╰┌├─")]
    assert boxed and max(len(line) for line in boxed) <= 80


def test_a_firewall_turn_and_a_wizards_cup_deck_are_found_by_their_names(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Issue 34, item 6: choices show the game's names (spells by name and number, cards with their
    Element and Value), and the words of a bet and spell names, or of five card names, put that one
    choice first instead of scrolling thousands of numbered options."""
    from rules.play import action_label, matching
    from rules.registry import get_game

    firewall = get_game("firewall")()
    turn = firewall.parse_action({"type": "turn", "bet": 12, "spells": [1, 14], "clone": None})
    assert action_label(turn, firewall) == "turn: bet=12 spells=[Muteness (1), Suction (14)] clone=-"
    labels = [
        action_label(firewall.parse_action({"type": "turn", "bet": bet, "spells": spells}), firewall)
        for bet in (1, 12, 120)
        for spells in ([], [1], [1, 14], [0, 1, 14], [14])
    ]
    found = matching(labels, "bet=12 mute Suction")
    assert [labels[i] for i in found] == [
        "turn: bet=12 spells=[Muteness (1), Suction (14)] clone=-",
        "turn: bet=12 spells=[False Card (0), Muteness (1), Suction (14)] clone=-",
    ]
    assert matching(labels, "bet=1") == [0, 1, 4, 2, 3]  # not bet=12 or bet=120
    assert matching(labels, "mu") == []  # two letters: not a name's start
    # Wizards Cup: a deck by its five card names, the cards with Element and Value
    cup = get_game("wizards-cup")()
    deck = cup.parse_action({"type": "choose_deck", "cards": ["shaman", "detective", "matron", "mentor", "jester"]})
    label = action_label(deck, cup)
    assert label.startswith("choose_deck: cards=[The Shaman (Void 1), ") and label.count("(") == 5
    # the offline table: the words of one deck (its five cards' names) leave that deck alone
    from rules.match import Match

    state = Match.new("wizards-cup", {}, seed=5, seats=["Player 1", "Random 2"]).state
    decision = state.asked(0)
    assert decision is not None and decision.kind == "choose_deck" and len(decision.choices) > 6000
    cards = decision.choices[-1].to_json()["cards"]
    words = ", ".join(cup.cards[c].name.removeprefix("The ").lower() for c in cards)  # names of two words too
    log = tmp_path / "deck.json"
    code, out = run(monkeypatch, ["wizards-cup", "--vs", "random", "--seed", "5", "--log", str(log)], words + "\n")
    listed = out.split("Your choice")[1]
    rows = [line for line in listed.splitlines() if line.startswith("│") and line.split("│")[1].strip().isdigit()]
    assert len(rows) == 1 and f"│ {len(decision.choices)} │" in rows[0], listed
    assert matching(["cards=[Fire Wizard (Fire 7), The Jester (Void 6)]"], "fire wizard, jester") == [0]
    assert matching(["cards=[Water Wizard (Water 5), The Jester (Void 6)]"], "fire wizard, jester") == []
