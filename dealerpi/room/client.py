"""An aiomqtt client (on paho-mqtt) for a table's bridge or the room, from :class:`MqttSettings`.

The broker user is the client's name, so the ACL's ``pattern`` lines (``%u``, mosquitto.conf(5)) give each
table its own topics. TLS: a ``tls_ca`` file makes a verifying TLS context (docs/room.md).
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl

import aiomqtt

from dealerpi.room.broker import MqttSettings

KEEPALIVE = 15       # seconds: the broker sends the last will ~1.5 keepalives after a table vanishes (MQTT 3.1.1)


def mqtt_client(settings: MqttSettings, *, will: aiomqtt.Will | None = None,
                clean_session: bool = True) -> aiomqtt.Client:
    tls = ssl.create_default_context(cafile=str(settings.tls_ca)) if settings.tls_ca is not None else None
    return aiomqtt.Client(settings.host, settings.port, username=settings.name, password=settings.password(),
                          identifier=f"{settings.prefix}-{settings.name}", will=will, clean_session=clean_session,
                          tls_context=tls, keepalive=KEEPALIVE, timeout=10)


async def say_offline(client: aiomqtt.Client, topic: str) -> None:
    """Publish ``offline`` (retained) before a clean disconnect, which the broker does not answer with the
    last will; a broker already gone is no error here."""
    with contextlib.suppress(aiomqtt.MqttError, TimeoutError):
        await asyncio.wait_for(client.publish(topic, "offline", qos=1, retain=True), 2)
