"""What a table's bridge and the room say to each other on the broker, as typed, versioned records.

Zigbee2MQTT types every topic's payload and versions its bridge's messages; ours were dicts written on one
side and read key by key, laxly, on the other (a hand's ``"seq": "3"`` was stored as 3, a resend's
``"after": "x"`` read as 0). Here each is one ``msgspec.Struct`` both sides use: the bridge encodes it, the
room decodes it (:func:`read`), unknown keys and wrong types refused with the key named. ``v`` is the
payload's version; a payload without one is version 1 (every table before it was added).

Topics are :class:`dealerpi.wire.broker.Topics`; the commands that become journal inputs are checked key by
key by the table's daemon (:mod:`dealerpi.wire.inputs`).
"""

from __future__ import annotations

from typing import Annotated, Literal, TypeVar

import msgspec

VERSION = 1

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=48)]
_R = TypeVar("_R", bound=msgspec.Struct)


class Resend(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``P/T/set``: the room asks for the hands after the ``after``-th again (docs/room.md)."""

    id: CommandId
    type: Literal["resend"]
    after: Annotated[int, msgspec.Meta(ge=0)] = 0
    v: int = VERSION


class HandPayload(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``P/T/hand``: a finished hand, its place in the table's session and its PHH."""

    table: str
    session: str
    seq: int                     # 1, 2, ... in the session: the room asks for the ones it lacks by it
    number: int                  # the table's hand number
    players: list[str]
    phh: str
    v: int = VERSION


class PayloadError(ValueError):
    """A payload that is not its record; the text names the key."""


def read(data: object, record: type[_R]) -> _R:
    """``data`` (decoded JSON) as ``record``, of this version; :class:`PayloadError` otherwise."""
    try:
        value = msgspec.convert(data, record)
    except msgspec.ValidationError as error:
        raise PayloadError(str(error).replace("`$.", "`")) from None
    version = getattr(value, "v", VERSION)
    if version != VERSION:
        raise PayloadError(f"version {version} is not spoken here (this table speaks {VERSION})")
    return value
