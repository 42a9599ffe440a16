"""The ``broadcast`` role of the daemon's local API: the table's inputs, hole cards included, as they are applied.

Issue 21. A streamed table needs every card the moment it is dealt; that is exactly what must not leak. The
broadcast process (``dealerpi broadcast``, :mod:`dealerpi.broadcast`) is the one reader of this stream, over
the daemon's Unix socket only (the daemon stays off the network). Both ends import this module: it defines
the messages (versioned) and who may say ``hello`` as broadcast.

Messages (framing as the console's, :mod:`dealerpi.console.protocol`):

- ``hello`` ``{"role": "broadcast"}`` is answered ``{"role", "version", "snapshot", "position", "ms"}``: the
  table now as :meth:`Table.snapshot` (the record before the last start and the inputs since), where the
  journal ends (``[segment, byte offset]``, as :func:`dealerpi.journal_folder.read_new` counts; None for a
  single-file journal) and the daemon's wall clock in milliseconds.
- then, after every input the table accepted, ``{"method": "event", "params": {"entry", "position", "ms"}}``:
  the input as journaled, the journal's end after it, and the time the table applied it. Refused inputs
  are not sent (they changed nothing). The role sends nothing: every request after its hello is refused.

Who may connect as broadcast: stricter than the host. Any member of the ``dealerpi`` group may reach the
socket and say ``hello`` as host (the socket is 0660 in a 0750 directory). The broadcast role is granted
only to a peer whose user id (``SO_PEERCRED``, checked by the kernel, not claimed by the client) is the
``dealerpi-broadcast`` system user or the daemon's own user (who reads the journal, hole cards and all,
anyway). The console's user, which faces the network, can never receive a live hole card this way.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import socket
import struct
import time
from collections.abc import Callable
from typing import Any

ROLE = "broadcast"
VERSION = 1
BROADCAST_USER = "dealerpi-broadcast"     # the unit's User= (systemd/dealerpi-broadcast.service)


def peer_uid(sock: socket.socket | None) -> int | None:
    """The user id of the process at the other end of a Unix socket, from the kernel (``SO_PEERCRED``)."""
    if sock is None or sock.family != socket.AF_UNIX:
        return None
    data = sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    _pid, uid, _gid = struct.unpack("3i", data)
    return int(uid)


def allowed_uids() -> set[int]:
    """The daemon's own user and, where it exists, ``dealerpi-broadcast``."""
    uids = {os.geteuid()}
    with contextlib.suppress(KeyError):            # no such user on a laptop
        uids.add(pwd.getpwnam(BROADCAST_USER).pw_uid)
    return uids


def refusal(uid: int | None) -> str | None:
    """None when a peer with ``uid`` may be the broadcast, else why not (sent to the peer)."""
    if uid is not None and uid in allowed_uids():
        return None
    return (f"the broadcast role is for the {BROADCAST_USER} user or the daemon's own (this connection's user "
            f"id is {uid}): docs/broadcast.md")


def position(journal: Any) -> list[int] | None:
    """Where the journal ends: [live segment, its byte length] for a journal folder, else None."""
    number = getattr(journal, "number", None)
    inner = getattr(journal, "journal", None)
    if not isinstance(number, int) or inner is None:
        return None
    return [number, int(inner.size)]


def now_ms(wall: Callable[[], float] = time.time) -> int:
    return int(wall() * 1000)


def hello_result(snapshot: dict[str, Any], journal: Any, wall: Callable[[], float]) -> dict[str, Any]:
    return {"role": ROLE, "version": VERSION, "snapshot": snapshot, "position": position(journal),
            "ms": now_ms(wall)}


def event(entry: Any, journal: Any, wall: Callable[[], float]) -> dict[str, Any]:
    """The push after an accepted input."""
    return {"method": "event", "params": {"entry": dict(entry), "position": position(journal), "ms": now_ms(wall)}}
