"""The tournament's books across a room restart (issue 15): a REAL mosquitto, one table (the daemon's API on
fake devices plus the console's bridge), ``dealerpi room`` as its own process. The room is stopped while the
table plays two hands, each with a bust; started again it sees only the table's last state (retained state
keeps the last) and must read the first hand from its record (asked again with ``resend``), the second from
the view: the two busts finish in two places, not one shared place."""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from mqtt_kit import Broker, until
from mtt_kit import play, smallest, stacks
from room_kit import RoomProcess, Tables, start_tournament, stopped_after, until_summary

from dealerpi.room.store_sql import connect

pytestmark = pytest.mark.slow   # a real broker: 2 s

PLAYERS = ("Ann", "Bob", "Cy", "Dee")
TOURNAMENT = ('[tournament]\ntables = ["t1"]\nseats = 6\nbuy_in = 100\nstarting_stack = 5000\n'
              'payouts = [50, 30, 20]\nlevels = [{blinds = [50, 100], minutes = 60}]\n')


def unanswered(database: Path) -> int:
    """The room's commands without an answer yet (its database, read beside the running room)."""
    db = connect(database)
    try:
        return int(db.execute("SELECT COUNT(*) FROM commands WHERE answer IS NULL").fetchone()[0])
    finally:
        db.close()


def test_trn4_two_hands_played_while_the_room_is_stopped_finish_hand_by_hand(tmp_path: Path) -> None:
    """4 players, 5000 each, 50/100; pool 4 x 100 = 400, 3 paid at 50/30/20 %: 200, 120, 80. The room is
    stopped (SIGTERM) with everyone seated. Hand 1: the smallest stack (all 5000: the lowest seat) busts;
    hand 2: the smallest then busts (at most 5000 at the start of his hand). TRN-4: busts on different hands
    do not share: hand 1's is 4th (0), hand 2's 3rd (80); read as one hand, by the stacks before hand 1 (5000
    each), they would share 3rd: (80 + 0) / 2 = 40 each. Then both leave the table; the room stored both
    hands once: hand 2 is final when the room's leave for its bust lands (engine/events.py). Issue 20 item 8:
    a hand was final only when a hand started after it, so the last hand of a table that stops dealing was
    never stored (this test's old expectation was ``{"t1": 1}``)."""
    broker = Broker(tmp_path, ["t1"])
    broker.start()
    tables = Tables(tmp_path, broker, ("t1",))
    room = RoomProcess(tmp_path, broker, TOURNAMENT)
    busted: list[str] = []

    async def main() -> None:
        t1 = tables.controller("t1")
        async with stopped_after(room, tables):
            await start_tournament(tables, room, PLAYERS)
            await until_summary(room, lambda s: sorted(p for _, p, _ in s["tournament"]["tables"]["t1"]) ==
                                sorted(PLAYERS) and t1.table.state.lineup.start is not None)
            await until(lambda: unanswered(tmp_path / "room.sqlite") == 0, 10)   # nothing in flight
            assert await room.kill(signal.SIGTERM) == 0
            for _ in range(2):
                busted.append(smallest(t1))
                play(t1, [busted[-1]])
            assert stacks(t1)[busted[0]] == 0 and stacks(t1)[busted[1]] == 0
            await room.start()
            summary = await until_summary(room, lambda s: len(s["tournament"]["finishes"]) == 2 and
                                          len(t1.table.seats) == 2, 20)
            assert sorted(summary["tournament"]["finishes"]) == sorted([[busted[0], 4, 0], [busted[1], 3, 80]])
            assert summary["tournament"]["remaining"] == 2
            assert sorted(stacks(t1)) == sorted(set(PLAYERS) - set(busted)) and sum(stacks(t1).values()) == 20000
            await until(lambda: unanswered(tmp_path / "room.sqlite") == 0, 10)   # both leaves answered
            assert await room.kill(signal.SIGTERM) == 0

    broker.run(main)
    assert tables.check_stored(tmp_path / "room.sqlite") == {"t1": 2}
