"""Issue 20: a re-entry PKO tournament with a rebuy and a deal, on a REAL mosquitto (the smaller real-broker run
beside the 60-entry one, test_room_money_60.py, which drives engine tables directly): two tables (the daemon's
API on fake devices plus the console's bridge), the room's service with its director, 8 players to a winner.
The director's money commands go through the service as the page's ``POST /tournament`` sends them.

Tables of 6, 5000 each, buy-in 100 of which 40 is the bounty, one re-entry, one rebuy until the end of level 1,
3 paid 50/30/20 %. The room's clock is injected and stays in level 1 (60 minutes)."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from console_kit import make
from mqtt_kit import Broker, until
from mtt_kit import play
from room_kit import stopped_after

from dealerpi.console.final_hands import FinalHands
from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.room.money import paid_in
from dealerpi.room.mtt_config import parse_tournament
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store

TABLES = ("t1", "t2")
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal")
TOURNAMENT = {"tables": list(TABLES), "seats": 6, "buy_in": 100, "starting_stack": 5000, "payouts": [50, 30, 20],
              "bounty": 40, "reentries": 1, "late_entry_levels": 0, "rebuys": 1, "rebuy_levels": 1,
              "levels": [{"blinds": [50, 100], "minutes": 60}, {"break": True, "minutes": 10},
                         {"blinds": [100, 200], "minutes": 600}]}


class Room:
    """Two tables and the room in one loop (as test_room_mtt.py's), the room's clock fixed."""

    def __init__(self, tmp_path: Path, broker: Broker) -> None:
        tournament, errors = parse_tournament(TOURNAMENT, "room.toml")
        assert tournament is not None, errors
        for table in TABLES:
            (tmp_path / table).mkdir()
        self.tables = {t: make(tmp_path / t) for t in TABLES}
        settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "room-state",
                                broker.settings("room"), (), tournament)
        self.broker = broker
        self.service = RoomService(settings, Store(settings.database), retry=0.1, resend_seconds=0.3,
                                   clock=lambda: 1_000_000.0, tick_seconds=0.02)
        self.tasks: list[asyncio.Future[None]] = []

    async def start(self) -> None:
        for _config, _controller, api in self.tables.values():
            await api.start()
        for name, (config, _controller, api) in self.tables.items():
            bridge = TableBridge(self.broker.settings(name), api.path, config.journal, retry=0.1)
            self.tasks.append(asyncio.ensure_future(bridge.run()))
        self.tasks.append(asyncio.ensure_future(self.service.run()))

    async def stop(self) -> None:
        for task in self.tasks:
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)
        for _config, _controller, api in self.tables.values():
            await api.stop()
        self.service.store.close()

    def controller(self, table: str) -> Any:
        return self.tables[table][1]

    def journal(self, table: str) -> list[dict[str, Any]]:
        return [json.loads(line) for line in self.tables[table][0].journal.read_text().splitlines()]

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
        await asyncio.sleep(0.05)
        await until(self.quiet, 30)

    def money(self) -> dict[str, Any]:
        summary = self.service.tournament()
        assert summary is not None
        return dict(summary["money"])


def smallest_dealt(room: Room, table: str) -> str | None:
    """The fewest chips among the players surely dealt the next hand (a re-entrant may wait for the big
    blind, TDA 8), or everyone at a table's first hand."""
    state = room.controller(table).table.state
    seats = [s for s in state.seats if s.stack and (not s.new or state.hand_number == 0)]
    return min(seats, key=lambda s: (s.stack, s.seat)).player if seats else None


def test_real_broker_reentry_pko_rebuy_and_a_deal_to_a_winner(tmp_path: Path) -> None:
    """Over MQTT: a bust pays the PKO (half of 40 in cash to the eliminator, half on his head); the busted
    player re-enters (9 entries, pool 9 x 60 = 540) and is seated by the room; after a walk the small blind
    rebuys through the service (his table journals ``chips`` 5000; pool 600); at three left at the final
    table everyone agrees to the chip chop; played to a winner: prizes + bounty cash = the 1000 paid in
    (9 entries + 1 rebuy, 100 each), bounty cash = 10 x 40, each table's journal adds exactly the chips
    the room booked, every room command journaled once, and the room's store holds every final hand of each
    table's journal."""
    broker = Broker(tmp_path, list(TABLES))
    broker.start()

    async def body(room: Room) -> None:
        service = room.service
        director = service.director
        assert director is not None
        for player in PLAYERS:
            service.register(player)
        await until(lambda: all(t in service.views() for t in TABLES), 30)
        await service.start_tournament()
        await room.settle()
        loser = smallest_dealt(room, "t1")
        assert loser is not None
        winner = play(room.controller("t1"), [loser])
        await room.settle()
        money = room.money()
        assert money["bounties_won"] == {winner: 20} and money["heads"][winner] == 60
        service.register(loser)                                     # a re-entry
        await room.settle()
        assert any(loser in {i.player for i in room.controller(t).table.seats.values()} for t in TABLES)
        assert room.money()["entries"] == 9 and director.state["standings"]["pool"] == 540
        play(room.controller("t2"), [], walk=True)
        await room.settle()
        t2 = room.controller("t2").table
        small = min(t2.seats.values(), key=lambda i: (i.stack, i.seat))
        assert small.stack == 4950
        await service.tournament_money({"op": "rebuy", "player": small.player})
        await room.settle()
        assert t2.seats[small.seat].stack == 9950 and director.state["standings"]["pool"] == 600
        (chips,) = [e for e in room.journal("t2") if e["type"] == "chips"]
        assert (chips["seat"], chips["amount"], chips["rid"].startswith("room:")) == (small.seat, 5000, True)
        dealt = False
        for turn in range(60):
            if director.state["phase"] == "finished":
                break
            standings = director.state["standings"]
            if not dealt and standings["remaining"] == 3 and len(director.state["active"]) == 1:
                summary = service.tournament()
                assert summary is not None
                proposals = summary["money"]["proposals"]
                assert proposals is not None
                await service.tournament_money({"op": "deal", "amounts": proposals["chip_chop"],
                                                "agreed": sorted(proposals["chip_chop"])})
                dealt = True
            playing = [t for t in director.state["active"] if room.controller(t).table.paused is None
                       and sum(1 for i in room.controller(t).table.seats.values() if i.stack) >= 2]
            assert playing, director.state["refused"]
            table = playing[turn % len(playing)]
            out = smallest_dealt(room, table)
            play(room.controller(table), [out] if out else [], walk=out is None)
            await room.settle()
        assert director.state["phase"] == "finished" and dealt
        money, books = room.money(), director.state["money"]
        prizes = sum(prize for _, _, prize in director.state["standings"]["finishes"])
        assert paid_in(director.settings, books) == 1000 and money["heads"] == {}
        assert prizes + sum(money["bounties_won"].values()) == 1000
        assert sum(money["bounties_won"].values()) == 400 and prizes == 600
        assert director.state["refused"] == []
        added: dict[str, int] = {}
        for t in TABLES:
            seats: dict[int, str] = {}
            for entry in room.journal(t):
                if entry["type"] == "sit":
                    seats[entry["seat"]] = entry["player"]
                elif entry["type"] == "chips":
                    added[seats[entry["seat"]]] = added.get(seats[entry["seat"]], 0) + entry["amount"]
        assert added == {small.player: 5000} and books["buys"].count([small.player, "rebuy"]) == 1

    async def main() -> None:
        room = Room(tmp_path, broker)
        await room.start()
        async with stopped_after(room):
            await body(room)
        for t in TABLES:                                           # every command journaled once
            rids = [line["rid"] for line in room.journal(t) if line.get("rid", "").startswith("room:")]
            assert len(rids) == len(set(rids)) and rids
            final = FinalHands(room.tables[t][0].journal)
            hands = final.poll()
            store = Store(tmp_path / "room.sqlite")
            try:
                assert hands and all(store.hand(t, final.session, h.seq) == (h.number, h.phh) for h in hands)
            finally:
                store.close()

    broker.run(main)
