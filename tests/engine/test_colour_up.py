"""TRN-6 colour-up and chip race (TDA 24, 25-B; digest TRN-6, a [dealer] procedure the table keeps the books of).

The smallest chip (``remove``) leaves play; each player's chips of it are exchanged at equal value for the next
chip in play (``chip``); what is left over, his odd amount (stack modulo ``chip``), is raced: the odd amounts
of the table together buy whole chips (a remainder below one chip is removed), the dealer races them from seat 1
with one card per odd chip, no player wins more than one, and nobody is raced out (a player whose last chips
were odd and who won none gets one chip). The dealer reports who won (``won``); the table checks and applies it.

Worked by hand: a tournament table, 25/50 chips of 25 then 100. Seat 1 1,275 (12 x 100 + 75: three 25s odd),
seat 2 1,050 (two odd), seat 3 25 (one odd: all he has), seat 4 1,000 (none). Odd: 75 + 50 + 25 = 150: one
100 chip is raced, 50 removed. Seat 1 wins it: 1,300; seat 2 1,000; seat 3 would have nothing: he gets one 100;
seat 4 1,000.
"""

from __future__ import annotations

from typing import Any

from journal_kit import replay, sit, table

from dealerpi.engine.chip_race import plan_race
from dealerpi.engine.table import Table


def seated() -> list[dict[str, Any]]:
    return [table(rules="tournament", seats=4, blinds=(25, 50)), sit(1, 1275, "Ann"), sit(2, 1050, "Bob"),
            sit(3, 25, "Cy"), sit(4, 1000, "Dee")]


def colour_up(won: list[int], remove: int = 25, chip: int = 100) -> dict[str, Any]:
    return {"type": "colour_up", "remove": remove, "chip": chip, "won": won}


def test_trn6_the_race_plan_names_each_seats_odd_chips_and_the_chips_raced() -> None:
    """The plan the table's colour_up and the room's director both make (plan_race): 1275 = 12 x 100 + 3 x 25,
    1050 = 10 x 100 + 2 x 25, 25 = 1 x 25, 1000 has none; 6 odd chips of 25 are 150: one 100 raced, 50 removed."""
    played, _ = replay(seated())
    plan = plan_race({seat: played.seat(seat).stack for seat in (1, 2, 3, 4)}, 25, 100)
    assert (plan.odd, plan.raced, plan.removed) == ({1: 3, 2: 2, 3: 1}, 1, 50)


def test_trn6_colour_up_applies_the_race_and_no_one_is_raced_out() -> None:
    played, result = replay([*seated(), colour_up([1])])
    assert result["rejected"] == []
    assert {s: played.seat(s).stack for s in (1, 2, 3, 4)} == {1: 1300, 2: 1000, 3: 100, 4: 1000}
    assert [a["message"] for a in result["alerts"] if a["rule"] == "TRN-6"] == [
        "Colour-up: take every 25 off the table; 1 chip of 100 raced: seat 1 wins it; seat 3 is not raced "
        "out: give him one 100; 50 in 25s is removed"]


def test_trn6_the_race_is_checked_one_chip_a_player_from_players_with_odd_chips() -> None:
    """Refused: two winners for one chip; a winner with no odd chips (seat 4); a stack not in chips of 25 (after
    the colour-up, 25s are gone: racing them again is refused); a chip that is not a multiple of the removed."""
    journal = [*seated(), colour_up([1, 2]), colour_up([4]), colour_up([1], remove=25, chip=60)]
    _, result = replay(journal)
    assert [r["reason"] for r in result["rejected"]] == [
        "TRN-6: 1 chip of 100 is raced, so 1 seat wins one, not 2",
        "TRN-6: seat 4 has no odd 25s to race",
        "TRN-6: the next chip (60) must be a whole number of 25s"]
    _, result = replay([table(rules="tournament", seats=4, blinds=(25, 50)), sit(1, 1010, "Eve"),
                        sit(2, 1000, "Fay"), colour_up([])])
    assert result["rejected"][-1]["reason"] == "TRN-6: seat 1 has 1010, not a whole number of 25s"


def test_trn6_a_colour_up_is_taken_between_hands_and_survives_a_restart() -> None:
    played, _ = replay([*seated(), colour_up([1])])
    restarted = Table.from_snapshot(played.snapshot())
    assert [restarted.seat(s).stack for s in (1, 2, 3, 4)] == [1300, 1000, 100, 1000]
    _, result = replay([*seated(), {"type": "button", "seat": 1}, {"type": "start"}, colour_up([1])])
    assert result["rejected"][-1]["reason"] == "cannot colour up during a hand"


def test_trn6_the_plan_alone_on_the_dealers_display_and_a_rooms_table_takes_the_race() -> None:
    """The room's tables play the tournament preset with their own tournament books off (room/director/mtt_config.py):
    they take ``colour_up`` too. With ``plan``, nothing changes and the dealer reads the plan worked above
    (odd 25s: seat 1 three, seat 2 two, seat 3 one; one 100 raced); then the race's result as before. A cash
    table (home rules) still refuses a colour-up."""
    room_table = [table(rules="tournament", seats=4, blinds=(25, 50), policies={"tournament": False}),
                  *seated()[1:]]
    played, result = replay([*room_table, {"type": "colour_up", "remove": 25, "chip": 100, "plan": True}])
    assert result["rejected"] == [] and played.state.standings is None
    assert [played.seat(s).stack for s in (1, 2, 3, 4)] == [1275, 1050, 25, 1000]
    assert [a["message"] for a in result["alerts"] if a["rule"] == "TRN-6"] == [
        "Colour-up: every 25 leaves play for 100s; odd 25s: seat 1 3, seat 2 2, seat 3 1; 1 chip of 100 raced "
        "from seat 1, one card per odd chip, at most one chip a player, nobody raced out (TDA 24); then report "
        "the winners"]
    played, result = replay([*room_table, colour_up([1])])
    assert result["rejected"] == [] and [played.seat(s).stack for s in (1, 2, 3, 4)] == [1300, 1000, 100, 1000]
    _, result = replay([table(rules="home", seats=4, blinds=(25, 50)), *seated()[1:], colour_up([1])])
    assert result["rejected"][-1]["reason"] == "TRN-6: a colour-up is for a tournament's chips"
    _, result = replay([*room_table, {"type": "colour_up", "remove": 25, "chip": 100, "plan": "yes"}])
    assert result["rejected"][-1]["reason"] == 'colour_up: "plan" must be true or false'
