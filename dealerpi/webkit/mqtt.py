"""An aiomqtt client (on paho-mqtt) for a table's bridge or the room, from :class:`MqttSettings`.

The broker user is the client's name, so the ACL's ``pattern`` lines (``%u``, mosquitto.conf(5)) give each
table its own topics. TLS: a ``tls_ca`` file makes a verifying TLS context (docs/room.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Coroutine
from types import TracebackType
from typing import Any

import aiomqtt

from dealerpi.wire.broker import MqttSettings

KEEPALIVE = 15       # seconds: the broker sends the last will ~1.5 keepalives after a table vanishes (MQTT 3.1.1)


class Client(aiomqtt.Client):
    """aiomqtt's client, whose exit takes the error of an unexpected disconnection (issue 15).

    When the broker goes away, aiomqtt (2.5.1, client.py ``_on_disconnect``) sets the error on the future
    ``_disconnected``. Only the message iterator and a failing ``publish`` read it; ``__aexit__`` returns early
    without reading it. So when the connection's jobs ended otherwise (a ``publish`` refused before the
    disconnection was seen, a ``publish`` timing out, the iterator cancelled by ``together``), nobody read it, and
    when the client was collected asyncio logged "Future exception was never retrieved" (a fault said after the
    fact, with no one to act on it). Upstream's fix makes ``__aexit__`` read and raise it (empicano/aiomqtt
    PR #375, "raise disconnect error from failure point", not in 2.5.1). Here the exit reads it and lets the
    error the jobs raised (already an MqttError the caller logs) or the cancellation go on: raising the
    disconnection's error instead would turn a console's cancellation into a reconnect."""

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        try:
            await super().__aexit__(exc_type, exc, tb)
        finally:
            lost = getattr(self, "_disconnected", None)    # tests/room/test_mqtt_disconnect.py: if it moves
            if isinstance(lost, asyncio.Future) and lost.done() and not lost.cancelled():
                lost.exception()          # read: the caller's MqttError already says the connection was lost


def mqtt_client(settings: MqttSettings, *, will: aiomqtt.Will | None = None,
                clean_session: bool = True) -> aiomqtt.Client:
    tls = ssl.create_default_context(cafile=str(settings.tls_ca)) if settings.tls_ca is not None else None
    return Client(settings.host, settings.port, username=settings.name, password=settings.password(),
                  identifier=f"{settings.prefix}-{settings.name}", will=will, clean_session=clean_session,
                  tls_context=tls, keepalive=KEEPALIVE, timeout=10)


async def together(*jobs: Coroutine[Any, Any, None]) -> None:
    """Run ``jobs`` on one connection until one of them ends (the broker went away: an MqttError) or this
    is cancelled; then the others are cancelled too. ``asyncio.gather`` would leave them running on the
    dead client: one waiting for a change would take it from the next connection's job (an idle table then
    never published its state to a restarted broker) and fail later with nobody to hear it."""
    tasks = [asyncio.ensure_future(job) for job in jobs]
    try:
        await asyncio.gather(*tasks)
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


async def say_offline(client: aiomqtt.Client, topic: str) -> None:
    """Publish ``offline`` (retained) before a clean disconnect, which the broker does not answer with the
    last will; a broker already gone is no error here."""
    with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
        await asyncio.wait_for(client.publish(topic, "offline", qos=1, retain=True), 2)
