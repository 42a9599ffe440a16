"""Straddles (BLD-9), antes and big-blind antes (BLD-10), and bomb pots (POT-12) on a planned hand."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dealerpi.engine.games import GAMES, Structure
from dealerpi.engine.hand import Hand
from dealerpi.engine.policies import PRESETS, Preset
from dealerpi.engine.positions import (
    HandPlan,
    Lineup,
    PositionError,
    SeatInfo,
    apply_straddles,
    move_button,
    plan_bomb,
    plan_hand,
    straddle,
)

NL = Structure.NO_LIMIT
HOME, CASINO = PRESETS[Preset.HOME], PRESETS[Preset.CASINO]


def first_hand(players: list[int], button: int, *, preset: str = "home", small_blind: int = 1,
               big_blind: int = 3, stacks: dict[int, int] | None = None, **kw: int) -> HandPlan:
    seats = {s: SeatInfo(s, (stacks or {}).get(s, 1000)) for s in players}
    return plan_hand(move_button(Lineup(), button), seats, table_seats=9, small_blind=small_blind,
                     big_blind=big_blind, structure=NL, policies=PRESETS[Preset(preset)], **kw)


def seed001_plan() -> HandPlan:
    """Seed 001's straddle example: A (seat 1) small blind 1, B (2) big blind 3, C (3), D (4), E (5); the
    button is seat 6."""
    plan = first_hand([1, 2, 3, 4, 5, 6], 6)
    assert (plan.button, plan.sb, plan.bb, plan.preflop_first) == (6, 1, 2, 3)
    return plan


def test_bld9_seed001_straddle_and_re_straddle_each_double() -> None:
    """Seed 001: "Player C posts a straddle (6). Player D posts a straddle (12)." UTG straddles 2x the big blind,
    then each next seat in turn may double the last straddle, up to (not including) the button."""
    plan = seed001_plan()
    assert straddle(plan, [], 3, HOME, 3) == 6
    assert straddle(plan, [(3, 6)], 4, HOME, 3) == 12
    assert straddle(plan, [(3, 6), (4, 12)], 5, HOME, 3) == 24
    with pytest.raises(PositionError, match=r"seat 6 has the button \(last action\) and may not straddle"):
        straddle(plan, [(3, 6), (4, 12), (5, 24)], 6, HOME, 3)


def test_bld9_seed001_example_played_through_the_hand() -> None:
    """Seed 001: "Player E calls 12. It then folds around to player A. Player A may call 12, raise to 24 or
    higher, or fold." The straddled plan, given to the Hand, starts the action on E."""
    plan = apply_straddles(seed001_plan(), [(3, 6), (4, 12)], HOME, 3)
    assert plan.blinds == {1: 1, 2: 3, 3: 6, 4: 12} and plan.preflop_first == 5
    assert plan.notes[-2:] == (("BLD-9", "Seat 3 straddles 6"), ("BLD-9", "Seat 4 straddles 12"))
    lists = plan.hand_lists()
    hand = Hand(GAMES["nlhe"], lists.stacks, blinds=lists.blinds, dead=lists.dead, antes=lists.antes, min_bet=3,
                preflop_first=lists.preflop_first)
    cards = ["As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s"]
    for player in range(6):
        hand.deal_hole(player, cards[2 * player: 2 * player + 2])
    assert plan.order[hand.actor or 0] == 5
    hand.check_or_call()                                  # E calls 12
    hand.fold()                                           # the button folds
    assert plan.order[hand.actor or 0] == 1
    legal = hand.legal()
    assert (legal.call_to, legal.raise_min_to) == (12, 24)


def test_bld9_no_sleeper_straddle_and_only_before_the_cards() -> None:
    plan = seed001_plan()
    with pytest.raises(PositionError, match="only come from seat 3, left of the big blind"):
        straddle(plan, [], 4, HOME, 3)
    with pytest.raises(PositionError, match="only come from seat 4, left of the straddle of seat 3"):
        straddle(plan, [(3, 6)], 5, HOME, 3)
    with pytest.raises(PositionError, match="before the first card"):
        straddle(plan, [], 3, HOME, 3, cards_dealt=True)


def test_bld9_seed002_one_straddle_of_twice_the_big_blind() -> None:
    """Seed 002 B8: one straddle per deal (a), twice the big blind (b), from the seat left of the last blind."""
    plan = first_hand([1, 2, 3, 4, 5], 1, preset="casino", small_blind=5, big_blind=10)
    assert straddle(plan, [], 4, CASINO, 10) == 20
    with pytest.raises(PositionError, match=r"only one straddle per deal \(seed 002 B8a\)"):
        straddle(plan, [(4, 20)], 5, CASINO, 10)


@pytest.mark.parametrize("preset", ["online", "tournament"])
def test_bld9_straddles_off(preset: str) -> None:
    plan = first_hand([1, 2, 3, 4, 5], 1, preset=preset)
    with pytest.raises(PositionError, match="straddles are off"):
        straddle(plan, [], 4, PRESETS[Preset(preset)], 3)


def test_bld9_no_straddle_heads_up_or_three_handed_the_first_actor_is_the_button() -> None:
    for players in ([1, 2], [1, 2, 3]):
        plan = first_hand(players, 1)
        with pytest.raises(PositionError, match="has the button"):
            straddle(plan, [], 1, HOME, 3)


def test_bld9_short_stack_absent_seat_and_posting_seat_cannot_straddle() -> None:
    plan = first_hand([1, 2, 3, 4, 5], 1, stacks={4: 5})
    with pytest.raises(PositionError, match="a straddle is 6; seat 4 has only 5"):
        straddle(plan, [], 4, HOME, 3)
    with pytest.raises(PositionError, match="seat 7 is not dealt in"):
        straddle(plan, [], 7, HOME, 3)
    posted = replace(plan, blinds={**plan.blinds, 4: 3})     # e.g. a new player's live post on seat 4
    with pytest.raises(PositionError, match="seat 4 already posts"):
        straddle(posted, [], 4, HOME, 3)


def test_bld9_apply_straddles_checks_the_amounts() -> None:
    plan = seed001_plan()
    with pytest.raises(PositionError, match="seat 4's straddle is 12, not 9"):
        apply_straddles(plan, [(3, 6), (4, 9)], HOME, 3)
    assert apply_straddles(plan, [], HOME, 3) is plan


# --- BLD-10 antes ---------------------------------------------------------------------------------------

def test_bld10_every_player_antes() -> None:
    """Seed 004: "Each Player, before having the cards dealt, must put an obliged Bet called Ante" (dead)."""
    plan = first_hand([1, 2, 4, 6], 1, preset="tournament", small_blind=50, big_blind=100, ante=10)
    assert plan.antes == {1: 10, 2: 10, 4: 10, 6: 10} and plan.blinds == {2: 50, 4: 100}
    assert plan.hand_lists().antes == [10, 10, 10, 10]


def test_bld10_big_blind_ante_paid_by_the_big_blind_for_the_table() -> None:
    """BLD-10 (TDA RP-11): with a big-blind ante the big blind pays one ante for the whole table; heads-up too."""
    plan = first_hand([1, 2, 4, 6], 1, preset="tournament", small_blind=100, big_blind=200, bb_ante=200)
    assert plan.antes == {4: 200}
    assert ("BLD-10", "Big-blind ante: seat 4 pays 200 for the table") in plan.notes
    heads_up = first_hand([3, 8], 3, preset="tournament", small_blind=100, big_blind=200, bb_ante=200)
    assert heads_up.antes == {8: 200} and heads_up.bb == 8


# --- POT-12 bomb pots -----------------------------------------------------------------------------------

def test_pot12_bomb_pot_everyone_antes_no_blinds_button_stays() -> None:
    """Seed 001: a bomb pot is an agreed ante from everyone and no blinds; players may sit it out. DealerPi keeps
    the button where it was (docs/blinds-and-button.md): the next hand is the one the bomb replaced."""
    lineup = move_button(Lineup(), 1)
    seats = {s: SeatInfo(s, 300) for s in (1, 2, 3, 4, 5)}
    kw = {"table_seats": 9, "small_blind": 1, "big_blind": 3, "structure": NL, "policies": HOME}
    plan = plan_hand(lineup, seats, **kw)  # type: ignore[arg-type]
    bomb = plan_bomb(plan, 10, sitting_out=[4])
    assert bomb.order == (2, 3, 5, 1) and bomb.antes == {2: 10, 3: 10, 5: 10, 1: 10}
    assert bomb.blinds == {} and bomb.dead == {} and bomb.sb is None and bomb.bb is None
    assert bomb.waiting == (4,) and bomb.after == lineup
    assert bomb.notes == (("POT-12", "Bomb pot: 4 players ante 10, no blinds; the button stays on seat 1"),)
    assert plan_hand(bomb.after, seats, **kw) == plan  # type: ignore[arg-type]


def test_pot12_bomb_pot_needs_two_players_and_an_ante() -> None:
    plan = first_hand([1, 2, 3], 1)
    with pytest.raises(PositionError, match="needs two players"):
        plan_bomb(plan, 10, sitting_out=[1, 2])
    with pytest.raises(PositionError, match="must be positive"):
        plan_bomb(plan, 0)
