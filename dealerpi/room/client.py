"""An aiomqtt client (on paho-mqtt) for a table's bridge or the room, from :class:`MqttSettings`.

The broker user is the client's name, so the ACL's ``pattern`` lines (``%u``, mosquitto.conf(5)) give each
table its own topics. TLS: a ``tls_ca`` file makes a verifying TLS context (docs/room.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import Coroutine
from typing import Any

import aiomqtt

from dealerpi.room.broker import MqttSettings

KEEPALIVE = 15       # seconds: the broker sends the last will ~1.5 keepalives after a table vanishes (MQTT 3.1.1)


def mqtt_client(settings: MqttSettings, *, will: aiomqtt.Will | None = None,
                clean_session: bool = True) -> aiomqtt.Client:
    tls = ssl.create_default_context(cafile=str(settings.tls_ca)) if settings.tls_ca is not None else None
    return aiomqtt.Client(settings.host, settings.port, username=settings.name, password=settings.password(),
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
