"""A multi-table tournament run by the room (issue 15) on a REAL mosquitto: three tables (the daemon's API on
fake devices plus the console's bridge), the room's director, 20 players to one winner. The room's clock is
injected (levels of one minute pass at once, no sleeping); the hands are scripted (mtt_kit.play: the chosen
players go all in and lose to the biggest stack's aces), so every bust is known and the places and prizes
below are worked by hand from the rules.

The field: 20 entrants x buy-in 100 = pool 2000; 7 places paid [30, 20, 15, 12, 10, 8, 5] % = 600, 400, 300,
240, 200, 160, 100 (2000 x 30 / 100 = 600, ... x 5 / 100 = 100; they add up to 2000, no odd unit). Seven
seats a table: TRN-9 draws 7/7/6. Starting stacks 10000: 20 x 10000 = 200000 chips, all the winner's at the
end.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from console_kit import make
from mqtt_kit import Broker, until
from mtt_kit import play, stacks
from room_kit import stopped_after

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.room.director.mtt_config import parse_tournament
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store

pytestmark = pytest.mark.slow   # a real broker, twenty players to one winner: 9 s

TABLES = ("t1", "t2", "t3")
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Ned", "Oda",
           "Pat", "Quin", "Ros", "Sam", "Tom")
START = 1_000_000.0
PAUSED = "TRN-5: the table is paused ({}): no hand starts until it is resumed"
TOURNAMENT = {"tables": list(TABLES), "seats": 7, "buy_in": 100, "starting_stack": 10000,
              "payouts": [30, 20, 15, 12, 10, 8, 5],
              "levels": [{"blinds": [50, 100], "minutes": 1}, {"break": True, "minutes": 1},
                         {"blinds": [100, 200], "minutes": 1}, {"blinds": [200, 400], "minutes": 60},
                         {"blinds": [400, 800], "minutes": 60}]}


class Room:
    """Three tables and the room in one loop; the room's clock is ``now``."""

    def __init__(self, tmp_path: Path, broker: Broker) -> None:
        tournament, errors = parse_tournament(TOURNAMENT, "room.toml")
        assert tournament is not None, errors
        for table in TABLES:
            (tmp_path / table).mkdir()
        self.broker = broker
        self.tables = {t: make(tmp_path / t) for t in TABLES}
        self.settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "room-state",
                                     broker.settings("room"), (), tournament)
        self.now = START
        self.service = self._service()
        self.tasks: list[asyncio.Future[None]] = []
        self.room_task: asyncio.Future[None] | None = None

    def _service(self) -> RoomService:
        return RoomService(self.settings, Store(self.settings.database), retry=0.1, resend_seconds=0.3,
                           clock=lambda: self.now, tick_seconds=0.02)

    async def restart_room(self) -> None:
        """The room killed and started again: a new service from the same database."""
        assert self.room_task is not None
        self.room_task.cancel()
        await asyncio.gather(self.room_task, return_exceptions=True)
        self.service.store.close()
        self.service = self._service()
        self.room_task = asyncio.ensure_future(self.service.run())

    async def start(self) -> None:
        for _config, _controller, api in self.tables.values():
            await api.start()
        for name, (config, _controller, api) in self.tables.items():
            bridge = TableBridge(self.broker.settings(name), api.path, config.journal, retry=0.1)
            self.tasks.append(asyncio.ensure_future(bridge.run()))
        self.room_task = asyncio.ensure_future(self.service.run())

    async def stop(self) -> None:
        for task in [*self.tasks, self.room_task]:
            assert task is not None
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for _config, _controller, api in self.tables.values():
            await api.stop()
        self.service.store.close()

    def controller(self, table: str) -> Any:
        return self.tables[table][1]

    def journal(self, table: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.tables[table][0].journal.read_text().splitlines()]

    def finishes(self) -> dict[str, tuple[int, int]]:
        summary = self.service.tournament()
        assert summary is not None
        return {player: (place, prize) for player, place, prize in summary["finishes"]}

    def quiet(self) -> bool:
        """The room has seen every table as it is and has nothing in flight or planned."""
        director = self.service.director
        assert director is not None
        views = self.service.views()
        for name in TABLES:
            table, view = self.controller(name).table, views.get(name)
            if view is None or view["hand"] != table.hand_number or view["paused"] != table.paused or \
                    {int(s): v["player"] for s, v in view["seats"].items() if v["player"]} != \
                    {s: i.player for s, i in table.seats.items()}:
                return False
        return not director.busy and all(director.state["done"][t]["hand"] == views[t]["hand"]
                                         for t in director.state["active"])

    async def settle(self) -> None:
        await until(self.quiet, 30)
        await asyncio.sleep(0.05)              # a tick of the room's clock more: nothing new comes
        await until(self.quiet, 30)

    async def hand(self, table: str, losers: list[str], walk: bool = False) -> str:
        """One scripted hand at ``table``, then the room settles."""
        assert self.controller(table).table.paused is None
        winner = play(self.controller(table), losers, walk)
        await self.settle()
        return winner


def tournament_of(service: RoomService) -> dict[str, Any]:
    """The room's tournament summary; fails here (not on ``None``) while no tournament runs."""
    summary = service.tournament()
    assert summary is not None, "no tournament"
    return summary


def smallest(room: Room, table: str) -> str:
    """The player with the fewest chips at ``table`` (the lowest seat among equals)."""
    seats = room.controller(table).table.seats
    player: str = min(seats.values(), key=lambda info: (info.stack, info.seat)).player
    return player


def due_big_blind(room: Room, table: str) -> str:
    """TRN-8: the player who posts the big blind next: the first occupied seat clockwise after the last hand's
    big blind."""
    played = room.controller(table).table
    seats, bb, count = played.seats, played.blind_seats()[1], played.config.seats
    assert bb is not None, "no hand played yet"
    player: str = next(seats[s].player for s in [(bb + k - 1) % count + 1 for k in range(1, count + 1)] if s in seats)
    return player


def test_twenty_players_three_tables_to_one_winner(tmp_path: Path) -> None:
    """The whole tournament, each step's outcome checked exactly (places from TRN-4: the k-th player out of 20
    alone finishes 21 - k; prizes from the table above).

    - TRN-9: 7/7/6 drawn at random, 10000 each, level 1 (50/100) on every table; a button drawn per table.
    - TRN-1, one clock: at +30 s level 1 has 30 s left; at +60 s the break pauses every table (START
      refused); at +120 s level 2 (100/200) reaches every table and they resume.
    - E1 t1 one bust: 20th. The room is killed and started again from its database. E2 t2: 19th.
    - E3 t3: hand 1 a walk at 100/200 (SB 9900, BB 10100, others 10000); hand 2 the SB (9900) and a 10000
      stack bust together (TRN-4 corrected): 10000 > 9900, so the 10000 one is 17th and the SB 18th. 16 left:
      t1 6, t2 6, t3 4: TRN-8 moves the player due t1's big blind to t3 (5/6/5).
    - E4 t2: two 10000 stacks bust on one hand: equal stacks share places 16 and 15: both 15th, 0 + 0.
      14 left <= 7 x 2 seats: t3 is broken, its 5 players drawn into t1's 2 and t2's 3 open seats (7/7),
      and t3, empty, is resumed (its dealer's display no longer says to wait; the page marks it broken).
    - E5-E10: one bust a hand, t1 then t2: 14th, 13th, 12th, 11th, 10th, 9th. 8 left = 7 paid + 1: the bubble.
    - E11 hand-for-hand (TRN-5): both tables paused, then resumed together at +120 s (level 2, 60 s left),
      each by one ``resume`` with ``pause_after`` its hand + 1, so each plays exactly one hand in the round;
      t1's hand busts one and t1 is paused (START refused) until t2 finished its hand, which busts one: TDA
      RP-8-A, they share 7th and 8th: (100 + 0) / 2 = 50 each, place 7. The round takes 200 s (the clock is
      set to +320 s) but at most 120 s come off the level clock: 120 + 120 = 240 s of play; level 3
      (200/400, 60 minutes) began at 60 + 60 + 60 = 180 s, so 3600 - (240 - 180) = 3540 s are left, during
      the round and after it.
    - 6 left fit one table: the final-table redraw, all six at t1 with their chips (t2 empty, resumed).
    - E12: 6th 160, 5th 200, 4th 240, 3rd 300, 2nd 400; the last one 1st, 600, with all 200000 chips.
      Prizes paid: 600 + 400 + 300 + 240 + 200 + 160 + 50 + 50 = 2000, the pool.
    """
    broker = Broker(tmp_path, list(TABLES))
    broker.start()
    expected: dict[str, tuple[int, int]] = {}

    async def body(room: Room) -> None:
        service = room.service
        for player in PLAYERS:
            service.register(player)
        await until(lambda: all(t in service.views() for t in TABLES), 30)
        await service.start_tournament()
        await room.settle()
        seated = {t: stacks(room.controller(t)) for t in TABLES}
        assert sorted(len(s) for s in seated.values()) == [6, 7, 7]
        assert sorted(p for s in seated.values() for p in s) == sorted(PLAYERS)
        assert {chips for s in seated.values() for chips in s.values()} == {10000}
        for t in TABLES:
            config = room.controller(t).table.config
            assert (config.seats, config.small_blind, config.big_blind) == (7, 50, 100)
            assert room.controller(t).table.state.lineup.start in room.controller(t).table.seats   # the drawn button
        room.now = START + 30
        await until(lambda: tournament_of(service)["seconds_left"] == 30, 30)
        assert (tournament_of(service)["level"], tournament_of(service)["blinds"]) == (1, [50, 100])

        async def one(table: str, place: int, prize: int = 0) -> None:
            loser = smallest(room, table)
            await room.hand(table, [loser])
            expected[loser] = (place, prize)
            assert room.finishes() == expected

        await one("t1", 20)
        await room.restart_room()                      # the room's state is durable: nothing drawn or sent again
        await room.settle()
        service = room.service
        assert room.finishes() == expected
        await one("t2", 19)
        room.now = START + 60                                                # the break
        await until(lambda: all(room.controller(t).table.paused == "break" for t in TABLES), 30)
        await room.settle()
        refused = room.controller("t1").submit({"type": "start"})
        assert (refused.accepted, refused.reason) == (False, PAUSED.format("break"))
        room.now = START + 120                                               # level 2
        await until(lambda: all(room.controller(t).table.config.big_blind == 200
                                and room.controller(t).table.paused is None for t in TABLES), 30)
        await room.settle()
        assert (tournament_of(service)["level"], tournament_of(service)["blinds"]) == (2, [100, 200])

        await room.hand("t3", [], walk=True)                                 # E3
        t3 = room.controller("t3").table
        by_stack = sorted(t3.seats.values(), key=lambda i: (i.stack, i.seat))
        assert [i.stack for i in by_stack][:2] == [9900, 10000] and by_stack[-1].stack == 10100
        due = due_big_blind(room, "t1")
        sb, ten = by_stack[0].player, by_stack[1].player
        await room.hand("t3", [sb, ten])
        expected.update({ten: (17, 0), sb: (18, 0)})
        assert room.finishes() == expected
        assert [len(room.controller(t).table.seats) for t in TABLES] == [5, 6, 5]
        assert due in stacks(room.controller("t3"))                         # TRN-8: the big blind due moved

        t2 = room.controller("t2").table
        tens = [i.player for i in sorted(t2.seats.values(), key=lambda i: i.seat) if i.stack == 10000][:2]
        assert len(tens) == 2
        broken = stacks(room.controller("t3"))
        await room.hand("t2", tens)                                          # E4
        expected.update(dict.fromkeys(tens, (15, 0)))
        assert room.finishes() == expected
        assert stacks(room.controller("t3")) == {}                          # broken, then resumed (issue 20)
        await until(lambda: room.controller("t3").table.paused is None, 30)
        assert service.summary()["tables"]["t3"]["broken"]
        assert [len(room.controller(t).table.seats) for t in ("t1", "t2")] == [7, 7]
        after = {**stacks(room.controller("t1")), **stacks(room.controller("t2"))}
        assert {p: after[p] for p in broken} == broken                     # each kept his chips
        summary = tournament_of(service)
        assert (summary["remaining"], summary["average"], summary["pool"], summary["paid"]) == \
            (14, 200000 // 14, 2000, 7)

        for place, table in zip(range(14, 8, -1), ("t1", "t2") * 3, strict=True):   # E5-E10
            await one(table, place)
        assert tournament_of(service)["hand_for_hand"] is True                 # 8 left, 7 paid: the bubble
        assert all(room.controller(t).table.paused is None for t in ("t1", "t2"))   # round 1 under way
        # TRN-5 (TDA RP-8): the round is one input per table, resume for exactly the next hand
        before = {t: room.controller(t).table.hand_number for t in ("t1", "t2")}
        assert {t: room.controller(t).table.pausing for t in before} == \
            {t: ("hand-for-hand", n + 1) for t, n in before.items()}
        assert {t: [line for line in room.journal(t) if line.get("type") == "resume"][-1].get("pause_after")
                for t in before} == {t: n + 1 for t, n in before.items()}
        assert tournament_of(service)["seconds_left"] == 60                   # level 2 began at +120 s
        room.now = START + 320                                              # the round takes 200 s
        await until(lambda: all(room.controller(t).table.config.big_blind == 400 for t in ("t1", "t2")), 30)
        await room.settle()
        assert (tournament_of(service)["level"], tournament_of(service)["seconds_left"]) == (3, 3540)

        first = smallest(room, "t1")                                         # E11
        await room.hand("t1", [first])
        assert room.controller("t1").table.paused == "hand-for-hand"
        assert room.controller("t1").table.hand_number == before["t1"] + 1       # one hand, held by its journal
        refused = room.controller("t1").submit({"type": "start"})
        assert (refused.accepted, refused.reason) == (False, PAUSED.format("hand-for-hand"))
        assert first not in room.finishes()                                  # the round is not over
        second = smallest(room, "t2")
        await room.hand("t2", [second])
        assert {t: room.controller(t).table.hand_number for t in before} == {t: n + 1 for t, n in before.items()}
        expected.update({first: (7, 50), second: (7, 50)})
        assert room.finishes() == expected
        assert tournament_of(service)["hand_for_hand"] is False
        assert (tournament_of(service)["level"], tournament_of(service)["seconds_left"]) == (3, 3540)

        final = stacks(room.controller("t1"))                                # the final-table redraw
        assert len(final) == 6 and stacks(room.controller("t2")) == {} and sum(final.values()) == 200000
        await until(lambda: room.controller("t2").table.paused is None, 30)  # emptied: no "wait for the room"
        assert room.controller("t1").table.paused is None
        for place, prize in ((6, 160), (5, 200), (4, 240), (3, 300)):            # E12
            await one("t1", place, prize)
        second = smallest(room, "t1")
        winner = await room.hand("t1", [second])
        expected.update({second: (2, 400), winner: (1, 600)})
        assert room.finishes() == expected
        assert stacks(room.controller("t1")) == {winner: 200000}
        assert sum(prize for _, prize in expected.values()) == 2000 and len(expected) == 20
        assert tournament_of(service)["phase"] == "finished"

    async def main() -> None:
        room = Room(tmp_path, broker)
        await room.start()
        async with stopped_after(room):
            await body(room)
        for t in TABLES:                                                      # every command journaled once
            rids = [line["rid"] for line in room.journal(t) if line.get("rid", "").startswith("room:")]
            assert len(rids) == len(set(rids)) and rids

    broker.run(main)
