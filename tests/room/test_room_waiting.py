"""Issue 20 defect 6: a cash game's waiting list takes a name once, nobody is seated at two tables at once
(nor twice at one), and the host removes a name from the page's list. The room service without a broker
(its commands are stored, to go out when it connects), the tables' states as the room received them."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient, TestServer
from console_kit import make
from room_kit import table_playing

from dealerpi.room.service import RoomService, TableSeen
from dealerpi.room.settings import Game, RoomSettings
from dealerpi.room.store import Store
from dealerpi.room.store_sql import StoreError
from dealerpi.room.web import RoomPage
from dealerpi.wire.broker import MqttSettings


def state(players: dict[int, str], seats: int = 3) -> dict[str, Any]:
    return {"seats": {str(s): {"player": players.get(s), "stack": 200 if s in players else 0}
                      for s in range(1, seats + 1)}}


def published(folder: Path, players: dict[int, str]) -> dict[str, Any]:
    """``P/t1`` as a table's bridge publishes it (wire/mqtt.py ``TableState``: the room refuses anything else):
    a real daemon's board view with ``players`` seated, and the hand counts."""
    folder.mkdir()
    _config, controller, api = make(folder)
    for seat, player in players.items():
        assert controller.submit({"type": "sit", "seat": seat, "player": player, "stack": 200, "by": "host"}).accepted
    view: dict[str, Any] = json.loads(json.dumps(api.view("board")))
    return {"table": "t1", "session": "s", "hands": 0, "first": 1, **view}


def room(tmp_path: Path) -> RoomService:
    settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state",
                            MqttSettings("room", "127.0.0.1", 1, "dealerpi", tmp_path / "pw"),
                            (Game("nlhe-1-3", ("t1", "t2"), 200), Game("plo-2-5", ("t3",), 500)))
    service = RoomService(settings, Store(settings.database))
    service.tables = {"t1": TableSeen(state({1: "Ann", 2: "Bob"}), True), "t2": TableSeen(state({}), True),
                      "t3": TableSeen(state({1: "Cy"}), True)}
    return service


def test_a_name_waits_once_a_seated_player_is_not_seated_again_and_the_host_removes_a_name(tmp_path: Path) -> None:
    """Add Dee to nlhe-1-3 twice: the second is refused, naming her; Ann, seated at t1 (a table of the game),
    cannot wait for it; Cy, seated at t3, waits for nlhe-1-3 too. 'Seat next' seats Dee (t1 seat 3, its one
    open seat); next Cy is passed over (seated at t3, plo-2-5: not at two tables at once) and stays on the
    list, and Eve (added after him) gets t2 seat 1; a third press seats nobody. Then the host removes Cy from
    the list (the page's remove). Every ``sit`` the room stored names another player."""
    service = room(tmp_path)

    async def body() -> list[Any]:
        client: TestClient[Any, Any] = TestClient(TestServer(RoomPage(service, {}, False).app()))
        await client.start_server()
        try:
            origin = {"Origin": f"http://{client.host}:{client.port}"}

            async def post(body: dict[str, Any]) -> tuple[int, str]:
                response = await client.post("/waiting", json=body, headers=origin)
                return response.status, await response.text()

            assert (await post({"op": "add", "game": "nlhe-1-3", "player": "Dee"}))[0] == 200
            assert await post({"op": "add", "game": "nlhe-1-3", "player": "Dee "}) == \
                (400, "400: Dee is on the nlhe-1-3 list already\n")
            assert await post({"op": "add", "game": "nlhe-1-3", "player": "Ann"}) == \
                (400, "400: Ann is seated at t1 already\n")
            assert (await post({"op": "add", "game": "nlhe-1-3", "player": "Cy"}))[0] == 200
            assert (await post({"op": "add", "game": "nlhe-1-3", "player": "Eve"}))[0] == 200
            first = await service.seat_next("nlhe-1-3")
            second = await service.seat_next("nlhe-1-3")
            third = await service.seat_next("nlhe-1-3")
            cy = next(w["id"] for w in service.store.waiting("nlhe-1-3") if w["player"] == "Cy")
            assert (await post({"op": "remove", "id": cy}))[0] == 200
            return [first, second, third]
        finally:
            await client.close()

    sent = asyncio.run(body())
    assert sent[0] is not None and sent[1] is not None and sent[2] is None
    sits = [(table, payload["seat"], payload["player"]) for _, table, payload in service.store.unanswered()]
    assert sits == [("t1", 3, "Dee"), ("t2", 1, "Eve")]
    assert [w["player"] for w in service.store.waiting("nlhe-1-3")] == ["Dee", "Eve"]   # until the tables accept
    service.store.close()


def test_a_failed_database_is_not_logged_as_a_hand_the_room_cannot_store(tmp_path: Path,
                                                                         caplog: pytest.LogCaptureFixture) -> None:
    """Issue 20: a killed PostgreSQL first logged "t2 sent a hand the room cannot store" (the database's error
    is a ValueError, taken for a bad hand). Here the SQLite database fails under the room (its connection
    closed): the hand t2 sends raises the database's error, which names the database (the room prints it in
    one line and exits for systemd), and nothing blames t2's hand. A bad hand is still logged as one."""
    service = room(tmp_path)
    hand = {"table": "t2", "session": "s", "seq": 1, "number": 1, "players": [], "phh": "not PHH"}
    with caplog.at_level(logging.WARNING):
        asyncio.run(service.receive(None, "t2", "hand", json.dumps(hand)))     # type: ignore[arg-type]
    (record,) = caplog.records
    assert record.getMessage().startswith("room: t2 sent a hand the room cannot store")
    caplog.clear()
    phh = table_playing(tmp_path / "t2", 1).poll()[0].phh
    service.store.db.close()
    with caplog.at_level(logging.WARNING), pytest.raises(StoreError, match=r"^the SQLite database .*room\.sqlite"):
        asyncio.run(service.receive(None, "t2", "hand", json.dumps({**hand, "phh": phh})))  # type: ignore[arg-type]
    assert caplog.records == []


def test_an_offline_table_keeps_showing_its_players_as_last_seen(tmp_path: Path) -> None:
    """Issue 20: a table whose console lost its daemon publishes a state without a view (no seats); the room
    page showed it empty. The room keeps the seats it last saw, says they are as last seen, and the table is
    offline; its next full state replaces them."""
    service = room(tmp_path)
    service.tables = {}
    full = published(tmp_path / "first", {1: "Ann", 2: "Bob"})

    async def body() -> None:
        await service.receive(None, "t1", "availability", "online")         # type: ignore[arg-type]
        await service.receive(None, "t1", "state", json.dumps(full))        # type: ignore[arg-type]
        await service.receive(None, "t1", "availability", "offline")        # type: ignore[arg-type]
        await service.receive(None, "t1", "state", json.dumps({"table": "t1", "session": "s", "hands": 0,  # type: ignore[arg-type]
                                                               "first": 1}))
    asyncio.run(body())
    shown = service.summary()["tables"]["t1"]
    assert (shown["online"], shown["stale"]) == (False, True)
    assert {seat: v["player"] for seat, v in shown["seats"].items() if v["player"]} == {"1": "Ann", "2": "Bob"}
    asyncio.run(service.receive(None, "t1", "state", json.dumps(published(tmp_path / "next", {1: "Ann"}))))  # type: ignore[arg-type]
    shown = service.summary()["tables"]["t1"]
    assert shown["stale"] is False and [v["player"] for v in shown["seats"].values() if v["player"]] == ["Ann"]
    service.store.close()
