"""The table's side of the card room (issue 15): the console's bridge to a REAL mosquitto on 127.0.0.1, the
daemon's API on fake devices in the same loop (console_kit), the room's user listening to every topic."""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
from console_kit import SHOE, journal_lines, make
from journal_kit import scripted_session
from mqtt_kit import PREFIX, Broker, Listener, until

from dealerpi.console.mqtt_bridge import TableBridge
from dealerpi.journal.folder import KEEP_SEGMENTS
from dealerpi.views.render import dealer_lines
from dealerpi.webkit.mqtt import mqtt_client
from dealerpi.wire.broker import MqttSettings

pytestmark = pytest.mark.slow   # a real broker: 7 s

T = "t1"
STATE, AVAIL, HAND, SET, RESULT = (f"{PREFIX}/{T}", f"{PREFIX}/{T}/availability", f"{PREFIX}/{T}/hand",
                                   f"{PREFIX}/{T}/set", f"{PREFIX}/{T}/set/result")
HOLE = re.compile("|".join(SHOE[:6]))      # no word bounds: PHH writes a hand as one word, KdQc


def run(tmp_path: Path, body: Callable[[Broker, Any, Listener], Awaitable[None]], keep: int = KEEP_SEGMENTS) -> Any:
    config, controller, api = make(tmp_path)
    broker = Broker(tmp_path, [T, "t2"])
    broker.start()

    async def main() -> None:
        await api.start()
        bridge = TableBridge(broker.settings(T), api.path, config.journal, retry=0.1, keep=keep)
        task = asyncio.ensure_future(bridge.run())
        try:
            async with Listener(broker) as listener:
                await body(broker, controller, listener)
        finally:
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await api.stop()

    broker.run(main)
    return config


async def command(broker: Broker, listener: Listener, payload: dict[str, Any]) -> dict[str, Any]:
    """Publish a command as the room; the table's (next) answer to it."""
    def answered() -> list[dict[str, Any]]:
        return [json.loads(text) for topic, text, _ in listener.messages
                if topic == RESULT and json.loads(text).get("id") == payload["id"]]
    count = len(answered())
    async with mqtt_client(broker.settings("room")) as room:
        await room.publish(SET, json.dumps(payload), qos=1)
    await until(lambda: len(answered()) > count)
    return answered()[-1]


def do(controller: Any, entry: dict[str, Any]) -> None:
    """An input as the daemon takes one from a button: journaled, applied, the displays and views refreshed."""
    assert controller.submit(entry).accepted, entry
    controller.refresh()


async def seat_three(broker: Broker, listener: Listener, prefix: str = "sit") -> None:
    """Once the table is online: the room seats Ann, Bob and Cy at seats 1-3 with 250 each (ids PREFIX1-3)."""
    await until(lambda: listener.last(AVAIL) == "online")
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        await command(broker, listener, {"id": f"{prefix}{seat}", "type": "sit", "seat": seat, "player": name,
                                         "stack": 250})


async def play_hand_one(controller: Any) -> None:
    """Three seats, button 1 (BLD-1): SB seat 2, BB seat 3; the shoe deals SHOE[:6]; seat 1 and 2 fold."""
    do(controller, {"type": "start"})
    for uid in range(6):
        controller.on_card(f"T{uid:02d}")
    do(controller, {"type": "act", "seat": 1, "action": "fold"})
    do(controller, {"type": "act", "seat": 2, "action": "fold"})


def test_state_retained_commands_once_hands_after_the_hand_and_no_live_hole_card(tmp_path: Path) -> None:
    """Commands become journal inputs (rid room:ID); a command sent again is a duplicate, journaled once.
    The state on P/t1 is retained; hand 1's PHH comes when hand 2 starts (undo reaches back to the last
    start, no further: then it is final). Secrecy: no message before the hand event carries one of the six
    hole cards Kd 8c 5d Qc 9c 4s (SHOE[:6]); the hand event carries all six (the positive control)."""
    seen: dict[str, Any] = {}

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await until(lambda: listener.last(AVAIL) == "online" and listener.last(STATE) is not None)
        for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
            answer = await command(broker, listener, {"id": f"sit{seat}", "type": "sit", "seat": seat,
                                                      "player": name, "stack": 250})
            assert answer == {"id": f"sit{seat}", "accepted": True, "reason": None, "v": 1}
        again = await command(broker, listener, {"id": "sit1", "type": "sit", "seat": 1, "player": "Ann",
                                                 "stack": 250})
        assert again == {"id": "sit1", "accepted": True, "reason": None, "duplicate": True, "v": 1}
        refused = await command(broker, listener, {"id": "x1", "type": "act", "seat": 1, "action": "fold"})
        assert refused["accepted"] is False and "not a room command" in refused["reason"]
        await play_hand_one(controller)
        await until(lambda: listener.last(STATE)["seats"]["3"]["stack"] == 251)
        seen["before"] = list(listener.messages)
        do(controller, {"type": "start"})
        await until(lambda: listener.last(HAND) is not None)
        await until(lambda: listener.last(STATE)["hands"] == 1)
        seen["hand"] = listener.last(HAND)
        async with Listener(broker) as late:                   # a late subscriber gets the retained state
            await until(lambda: late.last(STATE) is not None and late.last(AVAIL) is not None)
            seen["retained"] = {t: (json.loads(text) if t == STATE else text, retained)
                                for t, text, retained in late.messages if t in (STATE, AVAIL)}

    config = run(tmp_path, body)
    rids = [line.get("rid") for line in journal_lines(config) if line.get("rid")]
    assert rids == ["room:sit1", "room:sit2", "room:sit3"]               # sit1 twice on MQTT, once in the journal
    assert all(line["by"] == "host" for line in journal_lines(config) if line.get("rid"))
    hand = seen["hand"]
    # the session name is a hex hash (of the journal's first line): "5d" in it is not Cy's card
    before = "".join(text for _, text, _ in seen["before"]).replace(hand["session"], "")
    assert hand["session"] and HOLE.findall(before) == []
    assert (hand["table"], hand["seq"], hand["number"], hand["players"]) == ("t1", 1, 1, ["Bob", "Cy", "Ann"])
    assert sorted(HOLE.findall(hand["phh"])) == sorted(SHOE[:6])          # the positive control
    assert "finishing_stacks = [249, 251, 250]" in hand["phh"]   # Bob posted SB 1, Cy BB 3 and took the 4
    state, retained = seen["retained"][STATE]
    assert retained and seen["retained"][AVAIL] == ("online", True)
    assert (state["table"], state["hands"], state["hand"], state["blinds"]) == ("t1", 1, 2, [1, 3])
    assert {s: (v["player"], v["stack"]) for s, v in state["seats"].items()} == \
        {"1": ("Ann", 247), "2": ("Bob", 249), "3": ("Cy", 250)}   # hand 2: button 2, Cy 251 - SB 1, Ann 250 - BB 3


def test_broker_killed_and_back_the_table_republishes_and_resends_the_missed_hand(tmp_path: Path) -> None:
    """Fault: the broker dies mid-session and comes back (no persistence: it forgot everything). Hand 1
    becomes final while it is down; on its return the table says online again, publishes its state
    (hands: 1) and, asked with resend after 0, the hand. A command the room re-sends after the outage
    (it never saw the answer) is a duplicate: applied once."""

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await seat_three(broker, listener, "s")
        await play_hand_one(controller)
        broker.kill()
        do(controller, {"type": "start"})              # hand 1 is final: nobody hears it
        await asyncio.sleep(0.3)
        broker.start()
        async with Listener(broker) as late:
            await until(lambda: late.last(STATE) is not None and late.last(STATE)["hands"] == 1, 10)
            assert late.last(AVAIL) == "online"
            assert late.last(HAND) is None
            async with mqtt_client(broker.settings("room")) as room:
                await room.publish(SET, json.dumps({"id": "r1", "type": "resend", "after": 0}), qos=1)
            await until(lambda: late.last(HAND) is not None)
            assert late.last(HAND)["seq"] == 1 and late.last(HAND)["players"] == ["Bob", "Cy", "Ann"]
            again = await command(broker, late, {"id": "s2", "type": "sit", "seat": 2, "player": "Bob",
                                                 "stack": 250})
            assert again == {"id": "s2", "accepted": True, "reason": None, "duplicate": True, "v": 1}

    config = run(tmp_path, body)
    assert [line["rid"] for line in journal_lines(config) if line.get("rid")] == ["room:s1", "room:s2", "room:s3"]


def test_resend_inside_the_bridges_window_and_what_a_room_asking_for_older_hands_gets(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A bridge keeping 2 hands (as it keeps as many as the journal folder keeps segments). Four hands final
    (seq 1-4, each published as it became final; the fifth started). ``resend after 2`` publishes seq 3
    and 4 again, exactly those; ``resend after 0`` can only publish seq 3 and 4 too (1 and 2 are no longer
    kept) and a WARNING names hands 1 to 2 as lost; ``count`` stays 4 in the state."""
    script = scripted_session(seed=5, hands=5)

    def hands(listener: Listener) -> list[int]:
        return [json.loads(text)["seq"] for topic, text, _ in listener.messages if topic == HAND]

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await until(lambda: listener.last(AVAIL) == "online")
        for entry in script[1:]:
            do(controller, entry)
        await until(lambda: hands(listener) == [1, 2, 3, 4] and listener.last(STATE)["hands"] == 4)
        for after, marker in ((2, "x1"), (0, "x2")):
            before = len(hands(listener))
            async with mqtt_client(broker.settings("room")) as room:
                await room.publish(SET, json.dumps({"id": f"r{after}", "type": "resend", "after": after}), qos=1)
            await command(broker, listener, {"id": marker, "type": "act", "seat": 1, "action": "fold"})
            assert hands(listener)[before:] == [3, 4], after       # answered after the resend's hands
        assert listener.last(STATE)["hands"] == 4

    with caplog.at_level(logging.WARNING, logger="dealerpi.console.mqtt_bridge"):
        run(tmp_path, body, keep=2)
    lost = [r.getMessage() for r in caplog.records if "older than" in r.getMessage()]
    assert len(lost) == 1 and lost[0].startswith("room bridge: the room asks for hands 1 to 2 of session ")
    assert lost[0].endswith("older than the last 2 this console keeps; it can have them no more")


def test_an_idle_table_publishes_its_state_again_to_a_restarted_broker(tmp_path: Path) -> None:
    """Fault: the broker dies and comes back having forgotten its retained messages, and nothing changes at
    the table meanwhile: the bridge's new connection still publishes the state and "online" (a restarted
    room learns the table from them). With the jobs of the old connection left running, one of them took
    the change signal and the table stayed unknown."""

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await until(lambda: listener.last(AVAIL) == "online" and listener.last(STATE) is not None)
        broker.kill()
        await asyncio.sleep(0.3)
        broker.start()
        async with Listener(broker) as late:
            await until(lambda: late.last(STATE) is not None and late.last(AVAIL) == "online", 10)
            assert late.last(STATE)["table"] == T and late.last(STATE)["hands"] == 0

    run(tmp_path, body)


def test_acl_refuses_a_table_publishing_under_another_tables_topics(tmp_path: Path) -> None:
    """Broker security: t2's credentials may publish under dealerpi/t2 but not dealerpi/t1 (mosquitto drops
    the denied publish); the room's own listener is the witness, t2's own topic the positive control. A
    wrong password is refused at CONNECT."""

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await until(lambda: listener.last(AVAIL) == "online")
        async with mqtt_client(broker.settings("t2")) as t2:
            await t2.publish(STATE, json.dumps({"table": "forged"}), qos=1, retain=True)
            await t2.publish(SET, json.dumps({"id": "forged", "type": "leave", "seat": 1}), qos=1)
            await t2.publish(f"{PREFIX}/t2", json.dumps({"table": "t2"}), qos=1, retain=True)
        await until(lambda: listener.last(f"{PREFIX}/t2") == {"table": "t2"})
        assert all("forged" not in text for _, text, _ in listener.messages)
        bad = broker.settings("t2")
        (tmp_path / "wrong").write_text("not-the-password\n")
        try:
            async with mqtt_client(type(bad)(bad.name, bad.host, bad.port, bad.prefix, tmp_path / "wrong")):
                raise AssertionError("connected with a wrong password")
        except aiomqtt.MqttError as exc:
            # MQTT 3.1.1 CONNACK return code 5, which paho 2 reports as reason code 135
            assert str(exc) == "[code:135] Not authorized"

    run(tmp_path, body)


def test_mqtt_section_of_the_table_config_and_its_errors(tmp_path: Path) -> None:
    """``[mqtt]`` in the table's config (docs/room.md): the table's name is its topic level and broker user;
    a bad one is named by file and key, and ``room`` is the room's."""
    from daemon_kit import CONFIG

    from dealerpi.config import ConfigError, load

    path = tmp_path / "table.toml"
    path.write_text(CONFIG + '\n[mqtt]\nname = "t1"\nhost = "192.168.1.5"\npassword_file = "t1.password"\n')
    mqtt = load(path).mqtt
    assert mqtt is not None
    assert (mqtt.name, mqtt.host, mqtt.port, mqtt.prefix, mqtt.password_file) == \
        ("t1", "192.168.1.5", 1883, "dealerpi", tmp_path / "t1.password")
    path.write_text(CONFIG + '\n[mqtt]\nname = "room"\nport = 70000\ntls = true\n')
    try:
        load(path)
        raise AssertionError("a bad [mqtt] loaded")
    except ConfigError as exc:
        assert exc.errors == [
            f"{path}: mqtt.tls: unknown key (expected one of: host, port, prefix, password_file, tls_ca, name)",
            f"{path}: mqtt.name: a table's name is 1-32 of a-z, 0-9, _ and - (not 'room'), not 'room'",
            f"{path}: mqtt.port: must be a port number 1-65535, not 70000"]


def test_the_console_runs_the_bridge_beside_its_pages_only_with_mqtt(tmp_path: Path) -> None:
    """``dealerpi console``'s hook (with_bridge): with ``[mqtt]`` the table comes online on the broker while
    the pages are served and the bridge stops with them, saying offline (a clean disconnect sends no last
    will); without it only the pages run."""
    import dataclasses

    from dealerpi.console.mqtt_bridge import with_bridge

    config, _controller, api = make(tmp_path)
    broker = Broker(tmp_path, [T])
    broker.start()
    served: list[str] = []

    async def main() -> None:
        await api.start()
        async with Listener(broker) as listener:
            async def pages() -> None:                 # stands for the console's serve(): until the table is on
                await until(lambda: listener.last(AVAIL) == "online")
                served.append("with")
            await asyncio.wait_for(with_bridge(dataclasses.replace(config, mqtt=broker.settings(T)), pages()), 10)
            await until(lambda: listener.last(AVAIL) == "offline")    # said on a clean stop (no will then)
            count = len(listener.messages)

            async def alone() -> None:
                served.append("without")
            await with_bridge(config, alone())
            await asyncio.sleep(0.3)
            assert len(listener.messages) == count     # no bridge: nothing more on the broker
        await api.stop()

    broker.run(main)
    assert served == ["with", "without"]


def test_trn5_pause_and_resume_commands_hold_the_table_between_hands_once_each(tmp_path: Path) -> None:
    """TRN-5 hand-for-hand through the bridge: after hand 1 the room's ``pause`` is journaled (rid room:p1) and
    the dealer's START is refused naming TRN-5; the same command sent again is a duplicate, not a second
    pause; after ``resume`` (room:r1) START deals hand 2. The journal has each rid once."""
    seen: dict[str, Any] = {}

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await seat_three(broker, listener)
        await play_hand_one(controller)
        pause = {"id": "p1", "type": "pause", "reason": "hand-for-hand"}
        assert await command(broker, listener, pause) == {"id": "p1", "accepted": True, "reason": None, "v": 1}
        assert await command(broker, listener, pause) == \
            {"id": "p1", "accepted": True, "reason": None, "duplicate": True, "v": 1}
        seen["start"] = controller.submit({"type": "start"})
        resume = {"id": "r1", "type": "resume"}
        assert await command(broker, listener, resume) == {"id": "r1", "accepted": True, "reason": None, "v": 1}
        do(controller, {"type": "start"})
        seen["hand"] = controller.table.hand_number

    config = run(tmp_path, body)
    assert not seen["start"].accepted
    assert seen["start"].reason == "TRN-5: the table is paused (hand-for-hand): no hand starts until it is resumed"
    assert seen["hand"] == 2
    rids = [line["rid"] for line in journal_lines(config) if line.get("rid", "").startswith("room:")]
    assert rids == ["room:sit1", "room:sit2", "room:sit3", "room:p1", "room:r1"]


def test_trn5_a_pause_after_the_hand_is_taken_through_the_bridge_during_the_hand(tmp_path: Path) -> None:
    """TRN-5 through the bridge and the daemon's socket: the room's ``pause`` with ``after_hand`` 1 arrives
    during hand 1 and is journaled (the socket refuses nothing a hand is in); the hand's last fold holds the
    table, so the dealer's START right after it is refused naming TRN-5; the room's ``resume`` with
    ``pause_after`` 2 lets hand 2 start, and the view says the pause waits for hand 2."""
    seen: dict[str, Any] = {}

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await seat_three(broker, listener)
        do(controller, {"type": "start"})
        for uid in range(6):
            controller.on_card(f"T{uid:02d}")
        pause = {"id": "p1", "type": "pause", "reason": "hand-for-hand", "after_hand": 1}
        seen["pause"] = await command(broker, listener, pause)
        seen["pausing"] = controller.table.pausing
        do(controller, {"type": "act", "seat": 1, "action": "fold"})
        do(controller, {"type": "act", "seat": 2, "action": "fold"})
        seen["start"] = controller.submit({"type": "start"})
        resume = {"id": "r1", "type": "resume", "pause_after": 2}
        seen["resume"] = await command(broker, listener, resume)
        do(controller, {"type": "start"})
        seen["hand"] = controller.table.hand_number
        await until(lambda: (listener.last(STATE) or {}).get("pausing") is not None
                    and listener.last(STATE)["hand"] == 2)
        seen["state"] = listener.last(STATE)

    config = run(tmp_path, body)
    assert seen["pause"] == {"id": "p1", "accepted": True, "reason": None, "v": 1}
    assert seen["pausing"] == ("hand-for-hand", 1)
    assert (seen["start"].accepted, seen["start"].reason) == \
        (False, "TRN-5: the table is paused (hand-for-hand): no hand starts until it is resumed")
    assert seen["resume"] == {"id": "r1", "accepted": True, "reason": None, "v": 1} and seen["hand"] == 2
    assert (seen["state"]["paused"], seen["state"]["pausing"]) == (None, {"reason": "hand-for-hand",
                                                                          "after_hand": 2})
    room = [{k: v for k, v in line.items() if k in ("type", "after_hand", "pause_after", "rid")}
            for line in journal_lines(config) if line.get("type") in ("pause", "resume")]
    assert room == [{"type": "pause", "after_hand": 1, "rid": "room:p1"},
                    {"type": "resume", "pause_after": 2, "rid": "room:r1"}]


def test_the_rooms_announcement_on_the_dealer_display_and_in_the_tables_view_not_journaled(tmp_path: Path) -> None:
    """The director's announcement (docs/room.md) through the bridge and the daemon's socket: accepted, on the
    dealer display ("ROOM: ..." among its lines) and in the table's retained state, which the room reads back;
    not a journal input (nothing journaled for it). Cleared by an empty text. Too long (141 characters):
    refused with the daemon's reason, the display unchanged."""
    seen: dict[str, Any] = {}

    async def body(broker: Broker, controller: Any, listener: Listener) -> None:
        await seat_three(broker, listener)
        seen["inputs"] = controller.journal.count
        said = {"id": "a1", "type": "announce", "text": "Break in 5 minutes"}
        assert await command(broker, listener, said) == {"id": "a1", "accepted": True, "reason": None, "v": 1}
        await until(lambda: (listener.last(STATE) or {}).get("announcement") == "Break in 5 minutes")
        seen["shown"] = dealer_lines(controller.dealer_view())
        long = await command(broker, listener, {"id": "a2", "type": "announce", "text": "x" * 141})
        seen["long"] = long
        seen["after long"] = controller.dealer_view().notes
        assert await command(broker, listener, {"id": "a3", "type": "announce", "text": ""}) == \
            {"id": "a3", "accepted": True, "reason": None, "v": 1}
        await until(lambda: (listener.last(STATE) or {}).get("announcement") is None)
        seen["cleared"] = controller.dealer_view().notes
        seen["inputs after"] = controller.journal.count

    run(tmp_path, body)
    lines = list(seen["shown"])                                  # wrapped to the display's width
    assert lines[lines.index("ROOM: Break in 5"): lines.index("ROOM: Break in 5") + 2] == ["ROOM: Break in 5",
                                                                                          "  minutes"]
    assert seen["long"]["accepted"] is False and "140" in seen["long"]["reason"]
    assert seen["after long"] == ("ROOM: Break in 5 minutes",)
    assert seen["cleared"] == ()
    assert seen["inputs after"] == seen["inputs"]               # display only: the journal has no line for it


def test_a_bridge_that_dies_stops_the_console_with_one_line_and_an_error_logged(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """A fault is never hidden (issue 23's VM run: the bridge died on IsADirectoryError and nothing was logged
    while the pages went on, so the room got no hand and nobody knew). The bridge's task ending with an error
    ends the console at once: ERROR in the log (the journal gets the details), one line naming the command on
    stderr and exit status 1, so its unit's Restart=on-failure starts it again. No broker is needed: the
    bridge fails before it connects."""
    import dataclasses

    from dealerpi.console import mqtt_bridge
    from dealerpi.webkit.running import run_until_signal

    config, _controller, _api = make(tmp_path)
    settings = dataclasses.replace(config, mqtt=MqttSettings(T, "127.0.0.1", 1, "dealerpi", tmp_path / "pw", None))

    async def broken(self: mqtt_bridge.TableBridge) -> None:
        raise IsADirectoryError(21, "Is a directory", str(tmp_path / "journal"))

    async def pages_forever() -> None:
        await asyncio.sleep(3600)

    monkeypatch.setattr(mqtt_bridge.TableBridge, "run", broken)
    with caplog.at_level(logging.ERROR, logger="dealerpi.console.mqtt_bridge"):
        status = run_until_signal(mqtt_bridge.with_bridge(settings, pages_forever()), "dealerpi console")
    assert status == 1
    assert [r.getMessage() for r in caplog.records if r.levelno == logging.ERROR] == [
        f"room bridge stopped: [Errno 21] Is a directory: '{tmp_path / 'journal'}'; the console stops so that "
        "its unit starts it again"]
