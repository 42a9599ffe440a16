"""TLS between the tables, the room and a REAL mosquitto (issue 15; docs/room.md "TLS"): the broker's one
listener has ``certfile``/``keyfile`` from a CA made in the test (tls_kit), the bridge and the room give
``tls_ca`` and verify the broker's certificate; a table whose ``tls_ca`` is another CA is refused by its own
client (certificate verify failed) and never reaches the room; a client without TLS is refused too."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Any

import pytest
from console_kit import make
from mqtt_kit import Broker, until
from tls_kit import make_ca, make_certs

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.room.service import RoomService
from dealerpi.room.settings import RoomSettings
from dealerpi.room.store import Store

pytestmark = pytest.mark.slow   # a real broker over TLS: 1 s

CONNECT = bytes([0x10, 12, 0, 4, *b"MQTT", 4, 0x02, 0, 60, 0, 0])   # MQTT 3.1.1 CONNECT, clean, no id


async def plain_connect(port: int) -> bytes:
    """An MQTT CONNECT in the clear; what the broker sends back before it closes (at most 64 bytes; b"" for
    a connection closed or reset)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        writer.write(CONNECT)
        await writer.drain()
        return await asyncio.wait_for(reader.read(64), 5)
    except ConnectionError:
        return b""
    finally:
        writer.close()


def do(controller: Any, entry: dict[str, Any]) -> None:
    assert controller.submit(entry).accepted, entry
    controller.refresh()


def test_tables_and_room_over_tls_and_a_table_trusting_another_ca_is_refused(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """t1 (the room's CA) is seated by the room's commands and its hand is stored: Ann, Bob, Cy sit at
    250; hand 1 (button Ann, SB Bob 1, BB Cy 3) Ann and Bob fold; hand 2 starts, so hand 1 is final and
    reaches the room. t2 trusts another CA: its bridge says "certificate verify failed" and the room never
    hears of t2. An MQTT CONNECT in the clear gets no CONNACK from the TLS listener, where a broker without TLS
    answers one (the control)."""
    certs = make_certs(tmp_path / "tls")
    _key, _cert, other_ca = make_ca(tmp_path / "other", "not-the-room-ca")
    broker = Broker(tmp_path, ["t1", "t2"], tls=certs)
    broker.start()
    (tmp_path / "t1").mkdir()
    (tmp_path / "t2").mkdir()
    t1_config, t1, t1_api = make(tmp_path / "t1")
    t2_config, _t2, t2_api = make(tmp_path / "t2")
    settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state", broker.settings("room"))
    store = Store(settings.database)
    caplog.set_level(logging.WARNING, logger="dealerpi.console.mqtt_bridge")

    async def main() -> None:
        await t1_api.start()
        await t2_api.start()
        room = RoomService(settings, store, retry=0.1, resend_seconds=0.3)
        wrong = dataclasses.replace(broker.settings("t2"), tls_ca=other_ca)
        tasks = [asyncio.ensure_future(room.run()),
                 asyncio.ensure_future(TableBridge(broker.settings("t1"), t1_api.path, t1_config.journal,
                                                   retry=0.1).run()),
                 asyncio.ensure_future(TableBridge(wrong, t2_api.path, t2_config.journal, retry=0.1).run())]
        try:
            await until(lambda: room.connected and "t1" in room.tables and room.tables["t1"].online)
            for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
                cid = await room.command("t1", {"type": "sit", "seat": seat, "player": name, "stack": 250})
                await until(lambda cid=cid: store.command_answer(cid) is not None)
                assert store.command_answer(cid) == {"id": cid, "accepted": True, "reason": None, "v": 1}
            do(t1, {"type": "start"})
            for uid in range(6):                                 # the fake shoe's tags (console_kit.SHOE)
                t1.on_card(f"T{uid:02d}")
            do(t1, {"type": "act", "seat": 1, "action": "fold"})
            do(t1, {"type": "act", "seat": 2, "action": "fold"})
            do(t1, {"type": "start"})
            await until(lambda: store.hand_count() == 1)
            await until(lambda: any("certificate verify failed" in r.getMessage() for r in caplog.records))
            assert "t2" not in room.tables
            assert await plain_connect(broker.port) == b""              # TLS only: reset at the first bytes
            clear = Broker(tmp_path / "clear", ["t1"])                   # the control: a broker without TLS
            clear.start()
            try:                # CONNACK (0x20, length 2), return code 5: not authorized (no user), MQTT 3.1.1 3.2
                assert await plain_connect(clear.port) == bytes([0x20, 2, 0, 5])
            finally:
                clear.kill()
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await t1_api.stop()
            await t2_api.stop()

    try:
        broker.run(main)
    finally:
        store.close()
    warnings = [r.getMessage() for r in caplog.records if "certificate verify failed" in r.getMessage()]
    assert warnings[0].startswith(f"room bridge: the broker 127.0.0.1:{broker.port}: ")
