"""Issue 22: the broker's payloads between a table's bridge and the room as typed, versioned records
(dealerpi/wire/mqtt.py): a resend with a bad ``after`` is refused naming it (it was read as 0), a hand the
room cannot read is named key by key (``"seq": "3"`` was stored as 3), and a hand says its version."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import msgspec
import pytest

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.room.service import RoomService
from dealerpi.room.settings import Game, RoomSettings
from dealerpi.room.store import Store
from dealerpi.wire.broker import MqttSettings
from dealerpi.wire.mqtt import VERSION, CommandAnswer, HandPayload

PHH = 'variant = "NT"\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n' \
      'actions = ["d dh p1 AcAd", "d dh p2 KcKd", "p2 f"]\nhand = 1\nplayers = ["Ann", "Bob"]\n'


def test_a_resend_with_a_bad_after_is_refused_naming_it() -> None:
    bridge = TableBridge.__new__(TableBridge)
    answer = asyncio.run(bridge.command(b'{"id": "r1", "type": "resend", "after": "x"}', None))  # type: ignore[arg-type]
    assert answer == CommandAnswer(id="r1", accepted=False, reason="resend: Expected `int`, got `str` - at `after`")
    answer = asyncio.run(bridge.command(b'{"id": "r2", "type": "resend", "after": 0, "v": 2}', None))  # type: ignore[arg-type]
    assert answer == CommandAnswer(id="r2", accepted=False,
                                   reason="resend: version 2 is not spoken here (this table speaks 1)")


def test_the_room_stores_a_typed_hand_and_names_what_is_wrong_with_another(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state", MqttSettings("room"),
                            (Game("nlhe-1-2", ("t1",), 100),))
    store = Store(settings.database)
    try:
        service = RoomService(settings, store)
        good = HandPayload("t1", "s1", 1, 1, ["Ann", "Bob"], PHH)
        assert msgspec.to_builtins(good)["v"] == VERSION == 1
        service._store_hand("t1", msgspec.to_builtins(good))
        assert service.hands_stored == 1
        with caplog.at_level(logging.WARNING):
            service._store_hand("t1", {**msgspec.to_builtins(good), "seq": "2"})
            service._store_hand("t1", {**msgspec.to_builtins(good), "seq": 2, "colour": "red"})
        assert service.hands_stored == 1
        assert [r.getMessage() for r in caplog.records] == [
            "room: t1 sent a hand the room cannot store: Expected `int`, got `str` - at `seq`",
            "room: t1 sent a hand the room cannot store: Object contains unknown field `colour`"]
    finally:
        store.close()
