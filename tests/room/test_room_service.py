"""The room service with two tables on a REAL mosquitto (issue 15): each table is the daemon's API on fake
devices plus the console's bridge (console_kit), driven by scripted inputs; the room stores the hands,
counts the statistics exactly, seats players from a waiting list, and survives the broker and itself
being killed: no hand lost, none stored twice, no command applied twice."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from console_kit import make
from mqtt_kit import Broker, until
from room_kit import stopped_after

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.room.service import RoomService
from dealerpi.room.settings import Game, RoomSettings
from dealerpi.room.store import Store
from dealerpi.room.web import RoomPage

pytestmark = pytest.mark.slow   # a real broker (and PostgreSQL), restarted: 8 s

TABLES = ("t1", "t2")


class Room:
    """Two tables and a room service (restartable) in one loop."""

    def __init__(self, tmp_path: Path, broker: Broker, database: Path | str) -> None:
        self.tmp_path, self.broker = tmp_path, broker
        for table in TABLES:
            (tmp_path / table).mkdir()
        self.tables: dict[str, tuple[Any, Any, Any]] = {t: make(tmp_path / t) for t in TABLES}
        self.settings = RoomSettings(database, "127.0.0.1:0", tmp_path / "room-state",
                                     broker.settings("room"), (Game("nlhe-1-3", TABLES, 200),))
        self.tasks: list[asyncio.Future[None]] = []
        self.service: RoomService | None = None
        self.room_task: asyncio.Future[None] | None = None

    async def start_tables(self) -> None:
        for name, (config, _controller, api) in self.tables.items():
            await api.start()
            bridge = TableBridge(self.broker.settings(name), api.path, config.journal, retry=0.1)
            self.tasks.append(asyncio.ensure_future(bridge.run()))

    def start_room(self) -> RoomService:
        self.service = RoomService(self.settings, Store(self.settings.database), retry=0.1, resend_seconds=0.3)
        self.room_task = asyncio.ensure_future(self.service.run())
        return self.service

    async def stop_room(self) -> None:
        assert self.room_task is not None and self.service is not None
        self.room_task.cancel()
        await asyncio.gather(self.room_task, return_exceptions=True)
        self.service.store.close()

    async def stop(self) -> None:
        await self.stop_room()
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for _config, _controller, api in self.tables.values():
            await api.stop()

    def controller(self, table: str) -> Any:
        return self.tables[table][1]

    def journal(self, table: str) -> list[dict[str, Any]]:
        config = self.tables[table][0]
        return [json.loads(line) for line in config.journal.read_text().splitlines()]


def run(tmp_path: Path, body: Callable[[Room], Awaitable[None]], database: Path | str | None = None) -> None:
    broker = Broker(tmp_path, list(TABLES))
    broker.start()

    async def main() -> None:
        room = Room(tmp_path, broker, tmp_path / "room.sqlite" if database is None else database)
        await room.start_tables()
        room.start_room()
        async with stopped_after(room):
            await body(room)

    broker.run(main)


def do(controller: Any, entry: dict[str, Any]) -> None:
    assert controller.submit(entry).accepted, entry
    controller.refresh()


def deal(controller: Any) -> None:
    """Three seats: start, six hole cards from the fake shoe (console_kit.SHOE via tags T00-T05)."""
    do(controller, {"type": "start"})
    for uid in range(6):
        controller.on_card(f"T{uid:02d}")


def answered(service: RoomService, cid: str) -> dict[str, Any] | None:
    return service.store.command_answer(cid)


async def seat_three(room: Room, table: str) -> None:
    service = room.service
    assert service is not None
    await until(lambda: service.tables.get(table) is not None and service.tables[table].online)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        cid = await service.command(table, {"type": "sit", "seat": seat, "player": name, "stack": 250})
        await until(lambda cid=cid: answered(service, cid) is not None)
        assert answered(service, cid) == {"id": cid, "accepted": True, "reason": None, "v": 1}


def test_hands_stored_and_counted_exactly_across_a_broker_and_a_room_restart(tmp_path: Path,
                                                                           database: Path | str) -> None:
    """t1 plays three hands (button 1, 2, 3 by BLD-1 and the rotation; SB, BB as it moves):
    hand 1: Ann (button) raises to 9 and Bob (SB) and Cy (BB) fold; hand 2: the broker is killed, everyone
    folds to the BB (button Bob, SB Cy, BB Ann: Bob and Cy fold); hand 3
    starts with the broker back and the room killed and started again. Then hand 4 starts (hand 3 final).
    Hands 1-3 must be stored once each (the room asks the table to resend what it missed).

    Hand 3 (button Cy, SB Ann, BB Bob): Cy calls 3 (VPIP), Ann folds, Bob checks (no VPIP): the board
    comes, checks down, showdown Bob vs Cy.
    Stats, by hand: Ann 3 hands, VPIP 1 (hand 1 raise), PFR 1, no showdown; Bob 3 hands, VPIP 0, PFR 0,
    showdown 1; Cy 3 hands, VPIP 1, PFR 0, showdown 1. The deal from the SB (Ann): Ann Kd Qc, Bob 8c 9c,
    Cy 5d 4s (SHOE[0:6]); burns Jh, 6h, Ac; board 2d 3c 7d Td 2c: Bob's twos with T 9 8 beat Cy's twos with
    T 7 5: Bob won the showdown, Cy did not. Run with SQLite and with PostgreSQL."""

    async def body(room: Room) -> None:
        service = room.service
        assert service is not None
        began = int(time.time())
        await seat_three(room, "t1")
        t1 = room.controller("t1")
        deal(t1)
        do(t1, {"type": "act", "seat": 1, "action": "raise", "to": 9})
        do(t1, {"type": "act", "seat": 2, "action": "fold"})
        do(t1, {"type": "act", "seat": 3, "action": "fold"})
        deal(t1)                                                    # hand 2; hand 1 is final
        await until(lambda: service.store.hand_count() == 1)
        room.broker.kill()
        do(t1, {"type": "act", "seat": 2, "action": "fold"})        # button Bob (2) first to act of three
        do(t1, {"type": "act", "seat": 3, "action": "fold"})
        deal(t1)                                                    # hand 3; hand 2 final, nobody hears it
        await asyncio.sleep(0.3)
        room.broker.start()
        await until(lambda: service.store.hand_count() == 2, 10)    # the room asked for it: resend after 1
        await room.stop_room()
        do(t1, {"type": "act", "seat": 3, "action": "call"})        # button Cy calls 3
        do(t1, {"type": "act", "seat": 1, "action": "fold"})        # SB Ann folds
        do(t1, {"type": "act", "seat": 2, "action": "check"})       # BB Bob's option
        for street in (range(6, 10), range(10, 12), range(12, 14)):   # burn and flop, burn and turn, burn and river
            for uid in street:
                t1.on_card(f"T{uid:02d}")
            do(t1, {"type": "act", "seat": 2, "action": "check"})
            do(t1, {"type": "act", "seat": 3, "action": "check"})
        do(t1, {"type": "show", "seat": 2})
        do(t1, {"type": "show", "seat": 3})
        deal(t1)                                                    # hand 4: hand 3 final, the room is down
        service = room.start_room()
        await until(lambda: service.store.hand_count() == 3, 10)
        stats = service.store.stats()
        assert {p: (s["hands"], s["vpip"], s["pfr"], s["showdowns"]) for p, s in stats.items()} == {
            "Ann": (3, 1, 1, 0), "Bob": (3, 0, 0, 1), "Cy": (3, 1, 0, 1)}
        assert (stats["Ann"]["won"], stats["Bob"]["won"], stats["Cy"]["won"]) == (0, 1, 0)
        sessions = service.store.sessions()
        assert [t for t, _ in sessions] == ["t1"]
        assert service.store.stats(*sessions[0]) == stats
        # each hand's time is its start's "at" (the controller's wall clock), carried in its PHH: minutes apart
        # at most, so Ann's three hands are one session of t1, played between the test's start and now
        [session] = service.store.player_sessions("Ann", 1800)
        assert (session.table, session.hands, session.vpip, session.pfr, session.showdowns) == ("t1", 3, 1, 1, 0)
        assert began <= session.start <= session.end <= time.time()

    run(tmp_path, body, database)


def test_waiting_list_seats_the_first_player_once_across_a_broker_restart(tmp_path: Path,
                                                                         database: Path | str) -> None:
    """Cash game nlhe-1-3 on t1 and t2. t1 is full (Ann, Bob, Cy); t2 has three open seats. Dee and Eve
    wait. 'Seat next' is pressed while the broker is down: the sit command is stored; when the broker is
    back it goes out, t2 seats Dee at seat 1 with the game's buy-in 200, and she leaves the list. The
    command is sent again every 0.3 s until answered: t2's journal has its rid once. SQLite and PostgreSQL."""

    async def body(room: Room) -> None:
        service = room.service
        assert service is not None
        await seat_three(room, "t1")
        await until(lambda: service.tables.get("t2") is not None and service.tables["t2"].online)
        await until(lambda: service.open_seats("t2") == [1, 2, 3] and service.open_seats("t1") == [])
        dee = service.store.wait("nlhe-1-3", "Dee")
        service.store.wait("nlhe-1-3", "Eve")
        room.broker.kill()
        await until(lambda: not service.connected)
        cid = await service.seat_next("nlhe-1-3")
        assert cid is not None and service.store.seating() == {dee}
        assert await service.seat_next("nlhe-1-3") is not None         # Eve, not Dee again
        await asyncio.sleep(0.5)
        room.broker.start()
        await until(lambda: answered(service, cid) is not None, 10)
        assert answered(service, cid) == {"id": cid, "accepted": True, "reason": None, "v": 1}
        await until(lambda: service.store.waiting("nlhe-1-3") == [], 5)
        await asyncio.sleep(0.7)                                      # a resend round more: nothing new
        summary = service.summary()
        seats = summary["tables"]["t2"]["seats"]
        assert (seats["1"]["player"], seats["1"]["stack"]) == ("Dee", 200)
        assert (seats["2"]["player"], seats["2"]["stack"]) == ("Eve", 200)

    run(tmp_path, body, database)
    journal = [json.loads(line) for line in (tmp_path / "t2" / "state" / "journal.jsonl").read_text().splitlines()]
    sits = [line for line in journal if line.get("type") == "sit"]
    assert [(s["player"], s["seat"], s["rid"].startswith("room:")) for s in sits] == [("Dee", 1, True),
                                                                                      ("Eve", 2, True)]


def test_room_page_shows_every_table_and_only_the_host_changes_the_lists(tmp_path: Path) -> None:
    """The page's summary has both tables; the board token may look, not change; a POST needs the page's
    own Origin; a non-loopback Host without a token is refused (the console's rules)."""
    tokens = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}

    async def body(room: Room) -> None:
        service = room.service
        assert service is not None
        await until(lambda: all(service.tables.get(t) and service.tables[t].online for t in TABLES))
        client: TestClient[Any, Any] = TestClient(TestServer(RoomPage(service, tokens, False).app()))
        await client.start_server()
        try:
            origin = f"http://{client.host}:{client.port}"
            summary = await (await client.get("/summary.json")).json()
            assert summary["role"] == "host" and sorted(summary["tables"]) == ["t1", "t2"]
            assert summary["games"][0]["open"] == {"t1": [1, 2, 3], "t2": [1, 2, 3]}
            board = {"Cookie": f"dealerpi_room={tokens['board']}", "Origin": origin}
            refused = await client.post("/waiting", json={"op": "add", "game": "nlhe-1-3", "player": "Zed"},
                                        headers=board)
            assert refused.status == 403
            foreign = await client.post("/waiting", json={"op": "add", "game": "nlhe-1-3", "player": "Zed"},
                                        headers={"Origin": "http://evil.example"})
            assert foreign.status == 403
            added = await client.post("/waiting", json={"op": "add", "game": "nlhe-1-3", "player": "Zed"},
                                      headers={"Origin": origin})
            assert added.status == 200
            assert [w["player"] for w in service.store.waiting("nlhe-1-3")] == ["Zed"]
            away = await client.get("/summary.json", headers={"Host": "room.example:8790"})
            assert away.status == 403
            ws = await client.ws_connect("/ws")
            first = json.loads((await ws.receive(2)).data)
            assert first["games"][0]["waiting"][0]["player"] == "Zed"
            await ws.close()
        finally:
            await client.close()

    run(tmp_path, body)
