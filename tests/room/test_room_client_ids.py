"""Issue 20 defect 7: a table's credentials cannot throw the room off the broker. MQTT hands a client id to
the newest connection (MQTT 3.1.1, 3.1.4: the server disconnects the existing client); with fixed ids
(``dealerpi-room``) t2's user connecting as ``dealerpi-room`` took the room's connection and the broker
published the room's last will. ``dealerpi room broker-files`` writes mosquitto's ``use_username_as_clientid
true`` with the listener (mosquitto.conf(5)), so every client's id is its user name: a real mosquitto, the
same connection tried with and without it (the positive control: the takeover happens without it)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import aiomqtt
import pytest
from mqtt_kit import PREFIX, Broker, Listener, until

from dealerpi.webkit.mqtt import mqtt_client

pytestmark = pytest.mark.slow   # a real broker: 1 s

AVAIL = f"{PREFIX}/room/availability"


@pytest.mark.parametrize("bound", [True, False])
def test_a_tables_credentials_as_the_rooms_client_id_do_not_take_the_room_over(tmp_path: Path, bound: bool) -> None:
    """The room is online (its will: ``offline``, retained). t2's user connects with the id
    ``dealerpi-room`` and publishes its state. Bound ids: the room keeps its connection (its next publish is
    acknowledged and heard) and its availability never reads ``offline``. Without: the broker hands the id
    to t2's connection, drops the room's and publishes the room's will, ``offline``."""
    broker = Broker(tmp_path, ["t1", "t2"], bind_ids=bound)
    broker.start()

    async def main() -> None:
        async with Listener(broker) as listener:
            will = aiomqtt.Will(AVAIL, "offline", qos=1, retain=True)
            async with mqtt_client(broker.settings("room"), will=will) as room:
                await room.publish(AVAIL, "online", qos=1, retain=True)
                await until(lambda: listener.last(AVAIL) == "online")
                t2 = broker.settings("t2")
                async with aiomqtt.Client("127.0.0.1", broker.port, username="t2", password=t2.password(),
                                          identifier=f"{PREFIX}-room") as impostor:
                    await impostor.publish(f"{PREFIX}/t2", '{"marker": 1}', qos=1)
                    await until(lambda: listener.last(f"{PREFIX}/t2") == {"marker": 1})
                    if not bound:
                        await until(lambda: listener.last(AVAIL) == "offline")
                        return
                    await room.publish(AVAIL, "online again", qos=1, retain=True)
                    await until(lambda: listener.last(AVAIL) == "online again")
                    assert [t for name, t, _ in listener.messages if name == AVAIL] == ["online", "online again"]
    broker.run(main)


def test_broker_files_write_the_listener_with_ids_bound_to_users(tmp_path: Path) -> None:
    """``dealerpi room broker-files`` writes ``dealerpi.conf`` for mosquitto's conf.d: the listener, then
    ``use_username_as_clientid true`` (a listener's option: it follows the ``listener`` line), no anonymous
    client, the password and ACL files it wrote."""
    folder = tmp_path / "broker"
    done = subprocess.run([sys.executable, "-m", "dealerpi", "room", "broker-files", str(folder), "t1"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert f"mosquitto's configuration: {folder / 'dealerpi.conf'}" in done.stdout
    assert (folder / "dealerpi.conf").read_text().splitlines() == [
        "# DealerPi card room (docs/room.md)", "listener 1883 0.0.0.0", "use_username_as_clientid true",
        "allow_anonymous false", f"password_file {folder / 'passwd'}", f"acl_file {folder / 'acl'}",
        "persistence true"]
