"""Issue 15: after the broker is killed, no "Future exception was never retrieved" (asyncio's report of an error
nobody read). aiomqtt 2.5.1 sets an unexpected disconnection's error on the client's ``_disconnected`` future and
its ``__aexit__`` does not read it (dealerpi/webkit/mqtt.py, ``Client``); our client's exit does.

The test kills a real mosquitto under a connected client that is not reading messages (as the bridge's
``_publish`` job when it is the one that fails first), waits until the client has seen the disconnection, leaves
the ``async with``, drops the client and collects it; the loop's exception handler records what asyncio reports.
With aiomqtt's own ``aiomqtt.Client`` in place of ``mqtt_client`` it records exactly one report, "Future exception
was never retrieved" (checked by hand when this was fixed); with ours, none.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from pathlib import Path
from typing import Any

import aiomqtt
import pytest
from mqtt_kit import Broker, until

from dealerpi.webkit.mqtt import mqtt_client

pytestmark = pytest.mark.slow   # a real broker


async def lose_the_broker(broker: Broker) -> None:
    """Connect, kill the broker, wait until the client has seen it, leave; the client goes with this frame."""
    client: Any = mqtt_client(broker.settings("t1"))
    with contextlib.suppress(aiomqtt.MqttError):
        async with client:
            broker.kill()
            await until(lambda: client._disconnected.done())         # the client saw the broker go
    # an unexpected disconnection (its repr: reading ``exception()`` here would be the very read under test)
    assert "exception=MqttCodeError('Unexpected disconnection')" in repr(client._disconnected)


def reports_after_broker_kill(tmp_path: Path) -> list[str]:
    broker = Broker(tmp_path, ["t1"])
    broker.start()
    reports: list[str] = []

    async def main() -> None:
        asyncio.get_running_loop().set_exception_handler(lambda _, context: reports.append(context["message"]))
        await lose_the_broker(broker)
        gc.collect()

    broker.run(main)
    return reports


def test_a_killed_broker_leaves_no_unread_error(tmp_path: Path) -> None:
    assert reports_after_broker_kill(tmp_path) == []
