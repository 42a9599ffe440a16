"""Coming into the game (dealerpi.engine.positions): new players BLD-6, missed blinds BLD-7, away players DEAL-9,
and buy-ins (seed 001, seed 003). Each expected plan is worked out by hand from the quoted rule."""

from __future__ import annotations

from dataclasses import replace

import pytest

from dealerpi.engine.games import Structure
from dealerpi.engine.policies import PRESETS, Preset
from dealerpi.engine.positions import HandPlan, Lineup, SeatInfo, check_buy_in, move_button, plan_hand

NL, FL = Structure.NO_LIMIT, Structure.FIXED_LIMIT


class Table:
    """A table driven hand by hand (blinds 1/2): seats with stacks and the bookkeeping kept between hands."""

    def __init__(self, preset: str, players: list[int], *, button: int = 1, structure: Structure = NL) -> None:
        self.policies, self.structure = PRESETS[Preset(preset)], structure
        self.seats = {s: SeatInfo(s, 1000) for s in players}
        self.lineup = move_button(Lineup(), button)

    def play(self) -> HandPlan:
        plan = plan_hand(self.lineup, self.seats, table_seats=9, small_blind=1, big_blind=2,
                         structure=self.structure, policies=self.policies)
        self.lineup = plan.after
        for seat in plan.order:
            self.seats[seat] = replace(self.seats[seat], new=False, wants_to_post=False)
        return plan

    def set(self, seat: int, **changes: object) -> None:
        info = self.seats.get(seat, SeatInfo(seat, 1000))
        self.seats[seat] = replace(info, **changes)  # type: ignore[arg-type]


def where(plan: HandPlan) -> tuple[int, int | None, int | None]:
    return plan.button, plan.sb, plan.bb


# --- BLD-6 new players ------------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["home", "casino", "online"])
def test_bld6_new_player_posts_a_live_big_blind_or_waits(preset: str) -> None:
    """BLD-6 (RRoP section 4, seed 002 B17, seed 003): a new player outside the blinds either posts a live big
    blind and is dealt in at once, or waits for the big blind. The post does not move the action: pre-flop
    still starts left of the big blind."""
    table = Table(preset, [1, 2, 3, 4, 5, 6])
    assert where(table.play()) == (1, 2, 3)
    table.set(8, new=True)
    plan = table.play()
    assert where(plan) == (2, 3, 4) and 8 not in plan.order and plan.waiting == (8,)
    assert ("BLD-6", "Seat 8 waits for the big blind") in plan.notes
    table.set(8, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (3, 4, 5) and plan.order == (4, 5, 6, 8, 1, 2, 3)
    assert plan.blinds == {4: 1, 5: 2, 8: 2} and plan.preflop_first == 6
    assert ("BLD-6", "Seat 8 posts 2 live to play now") in plan.notes


def test_bld6_new_player_not_dealt_between_the_blinds_and_the_button() -> None:
    """Seed 002 B5: a new player may not receive a hand between the big blind and the button; he waits for the
    button to pass him, or for the big blind. Players on 1, 3, 5, 6, 7; newcomers sit on 2 and 4 after the
    first hand (button 1, SB 3, BB 5)."""
    table = Table("home", [1, 3, 5, 6, 7])
    assert where(table.play()) == (1, 3, 5)
    table.set(2, new=True, wants_to_post=True)
    table.set(4, new=True, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (3, 5, 6)
    assert plan.order == (5, 6, 7, 1, 2, 3) and plan.blinds == {5: 1, 6: 2, 2: 2}     # seat 2: behind the button
    assert ("BLD-6", "Seat 4 waits: a new player is not dealt in between the blinds and the button "
                     "(seed 002 B5)") in plan.notes
    plan = table.play()
    assert where(plan) == (5, 6, 7) and plan.blinds == {6: 1, 7: 2, 4: 2} and 4 in plan.order


def test_bld6_new_player_comes_in_on_the_big_blind() -> None:
    table = Table("casino", [1, 2, 3, 4, 5, 6])
    assert where(table.play()) == (1, 2, 3)
    table.set(4, new=True)              # a new player took seat 4 between hands (its last player left)
    plan = table.play()
    assert where(plan) == (2, 3, 4) and plan.blinds == {3: 1, 4: 2}
    assert ("BLD-6", "Seat 4 comes in on the big blind") in plan.notes


def test_bld6_tournament_new_player_dealt_in_except_between_small_blind_and_button() -> None:
    """TDA 8-A (BLD-6, TRN-9): late entrants and moved players take any seat, including the blinds and the
    button, and are dealt in without posting, except between the small blind and the button. Players on 1, 2,
    4, 5, 6 (seat 3 empty): after the first hand (button 1, SB 2, BB 4) the button is on 2 and the small blind
    on 4, so seat 3 lies between them."""
    table = Table("tournament", [1, 2, 4, 5, 6])
    assert where(table.play()) == (1, 2, 4)
    table.set(3, new=True)
    table.set(8, new=True)
    plan = table.play()
    assert where(plan) == (2, 4, 5) and plan.order == (4, 5, 6, 8, 1, 2) and plan.blinds == {4: 1, 5: 2}
    assert ("BLD-6", "Seat 3 is not dealt in between the small blind and the button (TDA 8-A)") in plan.notes
    plan = table.play()
    assert where(plan) == (4, 5, 6) and plan.order == (5, 6, 8, 1, 2, 3, 4)


def test_bld6_tournament_new_player_on_the_dead_small_blind_seat_posts_it() -> None:
    """TDA 8-A: a new player may be seated in the small blind; he posts it."""
    table = Table("tournament", [1, 2, 3, 4, 5])
    assert where(table.play()) == (1, 2, 3)
    del table.seats[3]                  # the big blind busts; the small blind would be dead on seat 3 ...
    table.set(3, new=True)              # ... but a late entrant sits down there
    plan = table.play()
    assert where(plan) == (2, 3, 4) and plan.blinds == {3: 1, 4: 2}


# --- BLD-7 missed blinds: seed 001 (home) -----------------------------------------------------------------

def test_seed001_missing_the_small_blind_after_the_big_blind_is_ignored() -> None:
    """Seed 001: "If you post BB but then miss the SB, we usually don't care and just let you have the button
    next round ... There is no SB this round." Seat 3 posts the BB, is away the next hand, back the one after."""
    table = Table("home", [1, 2, 3, 4, 5, 6])
    assert where(table.play()) == (1, 2, 3)
    table.set(3, away=True)
    plan = table.play()
    assert where(plan) == (2, None, 4) and 3 not in plan.order and plan.after.missed == {}
    table.set(3, away=False)
    plan = table.play()
    assert where(plan) == (3, 4, 5) and plan.order[-1] == 3


def seed001_missed_big_blind() -> Table:
    """Seed 001's example: A-F on seats 1-6. D (seat 4) is UTG, then away when his big blind is due: "the person
    to your left posts BB" (E), C posts the small blind, B has the button; D gets a missed-blind button."""
    table = Table("home", [1, 2, 3, 4, 5, 6])
    assert where(table.play()) == (1, 2, 3)
    table.set(4, away=True)
    plan = table.play()
    assert where(plan) == (2, 3, 5) and plan.after.missed == {4: "bb"}
    assert ("BLD-7", "Seat 4 missed the big blind: missed-blind button") in plan.notes
    table.set(4, away=False)
    return table


def test_seed001_buy_the_blinds() -> None:
    """Seed 001: D returns and buys the blinds: "The BB stays in front of you, the SB goes into the pot, and the
    person to your left is effectively UTG. Next hand, you will be the button and they will be SB"."""
    table = seed001_missed_big_blind()
    table.set(4, wants_to_post=True)
    plan = table.play()
    assert plan.button == 3 and plan.order == (4, 5, 6, 1, 2, 3)
    assert plan.blinds == {4: 2} and plan.dead == {4: 1} and plan.sb is None and plan.bb == 4
    assert plan.preflop_first == 5 and plan.after.missed == {}
    assert ("BLD-7", "Seat 4 buys the blinds: 1 dead and 2 live; no other blind this hand (seed 001)") in plan.notes
    plan = table.play()
    assert where(plan) == (4, 5, 6)


def test_seed001_or_sit_out_one_hand_and_play_in_the_cutoff() -> None:
    """Seed 001: "Alternately, you can sit out one extra hand, the button will skip you, and you can play in the
    CO in the next hand" (without paying)."""
    table = seed001_missed_big_blind()
    plan = table.play()
    assert where(plan) == (3, 5, 6) and 4 not in plan.order and plan.after.missed == {4: "bb"}
    assert ("BLD-7", "Seat 4 missed the big blind: waits, or posts to play") in plan.notes
    plan = table.play()
    assert where(plan) == (5, 6, 1) and plan.order == (6, 1, 2, 3, 4, 5) and plan.order[-2] == 4
    assert plan.blinds == {6: 1, 1: 2} and plan.after.missed == {}
    assert ("BLD-7", "Seat 4: the button has passed, the missed-blind button is cleared (seed 001)") in plan.notes


def test_seed001_marker_cleared_once_the_button_passed_while_away() -> None:
    """Seed 001: the missed-blind button means "buy the blinds or wait until the button is on your immediate
    left". A player still away when the button passes his seat has waited that long: he comes back free."""
    table = Table("home", [1, 2, 3, 4, 5, 6, 7, 8])
    assert where(table.play()) == (1, 2, 3)
    table.set(4, away=True)
    assert table.play().after.missed == {4: "bb"}                    # big blind 5, small blind 3, button 2
    assert table.play().after.missed == {4: "bb"}                    # button 3: seat 4 still ahead of it
    plan = table.play()
    assert plan.button == 5 and plan.after.missed == {}              # the button passed seat 4
    table.set(4, away=False)
    plan = table.play()
    assert where(plan) == (6, 7, 8) and 4 in plan.order and 4 not in plan.blinds and plan.dead == {}


# --- BLD-7 missed blinds: seed 002 (casino) ---------------------------------------------------------------

def casino_missed_both(structure: Structure) -> Table:
    """Seats 1-7, seat 4 away from the second hand on: the big blind, then the small blind, pass it."""
    table = Table("casino", [1, 2, 3, 4, 5, 6, 7], structure=structure)
    assert where(table.play()) == (1, 2, 3)
    table.set(4, away=True)
    plan = table.play()
    assert plan.after.missed == {4: "bb"}
    return table


def test_seed002_limit_no_make_up_between_the_blinds_then_the_sum() -> None:
    """Seed 002 B16: at limit a missed blind may not be made up between the blinds; B14a: then the player posts
    the sum of the blinds, the excess over the big blind dead."""
    table = casino_missed_both(FL)
    table.set(4, away=False, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (3, 5, 6) and 4 not in plan.order and plan.after.missed == {4: "both"}
    assert ("BLD-7", "Seat 4 may not make up blinds between the blinds: waits for the button to pass "
                     "(seed 002 B16)") in plan.notes
    plan = table.play()
    assert where(plan) == (5, 6, 7) and plan.order == (6, 7, 1, 2, 3, 4, 5)
    assert plan.blinds == {6: 1, 7: 2, 4: 2} and plan.dead == {4: 1} and plan.after.missed == {}


def test_seed002_limit_or_come_in_on_the_big_blind() -> None:
    """Seed 002 B13a: a player with a missed-blind button may instead come in on his big blind, paying only it."""
    table = casino_missed_both(FL)
    table.set(4, away=False)
    for expected_bb in (6, 7, 1, 2, 3):
        plan = table.play()
        assert plan.bb == expected_bb and 4 not in plan.order and table.lineup.missed == {4: "both"}
    plan = table.play()
    assert plan.bb == 4 and plan.blinds[4] == 2 and plan.dead == {} and plan.after.missed == {}
    assert ("BLD-7", "Seat 4 takes the big blind: the missed-blind button is cleared") in plan.notes


def test_seed002_big_bet_make_up_between_the_blinds_no_button_that_round() -> None:
    """Seed 002 B15/B16 (no dead button): at big-bet poker the big blind alone, live, makes up all missed blinds,
    even between the blinds; that player then takes no blind or button that round."""
    table = casino_missed_both(NL)
    assert table.lineup.button == 2
    table.set(4, away=False, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (3, 5, 6) and plan.order == (4, 5, 6, 7, 1, 2, 3)
    assert plan.blinds == {5: 1, 6: 2, 4: 2} and plan.dead == {} and plan.preflop_first == 7
    assert plan.after.no_button == frozenset({4})
    plan = table.play()
    assert where(plan) == (5, 6, 7) and plan.after.no_button == frozenset()


def test_seed002_big_bet_missed_both_blinds_costs_one_big_blind() -> None:
    table = casino_missed_both(NL)
    plan = table.play()                                  # still away: the small blind passes too
    assert plan.after.missed == {4: "both"}
    table.set(4, away=False, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (5, 6, 7) and plan.blinds[4] == 2 and plan.dead == {}


def test_seed002_missed_small_blind_only_is_made_up_dead() -> None:
    """Seed 002 is silent on a missed small blind alone; DealerPi takes it dead (docs/blinds-and-button.md).
    Dead button at limit: seat 3 posts the big blind, is away for the small blind, and returns on the button,
    where a player with a missed blind may not have last action (B10): the button is dead."""
    table = Table("casino", [1, 2, 3, 4, 5, 6, 7], structure=FL)
    assert where(table.play()) == (1, 2, 3)
    table.set(3, away=True)
    plan = table.play()
    assert where(plan) == (2, None, 4) and plan.after.missed == {3: "sb"}
    table.set(3, away=False, wants_to_post=True)
    plan = table.play()
    assert plan.button == 3 and 3 not in plan.order
    plan = table.play()
    assert where(plan) == (4, 5, 6) and plan.blinds.get(3) is None and plan.dead == {3: 1}


# --- BLD-7 missed blinds: seed 003 (online) ---------------------------------------------------------------

def test_seed003_missed_small_blind_posts_a_live_big_blind() -> None:
    """Seed 003: "misses his/her turn to place the Small Blind ... Post ... a live Bet equal to the Big Blind"."""
    table = Table("online", [1, 2, 3, 4, 5, 6], structure=FL)
    assert where(table.play()) == (1, 2, 3)
    table.set(3, away=True)
    plan = table.play()
    assert where(plan) == (2, 4, 5) and plan.after.missed == {3: "sb"}
    table.set(3, away=False, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (4, 5, 6) and plan.blinds == {5: 1, 6: 2, 3: 2} and plan.dead == {}


def test_seed003_missed_big_blind_posts_live_big_and_dead_small_blind() -> None:
    """Seed 003: missing the big blind, or both: a live big blind plus a dead small blind."""
    table = Table("online", [1, 2, 3, 4, 5, 6], structure=FL)
    assert where(table.play()) == (1, 2, 3)
    table.set(4, away=True)
    plan = table.play()
    assert where(plan) == (2, 3, 5) and plan.after.missed == {4: "bb"}
    plan = table.play()
    assert where(plan) == (3, 5, 6) and plan.after.missed == {4: "both"}
    table.set(4, away=False, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (5, 6, 1) and plan.blinds == {6: 1, 1: 2, 4: 2} and plan.dead == {4: 1}


# --- DEAL-9 away players in cash, B19 broke players --------------------------------------------------------

def test_deal9_cash_away_players_are_not_dealt_in() -> None:
    table = Table("casino", [1, 2, 3, 4, 5], structure=FL)
    table.set(5, away=True)
    plan = table.play()
    assert plan.order == (2, 3, 4, 1) and plan.waiting == (5,) and plan.killed == ()


def test_b19_broke_player_who_stays_seated_misses_blinds_like_an_absent_one() -> None:
    """Seed 002 B19: a player who goes broke and buys back in after missing his big blind is treated as a new
    player; DealerPi marks the blinds that pass his seat while he has no chips."""
    table = Table("casino", [1, 2, 3, 4, 5], structure=FL)
    assert where(table.play()) == (1, 2, 3)
    table.set(4, stack=0)
    plan = table.play()
    assert plan.bb == 5 and plan.after.missed == {4: "bb"} and plan.waiting == (4,)


# --- buy-ins ----------------------------------------------------------------------------------------------

def test_seed001_buy_in_between_30_and_100_big_blinds() -> None:
    home = PRESETS[Preset.HOME]
    assert check_buy_in(59, policies=home, big_blind=2, small_bet=None) == \
        "the minimum buy-in is 60 chips (30 big blinds (seed 001)), not 59"
    assert check_buy_in(60, policies=home, big_blind=2, small_bet=None) is None
    assert check_buy_in(200, policies=home, big_blind=2, small_bet=None) is None
    assert check_buy_in(201, policies=home, big_blind=2, small_bet=None) == \
        "the table maximum is 200 chips (100 big blinds, seed 001): with 0 on the table, at most 200 more"


def test_seed001_top_up_to_the_table_limit_between_hands() -> None:
    home = PRESETS[Preset.HOME]
    assert check_buy_in(1, policies=home, big_blind=2, small_bet=None, current_stack=150) is None
    assert check_buy_in(50, policies=home, big_blind=2, small_bet=None, current_stack=150) is None
    assert check_buy_in(51, policies=home, big_blind=2, small_bet=None, current_stack=150) == \
        "the table maximum is 200 chips (100 big blinds, seed 001): with 150 on the table, at most 50 more"


def test_seed003_buy_in_at_least_ten_small_bets() -> None:
    online = PRESETS[Preset.ONLINE]
    assert check_buy_in(99, policies=online, big_blind=10, small_bet=10) == \
        "the minimum buy-in is 100 chips (10 small bets (seed 003)), not 99"
    assert check_buy_in(100, policies=online, big_blind=10, small_bet=10) is None
    assert check_buy_in(100_000, policies=online, big_blind=10, small_bet=10) is None


def test_buy_in_casino_any_amount_tournament_no_top_up() -> None:
    assert check_buy_in(1, policies=PRESETS[Preset.CASINO], big_blind=10, small_bet=None) is None
    assert check_buy_in(0, policies=PRESETS[Preset.CASINO], big_blind=10, small_bet=None) == \
        "a buy-in must be a positive number of chips, not 0"
    tournament = PRESETS[Preset.TOURNAMENT]
    assert check_buy_in(15_000, policies=tournament, big_blind=100, small_bet=None) is None
    assert check_buy_in(500, policies=tournament, big_blind=100, small_bet=None, current_stack=2000) == \
        "no top-ups in a tournament: the starting stack is fixed"
