"""Issue 22: every payload between a table and the room, and the broadcast's, is a typed, versioned record
(dealerpi/wire/mqtt.py, dealerpi/wire/stream.py): the table's state on ``P/T``, the room's commands on
``P/T/set``, their answers on ``P/T/set/result``, the feed's status on ``broadcast/T/status``, the broadcast
role's stream. Each refuses a wrong type and an unknown key naming it and another version; the positive
controls are payloads as the senders build them (the state from a real daemon's board view)."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from typing import Any

import msgspec
import pytest
from console_kit import make

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.room.service import RoomService
from dealerpi.room.settings import Game, RoomSettings
from dealerpi.room.store import Store
from dealerpi.wire import mqtt
from dealerpi.wire.broker import MqttSettings
from dealerpi.wire.stream import FeedStatus, StreamError, StreamEvent, StreamHello, read_stream

COUNTS = {"table": "t1", "session": "s1", "hands": 0, "first": 1}


def board_state(tmp_path: Path) -> dict[str, Any]:
    """``P/T`` as the bridge publishes it: a real daemon's board view (three players seated) and the counts."""
    _config, controller, api = make(tmp_path)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        assert controller.submit({"type": "sit", "seat": seat, "player": name, "stack": 250, "by": "host"}).accepted
    bridge = TableBridge.__new__(TableBridge)
    bridge.name = "t1"
    bridge.view = json.loads(json.dumps(api.view("board")))
    bridge.final = _NoHands()   # type: ignore[assignment]
    said: dict[str, Any] = json.loads(bridge.state())
    return said


class _NoHands:
    session, count, hands = "s1", 0, ()


def test_the_bridges_state_is_the_board_view_and_the_counts_and_reads_as_its_record(tmp_path: Path) -> None:
    state = board_state(tmp_path)
    record = mqtt.read(state, mqtt.TableState)
    assert (record.table, record.session, record.hands, record.first, record.v) == ("t1", "s1", 0, 1, 1)
    assert [record.seats[s].player for s in ("1", "2", "3")] == ["Ann", "Bob", "Cy"]
    assert "alerts" not in state and "expect" not in state              # the board's view: public only
    with pytest.raises(mqtt.PayloadError) as caught:
        mqtt.read({**state, "hands": "0"}, mqtt.TableState)
    assert str(caught.value) == "Expected `int`, got `str` - at `hands`"
    with pytest.raises(mqtt.PayloadError) as caught:
        mqtt.read({**state, "alerts": []}, mqtt.TableState)
    assert str(caught.value) == "Object contains unknown field `alerts`"
    with pytest.raises(mqtt.PayloadError) as caught:
        mqtt.read({**state, "v": 2}, mqtt.TableState)
    assert str(caught.value) == "version 2 is not spoken here (this table speaks 1)"


def test_the_counts_alone_while_the_daemon_is_away() -> None:
    bridge = TableBridge.__new__(TableBridge)
    bridge.name, bridge.view, bridge.final = "t1", None, _NoHands()   # type: ignore[assignment]
    assert json.loads(bridge.state()) == {**COUNTS, "v": 1}
    assert mqtt.read({**COUNTS, "v": 1}, mqtt.TableCounts) == mqtt.TableCounts(**COUNTS)    # type: ignore[arg-type]
    for bad, why in (({**COUNTS, "first": None}, "Expected `int`, got `null` - at `first`"),
                     ({**COUNTS, "seats": {}}, "Object contains unknown field `seats`"),
                     ({**COUNTS, "v": 0}, "version 0 is not spoken here (this table speaks 1)")):
        with pytest.raises(mqtt.PayloadError) as caught:
            mqtt.read(bad, mqtt.TableCounts)
        assert str(caught.value) == why


def test_the_room_refuses_a_state_it_cannot_read_and_keeps_the_last_one(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state", MqttSettings("room"),
                            (Game("nlhe-1-2", ("t1",), 100),))
    store = Store(settings.database)
    try:
        service = RoomService(settings, store)
        good = board_state(tmp_path)
        asyncio.run(service.receive(None, "t1", "state", json.dumps(good)))   # type: ignore[arg-type]
        assert service.tables["t1"].state == good                           # positive control
        with caplog.at_level(logging.WARNING):
            asyncio.run(service.receive(None, "t1", "state",  # type: ignore[arg-type]
                                        json.dumps({**good, "seats": {"1": {**good["seats"]["1"], "stack": "9"}}})))
        assert service.tables["t1"].state == good
        assert [r.getMessage() for r in caplog.records] == [
            "room: t1's state refused: Expected `int`, got `str` - at `seats[...].stack`"]
    finally:
        store.close()


SENT: list[dict[str, Any]] = [
    {"type": "sit", "seat": 1, "player": "Ann", "stack": 250}, {"type": "leave", "seat": 1},
    {"type": "away", "seat": 2}, {"type": "back", "seat": 2, "post": True}, {"type": "move", "seat": 1, "to": 3},
    {"type": "chips", "seat": 1, "amount": 500}, {"type": "button", "seat": 2},
    {"type": "pause", "reason": "hand-for-hand", "after_hand": 4}, {"type": "resume", "pause_after": 5},
    {"type": "colour_up", "remove": 5, "chip": 25, "won": [1, 3]},
    {"type": "table", "game": "nlhe", "rules": "tournament", "seats": 9, "blinds": [25, 50],
     "levels": [{"blinds": [25, 50], "minutes": 20}, {"break": True, "minutes": 5}], "payouts": [50, 30, 20],
     "policies": {"tournament": True, "clock_seconds": 60}},
    {"type": "announce", "text": "Break in 5 minutes"}, {"type": "resend", "after": 3}]


@pytest.mark.parametrize("payload", SENT, ids=[p["type"] for p in SENT])
def test_each_room_command_is_its_record_and_refuses_a_wrong_type_and_an_unknown_key(payload: dict[str, Any]) -> None:
    encoded = mqtt.command("c1", payload)                                     # as the room sends it
    sent = json.loads(encoded)
    assert sent == {**payload, "id": "c1", "v": 1}
    record = mqtt.read_command(sent)
    if payload["type"] not in ("announce", "resend"):
        assert mqtt.journal_input(record) == payload                         # the input the daemon gets
    key = next(k for k in payload if k != "type")
    with pytest.raises(mqtt.PayloadError) as caught:
        mqtt.read_command({**sent, key: {"a": 1}})
    assert str(caught.value).startswith("Expected `")
    assert str(caught.value).endswith(f", got `object` - at `{key}`")
    with pytest.raises(mqtt.PayloadError) as caught:
        mqtt.read_command({**sent, "shoe": {"boot": "b", "seq": 1}})
    assert str(caught.value) == "Object contains unknown field `shoe`"
    with pytest.raises(mqtt.PayloadError) as caught:
        mqtt.read_command({**sent, "v": 2})
    assert str(caught.value) == "version 2 is not spoken here (this table speaks 1)"


def test_the_bridge_answers_a_command_that_is_not_its_record_naming_the_key() -> None:
    bridge = TableBridge.__new__(TableBridge)
    sit = json.dumps({"id": "c1", "type": "sit", "seat": 1, "player": "Ann", "stack": 250, "after_hand": True})
    answer = asyncio.run(bridge.command(sit.encode(), None))  # type: ignore[arg-type]   # refused: no client use
    assert answer == mqtt.CommandAnswer(id="c1", accepted=False,
                                        reason="sit: Object contains unknown field `after_hand`")
    chips = b'{"id": "c2", "type": "chips", "seat": 1, "amount": "500"}'
    answer = asyncio.run(bridge.command(chips, None))  # type: ignore[arg-type]
    why = "chips: Expected `int`, got `str` - at `amount`"
    assert answer == mqtt.CommandAnswer(id="c2", accepted=False, reason=why)
    assert json.loads(msgspec.json.encode(answer)) == {"id": "c2", "accepted": False, "reason": why, "v": 1}


def test_the_room_refuses_to_send_its_own_command_that_a_table_cannot_read(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The sender's check: a command the director built wrong is said, answered refused in the store (the
    director sees it) and never published nor resent."""
    settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "state", MqttSettings("room"),
                            (Game("nlhe-1-2", ("t1",), 100),))
    store = Store(settings.database)
    try:
        service = RoomService(settings, store)
        store.add_command("c1", "t1", {"type": "sit", "seat": 1, "player": "Ann", "stack": 250})
        store.add_command("c2", "t1", {"type": "sit", "seat": "1", "player": "Bob", "stack": 250})
        sent = service._encoded("c1", "t1", {"type": "sit", "seat": 1, "player": "Ann", "stack": 250})
        assert sent is not None and json.loads(sent)["id"] == "c1"
        with caplog.at_level(logging.ERROR):
            assert service._encoded("c2", "t1", {"type": "sit", "seat": "1", "player": "Bob", "stack": 250}) is None
        why = "the room's sit command is not one a table reads: Expected `int`, got `str` - at `seat`"
        assert [r.getMessage() for r in caplog.records] == [f"room: command c2 to t1: {why}"]
        assert store.command_answer("c2") == {"id": "c2", "accepted": False, "reason": why}
        assert [cid for cid, _, _ in store.unanswered()] == ["c1"]
    finally:
        store.close()


def test_a_command_answer_refuses_a_wrong_type_an_unknown_key_and_another_version() -> None:
    good = {"id": "c1", "accepted": True, "reason": None, "duplicate": True, "v": 1}
    assert mqtt.read(good, mqtt.CommandAnswer) == mqtt.CommandAnswer(id="c1", accepted=True, reason=None,
                                                                    duplicate=True)
    for bad, why in (({**good, "accepted": "yes"}, "Expected `bool`, got `str` - at `accepted`"),
                     ({**good, "alerts": []}, "Object contains unknown field `alerts`"),
                     ({**good, "v": 3}, "version 3 is not spoken here (this table speaks 1)")):
        with pytest.raises(mqtt.PayloadError) as caught:
            mqtt.read(bad, mqtt.CommandAnswer)
        assert str(caught.value) == why


def test_the_feeds_status_and_the_broadcast_stream_are_records() -> None:
    assert msgspec.json.decode(msgspec.json.encode(msgspec.convert({"state": "filling", "seconds_left": 44,
                                                                    "delay_s": 60}, FeedStatus))) == \
        {"state": "filling", "delay_s": 60, "seconds_left": 44, "v": 1}
    with pytest.raises(msgspec.ValidationError, match=r"Invalid enum value 'paused' - at `\$.state`"):
        msgspec.convert({"state": "paused", "delay_s": 60}, FeedStatus)
    hello = {"role": "broadcast", "version": 1, "snapshot": {"version": 1, "state": {}, "inputs": []},
             "position": [3, 120], "ms": 1000}
    assert read_stream(hello, StreamHello) == msgspec.convert(hello, StreamHello)
    for bad, why in (({**hello, "ms": 1.5}, "the daemon's hello: Expected `int`, got `float` - at `ms`"),
                     ({**hello, "cards": []}, "the daemon's hello: Object contains unknown field `cards`"),
                     ({**hello, "snapshot": {"version": 1, "state": {}}},
                      "the daemon's hello: Object missing required field `inputs` - at `snapshot`")):
        with pytest.raises(StreamError) as caught:
            read_stream(bad, StreamHello)
        assert str(caught.value) == why
    event = {"entry": {"type": "card", "card": "Kd"}, "position": None, "ms": 5}
    assert read_stream(event, StreamEvent) == StreamEvent({"type": "card", "card": "Kd"}, None, 5)
    with pytest.raises(StreamError) as caught:
        read_stream({**event, "position": [1]}, StreamEvent)
    assert str(caught.value) == "the daemon's event: Expected `array` of length 2, got 1 - at `position`"


def test_the_delayed_feeds_frame_is_its_record_and_a_bad_one_is_not_published(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """``broadcast/T/frame``: a real table's delayed frame mid-hand (hole cards face up: the delay is its
    secrecy, issue 21) reads as ``BroadcastFrame``; the publisher encodes it with ``v`` and refuses, naming
    the key, a frame that is not the record, publishing nothing."""
    from dealerpi.broadcast.frames import broadcast_frame
    from dealerpi.broadcast.mqtt import Publisher
    from dealerpi.wire.stream import BroadcastFrame

    _config, controller, _api = make(tmp_path)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        assert controller.submit({"type": "sit", "seat": seat, "player": name, "stack": 250, "by": "host"}).accepted
    assert controller.submit({"type": "start", "by": "host"}).accepted
    for tag in range(6):
        controller.on_card(f"T{tag:02d}")
    frame = json.loads(json.dumps(broadcast_frame(controller.table, 1000)))
    record = msgspec.convert(frame, BroadcastFrame)                                   # positive control
    assert record.ms == 1000 and record.v == 1
    assert [len(record.seats[s].cards) for s in ("1", "2", "3")] == [2, 2, 2]
    published: list[tuple[str, bytes]] = []

    class Client:
        async def publish(self, topic: str, body: bytes, qos: int, retain: bool) -> None:
            published.append((topic, body))

    publisher = Publisher(MqttSettings("t1"))
    asyncio.run(publisher._publish(Client(), {"type": "frame", "frame": frame}))    # type: ignore[arg-type]
    assert [(topic, json.loads(body)) for topic, body in published] == [("broadcast/t1/frame", {**frame, "v": 1})]
    bad = {**frame, "seats": {**frame["seats"], "1": {**frame["seats"]["1"], "equity": "40%"}}}
    with caplog.at_level(logging.ERROR):
        asyncio.run(publisher._publish(Client(), {"type": "frame", "frame": bad}))   # type: ignore[arg-type]
        asyncio.run(publisher._publish(Client(), {"type": "frame", "frame": {**frame, "hole": {}}}))  # type: ignore[arg-type]
    assert len(published) == 1
    assert [r.getMessage() for r in caplog.records] == [
        "the delayed feed's frame is not its record, not published: Expected `object | null`, got `str` - at "
        "`seats[...].equity`",
        "the delayed feed's frame is not its record, not published: Object contains unknown field `hole`"]
