"""A room missing hands the table no longer has (issue 15, docs/room.md "Re-sync"): the bridge keeps its
last ``keep`` hands and says the oldest in its retained state (``first``); the room records the ones before
it as lost, once, and asks only for the rest. A REAL mosquitto, the daemon's API on fake devices and the
console's bridge in one loop (console_kit), the room service beside them."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import pytest
from console_kit import make
from journal_kit import scripted_session
from mqtt_kit import PREFIX, Broker, Listener, until

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.room.director.books import LOST
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store

pytestmark = pytest.mark.slow   # a real broker: 3 s

T = "t1"
STATE, AVAIL, SET = f"{PREFIX}/{T}", f"{PREFIX}/{T}/availability", f"{PREFIX}/{T}/set"
PERIOD = 0.2                     # the room's resend period here (2 s in a room)


def resends(listener: Listener) -> list[int]:
    """The ``after`` of every resend command the table was sent."""
    return [json.loads(text)["after"] for topic, text, _ in listener.messages
            if topic == SET and json.loads(text).get("type") == "resend"]


async def busy_table(controller: Any, periods: int) -> None:
    """The table's state changes every 1.25 periods (seat 1 away, back, ...): each change reaches the room,
    which on the old code asked ``resend`` again at every one more than a period after its last ask."""
    for n in range(periods):
        assert controller.submit({"type": "away" if n % 2 == 0 else "back", "seat": 1}).accepted
        controller.refresh()
        await asyncio.sleep(PERIOD * 1.25)


def test_a_new_room_meets_a_table_keeping_2_of_5_hands_stores_4_5_marks_1_3_lost_and_asks_once(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Five hands final at a table whose bridge keeps 2 (seq 4 and 5: its state says hands 5, first 4). A room
    with an empty database: it records hands 1-3 lost (5 - 2 = 3 older than the window), asks ``resend`` once,
    after 3, and stores 4 and 5. Then the table's state changes 6 times over 7.5 periods: no further resend
    (the first change, seat 1 away, makes hand 6 final, engine/events.py: it is published and stored as seq 6).
    (The old code, run once as the positive control, sent ``[0, 0, 0, 0, 0, 0]``: the first ask, then one at
    each change more than a period after the last ask, and the bridge published 4 and 5 again at each.) The
    page's line and the WARNING say it once; a room restarted on that database neither logs it again nor asks
    anything (contiguous = 3 lost + 3 = 6)."""
    config, controller, api = make(tmp_path)
    broker = Broker(tmp_path, [T])
    broker.start()
    database = tmp_path / "room.sqlite"
    settings = RoomSettings(database, "127.0.0.1:0", tmp_path / "room-state", broker.settings("room"))
    seen: dict[str, Any] = {}

    async def room_for(body: Any) -> None:
        service = RoomService(settings, Store(database), retry=0.1, resend_seconds=PERIOD)
        task = asyncio.ensure_future(service.run())
        try:
            await body(service)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            service.store.close()

    async def main() -> None:
        await api.start()
        bridge = asyncio.ensure_future(TableBridge(broker.settings(T), api.path, config.journal, retry=0.1,
                                                   keep=2).run())
        try:
            async with Listener(broker) as listener:
                await until(lambda: listener.last(AVAIL) == "online")
                for entry in scripted_session(seed=5, hands=6)[1:]:
                    assert controller.submit(entry).accepted, entry
                    controller.refresh()
                await until(lambda: (listener.last(STATE) or {}).get("hands") == 5)
                assert listener.last(STATE)["first"] == 4

                async def first_room(service: RoomService) -> None:
                    await until(lambda: service.hands_stored == 2)
                    await busy_table(controller, 6)
                    seen["resends"] = resends(listener)
                    seen["summary"] = service.summary()["lost"]
                    seen["held"] = [row[0] for row in service.store.db.execute("SELECT seq FROM hands ORDER BY 1")]
                    seen["lost"] = service.store.lost()
                    seen["hand"] = [service.store.hand(T, seen["lost"][0][1], seq) for seq in (3, 4, 6)]

                async def second_room(service: RoomService) -> None:
                    await until(lambda: service.connected and T in service.tables)
                    await busy_table(controller, 3)
                    seen["again"] = resends(listener)[len(seen["resends"]):]
                    seen["summary2"] = service.summary()["lost"]

                await room_for(first_room)
                await room_for(second_room)
        finally:
            bridge.cancel()
            await asyncio.gather(bridge, return_exceptions=True)
            await api.stop()

    with caplog.at_level(logging.WARNING, logger="dealerpi.room.service"):
        broker.run(main)
    assert seen["resends"] == [3]
    assert seen["again"] == []
    assert seen["held"] == [4, 5, 6]
    session = seen["lost"][0][1]
    assert seen["lost"] == [(T, session, 1, 3)]
    line = f"t1: hands 1-3 of session {session} are lost: older than the table's journal keeps"
    assert seen["summary"] == seen["summary2"] == [line]
    assert [r.getMessage() for r in caplog.records if "lost" in r.getMessage()] == [f"room: {line}"]
    assert seen["hand"][0] == LOST and seen["hand"][1][0] == 4 and seen["hand"][2][0] == 6
