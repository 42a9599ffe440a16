"""The broadcast role's stream on the daemon's socket (issue 21, :mod:`dealerpi.broadcast_stream`) and the
delayed feed's status on the room's broker, as typed, versioned records (issue 22).

The stream carries the table as the engine writes it: a snapshot (:meth:`dealerpi.engine.table.Table.snapshot`)
and journal inputs, hole cards included. Their inner shape is the journal's (docs/journal.md), read by the
engine's own parsers (``Table.from_snapshot``, the inputs' parser), which name what is wrong with an
``InputError``: here they are JSON objects, and the envelope around them (where the journal ends, the clock,
the version) is typed. ``version`` in the hello's answer is the stream's version (it was there before ``v``
was added elsewhere, and the broadcast refuses another one with a sentence saying to update both).
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import UNSET, UnsetType

VERSION = 1

JsonObject = dict[str, object]      # a journal-format object: the engine's parser checks its keys


class Snapshot(msgspec.Struct, forbid_unknown_fields=True):
    """``Table.snapshot()``: the record before the last hand started and the inputs accepted since."""

    version: int
    state: JsonObject
    inputs: list[JsonObject]


class StreamHello(msgspec.Struct, forbid_unknown_fields=True):
    """The answer to ``hello`` as broadcast: the table now, where the journal ends (``[segment, offset]``,
    None for a one-file journal), the daemon's clock in milliseconds."""

    role: Literal["broadcast"]
    version: int
    snapshot: Snapshot
    position: tuple[int, int] | None
    ms: int


class StreamEvent(msgspec.Struct, forbid_unknown_fields=True):
    """The push after every accepted input: the input as journaled, the journal's end, the clock (ms)."""

    entry: JsonObject
    position: tuple[int, int] | None
    ms: int


class EventMessage(msgspec.Struct, forbid_unknown_fields=True):
    method: Literal["event"]
    params: StreamEvent


class FeedStatus(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``broadcast/<table>/status``, retained: the delayed feed's state for a countdown page: ``waiting``
    (no hand yet), ``filling`` (``seconds_left`` until on air) or ``on_air``; the delay in seconds."""

    state: Literal["waiting", "filling", "on_air"]
    delay_s: int
    seconds_left: int | UnsetType = UNSET
    v: int = VERSION


class StreamError(ValueError):
    """A stream message that is not its record; the text names the key."""


def read_stream(data: object, record: type[StreamHello] | type[StreamEvent]) -> StreamHello | StreamEvent:
    """``data`` (decoded JSON) as ``record``; :class:`StreamError` naming the key otherwise."""
    try:
        return msgspec.convert(data, record)
    except msgspec.ValidationError as error:
        raise StreamError(f"the daemon's {'hello' if record is StreamHello else 'event'}: "
                          f"{str(error).replace('`$.', '`')}") from None
