"""The room's record of hands a table could no longer send (store.py ``lost``, issue 15), in SQLite and in
PostgreSQL (conftest's ``database``): what ``contiguous`` counts, what ``mark_lost`` records, once, and a
database made before the ``lost`` table had it."""

from __future__ import annotations

from pathlib import Path

from dealerpi.room.director.books import LOST
from dealerpi.room.store import Store

# Cy and Ann, no action: a hand the store parses (its lines: nobody in, nobody at a showdown)
PHH = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [50, 100]\nmin_bet = 100\n' \
      'starting_stacks = [5000, 5000]\nactions = []\nplayers = ["Cy", "Ann"]\nfinishing_stacks = [5000, 5000]\n'


def test_lost_ranges_around_stored_hands_counted_as_held_once(database: Path | str) -> None:
    """Stored: seq 2 and 5 of t1/s1. The table can send from 7 on: lost are 1, 3-4 and 6 (the gaps below 7),
    after which ``contiguous`` is 6 (1 lost, 2 held, 3-4 lost, 5 held, 6 lost), not 0. Asked again, nothing
    new is lost; from 9 on, 7-8 are (held: 1-6). Another session and another table are not touched; ``hand``
    answers ``LOST`` only inside a lost range."""
    store = Store(database)
    for seq in (2, 5):
        assert store.add_hand("t1", "s1", seq, seq, PHH)
    assert store.add_hand("t1", "s2", 1, 1, PHH) and store.add_hand("t2", "s1", 1, 1, PHH)
    assert store.contiguous("t1", "s1") == 0
    assert store.mark_lost("t1", "s1", 7) == [(1, 1), (3, 4), (6, 6)]
    assert store.contiguous("t1", "s1") == 6
    assert store.mark_lost("t1", "s1", 7) == [] and store.mark_lost("t1", "s1", 4) == []
    assert store.mark_lost("t1", "s1", 9) == [(7, 8)]
    assert store.contiguous("t1", "s1") == 8
    assert store.lost() == [("t1", "s1", 1, 1), ("t1", "s1", 3, 4), ("t1", "s1", 6, 6), ("t1", "s1", 7, 8)]
    assert (store.contiguous("t1", "s2"), store.contiguous("t2", "s1")) == (1, 1)
    assert [store.hand("t1", "s1", seq) for seq in (1, 4, 8, 9)] == [LOST, LOST, LOST, None]
    assert store.hand("t1", "s1", 2) == (2, PHH) and store.hand("t1", "s2", 3) is None
    store.close()


def test_a_database_from_before_the_lost_table_gets_it_on_opening(database: Path | str) -> None:
    """A room's database without ``lost`` (dropped here, as one made before it): opening it creates the table
    and its hands stay (contiguous 1, then 1 + 2 lost = 3)."""
    store = Store(database)
    assert store.add_hand("t1", "s1", 1, 1, PHH)
    store.db.execute("DROP TABLE lost")
    store.close()
    store = Store(database)
    assert store.lost() == [] and store.contiguous("t1", "s1") == 1
    assert store.mark_lost("t1", "s1", 4) == [(2, 3)] and store.contiguous("t1", "s1") == 3
    store.close()
