"""The delayed feed to a card room's broker (issue 21, optional): ``broadcast/<table>/status`` and
``broadcast/<table>/frame``, both retained, with the table's own broker login.

Only what the delayed feed has released goes there (the same messages as the overlay's WebSocket), so the
broker never holds a hole card sooner than the overlay shows it. The room's ACL lets a table write under
``broadcast/<its user>/`` and only the room read ``broadcast/#`` (:mod:`dealerpi.room.acl`). The client id is
the table's with ``-broadcast`` (the console's bridge has the table's own: the broker would drop one of two
clients with the same id). After a broker outage the retained status and latest frame are sent again.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
from typing import Any

import aiomqtt
import msgspec

from dealerpi.webkit.mqtt import KEEPALIVE
from dealerpi.wire.broker import MqttSettings
from dealerpi.wire.records import RecordError, convert
from dealerpi.wire.stream import BroadcastFrame, FeedStatus

_LOGGER = logging.getLogger(__name__)

RETRY_SECONDS = 2.0
QUEUED = 1000                 # messages waiting for a broker that is away: the oldest go first


class Publisher:
    """Fed by the server with each delayed-feed message; :meth:`run` publishes until cancelled."""

    def __init__(self, settings: MqttSettings, retry: float = RETRY_SECONDS) -> None:
        self.settings, self.retry = settings, retry
        self.topic = f"broadcast/{settings.name}"
        self.latest: dict[str, dict[str, Any]] = {}      # "status", "frame": what a reconnection sends again
        self._queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    def put(self, message: dict[str, Any]) -> None:
        self.latest[message["type"]] = message
        if self._queue.qsize() >= QUEUED:
            self._queue.get_nowait()
        self._queue.put_nowait(message)

    async def run(self) -> None:
        said = False
        while True:
            try:
                async with self._client() as client:
                    _LOGGER.info("publishing the delayed feed to %s:%d under %s/", self.settings.host,
                                 self.settings.port, self.topic)
                    said = False
                    for message in list(self.latest.values()):
                        await self._publish(client, message)
                    while True:
                        await self._publish(client, await self._queue.get())
            except aiomqtt.MqttError as error:
                if not said:
                    _LOGGER.warning("the room's broker %s:%d: %s; retrying every %.0f s", self.settings.host,
                                    self.settings.port, error, self.retry)
                    said = True
            await asyncio.sleep(self.retry)

    def _client(self) -> aiomqtt.Client:
        settings = self.settings
        tls = ssl.create_default_context(cafile=str(settings.tls_ca)) if settings.tls_ca is not None else None
        return aiomqtt.Client(settings.host, settings.port, username=settings.name, password=settings.password(),
                              identifier=f"{settings.prefix}-{settings.name}-broadcast", tls_context=tls,
                              keepalive=KEEPALIVE, timeout=10)

    async def _publish(self, client: aiomqtt.Client, message: dict[str, Any]) -> None:
        """The status and the frame as their typed records (``wire/stream.py``: ``FeedStatus``,
        ``BroadcastFrame``, each with its version ``v``). One that is not its record is this process's bug:
        said with the key named, and not published (the broker keeps the last good one)."""
        kind = message["type"]
        try:
            record = convert(message[kind], FeedStatus if kind == "status" else BroadcastFrame)
        except RecordError as error:
            _LOGGER.error("the delayed feed's %s is not its record, not published: %s", kind, error)
            return
        await client.publish(f"{self.topic}/{kind}", msgspec.json.encode(record), qos=1, retain=True)
