"""Seat changes between hands (BLD-8, seed 002 B20-B22) through the journal's ``move`` input.

Casino no-limit 1/3 on nine seats: the button moves without a dead button (seed 002 B11b, B12b). The first
hand has the button on seat 1, the small blind on seat 2 and the big blind on seat 3; everyone folds to the
big blind. "Due" is the number of active players the big blind passes before it reaches a seat, counted
clockwise from the last big blind (seat 3); a move that adds three or more has gone past three or more
active players clockwise from the blinds (B20).
"""

from __future__ import annotations

import json
from typing import Any

from journal_kit import act, cards, play_of, replay, sit, table

from dealerpi.engine.positions import HandPlan
from dealerpi.engine.table import Table

START: dict[str, Any] = {"type": "start"}
DECK = [rank + suit for suit in "shdc" for rank in "AKQJT98765432"]


def move(seat: int, to: int, **extra: Any) -> dict[str, Any]:
    return {"type": "move", "seat": seat, "to": to, **extra}


def after_first_hand(occupied: tuple[int, ...], rules: str = "casino") -> list[dict[str, Any]]:
    """Seats ``occupied`` with 300 each, button on seat 1; the first hand played with everyone folding to
    the big blind."""
    journal = [table(rules=rules, seats=9), *(sit(s) for s in occupied), {"type": "button", "seat": 1}, START]
    played, _ = replay(journal)
    plan = play_of(played).plan
    assert plan is not None and (plan.button, plan.sb, plan.bb) == (1, 2, 3)
    journal += cards(*DECK[: 2 * len(plan.order)])
    first = plan.order.index(plan.preflop_first)
    for k in range(len(plan.order) - 1):                    # around from the first to act; the big blind last
        journal.append(act(plan.order[(first + k) % len(plan.order)], "fold"))
    return journal


def planned(journal: list[dict[str, Any]]) -> tuple[Table, dict[str, Any]]:
    """Start the next hand; the table and the summary, which must have rejected nothing."""
    played, result = replay([*journal, START])
    assert result["rejected"] == []
    assert play_of(played).plan is not None
    return played, result


def bld8_notes(result: dict[str, Any]) -> list[str]:
    return [a["message"] for a in result["alerts"] if a["rule"] == "BLD-8"]


def next_plan_after(journal: list[dict[str, Any]], entry: dict[str, Any]) -> tuple[HandPlan, list[str]]:
    """The plan of the next hand when ``entry`` (a move) comes after ``journal``; and the move's notes."""
    played, result = planned([*journal, entry])
    assert play_of(played).plan is not None
    return play_of(played).plan, bld8_notes(result)


def next_plan(occupied: tuple[int, ...], entry: dict[str, Any], rules: str = "casino") -> tuple[HandPlan, list[str]]:
    """The plan of the second hand when ``entry`` (a move) comes after the first; and the move's notes."""
    return next_plan_after(after_first_hand(occupied, rules), entry)


def test_bld8_b20_moving_past_three_active_players_posts_or_waits_for_the_big_blind() -> None:
    """Seed 002 B20: seat 4 was due for the next big blind (due 0: nobody between seat 3 and seat 4). At seat
    8, the big blind passes seats 5, 6 and 7 first: due 3, so he moved past 3 active players and must post
    the big blind or wait for it. The next hand: button 2, small blind 3, big blind 5 (seat 4 is empty);
    seat 8 waits, or posts 3 live to play now."""
    plan, notes = next_plan((1, 2, 3, 4, 5, 6, 7), move(4, 8))
    assert notes == ["Seat 4 moves to seat 8 past 3 active players: posts a big blind or waits for it (seed 002 B20)"]
    assert (plan.button, plan.sb, plan.bb) == (2, 3, 5) and plan.order == (3, 5, 6, 7, 1, 2)
    assert ("BLD-6", "Seat 8 waits for the big blind") in plan.notes
    plan, _ = next_plan((1, 2, 3, 4, 5, 6, 7), move(4, 8, post=True))
    assert plan.blinds == {3: 1, 5: 3, 8: 3} and plan.order == (3, 5, 6, 7, 8, 1, 2)


def test_bld8_b20_moving_past_fewer_than_three_costs_nothing() -> None:
    """Seed 002 B20: seat 6 had due 2 (seats 4 and 5 before him); at seat 8 the big blind passes 4, 5 and 7:
    due 3, one more than before. No penalty: the next hand (button 2, small blind 3, big blind 4) deals
    seat 8 in without a post."""
    plan, notes = next_plan((1, 2, 3, 4, 5, 6, 7), move(6, 8))
    assert notes == ["Seat 6 moves to seat 8: no penalty, 1 active player passed (seed 002 B20 needs 3)"]
    assert (plan.button, plan.sb, plan.bb) == (2, 3, 4)
    assert plan.order == (3, 4, 5, 7, 8, 1, 2) and plan.blinds == {3: 1, 4: 3}


def test_bld8_b22_big_blind_moving_three_past_the_next_big_blind_owes_the_small_blind() -> None:
    """Seed 002 B22: seat 3 just took the big blind, so he owed the small blind next. At seat 8 he is 4
    active players (4, 5, 6, 7) past the big blind's next position: he makes up the small blind or waits for
    the big blind. Casino marks it (BLD-7 by_structure): waiting, he is not dealt in; posting, he pays the
    small blind 1 dead (a missed small blind alone, blinds-and-button.md choice 6). Next hand: button 2,
    small blind 4, big blind 5."""
    plan, notes = next_plan((1, 2, 3, 4, 5, 6, 7), move(3, 8))
    assert notes == ["Seat 3 moves to seat 8 past 4 players: makes up the small blind or waits for the big blind "
                     "(seed 002 B22)"]
    assert (plan.button, plan.sb, plan.bb) == (2, 4, 5)
    assert 8 not in plan.order and plan.after.missed == {8: "sb"}
    plan, _ = next_plan((1, 2, 3, 4, 5, 6, 7), move(3, 8, post=True))
    assert plan.dead == {8: 1} and 8 in plan.order


def test_bld8_b22_home_marks_no_missed_small_blind() -> None:
    """Seed 002 B22 under home's buy_blinds (BLD-7, seed 001: "a missed SB after you posted the BB is
    ignored"): the same move of the last big blind, seat 3 to seat 8, past 4 players, leaves no marker. Home
    has a dead button: the big blind moves on to seat 4, the small blind is dead on seat 3's empty chair and
    the button goes to seat 2; seat 8 is dealt in without posting."""
    plan, notes = next_plan((1, 2, 3, 4, 5, 6, 7), move(3, 8), rules="home")
    assert notes == ["Seat 3 moves to seat 8 past 4 players and escapes the small blind: this house does not "
                     "mark a missed small blind (BLD-7)"]
    assert (plan.button, plan.sb, plan.bb) == (2, None, 4)
    assert plan.after.missed == {} and 8 in plan.order and plan.blinds == {4: 3}


def test_bld8_b22_big_blind_moving_one_past_costs_nothing() -> None:
    """Seed 002 B22: seat 3 (the last big blind) moves to seat 5, one active player (seat 4) past the next big
    blind: less than three, no penalty. Next hand: button 2, small blind 4 (the next player after the empty
    seat 3), big blind 5: having moved into its path, he posts the big blind at once; nothing dead."""
    plan, notes = next_plan((1, 2, 3, 4, 6, 7), move(3, 5))
    assert notes == ["Seat 3 moves to seat 5: no penalty (seed 002 B22)"]
    assert (plan.button, plan.sb, plan.bb) == (2, 4, 5)
    assert plan.order == (4, 5, 6, 7, 1, 2) and plan.blinds == {4: 1, 5: 3} and plan.dead == {}


def test_bld8_b21_small_blind_moving_next_to_the_big_blind_lets_the_blinds_pass() -> None:
    """Seed 002 B21: seat 2 just took the small blind (the blind before the button) and moves to seat 5, the
    first seat left of the next big blind (seat 4), and lets the blinds pass without penalty.
    Hand 2: button 3, small blind 4, big blind 6 (seat 5 is skipped, not dealt in, no marker).
    Hand 3: button 4, small blind 6, big blind 7: the small blind went over seat 5, both blinds have gone by.
    Hand 4: seat 5 plays again, posting nothing; without a dead button the button moves to the next player
    who may have it, seat 5 (B12b), and seat 6, small blind last hand, does not post it twice
    (blinds-and-button.md choice 4): small blind 7, big blind 1."""
    journal = after_first_hand((1, 2, 3, 4, 6, 7)) + [move(2, 5, wait=True)]
    played, _ = replay(journal)
    assert played.state.lineup.passing == frozenset({5})
    assert Table.from_snapshot(json.loads(json.dumps(played.snapshot()))).state.lineup.passing == frozenset({5})
    passed = ("BLD-8", "Seat 5: the blinds have passed; plays from the next hand (seed 002 B21)")
    for button, sb, bb, order in ((3, 4, 6, (4, 6, 7, 1, 3)), (4, 6, 7, (6, 7, 1, 3, 4)),
                                  (5, 7, 1, (6, 7, 1, 3, 4, 5))):
        played, _ = planned(journal)
        plan = play_of(played).plan
        assert plan is not None and (plan.button, plan.sb, plan.bb) == (button, sb, bb)
        assert plan.order == order and 5 not in plan.after.missed and 5 not in plan.blinds
        assert (passed in plan.notes) == (button == 4)          # hand 3 is the one the small blind passes him
        journal += [START, *cards(*DECK[: 2 * len(order)])]
        journal += [act(s, "fold") for s in (*order[2:], order[0])]          # everyone folds to the big blind


def test_bld8_b21_wait_refused_outside_its_seats() -> None:
    """Seed 002 B21 is for the player who just had the small blind or the button: seat 6 (neither) may move,
    but not let the blinds pass; the input is rejected with the rule and the table is unchanged."""
    journal = after_first_hand((1, 2, 3, 4, 6, 7)) + [move(6, 5, wait=True)]
    played, result = replay(journal)
    assert [r["line"] for r in result["rejected"]] == [len(journal)]
    assert "seed 002 B21" in result["rejected"][0]["reason"]
    assert sorted(played.seats) == [1, 2, 3, 4, 6, 7]


def test_bld8_online_a_moved_player_is_new() -> None:
    """BLD-8, seat_change as_new (online; seed 003 has no seat change at one table): seat 6's move to seat 8
    would cost nothing by position (one player passed), but online he is a new player: he waits for the big
    blind (BLD-6 post_or_wait). No dead button online: button 2, small blind 3, big blind 4."""
    plan, notes = next_plan((1, 2, 3, 4, 5, 6, 7), move(6, 8), rules="online")
    assert notes == ["Seat 6 moves to seat 8: a new player there (BLD-6)"]
    assert (plan.button, plan.sb, plan.bb) == (2, 3, 4)
    assert 8 not in plan.order and ("BLD-6", "Seat 8 waits for the big blind") in plan.notes


def test_bld8_move_only_between_hands_and_to_an_empty_seat() -> None:
    """A move during a hand, to a taken seat or off the table is rejected with the reason; nothing changes."""
    journal = after_first_hand((1, 2, 3, 4, 6, 7))
    during = [*journal, START, move(4, 5)]
    _, result = replay(during)
    assert result["rejected"] == [{"line": len(during), "reason": "cannot change seats during a hand"}]
    for bad, reason in ((move(4, 6), "seat 6 is not an empty seat of this table (1 to 9)"),
                        (move(4, 10), "seat 10 is not an empty seat of this table (1 to 9)")):
        played, result = replay([*journal, bad])
        assert result["rejected"] == [{"line": len(journal) + 1, "reason": f"BLD-8: {reason}"}]
        assert sorted(played.seats) == [1, 2, 3, 4, 6, 7]


def test_bld8_tournament_a_moved_player_follows_tda_8a() -> None:
    """BLD-8, seat_change as_new in a tournament: a moved player is a new player under TDA 8-A (BLD-6
    tournament): dealt in at once without posting, except strictly between the small blind and the button.
    Seats 1, 2, 3, 5, 6, 7; dead button (TDA 32). Hand 2: button 2, small blind 3, big blind 5; everyone
    folds to seat 5. Then seat 7 moves to seat 4. Hand 3: the big blind moves on to 6, the small blind goes
    on seat 5 (the last big blind), the button on seat 3: seat 4 sits between the button and the small blind
    and is not dealt in. Moved to seat 8 instead, he is dealt in at once, posting nothing."""
    journal = after_first_hand((1, 2, 3, 5, 6, 7), rules="tournament")
    played, _ = planned(journal)
    plan = play_of(played).plan
    assert plan is not None and (plan.button, plan.sb, plan.bb) == (2, 3, 5)
    journal += [START, *cards(*DECK[: 2 * len(plan.order)])]
    journal += [act(s, "fold") for s in (6, 7, 1, 2, 3)]          # left of the big blind round to the small blind
    plan, notes = next_plan_after(journal, move(7, 4))
    assert notes == ["Seat 7 moves to seat 4: a new player there (BLD-6)"]
    assert (plan.button, plan.sb, plan.bb) == (3, 5, 6) and 4 not in plan.order
    assert ("BLD-6", "Seat 4 is not dealt in between the small blind and the button (TDA 8-A)") in plan.notes
    plan, _ = next_plan_after(journal, move(7, 8))
    assert plan.order == (5, 6, 8, 1, 2, 3) and 8 not in plan.blinds

