"""The ``broadcast`` role of the daemon's local API: the table's inputs, hole cards included, as they are applied.

Issue 21. A streamed table needs every card the moment it is dealt; that is exactly what must not leak. The
broadcast process (``dealerpi broadcast``, :mod:`dealerpi.broadcast`) is the one reader of this stream, over
the daemon's Unix socket only (the daemon stays off the network). Both ends import this module: it defines
the messages (versioned) and who may say ``hello`` as broadcast.

Messages (framing as the console's, :mod:`dealerpi.wire.protocol`):

- ``hello`` ``{"role": "broadcast"}`` is answered ``{"role", "version", "snapshot", "position", "ms"}``: the
  table now as :meth:`Table.snapshot` (the record before the last start and the inputs since), where the
  journal ends (``[segment, byte offset]``, as :func:`dealerpi.journal.folder.read_new` counts; None for a
  single-file journal) and the daemon's wall clock in milliseconds.
- then, after every input the table accepted, ``{"method": "event", "params": {"entry", "position", "ms"}}``:
  the input as journaled, the journal's end after it, and the time the table applied it. Refused inputs
  are not sent (they changed nothing). The role sends nothing: every request after its hello is refused.

Who may connect as broadcast: stricter than the host. Any member of the ``dealerpi`` group may reach the
socket and say ``hello`` as host (the socket is 0660 in a 0750 directory). The broadcast role is granted
only to a peer running as the daemon's own user, by the user id the kernel gives for the peer
(``SO_PEERCRED``, unix(7); not a claim of the client), and that user reads the journal, hole cards and all,
anyway. The console's user, which faces the network, can never receive a live hole card this way.

Why not a user of its own: the daemon's unit has ``PrivateUsers=yes``, which maps root and the unit's own
user and group to themselves and every other user to ``nobody`` (systemd.exec(5), PrivateUsers=), and
``SO_PEERCRED`` gives the peer's ids as seen from the daemon's user namespace: a ``dealerpi-broadcast``
user would look like ``nobody``, as the console's does. So the broadcast's unit runs as ``dealerpi`` with a
read-only view of the system (ProtectSystem=strict; systemd/dealerpi-broadcast.service, docs/broadcast.md).
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import struct
from collections.abc import Callable
from typing import Any, Literal

import msgspec

from dealerpi.wire.protocol import TERMINATOR
from dealerpi.wire.stream import EventMessage, Snapshot, StreamEvent, StreamHello

_LOGGER = logging.getLogger(__name__)

ROLE: Literal["broadcast"] = "broadcast"
VERSION = 1


def peer_uid(sock: socket.socket | None) -> int | None:
    """The user id of the process at the other end of a Unix socket, from the kernel (``SO_PEERCRED``)."""
    if sock is None or sock.family != socket.AF_UNIX:
        return None
    data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", data)
    return int(uid)


def refusal(uid: int | None) -> str | None:
    """None when a peer with ``uid`` may be the broadcast, else why not (sent to the peer)."""
    if uid is not None and uid == os.geteuid():
        return None
    return (f"the broadcast role is for the table daemon's own user (this connection's user id is {uid}): "
            "docs/broadcast.md")


def position(journal: Any) -> list[int] | None:
    """Where the journal ends: [live segment, its byte length] for a journal folder, else None."""
    number = getattr(journal, "number", None)
    inner = getattr(journal, "journal", None)
    if not isinstance(number, int) or inner is None:
        return None
    return [number, int(inner.size)]


def _at(journal: Any) -> tuple[int, int] | None:
    at = position(journal)
    return None if at is None else (at[0], at[1])


def hello_result(snapshot: dict[str, Any], journal: Any, wall: Callable[[], float]) -> dict[str, Any]:
    """The answer to the hello: the table now, where the journal ends, the daemon's clock (ms); built as its
    record (:class:`dealerpi.wire.stream.StreamHello`, which the broadcast reads)."""
    record = StreamHello(ROLE, VERSION, msgspec.convert(snapshot, Snapshot), _at(journal), int(wall() * 1000))
    said: dict[str, Any] = msgspec.to_builtins(record)
    return said


def event(entry: Any, journal: Any, wall: Callable[[], float]) -> EventMessage:
    """The push after an accepted input: the input as journaled, the journal's end, the daemon's clock (ms)."""
    return EventMessage("event", StreamEvent(dict(entry), _at(journal), int(wall() * 1000)))


def hello(writer: asyncio.StreamWriter | None, snapshot: Callable[[], dict[str, Any]], journal: Any,
          wall: Callable[[], float]) -> dict[str, Any]:
    """The daemon's answer to a hello as broadcast on the connection ``writer``: the table now (``snapshot``),
    or the refusal when the peer is not the daemon's own user (logged)."""
    sock = writer.get_extra_info("socket") if writer is not None else None
    if (refused := refusal(peer_uid(sock))) is not None:
        _LOGGER.warning("local API: refused a broadcast hello: %s", refused)
        return {"error": {"message": refused}}
    return {"result": hello_result(snapshot(), journal, wall)}


def send(writers: list[asyncio.StreamWriter], entry: Any, journal: Any, wall: Callable[[], float],
         max_backlog: int) -> list[asyncio.StreamWriter]:
    """The accepted input to every broadcast connection; those that stopped reading (more than ``max_backlog``
    bytes unread) are closed and returned: the broadcast reconnects and catches up from the journal."""
    if not writers:
        return []
    message = msgspec.json.encode(event(entry, journal, wall)) + TERMINATOR
    stuck = []
    for writer in writers:
        transport = writer.transport
        if transport.is_closing() or transport.get_write_buffer_size() > max_backlog:
            _LOGGER.warning("local API: dropping a broadcast client that stopped reading (it reconnects and "
                            "catches up from the journal)")
            writer.close()
            stuck.append(writer)
            continue
        writer.write(message)
    return stuck
