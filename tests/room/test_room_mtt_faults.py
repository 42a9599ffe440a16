"""Faults in a running multi-table tournament (issue 15 "Faults"): a REAL mosquitto, two tables (the daemon's
API on fake devices plus the console's bridge), ``dealerpi room`` as its own process with a ``[tournament]``.
The broker is killed mid-tournament while a player busts, the room is killed with SIGKILL right after a bust
that calls for balancing (TRN-8), and a table goes offline while a player busts there. The busts are
scripted (mtt_kit.play: the chosen player goes all in and loses to the biggest stack's aces), so the places
are known: the k-th player out of 10 finishes 11 - k (TRN-4). At the end: those places, every chip still in
play, no command applied twice (each ``rid`` once in a journal; the moved player sat once at each table),
and the room's hands exactly each table's journal's finished hands."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest
from mqtt_kit import Broker
from mtt_kit import play, smallest, stacks
from room_kit import RoomProcess, Tables, start_tournament, stopped_after, until_summary

pytestmark = pytest.mark.slow   # a real broker, room and tables killed mid-tournament: 18 s

TABLES = ("t1", "t2")
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo")
TOURNAMENT = ('[tournament]\ntables = ["t1", "t2"]\nseats = 6\nbuy_in = 10\nstarting_stack = 1000\n'
              'payouts = [70, 30]\nlevels = [{blinds = [10, 20], minutes = 60}]\n')


def test_broker_room_and_table_faults_mid_tournament(tmp_path: Path) -> None:
    """10 players, 6 seats a table: TRN-9 draws 5/5, 1000 chips each (10000 in play), 10/20 for an hour.
    t2 plays no hand before it is balanced from: TRN-8 moves the player due its first hand's big blind (the
    engine's plan, ``next_hand`` in its state: the drawn button, the small blind left of it, then the big).
    1. The broker is killed; at t1 the smallest stack busts (10th); the broker comes back: the room hears the
       bust from the table's re-sent state and hand, the player leaves t1: 4/5.
    2. At t1 the smallest busts again (9th): 3/5 is two apart, TRN-8 moves t2's player due the big blind to
       t1; the room is SIGKILLed as soon as the hand is over and started again: it ends at 4/4, nothing sent
       twice.
    3. t2's console stops; at t2 the smallest busts (8th); t2's console comes back: the room hears it, 4/3.
    7 left of 10 (more than the 6 seats of a final table), 2 paid: no prize to these three."""
    broker = Broker(tmp_path, list(TABLES))
    broker.start()
    tables = Tables(tmp_path, broker, TABLES)
    room = RoomProcess(tmp_path, broker, TOURNAMENT)
    busted: list[str] = []
    moved: list[str] = []

    def settled(summary: dict[str, Any], left: int, layout: tuple[int, int]) -> bool:
        """The room has heard every bust and done what it calls for: the field it counts is what sits at the
        tables (``layout`` players at t1 and t2), no busted player still sits, no table is paused, and it shows
        each table as it is."""
        if tuple(len(tables.controller(t).table.seats) for t in TABLES) != layout:
            return False
        tournament = summary.get("tournament") or {}
        if tournament.get("remaining") != left or len(tournament.get("finishes", [])) != 10 - left:
            return False
        for name in TABLES:
            table = tables.controller(name).table
            seated = sorted([seat, info.player, info.stack] for seat, info in table.seats.items())
            if table.paused is not None or any(stack == 0 for _, _, stack in seated) or \
                    tournament["tables"].get(name) != seated:
                return False
        return sum(len(tables.controller(t).table.seats) for t in TABLES) == left

    async def main() -> None:
        t1, t2 = tables.controller("t1"), tables.controller("t2")
        async with stopped_after(room, tables):
            await start_tournament(tables, room, PLAYERS)
            await until_summary(room, lambda s: settled(s, 10, (5, 5)))
            assert [sorted(stacks(tables.controller(t)).values()) for t in TABLES] == [[1000] * 5] * 2
            assert (t1.table.config.big_blind, t2.table.config.big_blind) == (20, 20)

            broker.kill()                                                      # 1. the broker mid-tournament
            busted.append(smallest(t1))
            play(t1, [busted[-1]])
            await asyncio.sleep(0.3)
            broker.start()
            await until_summary(room, lambda s: settled(s, 9, (4, 5)), 20)
            assert (len(t1.table.seats), len(t2.table.seats)) == (4, 5)

            before = set(stacks(t2))                                           # 2. the room SIGKILLed
            assert t2.table.hand_number == 0 and t2.table.blind_seats() == (None, None)
            roles = t2.table.next_blind_seats()                 # (button, small blind, big blind) of hand 1
            assert roles is not None and roles[0] in t2.table.seats
            occupied: list[int] = sorted(t2.table.seats)    # BLD-1: clockwise, the next occupied seat

            def left(seat: int) -> int:
                return next((n for n in occupied if n > seat), occupied[0])

            assert roles[1:] == (left(roles[0]), left(left(roles[0])))
            due = t2.table.seats[roles[2]].player
            busted.append(smallest(t1))
            play(t1, [busted[-1]])
            assert await room.kill() == -signal.SIGKILL
            await room.start()
            await until_summary(room, lambda s: settled(s, 8, (4, 4)), 20)
            assert (len(t1.table.seats), len(t2.table.seats)) == (4, 4)
            moved.extend(before - set(stacks(t2)))
            assert moved == [due] and due in stacks(t1)

            await tables.stop_bridge("t2")                                      # 3. a table offline and back
            await until_summary(room, lambda s: s["tables"]["t2"]["online"] is False)
            busted.append(smallest(t2))
            play(t2, [busted[-1]])
            tables.bridge("t2")
            await until_summary(room, lambda s: settled(s, 7, (4, 3)), 20)
            summary = await room.summary()
            assert sorted((p, place, prize) for p, place, prize in summary["tournament"]["finishes"]) == \
                sorted(zip(busted, (10, 9, 8), (0, 0, 0), strict=True))
            for name, controller in (("t1", t1), ("t2", t2)):                   # each hand over becomes final
                play(controller, [], walk=True)
                count = tables.final_hands(name)
                await until_summary(room, lambda s, n=name, k=count: s["tables"][n]["hands"] == k)
            assert await room.kill(signal.SIGTERM) == 0

    broker.run(main)
    left = {p: chips for t in TABLES for p, chips in stacks(tables.controller(t)).items()}
    assert sorted(left) == sorted(set(PLAYERS) - set(busted)) and sum(left.values()) == 10000
    # final: t1's two busts, t2's bust (each table's last walk is not: no start after it)
    assert tables.check_stored(tmp_path / "room.sqlite") == {"t1": 2, "t2": 1}
    sits: dict[str, int] = {}
    for name in TABLES:
        lines = tables.journal(name)
        rids = [line["rid"] for line in lines if str(line.get("rid", "")).startswith("room:")]
        assert len(rids) == len(set(rids))                                      # no command applied twice
        for line in lines:
            if line.get("type") == "sit":
                sits[line["player"]] = sits.get(line["player"], 0) + 1
    assert sits == {p: 2 if p in moved else 1 for p in PLAYERS}                 # drawn once; moved: once more
