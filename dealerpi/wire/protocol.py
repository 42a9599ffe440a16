"""The daemon's local API: framing, roles, and views sent as changes. Shared by both ends of the socket.

Framing follows Klipper's API server (klipper3d.org/API_Server.html): each message is one JSON object ended
by an ASCII 0x03 byte, requests are ``{"id": 7, "method": "input", "params": {...}}`` and are answered by
``{"id": 7, "result": {...}}`` or ``{"id": 7, "error": {"message": ...}}``; the daemon also pushes
``{"method": "view", "params": {...}}`` messages (no id) to a connection that said ``hello``.

Roles (issue 14): the connection's ``hello`` names one of :data:`ROLES`; the daemon sends that role's view and
accepts only that role's inputs (:data:`ROLE_INPUTS`). The console process maps tokens to roles; the daemon
enforces them again, so a board or dealer connection cannot do a host's input whatever the page sends.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from dealerpi.wire.limits import LimitError, read_json

TERMINATOR = b"\x03"
MAX_MESSAGE = 64 * 1024            # no request is near this; a longer one is refused and the connection closed

ROLES = ("host", "dealer", "board")
# The virtual-hardware panel of a daemon on fake devices (dealerpi.sim.panel): the host's inputs and view,
# plus the fake buttons, displays, LEDs and shoe. Not a token's role: the console opens it for a host token.
PANEL = "panel"

# The deal (manual card, irregularities, undo, showdown, clock): the dealer's, and the host's too.
DEALER_INPUTS = frozenset({"start", "card", "exposed", "boxed", "burn", "extra", "dead", "misdeal", "run",
                           "show", "muck", "clock", "undo"})
# Seats, stakes and the hand's extras: the host's only (and the room's, which sends as the host); colour_up:
# TRN-6, the race's plan at a colour-up break and its result (room/director/money.py). ``act`` comes from the seat
# buttons and ``tick`` from the daemon's clock, never from a page.
HOST_INPUTS = DEALER_INPUTS | {"table", "sit", "leave", "move", "away", "back", "chips", "button", "straddle",
                               "pause", "resume", "colour_up"}
ROLE_INPUTS: Mapping[str, frozenset[str]] = {"host": HOST_INPUTS, "dealer": DEALER_INPUTS, "board": frozenset(),
                                             PANEL: HOST_INPUTS}
# Inputs that change or end the hand at once: the page asks first, and the request says so.
CONFIRMED = frozenset({"undo", "misdeal", "dead"})


class ProtocolError(ValueError):
    """A message that is not a JSON object, or longer than :data:`MAX_MESSAGE`."""


def encode(message: Mapping[str, Any]) -> bytes:
    """One message, framed. msgspec's encoder: the same bytes as ``json.dumps`` with compact separators and
    UTF-8, at 3 to 10 % of its time on the views sent at every press (bench/bench_wire.py)."""
    return msgspec.json.encode(message) + TERMINATOR


class Decoder:
    """Bytes in, whole messages out (a message may arrive in pieces, or several in one read).

    ``max_message`` caps one message: the daemon reads requests with :data:`MAX_MESSAGE`; the console reads
    the daemon's views with None, no cap (issue 22, probe 6: a long evening's ledger passed 64 KiB and the
    host's page went offline). The daemon is the trusted end of that socket and the size of a view is the
    evening's; the depth limit (:mod:`dealerpi.wire.limits`) holds both ways, checked before parsing."""

    def __init__(self, max_message: int | None = MAX_MESSAGE) -> None:
        self._buffer = b""
        self.max_message = max_message

    def feed(self, data: bytes) -> list[dict[str, Any]]:
        """The whole messages in ``data``; the first bad one raises :class:`ProtocolError`."""
        messages = []
        for message in self.feed_each(data):
            if isinstance(message, ProtocolError):
                raise message
            messages.append(message)
        return messages

    def feed_each(self, data: bytes) -> list[dict[str, Any] | ProtocolError]:
        """Each whole message in ``data``, or the :class:`ProtocolError` that refuses it: a bad message is
        answered and the next one read (the connection stays). An unterminated message past the cap raises:
        nothing after it can be framed."""
        self._buffer += data
        *frames, self._buffer = self._buffer.split(TERMINATOR)
        limit = self.max_message
        if limit is not None and len(self._buffer) > limit:
            raise ProtocolError(f"a message longer than {limit} bytes")
        messages: list[dict[str, Any] | ProtocolError] = []
        for frame in frames:
            try:
                message = read_json(frame, "a message", limit if limit is not None else len(frame))
            except LimitError as exc:
                messages.append(ProtocolError(str(exc)))
                continue
            messages.append(message if isinstance(message, dict) else ProtocolError("a message is a JSON object"))
        return messages


def may_send(role: str, kind: object) -> str | None:
    """None when ``role`` may send an input of type ``kind``, else why not (for the page)."""
    if role not in ROLE_INPUTS:
        return f"unknown role {role!r}: one of {', '.join(ROLES)}"
    if kind not in ROLE_INPUTS[role]:
        return f"a {role} cannot send {kind!r} inputs"
    return None


APPEND = "$append"     # no key of a view starts with "$": {"$append": [...]} is never a value of its own


def changes(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``before`` to ``after``, two levels deep: a section that is an object sends only its
    changed keys (a seat, say); any other section is sent whole. A list in a section that only grew at its
    end is sent as ``{"$append": [the new items]}``: the session ledger's events and players grow all
    evening (issue 22, probe 6: 175 KB at 720 players, sent again at every buy-in). :func:`merge` undoes it."""
    diff: dict[str, Any] = {}
    for key, value in after.items():
        old = before.get(key)
        if value == old and key in before:
            continue
        if isinstance(value, dict) and isinstance(old, dict):
            inner = {k: _grown(old.get(k), v) for k, v in value.items() if k not in old or old[k] != v}
            inner.update({k: None for k in old if k not in value})
            diff[key] = inner
        else:
            diff[key] = value
    return diff


def _grown(old: object, new: object) -> object:
    """``new``, or only its items past ``old`` when ``new`` is ``old`` with items added at the end."""
    if isinstance(old, list) and isinstance(new, list) and len(new) > len(old) and new[:len(old)] == old:
        return {APPEND: new[len(old):]}
    return new


def merge(view: dict[str, Any], diff: Mapping[str, Any]) -> dict[str, Any]:
    """Apply :func:`changes` to ``view`` (in place, and returned); a key set to null inside a section is gone;
    ``{"$append": items}`` extends the list it names."""
    for key, value in diff.items():
        if isinstance(value, dict) and isinstance(view.get(key), dict):
            section = view[key]
            for inner, item in value.items():
                if item is None:
                    section.pop(inner, None)
                elif isinstance(item, dict) and item.keys() == {APPEND} and isinstance(section.get(inner), list):
                    section[inner] = section[inner] + item[APPEND]
                else:
                    section[inner] = item
        else:
            view[key] = value
    return view
