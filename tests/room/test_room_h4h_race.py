"""The hand-for-hand race (TRN-5, TDA RP-8: every table plays exactly one hand per round), for real: a REAL
mosquitto, ``dealerpi room`` as its own process with a ``[tournament]``, two tables (the daemon's API on fake
devices plus the console's bridge). The dealer presses START in the same step as the action that ends the
round's hand, before the bridge has even published that the hand ended, so before the room could possibly
react: the table's own journal holds it (the room's round was one ``resume`` with ``pause_after``), START is
refused naming TRN-5, and the round completes with one hand at each table."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from mqtt_kit import Broker
from mtt_kit import play, smallest, stacks
from room_kit import RoomProcess, Tables, start_tournament, stopped_after, until_summary

pytestmark = pytest.mark.slow   # a real broker: 2 s

TABLES = ("t1", "t2")
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")
TOURNAMENT = ('[tournament]\ntables = ["t1", "t2"]\nseats = 3\nbuy_in = 10\nstarting_stack = 1000\n'
              'payouts = [50, 30, 20]\nlevels = [{blinds = [10, 20], minutes = 60}]\n')
HELD = "TRN-5: the table is paused (hand-for-hand): no hand starts until it is resumed"


def test_trn5_a_start_pressed_as_the_rounds_hand_ends_is_refused_and_each_table_plays_one_hand(
        tmp_path: Path) -> None:
    """6 players, 3 seats a table: TRN-9 draws 3/3, 1000 chips each, 3 paid. The smallest stack busts at t1
    (6th, 2/3), then at t2 (5th, 2/2): 4 left = 3 paid + 1, the bubble: hand-for-hand (TRN-5). When both
    tables are held, round 1 starts: each table's journal gets one ``resume`` with ``pause_after`` its hand
    + 1. At each table the round's hand is a walk and the dealer's START comes right after the last fold,
    in the same step: refused, TRN-5 hand-for-hand. Round 1 over (one hand at each table), round 2 starts the
    same way (``pause_after`` hand + 2); the room's page shows no fault."""
    broker = Broker(tmp_path, list(TABLES))
    broker.start()
    tables = Tables(tmp_path, broker, TABLES)
    room = RoomProcess(tmp_path, broker, TOURNAMENT)
    seen: dict[str, Any] = {}

    def resumes(name: str) -> list[dict[str, Any]]:
        """The ``resume`` inputs the room sent the table, as its journal has them."""
        return [line for line in tables.journal(name)
                if line.get("type") == "resume" and str(line.get("rid", "")).startswith("room:")]

    def round_started(rounds: int) -> bool:
        return all(len(resumes(t)) == rounds for t in TABLES)

    async def main() -> None:
        t1, t2 = tables.controller("t1"), tables.controller("t2")
        async with stopped_after(room, tables):
            await start_tournament(tables, room, PLAYERS)
            await until_summary(room, lambda s: [len(tables.controller(t).table.seats) for t in TABLES] == [3, 3]
                                and s["tables"]["t1"].get("seats") is not None, 20)
            play(t1, [smallest(t1)])
            await until_summary(room, lambda s: s["tournament"]["remaining"] == 5 and len(t1.table.seats) == 2, 20)
            play(t2, [smallest(t2)])
            await until_summary(room, lambda s: s["tournament"]["remaining"] == 4 and len(t2.table.seats) == 2, 20)
            await until_summary(room, lambda s: s["tournament"]["hand_for_hand"] and round_started(1), 20)
            before = {t: tables.controller(t).table.hand_number for t in TABLES}
            seen["resumes"] = {t: resumes(t)[-1] for t in TABLES}
            for name in TABLES:                                     # the round's hand, START in the same step
                controller = tables.controller(name)
                play(controller, [], walk=True)
                refused = controller.submit({"type": "start"})
                assert (refused.accepted, refused.reason) == (False, HELD), name     # before the room knew
                controller.refresh()
            seen["played"] = {t: tables.controller(t).table.hand_number - before[t] for t in TABLES}
            await until_summary(room, lambda s: round_started(2), 20)
            seen["round 2"] = {t: resumes(t)[-1] for t in TABLES}
            seen["after"] = {t: tables.controller(t).table.hand_number - before[t] for t in TABLES}
            seen["before"] = before
            seen["summary"] = await room.summary()

    broker.run(main)
    assert seen["played"] == seen["after"] == {"t1": 1, "t2": 1}             # one hand each in round 1
    before = seen["before"]
    assert {t: (r["pause_after"], r["reason"]) for t, r in seen["resumes"].items()} == \
        {t: (before[t] + 1, "hand-for-hand") for t in TABLES}
    assert {t: r["pause_after"] for t, r in seen["round 2"].items()} == {t: before[t] + 2 for t in TABLES}
    tournament = seen["summary"]["tournament"]
    assert (tournament["remaining"], tournament["hand_for_hand"], tournament["refused"]) == (4, True, [])
    assert sorted(p for t in TABLES for p in stacks(tables.controller(t))) == \
        sorted(p for p in PLAYERS if p not in {f[0] for f in tournament["finishes"]})
