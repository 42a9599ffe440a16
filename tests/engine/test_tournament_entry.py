"""Late entry until level N (TRN-9) and payouts by field size (TRN-4, seed 001: "the number of paid places depends
on the field"), for the console's tournaments (issue 14)."""

from __future__ import annotations

from typing import Any

import pytest
from journal_kit import sit, table

from dealerpi.engine import Table
from dealerpi.engine.inputs import InputError, parse_config
from dealerpi.engine.payouts import percents_for

LEVELS = [{"blinds": [50, 100], "minutes": 10}, {"blinds": [100, 200], "minutes": 10},
          {"break": True, "minutes": 5}, {"blinds": [150, 300], "minutes": 10}]
BY_FIELD = [{"players": 3, "percents": [100]}, {"players": 6, "percents": [65, 35]},
            {"players": 10, "percents": [50, 30, 20]}]


def tournament(**extra: Any) -> Table:
    played = Table()
    outcome = played.apply(table(rules="tournament", seats=9, buy_in=30, levels=LEVELS, **extra))
    assert outcome.accepted, outcome.reason
    return played


def prizes(played: Table) -> tuple[int, ...]:
    """Read afresh after each input (a plain attribute would stay narrowed to the first value checked)."""
    assert played.standings is not None
    return played.standings.prizes


def test_trn4_the_payout_row_follows_the_field_size() -> None:
    """Rows for up to 3, 6 and 10 players. 2 entrants: one place, 100% of 60. 4 entrants: 65/35 of 120 = 78 and
    42. 7 entrants: 50/30/20 of 210 = 105, 63, 42. 12 entrants (beyond the last row): the last row."""
    assert percents_for([(3, (100,)), (6, (65, 35))], 12) == (65, 35)
    played = tournament(payouts=BY_FIELD)
    for seat in (1, 2):
        assert played.apply(sit(seat, 3000)).accepted
    assert prizes(played) == (60,)
    for seat in (3, 4):
        assert played.apply(sit(seat, 3000)).accepted
    assert prizes(played) == (78, 42)
    for seat in (5, 6, 7):
        assert played.apply(sit(seat, 3000)).accepted
    assert prizes(played) == (105, 63, 42)
    again = Table.from_snapshot(played.snapshot())           # the rows survive a checkpoint
    assert again.config == played.config and again.standings == played.standings


def test_trn4_payout_rows_are_checked_and_named() -> None:
    with pytest.raises(InputError, match=r'"payouts\[1\]": the rows go up in "players" \(3 after 6\)') as error:
        parse_config(table(rules="tournament", payouts=[{"players": 6, "percents": [100]},
                                                        {"players": 3, "percents": [100]}]))
    assert error.value.key == "payouts[1]"
    with pytest.raises(InputError, match=r'"payouts\[0\]": 3 places paid for 2 players'):
        parse_config(table(rules="tournament", payouts=[{"players": 2, "percents": [50, 30, 20]}]))
    with pytest.raises(InputError, match=r'"payouts\[0\]" must be'):
        parse_config(table(rules="tournament", payouts=[{"players": 4, "percents": [60, 30]}]))


def test_trn9_late_entry_closes_at_the_end_of_level_n() -> None:
    """late_entry_levels 2: entries during levels 1 and 2 and the break after level 2 (20:00 to 25:00); at 25:00
    level 3 starts and a new entrant, or a late entrant taking over a reserved stack, is refused."""
    played = tournament(late_entry_levels=2)
    assert played.apply(sit(1, 3000)).accepted
    assert played.apply({"type": "sit", "seat": 5, "player": "Reserved", "stack": 3000, "reserved": True}).accepted
    assert played.apply({"type": "tick", "seconds": 1200}).accepted          # 20:00: the break
    assert played.levels is not None and played.levels.on_break
    assert played.apply(sit(2, 3000)).accepted
    assert played.apply({"type": "tick", "seconds": 300}).accepted           # 25:00: level 3
    assert played.levels.level_number == 3
    outcome = played.apply(sit(3, 3000, "Dan"))
    assert (outcome.accepted, outcome.reason) == (
        False, "TRN-9: late entry closed at the end of level 2: cannot seat Dan")
    outcome = played.apply({"type": "back", "seat": 5, "player": "Eve"})
    assert (outcome.accepted, outcome.reason) == (
        False, "TRN-9: late entry closed at the end of level 2: cannot give seat 5's reserved stack to Eve")
    assert played.standings is not None and (played.standings.remaining, played.standings.pool) == (2, 60)
    assert Table.from_snapshot(played.snapshot()).config == played.config


def test_trn9_without_a_limit_entry_stays_open() -> None:
    played = tournament()
    assert played.apply({"type": "tick", "seconds": 2100}).accepted          # the last level
    assert played.apply(sit(1, 3000)).accepted
