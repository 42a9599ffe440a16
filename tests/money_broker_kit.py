"""The room's tournament with its money on a REAL mosquitto (tests/room/test_room_money_broker.py): tables (the
daemon's API on fake devices plus the console's bridge) and the room's service with its director in one loop,
the room's clock ``now`` injected. Every command a table takes from the room is checked against TDA 8/11 at
that moment (tda_kit.TdaChecker, on the table's own engine), as test_room_money_60.py does over engine tables."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from console_kit import make
from mqtt_kit import Broker, until
from tda_kit import TdaChecker

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.engine import Outcome
from dealerpi.room.director.mtt import Director
from dealerpi.room.director.mtt_config import parse_tournament
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store

START = 1_000_000.0


class BrokerRoom:
    """``tables`` and the room in one loop; the room's clock is ``now``."""

    def __init__(self, tmp_path: Path, broker: Broker, tournament: dict[str, Any]) -> None:
        settings, errors = parse_tournament(tournament, "room.toml")
        assert settings is not None, errors
        self.names = tuple(settings.tables)
        for table in self.names:
            (tmp_path / table).mkdir()
        self.tables = {t: make(tmp_path / t) for t in self.names}
        room = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "room-state",
                            broker.settings("room"), (), settings)
        self.broker, self.now = broker, START
        self.service = RoomService(room, Store(room.database), retry=0.1, resend_seconds=0.3,
                                   clock=lambda: self.now, tick_seconds=0.02)
        self.checker = TdaChecker(lambda: {n: self.controller(n).table for n in self.names}, self._director)
        for name in self.names:
            self._check(name)
        self.tasks: list[asyncio.Future[None]] = []

    def _director(self) -> Director:
        assert self.service.director is not None
        return self.service.director

    def _check(self, name: str) -> None:
        """The room's commands (rid ``room:``) checked by TDA as the table takes them."""
        controller = self.controller(name)
        submit = controller.submit

        def checked(entry: dict[str, Any]) -> Outcome:
            ours = str(entry.get("rid", "")).startswith("room:")
            if ours:
                self.checker.before(name, controller.table, entry)
            outcome: Outcome = submit(entry)
            if ours:
                self.checker.after(entry, outcome.accepted)
            return outcome

        controller.submit = checked

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
        director = self._director()
        views = self.service.views()
        for name in self.names:
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

    def money(self) -> dict[str, Any]:
        summary = self.service.tournament()
        assert summary is not None
        return dict(summary["money"])

    def journaled_chips(self) -> dict[str, int]:
        """Per player, the chips every table's journal added with ``chips`` (the room's rebuys and add-ons)."""
        added: dict[str, int] = {}
        for name in self.names:
            seats: dict[int, str] = {}
            for entry in self.journal(name):
                if entry["type"] == "sit":
                    seats[entry["seat"]] = entry["player"]
                elif entry["type"] == "chips":
                    added[seats[entry["seat"]]] = added.get(seats[entry["seat"]], 0) + entry["amount"]
        return added
