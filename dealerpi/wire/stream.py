"""The broadcast role's stream on the daemon's socket (issue 21, :mod:`dealerpi.wire.broadcast`) and the
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

from dealerpi.wire.records import RecordError, convert
from dealerpi.wire.views import Action, NextHand, Pausing, Pot, SeatLine, Tournament, Winner

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


class Shares(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A live hand's equity (``broadcast/odds.py``); hi-lo's high, low and scoop shares; a Monte Carlo stderr."""

    equity: float
    high: float | UnsetType = UNSET
    low: float | UnsetType = UNSET
    scoop: float | UnsetType = UNSET
    stderr: float | UnsetType = UNSET


class PlayerStats(msgspec.Struct, forbid_unknown_fields=True):
    hands: int
    vpip: int
    pfr: int


class FrameSeat(SeatLine, kw_only=True):
    """A seat on the delayed feed: its hole cards face up (the delay is the secrecy), folded, its stack in
    big blinds, its equity and the room's statistics of its player."""

    folded: bool
    bb: float | None
    equity: Shares | None
    stats: PlayerStats | UnsetType | None = UNSET


class ToCall(msgspec.Struct, forbid_unknown_fields=True):
    seat: int
    to_call: int
    words: list[str]


class FrameResult(msgspec.Struct, forbid_unknown_fields=True):
    number: int
    winners: list[Winner]


class ActionClock(msgspec.Struct, forbid_unknown_fields=True):
    """TRN-2: the clock on the seat to act: seconds left, the final countdown, its time banks left."""

    seat: int
    remaining: int
    final: bool
    banks_left: int


class BroadcastFrame(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``broadcast/<table>/frame``, retained: the delayed feed's frame (``broadcast/frames.py``): the board
    view's keys (``console/views.public_view``), the hands face up and what the overlay draws."""

    ms: int
    hand: int
    game: str | None
    blinds: list[int] | None
    board: list[list[str]]
    pots: list[Pot]
    payouts: list[tuple[int, int]]
    seats: dict[str, FrameSeat]
    in_hand: bool
    paused: str | None
    pausing: Pausing | None
    last_blinds: list[int | None]
    next_hand: NextHand | None
    starting_stacks: list[tuple[int, int]]
    bust_by: dict[str, list[int]]
    tournament: Tournament | None
    action: Action | None
    board_labels: list[str]
    bomb: bool
    result: FrameResult | None
    break_in: int | None
    dead: list[str]                      # the cards out of the deck the table has seen: the "true outs"
    reveal: bool                         # TDA R16: an all-in's hands face up
    to_call: ToCall | None
    last_action: str | None
    button: int | None
    outs: dict[str, list[str]] | None
    clock: ActionClock | None
    exact: bool | UnsetType = UNSET      # the equities enumerated, not sampled
    v: int = VERSION


class StreamError(ValueError):
    """A stream message that is not its record; the text names the key."""


def read_stream(data: object, record: type[StreamHello] | type[StreamEvent]) -> StreamHello | StreamEvent:
    """``data`` (decoded JSON) as ``record``; :class:`StreamError` naming the key otherwise."""
    try:
        return convert(data, record)
    except RecordError as error:
        raise StreamError(f"the daemon's {'hello' if record is StreamHello else 'event'}: {error}") from None
