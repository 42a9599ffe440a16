"""The broadcast's connection to the table daemon: ``hello`` as broadcast, then the pushed events; again after
a loss (the daemon restarted), catching up from the journal (:meth:`BroadcastSession.connected`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from pathlib import Path

from dealerpi.broadcast.session import BroadcastSession
from dealerpi.wire.broadcast import ROLE, VERSION
from dealerpi.wire.protocol import Decoder, ProtocolError, encode
from dealerpi.wire.stream import StreamError, StreamEvent, StreamHello, read_stream

_LOGGER = logging.getLogger(__name__)

RETRY_SECONDS = 2.0


class HelloRefused(RuntimeError):
    """The daemon refused the broadcast role (the message says why): retrying would not help."""


async def follow(socket_path: Path, session: BroadcastSession, connected: asyncio.Event | None = None) -> None:
    """Follow the daemon until cancelled; a lost connection is retried every :data:`RETRY_SECONDS`."""
    said_offline = False
    while True:
        try:
            await _follow_once(socket_path, session, connected)
            said_offline = False
        except HelloRefused:
            raise
        except (OSError, ProtocolError) as exc:
            if not said_offline:
                _LOGGER.warning("the table daemon's socket %s: %s; retrying every %.0f s", socket_path, exc,
                                RETRY_SECONDS)
                said_offline = True
        if connected is not None:
            connected.clear()
        await asyncio.sleep(RETRY_SECONDS)


async def _follow_once(socket_path: Path, session: BroadcastSession, connected: asyncio.Event | None) -> None:
    reader, writer = await asyncio.open_unix_connection(str(socket_path))
    try:
        writer.write(encode({"id": 1, "method": "hello", "params": {"role": ROLE}}))
        await writer.drain()
        decoder = Decoder()
        while data := await reader.read(65536):
            for message in decoder.feed(data):
                if message.get("id") == 1:
                    if "error" in message:
                        raise HelloRefused(str(message["error"].get("message")))
                    result = message["result"]
                    if result.get("version") != VERSION:
                        raise HelloRefused(f"the daemon speaks broadcast version {result.get('version')}, this "
                                           f"process {VERSION}: update both")
                    try:              # the envelope typed (wire/stream.py); the snapshot is the engine's to read
                        read_stream(result, StreamHello)
                    except StreamError as error:
                        raise HelloRefused(str(error)) from None
                    session.connected(result)
                    _LOGGER.info("following the table daemon at %s", socket_path)
                    if connected is not None:
                        connected.set()
                elif message.get("method") == "event":
                    try:
                        read_stream(message.get("params"), StreamEvent)
                    except StreamError as error:      # reconnect: the catch-up reads the journal itself
                        _LOGGER.error("%s; the connection is dropped and the table caught up", error)
                        raise ProtocolError(str(error)) from None
                    session.on_event(message["params"])
    finally:
        writer.close()
        with contextlib.suppress(ConnectionError):
            await writer.wait_closed()
