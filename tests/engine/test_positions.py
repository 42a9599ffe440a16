"""Button and blinds between hands (dealerpi.engine.positions): BLD-1 to BLD-5 and the seeds' own examples.

Expected positions are worked out by hand from the rule text quoted in each docstring (rules digest section 5,
seeds 001 and 002), not copied from a run.
"""

from __future__ import annotations

from dataclasses import replace

import pytest
from journal_kit import cards, replay, three_handed

from dealerpi.engine.games import Structure
from dealerpi.engine.policies import PRESETS, Policies, Preset
from dealerpi.engine.positions import (
    HandPlan,
    Lineup,
    PositionError,
    SeatInfo,
    button_method,
    move_button,
    plan_hand,
)

NL, FL = Structure.NO_LIMIT, Structure.FIXED_LIMIT


class Table:
    """A table driven hand by hand: seats with stacks, and the bookkeeping kept between hands."""

    def __init__(self, preset: str, players: list[int], *, seats: int = 9, button: int | None = None,
                 structure: Structure = NL, policies: Policies | None = None) -> None:
        self.policies = policies or PRESETS[Preset(preset)]
        self.table_seats, self.structure = seats, structure
        self.seats = {s: SeatInfo(s, 1000) for s in players}
        self.lineup = move_button(Lineup(), button) if button else Lineup()

    def plan(self, **kw: int) -> HandPlan:
        return plan_hand(self.lineup, self.seats, table_seats=self.table_seats, small_blind=1, big_blind=2,
                         structure=self.structure, policies=self.policies, **kw)

    def play(self, **kw: int) -> HandPlan:
        """Plan a hand and keep its bookkeeping, as if it was played; the seats dealt in are no longer new."""
        plan = self.plan(**kw)
        self.lineup = plan.after
        for seat in plan.order:
            self.seats[seat] = replace(self.seats[seat], new=False, wants_to_post=False)
        return plan

    def leave(self, *seats: int) -> None:
        for seat in seats:
            del self.seats[seat]

    def set(self, seat: int, **changes: object) -> None:
        info = self.seats.get(seat, SeatInfo(seat, 1000))
        self.seats[seat] = replace(info, **changes)  # type: ignore[arg-type]


def where(plan: HandPlan) -> tuple[int, int | None, int | None]:
    return plan.button, plan.sb, plan.bb


# --- BLD-1 positions --------------------------------------------------------------------------------------

def test_bld1_first_hand_positions_and_player_order() -> None:
    """BLD-1: SB left of the button, BB next, UTG acts first pre-flop; the player order starts left of the
    button and ends on it (seed 001 "positions in the order they receive cards: SB, BB, UTG, HJ, CO, B")."""
    table = Table("home", [1, 2, 3, 4, 5, 6], button=1)
    plan = table.play()
    assert where(plan) == (1, 2, 3)
    assert plan.order == (2, 3, 4, 5, 6, 1)
    assert plan.blinds == {2: 1, 3: 2} and plan.dead == {} and plan.antes == {}
    assert plan.preflop_first == 4
    lists = plan.hand_lists()
    assert lists.blinds == [1, 2, 0, 0, 0, 0] and lists.preflop_first == 2 and lists.stacks == [1000] * 6
    assert plan.notes[0] == ("BLD-1", "First hand: button seat 1, small blind seat 2, big blind seat 3")


def test_bld1_empty_seats_are_skipped_and_the_button_moves_one_player() -> None:
    """BLD-1 on a 9-seat table with players on seats 2, 5, 7, 9 and the dealer's button on seat 9."""
    table = Table("home", [2, 5, 7, 9], button=9)
    plan = table.play()
    assert where(plan) == (9, 2, 5) and plan.order == (2, 5, 7, 9) and plan.preflop_first == 7
    plan = table.play()
    assert where(plan) == (2, 5, 7) and plan.order == (5, 7, 9, 2) and plan.preflop_first == 9


def test_bld1_without_a_button_input_the_first_hand_starts_on_the_lowest_seat() -> None:
    table = Table("casino", [3, 4, 8])
    assert where(table.play()) == (3, 4, 8)


def test_bld1_move_button_to_an_empty_seat_gives_it_to_the_next_player() -> None:
    """Seed 002 B4: the first deal's button goes where the dealer puts it; an empty seat passes it on."""
    table = Table("home", [2, 5, 7], button=3)
    assert where(table.play()) == (5, 7, 2)


def test_bld1_fewer_than_two_players_is_refused() -> None:
    table = Table("home", [4])
    with pytest.raises(PositionError, match="BLD-1"):
        table.plan()
    table = Table("home", [4, 6])
    table.set(6, away=True)
    with pytest.raises(PositionError, match="two players"):
        table.plan()


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"small_blind": 3, "big_blind": 2}, "at least the small blind"),
    ({"small_blind": 1, "big_blind": 0}, "positive"),
    ({"small_blind": 1, "big_blind": 2, "ante": 1, "bb_ante": 2}, "one of them"),
])
def test_bad_stakes_are_refused_with_the_reason(kwargs: dict[str, int], message: str) -> None:
    with pytest.raises(PositionError, match=message):
        plan_hand(Lineup(), {1: SeatInfo(1, 10), 2: SeatInfo(2, 10)}, table_seats=9, structure=NL,
                  policies=PRESETS[Preset.HOME], **kwargs)


def test_bad_seat_records_are_refused() -> None:
    common = {"table_seats": 6, "small_blind": 1, "big_blind": 2, "structure": NL, "policies": PRESETS[Preset.HOME]}
    with pytest.raises(PositionError, match="does not exist"):
        plan_hand(Lineup(), {1: SeatInfo(1, 10), 7: SeatInfo(7, 10)}, **common)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="holds the record of seat 3"):
        plan_hand(Lineup(), {1: SeatInfo(1, 10), 2: SeatInfo(3, 10)}, **common)  # type: ignore[arg-type]
    with pytest.raises(PositionError, match="but seats are 1 to 6"):
        plan_hand(Lineup(1, 2, 9), {1: SeatInfo(1, 10), 2: SeatInfo(2, 10)}, **common)  # type: ignore[arg-type]


# --- BLD-3 seed 002's example -----------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["casino", "tournament"])
def test_bld3_seed002_example_no_missed_blinds(preset: str) -> None:
    """Seed 002 B12a (limit casino, and B11a tournaments): A button, B $5, C $10; C quits. Next deal: D big blind,
    C's empty chair a dead little blind, B the button. The deal after: E big blind, D small blind, the empty
    chair the button; B has last action on two consecutive deals. Seats A..G = 1..7."""
    table = Table(preset, [1, 2, 3, 4, 5, 6, 7], seats=7, button=1, structure=FL)
    assert where(table.play()) == (1, 2, 3)
    table.leave(3)
    plan = table.play()
    assert where(plan) == (2, None, 4)
    assert plan.order == (4, 5, 6, 7, 1, 2) and plan.blinds == {4: 2}
    assert (plan.notes[1][0], plan.notes[1][1]) == (
        "BLD-2" if preset == "tournament" else "BLD-3", "Dead small blind on seat 3: nobody posts it")
    plan = table.play()
    assert where(plan) == (3, 4, 5)
    assert plan.order == (4, 5, 6, 7, 1, 2) and plan.order[-1] == 2        # B acts last again
    assert plan.notes[0] == ("BLD-1", "Button seat 3 (dead), small blind seat 4, big blind seat 5")


def test_bld3_seed002_example_no_dead_button() -> None:
    """Seed 002 B12b (big-bet casino): after C quits, E takes the big blind, D the small blind and B the button
    ("Player 8" in the seed is a typo for B); the next deal the button goes to D, who escapes his big blind."""
    table = Table("casino", [1, 2, 3, 4, 5, 6, 7], seats=7, button=1, structure=NL)
    assert where(table.play()) == (1, 2, 3)
    table.leave(3)
    plan = table.play()
    assert where(plan) == (2, 4, 5) and plan.order == (4, 5, 6, 7, 1, 2)
    plan = table.play()
    assert where(plan) == (4, 5, 6) and plan.order[-1] == 4


def test_bld3_button_method_by_structure() -> None:
    """Seed 002 B11: limit -> No Missed Blinds (dead button), big-bet -> No Dead Button; tournaments always the
    dead button (B11a)."""
    casino = PRESETS[Preset.CASINO]
    assert button_method(casino, FL) == "dead_button"
    assert button_method(casino, NL) == "no_dead_button"
    assert button_method(casino, Structure.POT_LIMIT) == "no_dead_button"
    assert button_method(replace(casino, tournament=True), NL) == "dead_button"
    assert button_method(PRESETS[Preset.HOME], NL) == "dead_button"
    assert button_method(PRESETS[Preset.ONLINE], FL) == "no_dead_button"


# --- seed 001's busting rules (home preset: dead button, dead small blind) ---------------------------------

def home_table() -> Table:
    table = Table("home", [1, 2, 3, 4, 5, 6], button=1)
    assert where(table.play()) == (1, 2, 3)
    return table


def test_seed001_broke_before_small_blind_the_small_blind_is_dead() -> None:
    """Seed 001: "If someone goes broke the hand before their SB, the SB is dead, nobody has to pay it. The
    person who would normally have posted BB still posts it." Seat 3 (the BB) goes broke and leaves."""
    table = home_table()
    table.leave(3)
    plan = table.play()
    assert where(plan) == (2, None, 4) and plan.blinds == {4: 2} and plan.order == (4, 5, 6, 1, 2)


def test_seed001_broke_before_big_blind_the_seat_is_just_dead() -> None:
    """Seed 001: broke the hand before their BB (seat 4, UTG): "the person to their left is BB, the person to
    their right is SB, and the seat is just dead"."""
    table = home_table()
    table.leave(4)
    plan = table.play()
    assert where(plan) == (2, 3, 5) and plan.order == (3, 5, 6, 1, 2)


def test_seed001_broke_before_button_is_a_dead_button() -> None:
    """Seed 001: broke the hand before their button (seat 2, the SB): "there is a dead button. Blinds remain the
    same as they would have been, but the button rests on the empty spot and the person to their right is still
    the CO. On the next hand, the button goes to their left"."""
    table = home_table()
    table.leave(2)
    plan = table.play()
    assert where(plan) == (2, 3, 4) and plan.order == (3, 4, 5, 6, 1)      # seat 1 still has last action
    plan = table.play()
    assert where(plan) == (3, 4, 5)


def test_seed001_several_broke_at_once_use_dead_positions() -> None:
    """Seed 001: "If multiple people go broke at once, you adjust the blinds using dead positions": seats 2 and 3
    go broke together; the big blind still moves one player and no one skips a blind or the button."""
    table = home_table()
    table.leave(2, 3)
    plan = table.play()
    assert where(plan) == (2, None, 4) and plan.order == (4, 5, 6, 1)
    plan = table.play()
    assert where(plan) == (3, 4, 5) and plan.order == (4, 5, 6, 1)
    plan = table.play()
    assert where(plan) == (4, 5, 6)


# --- BLD-2 tournament dead button ----------------------------------------------------------------------

def tournament_table(players: list[int] | None = None) -> Table:
    table = Table("tournament", players or [1, 2, 3, 4, 5, 6], button=1)
    assert where(table.play()) == (1, 2, 3)
    return table


def test_bld2_small_blind_busts_button_on_the_empty_seat() -> None:
    """BLD-2 (TDA 32): "SB busts -> the button moves onto the empty SB seat; the old BB posts SB"."""
    table = tournament_table()
    table.set(2, stack=0)                     # no chips in a tournament: eliminated
    plan = table.play()
    assert where(plan) == (2, 3, 4) and 2 not in plan.order and plan.waiting == ()


def test_bld2_big_blind_busts_no_small_blind_then_button_on_the_empty_seat() -> None:
    """BLD-2: "BB busts -> the button moves to the old SB; there is no SB that hand; the next hand, the button
    goes onto the empty seat"."""
    table = tournament_table()
    table.leave(3)
    plan = table.play()
    assert where(plan) == (2, None, 4)
    plan = table.play()
    assert where(plan) == (3, 4, 5) and plan.order[-1] == 2


def test_bld2_absent_players_are_dealt_in_killed_and_post() -> None:
    """DEAL-9, TDA 30, seed 001 tournament: an absent player is dealt in, his blinds are posted from his stack
    and his hand is killed."""
    table = tournament_table()
    table.set(4, away=True)
    plan = table.play(ante=25)
    assert where(plan) == (2, 3, 4) and plan.blinds[4] == 2 and plan.killed == (4,)
    assert plan.antes == dict.fromkeys(plan.order, 25)
    assert ("DEAL-9", "Seat 4 is away: dealt in, his blinds and antes posted; his hand is killed if he is not back "
                      "when the last card of the deal lands (TDA 30)") in plan.notes


def test_bld2_reserved_late_entry_stack_is_blinded_until_taken_over() -> None:
    """Seed 001 / TRN-9: a stack placed for a late entrant is treated as an absent player (dealt in, blinded,
    killed) until someone takes it over; then it plays where it sits, without waiting."""
    table = Table("tournament", [1, 2, 3, 4, 5], button=1)
    table.set(5, away=True)
    plan = table.play()
    assert plan.killed == (5,) and 5 in plan.order
    table.play()
    plan = table.play()                                      # the big blind reaches the reserved stack
    assert plan.bb == 5 and plan.blinds[5] == 2 and plan.killed == (5,)
    table.set(5, away=False)
    plan = table.play()
    assert plan.sb == 5 and plan.killed == ()


# --- BLD-4, BLD-5 heads-up --------------------------------------------------------------------------------

@pytest.mark.parametrize("preset", ["home", "casino", "online", "tournament"])
def test_bld4_heads_up_the_button_posts_the_small_blind(preset: str) -> None:
    """BLD-4: heads-up the button posts the SB, the other player the BB; the button acts first pre-flop, and the
    player order is (big blind, button)."""
    table = Table(preset, [3, 7], button=7)
    plan = table.play()
    assert where(plan) == (7, 7, 3) and plan.order == (3, 7) and plan.blinds == {7: 1, 3: 2}
    assert plan.preflop_first == 7
    assert plan.notes[0] == ("BLD-4", "First hand: heads-up: seat 7 has the button and posts the small blind, "
                                      "seat 3 the big blind")
    plan = table.play()
    assert where(plan) == (3, 3, 7) and plan.order == (7, 3)


@pytest.mark.parametrize("preset", ["home", "casino", "online", "tournament"])
@pytest.mark.parametrize(("leaves", "button", "bb"), [(1, 3, 2), (2, 3, 1), (3, 2, 1)])
def test_bld5_three_to_two_nobody_posts_the_big_blind_twice(preset: str, leaves: int, button: int,
                                                           bb: int) -> None:
    """BLD-5 (TDA 34-B): A button (1), B small blind (2), C big blind (3); one leaves. The player who just posted
    the BB becomes SB and button when he stays; if he leaves, the big blind moves on to the next player."""
    table = Table(preset, [1, 2, 3], button=1)
    assert where(table.play()) == (1, 2, 3)
    table.leave(leaves)
    plan = table.play()
    assert where(plan) == (button, button, bb) and plan.order == (bb, button)


def test_bld5_two_to_three_dead_button_newcomer_next_for_the_big_blind() -> None:
    """BLD-5, 2 -> 3 (no source; docs/blinds-and-button.md): the big blind moves on one player, here the newcomer
    left of the last big blind; the last big blind posts the small blind, the button stays put."""
    table = Table("home", [1, 4], button=1)
    assert where(table.play()) == (1, 1, 4)
    table.set(6, new=True)
    plan = table.play()
    assert where(plan) == (1, 4, 6) and plan.order == (4, 6, 1)


def test_bld5_two_to_three_dead_button_newcomer_behind_the_button_waits() -> None:
    """2 -> 3, dead button, the newcomer between the button and the big blind: heads-up goes on (no posting
    heads-up, seed 003) until the big blind reaches him; nobody posts the big blind twice."""
    table = Table("home", [1, 4], button=4)
    assert where(table.play()) == (4, 4, 1)
    table.set(6, new=True, wants_to_post=True)
    plan = table.play()
    assert where(plan) == (1, 1, 4) and plan.waiting == (6,)
    assert ("BLD-4", "Seat 6 waits for the big blind: no posting heads-up (seed 003)") in plan.notes
    plan = table.play()
    assert where(plan) == (1, 4, 6) and plan.order == (4, 6, 1)


@pytest.mark.parametrize("preset", ["online", "casino"])
def test_bld5_two_to_three_no_dead_button_newcomer_takes_the_big_blind(preset: str) -> None:
    """2 -> 3, no dead button: the button moves to the last big blind, the last button posts the small blind
    and the newcomer comes in on the big blind at once; nobody has the button or the big blind twice."""
    table = Table(preset, [1, 4], button=4)
    assert where(table.play()) == (4, 4, 1)
    table.set(6, new=True)
    plan = table.play()
    assert where(plan) == (1, 4, 6) and plan.order == (4, 6, 1)


def test_new_game_when_fewer_than_two_players_owe_nothing() -> None:
    """Seed 002 B18: with one established player left, the others waiting, the table starts a new game: everyone
    is dealt in without posting, and the big blind still moves on from the last one."""
    table = Table("casino", [2, 5], button=2)
    assert where(table.play()) == (2, 2, 5)
    table.leave(2)
    table.set(7, new=True)
    table.set(8, new=True)
    plan = table.play()
    assert plan.notes[0][1].startswith("New game: ")
    assert plan.bb == 7 and plan.sb == 5 and plan.button == 8 and plan.order == (5, 7, 8)
    assert plan.blinds == {5: 1, 7: 2}


def test_move_button_between_hands_restarts_the_rotation_there() -> None:
    table = home_table()
    table.lineup = move_button(table.lineup, 5)
    plan = table.play()
    assert where(plan) == (5, 6, 1) and plan.after.start is None
    assert where(table.play()) == (6, 1, 2)
    with pytest.raises(PositionError):
        move_button(Lineup(), 0)


def test_a_misdeal_replays_the_same_plan() -> None:
    """MIS-6 (TDA 35-C, seed 001: "the button will not move and blinds and straddles will remain in the pot"): a
    misdeal declared after the hole cards is an exact re-play. Three seats of 300 at 1/3, button seat 1: seat 2
    posts 1, seat 3 posts 3; the redeal has the same hand number, button and posts, and seat 1 acts first again
    facing 3; nobody paid twice (stacks 300, 299, 297)."""
    journal = [*three_handed(), *cards("Ah", "Kh", "Qh", "Jh", "Th", "9h"), {"type": "misdeal"},
               *cards("2c", "3c", "4c", "5c", "6c", "7c")]
    played, result = replay(journal)
    first, redeal = result["hands"]
    assert first["misdeal"] is True and redeal["misdeal"] is False
    assert (first["number"], first["button"], first["posts"]) == (redeal["number"], redeal["button"], redeal["posts"])
    assert redeal["button"] == 1 and redeal["posts"] == {"2": {"live": 1, "dead": 0, "ante": 0},
                                                         "3": {"live": 3, "dead": 0, "ante": 0}}
    assert result["next"]["seat"] == 1 and result["next"]["legal"]["call"] == 3
    assert [played.seat(s).stack for s in (1, 2, 3)] == [300, 299, 297]


# --- never the same blind twice, whatever comes back (found by the random sessions) -----------------------

def plan_from(lineup: Lineup, players: list[int], preset: str) -> HandPlan:
    seats = {s: SeatInfo(s, 1000) for s in players}
    return plan_hand(lineup, seats, table_seats=9, small_blind=1, big_blind=2, structure=NL,
                     policies=PRESETS[Preset(preset)])


def test_no_dead_button_big_blind_moves_past_a_player_back_between_the_blinds() -> None:
    """Seed 002 B12b moves the button, then the blinds, to the next players; seat 5 came back between the last
    small blind (4) and big blind (6) owing nothing, so the blinds would land on 5 and 6 again. The big blind
    moves past the last one instead (TDA 34-B: never twice in a row) and seat 6 escapes the small blind."""
    plan = plan_from(Lineup(button=2, sb=4, bb=6, bb_poster=6), [2, 4, 5, 6, 8], "casino")
    assert where(plan) == (4, 5, 8) and plan.order == (5, 6, 8, 2, 4) and plan.blinds == {5: 1, 8: 2}


def test_no_dead_button_small_blind_moves_on_when_the_button_lands_behind_it() -> None:
    """Seat 6 came back between the last button (5) and small blind (8) and takes the button; seat 8 would post
    the small blind twice, so the small blind moves on to the last big blind (seed 001: never the same blind
    twice in a row) and seat 8 escapes it."""
    plan = plan_from(Lineup(button=5, sb=8, bb=9, bb_poster=9), [5, 6, 8, 9], "online")
    assert where(plan) == (6, 9, 5) and plan.order == (8, 9, 5, 6)


def test_heads_up_without_dead_button_the_last_button_takes_the_big_blind() -> None:
    """Three became two, the last small and big blinds gone: without a dead button the last button (8) takes the
    big blind, so nobody has the button twice; with the dead button the big blind moves on (TDA 34-B)."""
    lineup = Lineup(button=8, sb=9, bb=1, bb_poster=1)
    assert where(plan_from(lineup, [4, 8], "casino")) == (4, 4, 8)
    assert where(plan_from(lineup, [4, 8], "tournament")) == (8, 8, 4)


def test_heads_up_after_buying_the_blinds_the_buyer_does_not_take_the_big_blind_again() -> None:
    """Seed 001's buy keeps the bookkeeping big blind on seat 4 while the buyer (9) posted it; heads-up the next
    hand, the big blind goes to seat 4, not again to the buyer."""
    assert where(plan_from(Lineup(button=8, sb=9, bb=4, bb_poster=9), [4, 9], "home")) == (9, 9, 4)


def test_seed002_b4_not_dealt_in_on_the_first_deal_comes_in_as_an_incoming_player() -> None:
    """Seed 002 B4: a player who does not receive a hand on the initial deal is an incoming player: he must come in
    on or post the big blind (DealerPi gives his seat a missed big blind; a new seat simply stays new)."""
    table = Table("casino", [1, 2, 3, 4])
    table.set(4, away=True)
    table.set(5, away=True, new=True)
    plan = table.play()
    assert plan.after.missed == {4: "bb"} and plan.waiting == (4, 5)
    assert ("BLD-7", "Seat 4 is not dealt in on the first deal: missed-blind button (seed 002 B4)") in plan.notes
