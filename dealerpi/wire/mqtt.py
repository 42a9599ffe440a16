"""What a table's bridge and the room say to each other on the broker, as typed, versioned records.

Zigbee2MQTT types every topic's payload and versions its bridge's messages; ours were dicts written on one
side and read key by key, laxly, on the other (a hand's ``"seq": "3"`` was stored as 3, a resend's
``"after": "x"`` read as 0). Here each is one ``msgspec.Struct`` both sides use: the bridge encodes it, the
room decodes it (:func:`read`), unknown keys and wrong types refused with the key named. ``v`` is the
payload's version; a payload without one is version 1 (every table before it was added).

Topics are :class:`dealerpi.wire.broker.Topics`. The table's state on ``P/T`` is its board view
(:class:`dealerpi.wire.views.BoardView`, its ``v`` the views' version) with the bridge's hand counts
(:class:`TableState`), or the counts alone while its daemon is away (:class:`TableCounts`); the room's
commands on ``P/T/set`` are one record per ``type`` (:data:`Command`, a tagged union: msgspec picks the
record by the ``type`` key, jcristharif.com/msgspec/structs.html "Tagged Unions"), their keys those the
daemon lets a sender write (:mod:`dealerpi.wire.inputs`, which the daemon checks again); each is answered on
``P/T/set/result`` by a :class:`CommandAnswer`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from dealerpi.wire.records import RecordError, convert, unspoken
from dealerpi.wire.views import BoardView, TableSettings

VERSION = 1

CommandId = Annotated[str, msgspec.Meta(min_length=1, max_length=48)]
_R = TypeVar("_R", bound=msgspec.Struct)


class HandPayload(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``P/T/hand``: a finished hand, its place in the table's session and its PHH."""

    table: str
    session: str
    seq: int                     # 1, 2, ... in the session: the room asks for the ones it lacks by it
    number: int                  # the table's hand number
    players: list[str]
    phh: str
    v: int = VERSION


class TableCounts(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``P/T`` while the table's daemon is away: the bridge's hand counts only (the room keeps the players it
    last saw, marked stale)."""

    table: str
    session: str
    hands: int                   # the session's finished hands the bridge has
    first: int                   # the oldest it can still send (the room records the ones before as lost)
    v: int = VERSION


class TableState(BoardView, kw_only=True):
    """``P/T``, retained: the table's board view (public: no hole card, no alert) and the hand counts."""

    table: str
    session: str
    hands: int
    first: int


class CommandAnswer(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """``P/T/set/result``: a command's answer. ``id`` None: a command without a usable id; ``retry``: the
    daemon did not answer, the room sends the command again; ``duplicate``: its id was applied before."""

    id: str | None
    accepted: bool
    reason: str | None
    retry: bool | UnsetType = UNSET
    duplicate: bool | UnsetType = UNSET
    v: int = VERSION


# --- the room's commands on P/T/set: one record per type ------------------------------------------------------

class _Command(msgspec.Struct, forbid_unknown_fields=True, kw_only=True, tag_field="type"):
    id: CommandId
    v: int = VERSION


class _Seated(_Command, kw_only=True):
    seat: int


class Sit(_Seated, kw_only=True, tag="sit"):
    player: str
    stack: int | UnsetType = UNSET
    reserved: bool | UnsetType = UNSET
    post: bool | UnsetType = UNSET


class Leave(_Seated, kw_only=True, tag="leave"):
    pass


class Away(_Seated, kw_only=True, tag="away"):
    pass


class Back(_Seated, kw_only=True, tag="back"):
    post: bool | UnsetType = UNSET
    player: str | UnsetType = UNSET


class Move(_Seated, kw_only=True, tag="move"):
    to: int
    wait: bool | UnsetType = UNSET
    post: bool | UnsetType = UNSET


class Chips(_Seated, kw_only=True, tag="chips"):
    amount: int


class Button(_Seated, kw_only=True, tag="button"):
    pass


class Pause(_Command, kw_only=True, tag="pause"):
    reason: str | UnsetType = UNSET
    after_hand: int | UnsetType = UNSET        # TRN-5: hold from the end of this hand (hand for hand)


class Resume(_Command, kw_only=True, tag="resume"):
    pause_after: int | UnsetType = UNSET
    reason: str | UnsetType = UNSET


class ColourUp(_Command, kw_only=True, tag="colour_up"):
    """TRN-6: the race's plan at a colour-up break (``plan``), then its result (``won``: the seats)."""

    remove: int
    chip: int
    won: list[int] | UnsetType = UNSET
    plan: bool | UnsetType = UNSET


class Table(TableSettings, kw_only=True, tag_field="type", tag="table"):
    """The stakes and the game: a ``table`` input's settings (:class:`dealerpi.wire.views.TableSettings`)."""

    id: CommandId
    v: int = VERSION


class Announce(_Command, kw_only=True, tag="announce"):
    """The director's announcement for the dealer display (not a journal input; "": none)."""

    text: str


class ResendCommand(_Command, kw_only=True, tag="resend"):
    after: Annotated[int, msgspec.Meta(ge=0)] = 0


Command = Sit | Leave | Away | Back | Move | Chips | Button | Pause | Resume | ColourUp | Table | Announce | \
    ResendCommand
COMMAND_TYPES = ("sit", "leave", "away", "back", "move", "chips", "button", "pause", "resume", "colour_up", "table",
                 "announce", "resend")


def read_command(data: object) -> Command:
    """A command on ``P/T/set`` (decoded JSON) as its type's record; :class:`PayloadError` naming the key."""
    record: Command = read(data, Command)  # type: ignore[arg-type]     # a union of records: msgspec takes it
    return record


def command(cid: str, payload: Mapping[str, Any]) -> bytes:
    """The room's command ``payload`` (``{"type": ..., keys}``) with its id, checked as its record and
    encoded: a key the table would refuse is the room's bug, raised here (:class:`PayloadError`), not sent."""
    return msgspec.json.encode(read_command({**payload, "id": cid}))


def journal_input(record: Command) -> dict[str, Any]:
    """A command as the journal input it asks for: its keys without ``id`` and ``v``."""
    entry: dict[str, Any] = msgspec.to_builtins(record)
    entry.pop("id")
    entry.pop("v", None)
    return entry


class PayloadError(ValueError):
    """A payload that is not its record; the text names the key."""


def read(data: object, record: type[_R]) -> _R:
    """``data`` (decoded JSON) as ``record`` (or a union of records), of this version; :class:`PayloadError`
    naming the key otherwise."""
    try:
        value: _R = convert(data, record)
    except RecordError as error:
        raise PayloadError(str(error)) from None
    if (refusal := unspoken(getattr(value, "v", VERSION), VERSION, "this table")) is not None:
        raise PayloadError(refusal)
    return value
