"""Tournament parts (dealerpi.engine.tournament, dealerpi.engine.payouts): the level clock TRN-1, the player
clock TRN-2, prizes and shared places TRN-4, late-entry stacks (seed 001)."""

from __future__ import annotations

import pytest

from dealerpi.engine.games import Structure
from dealerpi.engine.inputs import Level
from dealerpi.engine.payouts import DEFAULT_PAYOUT_PERCENTS, Finish, Standings, prizes
from dealerpi.engine.policies import PRESETS, Preset
from dealerpi.engine.positions import Lineup, SeatInfo, move_button, plan_hand
from dealerpi.engine.tournament import (
    ActionClock,
    LevelClock,
    ScheduleError,
    call_clock,
    check_schedule,
    when_time_is_up,
)

SCHEDULE = (Level(50, 100, minutes=20), Level(100, 200, minutes=20), Level(0, 0, minutes=10, is_break=True),
            Level(150, 300, ante=25, minutes=20), Level(200, 400, bb_ante=400, minutes=20))


# --- TRN-1 levels -----------------------------------------------------------------------------------------

def test_trn1_level_changes_when_its_time_is_up_and_applies_from_the_next_hand() -> None:
    """TRN-1 (TDA 23): a new level starts at the clock signal and applies from the next hand: a hand planned
    before the tick keeps the old blinds; the next plan takes the new ones."""
    seats = {s: SeatInfo(s, 15_000) for s in (1, 2, 3, 4)}
    clock = LevelClock(SCHEDULE)

    def plan_now(lineup: Lineup, level: Level) -> dict[int, int]:
        return dict(plan_hand(lineup, seats, table_seats=9, small_blind=level.small_blind,
                              big_blind=level.big_blind, structure=Structure.NO_LIMIT,
                              policies=PRESETS[Preset.TOURNAMENT]).blinds)

    level = clock.level_for_next_hand()
    assert isinstance(level, Level)
    lineup = move_button(Lineup(), 1)
    in_progress = plan_now(lineup, level)
    clock, notes = clock.advance(1199)
    assert clock.level_number == 1 and clock.remaining == 1 and notes == ()
    clock, notes = clock.advance(1)
    assert notes == (("TRN-1", "Level 2: blinds 100/200, from the next hand"),)
    assert in_progress == {2: 50, 3: 100}
    level = clock.level_for_next_hand()
    assert isinstance(level, Level)
    assert plan_now(lineup, level) == {2: 100, 3: 200}


def test_trn1_one_tick_can_cross_several_steps_and_breaks_stop_the_deal() -> None:
    clock, notes = LevelClock(SCHEDULE).advance(2400 + 30)
    assert notes == (("TRN-1", "Level 2: blinds 100/200, from the next hand"), ("TRN-1", "Break: 10 minutes"))
    assert clock.on_break and clock.level_for_next_hand() is None and clock.remaining == 570
    assert clock.describe() == "Break 9:30"
    clock, notes = clock.advance(570)
    assert notes == (("TRN-1", "Level 3: blinds 150/300, ante 25, from the next hand"),)
    assert clock.describe() == "L3 150/300 ante 25 20:00"


def test_trn1_the_last_level_goes_on_and_a_paused_clock_ignores_ticks() -> None:
    clock = LevelClock(SCHEDULE).tick(10 * 3600)
    assert clock.index == 4 and clock.remaining == 0 and clock.level_number == 4
    assert clock.describe() == "L4 200/400 bb ante 400 0:00"
    paused = LevelClock(SCHEDULE).pause()
    assert paused.tick(5000) == paused and paused.describe() == "L1 50/100 20:00 (paused)"
    assert paused.resume().tick(60).remaining == 1140
    with pytest.raises(ValueError, match="back in time"):
        paused.tick(-1)


@pytest.mark.parametrize(("levels", "message"), [
    ((), "at least one level"),
    ((Level(0, 0, minutes=5, is_break=True),), "step 1 is a break"),
    ((Level(50, 100, minutes=0),), "step 1 lasts 0 minutes"),
    ((Level(50, 100), Level(300, 200)), "step 2: blinds 300/200"),
    ((Level(50, 100, ante=10, bb_ante=100),), "not both"),
])
def test_trn1_bad_schedules_name_the_step(levels: tuple[Level, ...], message: str) -> None:
    with pytest.raises(ScheduleError, match=message):
        check_schedule(levels)


# --- TRN-2 the player clock -------------------------------------------------------------------------------

def test_trn2_home_clock_is_two_minutes() -> None:
    """Seed 001: "Clock is 2 minutes"."""
    clock = call_clock(PRESETS[Preset.HOME], 4)
    assert clock == ActionClock(4, 120, 0)
    clock = clock.tick(119)
    assert not clock.expired and clock.remaining == 1 and not clock.counting_down
    assert clock.tick(1).expired


def test_trn2_tournament_clock_25_seconds_and_a_5_second_countdown() -> None:
    """TRN-2 (TDA 29): 25 seconds, then a 5-second countdown; time up facing a bet -> dead hand, else check."""
    clock = call_clock(PRESETS[Preset.TOURNAMENT], 7)
    assert clock is not None
    clock = clock.tick(24)
    assert not clock.counting_down and clock.remaining == 6
    clock = clock.tick(1)
    assert clock.counting_down and clock.remaining == 5
    clock = clock.tick(4)
    assert clock.counting_down and not clock.expired
    clock = clock.tick(1)
    assert clock.expired and not clock.counting_down and clock.remaining == 0
    assert when_time_is_up(facing_bet=True) == "fold" and when_time_is_up(facing_bet=False) == "check"


def test_trn2_clock_off_in_casino_and_online() -> None:
    assert call_clock(PRESETS[Preset.CASINO], 1) is None and call_clock(PRESETS[Preset.ONLINE], 1) is None


# --- TRN-4 prizes and places ------------------------------------------------------------------------------

def test_trn4_seed001_ten_players_fifty_thirty_twenty() -> None:
    """Seed 001: 10 people x $30 = $300; 1st 50% $150, 2nd 30% $90, 3rd 20% $60."""
    assert DEFAULT_PAYOUT_PERCENTS == (50, 30, 20)
    assert prizes(10 * 30, DEFAULT_PAYOUT_PERCENTS) == (150, 90, 60)


def test_trn4_remainder_units_go_to_the_best_places() -> None:
    assert prizes(101, (50, 30, 20)) == (51, 30, 20)
    assert prizes(302, (50, 30, 20)) == (152, 90, 60)
    assert prizes(9, (50, 30, 20)) == (5, 3, 1)          # 4.5, 2.7, 1.8: two units left, to 1st and 2nd
    with pytest.raises(ValueError, match="add up to 100"):
        prizes(100, (50, 30))


def test_trn4_places_and_prizes_for_single_busts() -> None:
    standings = Standings(pool=300, remaining=10)
    for k, player in enumerate("ABCDEFG"):
        standings = standings.bust([player])
        assert standings.finishes[-1] == Finish(player, 10 - k, 0)
    standings = standings.bust(["H"]).bust(["I"]).win("J")
    assert standings.results()[:3] == [Finish("J", 1, 150), Finish("I", 2, 90), Finish("H", 3, 60)]
    assert sum(f.prize for f in standings.finishes) == 300


def test_trn4_players_busting_on_the_same_hand_share_the_places_at_stake() -> None:
    """TRN-4: players who bust on the same hand share the prizes of the places at stake; odd units go to the
    players in the order named (clockwise from the button, as POT-3)."""
    standings = Standings(pool=310, remaining=3)                    # prizes 155 / 93 / 62
    standings = standings.bust(["X", "Y"])
    assert standings.finishes == (Finish("X", 2, 78), Finish("Y", 2, 77))
    assert standings.win("Z").results()[0] == Finish("Z", 1, 155)


def test_trn4_bubble_example_three_share_fiftieth_place() -> None:
    """Rules digest TRN-4 (TDA RP-8-A): 52 left, 50 paid, 3 bust on the same hand: all 3 share 50th place."""
    standings = Standings(pool=5000, remaining=52, percents=(2,) * 50)       # every paid place 100
    standings = standings.bust(["P", "Q", "R"])
    assert standings.finishes == (Finish("P", 50, 34), Finish("Q", 50, 33), Finish("R", 50, 33))
    assert standings.remaining == 49


def test_trn4_with_starting_stacks_the_bigger_stack_finishes_higher() -> None:
    standings = Standings(pool=300, remaining=4).bust(["S", "B", "T"], start_stacks={"S": 300, "B": 900, "T": 300})
    assert standings.finishes == (Finish("S", 3, 30), Finish("T", 3, 30), Finish("B", 2, 90))


def test_trn4_errors_and_late_entries() -> None:
    standings = Standings(pool=300, remaining=3)
    with pytest.raises(ValueError, match="only 3 are left"):
        standings.bust(["A", "B", "C"])
    with pytest.raises(ValueError, match="once"):
        standings.bust(["A", "A"])
    with pytest.raises(ValueError, match="nobody has won"):
        standings.win("A")
    with pytest.raises(ValueError, match="only finish once"):
        standings.bust(["A"]).bust(["A"])
    assert standings.enter(30) == Standings(pool=330, remaining=4)


def test_trn4_trn9_a_late_entrant_ranks_above_everyone_out_already() -> None:
    """TRN-9 late entry after a bust (TRN-4: places count the whole field). 3 entrants, 300 in the pool, 50/30/20:
    C busts 3rd (60). Dan enters for 100: 4 entrants, 400, prizes 200/120/80; C is now 4th with nothing, and the
    next bust is 3rd, not a second 3rd. Before, C stayed 3rd and D took 3rd as well."""
    standings = Standings(pool=300, remaining=3).bust(["C"])
    assert standings.finishes == (Finish("C", 3, 60),)
    standings = standings.enter(100)
    assert (standings.pool, standings.remaining, standings.prizes) == (400, 3, (200, 120, 80))
    assert standings.finishes == (Finish("C", 4, 0),)
    assert standings.bust(["D"]).finishes == (Finish("C", 4, 0), Finish("D", 3, 80))


def test_trn4_trn9_shared_places_are_priced_again_when_someone_enters() -> None:
    """Payouts 30/25/20/15/10, 4 entrants, 400: A and B bust on one hand across tables and share 3rd-4th,
    (80 + 60) / 2 = 70 each. A late entrant pays 101: 501 gives 150, 125, 100, 75, 50 plus 1 unit to 1st = 151,
    125, 100, 75, 50; A and B now share 4th-5th, (75 + 50) / 2 = 62.5: 63 to A (named first), 62 to B."""
    standings = Standings(pool=400, remaining=4, percents=(30, 25, 20, 15, 10)).bust(["A", "B"])
    assert standings.finishes == (Finish("A", 3, 70), Finish("B", 3, 70))
    standings = standings.enter(101)
    assert standings.prizes == (151, 125, 100, 75, 50)
    assert standings.finishes == (Finish("A", 4, 63), Finish("B", 4, 62))


# --- seed 001 late entry ----------------------------------------------------------------------------------

def test_seed001_reserved_stack_is_dealt_in_as_an_absent_player() -> None:
    """Seed 001: stacks placed for late entrants are treated like an absent player: dealt in, blinded, killed. A
    ``sit`` with ``reserved`` seats the stack away (between.py), which is what the plan sees."""
    seats = {s: SeatInfo(s, 15_000) for s in (1, 2, 3)} | {4: SeatInfo(4, 15_000, away=True)}
    plan = plan_hand(move_button(Lineup(), 2), seats, table_seats=9, small_blind=50, big_blind=100,
                     structure=Structure.NO_LIMIT, policies=PRESETS[Preset.TOURNAMENT])
    assert plan.order == (3, 4, 1, 2) and plan.blinds == {3: 50, 4: 100} and plan.killed == (4,)
