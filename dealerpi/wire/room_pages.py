"""What the room's page and the broadcast's host send in their POST bodies, as typed records (issue 22).

The room page (``dealerpi/room/static/room.html``, ``money.js``) and ``dealerpi room desk`` post one JSON
object per press to three routes of :mod:`dealerpi.room.web`, each a union tagged by ``op`` as the console's
operations (:mod:`dealerpi.wire.pages`, whose reader this shares): ``/waiting`` the cash games' lists
(:data:`WaitingOp`), ``/tournament`` the desk and the tournament's money (:data:`TournamentOp`),
``/director`` the director's controls (:data:`Control`, each with the page's ``id``: a retry is applied
once, room/director/controls.py). The broadcast's ``POST /tags`` takes :class:`Tag`. An unknown key, a
missing one or a wrong type is refused naming the key (a 400 with the sentence); what a value means (a
game of this room, a registered player, a seat in range) is the room's and the director's to check, as
before. ``v`` as the console's: absent in what the pages send (1); the room serves the pages that send it.
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from dealerpi.wire.pages import VERSION, convert_tagged


class _Op(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag_field="op",
          omit_defaults=True):
    v: int = VERSION


# --- POST /waiting: the cash games' waiting lists (room.html) ------------------------------------------------

class AddWaiting(_Op, frozen=True, kw_only=True, tag="add"):
    game: str
    player: str


class RemoveWaiting(_Op, frozen=True, kw_only=True, tag="remove"):
    id: int


class SeatNext(_Op, frozen=True, kw_only=True, tag="seat"):
    """The first waiting player to the first open seat of ``game``'s tables."""

    game: str


WaitingOp = AddWaiting | RemoveWaiting | SeatNext
WAITING = ("add", "remove", "seat")


# --- POST /tournament: the desk (room.html, room/desk.py) and the money (money.js, room/director/deal.py) --------

class Register(_Op, frozen=True, kw_only=True, tag="register"):
    player: str


class Start(_Op, frozen=True, kw_only=True, tag="start"):
    pass


class Rebuy(_Op, frozen=True, kw_only=True, tag="rebuy"):
    player: str


class Addon(_Op, frozen=True, kw_only=True, tag="addon"):
    player: str


class Race(_Op, frozen=True, kw_only=True, tag="race"):
    """TRN-6: a colour-up race's winning seats at ``table``."""

    table: str
    won: list[int]


class Deal(_Op, frozen=True, kw_only=True, tag="deal"):
    """The ICM or chip-chop deal (``amounts`` by player) and the players who agreed to it."""

    amounts: dict[str, int]
    agreed: list[str]


TournamentOp = Register | Start | Rebuy | Addon | Race | Deal
TOURNAMENT = ("register", "start", "rebuy", "addon", "race", "deal")
MoneyOp = Rebuy | Addon | Race | Deal


# --- POST /director: the director's controls (room.html) ------------------------------------------------------

ControlId = Annotated[str, msgspec.Meta(min_length=1, max_length=40)]


class _Control(_Op, frozen=True, kw_only=True):
    id: ControlId


class Pause(_Control, frozen=True, kw_only=True, tag="pause"):
    pass


class Resume(_Control, frozen=True, kw_only=True, tag="resume"):
    pass


class Clock(_Control, frozen=True, kw_only=True, tag="clock"):
    """The level (``step``, 1-based, breaks counted) and the seconds left in it."""

    step: int
    seconds: int


class Time(_Control, frozen=True, kw_only=True, tag="time"):
    seconds: int                 # negative: fewer


class Move(_Control, frozen=True, kw_only=True, tag="move"):
    player: str
    table: str
    seat: int


class Unregister(_Control, frozen=True, kw_only=True, tag="unregister"):
    player: str


class Place(_Control, frozen=True, kw_only=True, tag="place"):
    player: str
    place: int


class Undo(_Control, frozen=True, kw_only=True, tag="undo"):
    pass


class Announce(_Control, frozen=True, kw_only=True, tag="announce"):
    text: str                    # "": clear it


Control = Pause | Resume | Clock | Time | Move | Unregister | Place | Undo | Announce
CONTROLS = ("pause", "resume", "clock", "time", "move", "unregister", "place", "undo", "announce")


# --- the broadcast's POST /tags (docs/broadcast.md) -------------------------------------------------------------

class Tag(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The host's tag of the hand in play (or the last one); the server limits its length."""

    note: str = ""


def read_waiting(data: object) -> WaitingOp:
    """A ``/waiting`` body (decoded JSON) as its record; :class:`dealerpi.wire.pages.PageOpError` naming the
    key otherwise."""
    record: WaitingOp = convert_tagged(data, WaitingOp, WAITING, "this room")
    return record


def read_tournament(data: object) -> TournamentOp:
    record: TournamentOp = convert_tagged(data, TournamentOp, TOURNAMENT, "this room")
    return record


def read_control(data: object) -> Control:
    record: Control = convert_tagged(data, Control, CONTROLS, "this room")
    return record


def body(record: _Op) -> dict[str, Any]:
    """A checked record as the JSON object the director's pure code reads (room/director/controls.py and
    deal.py take a mapping, the form it keeps in its state): the page's keys, ``op`` included."""
    said: dict[str, Any] = msgspec.to_builtins(record)
    return said
