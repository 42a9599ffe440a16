"""The views the daemon sends the console over its socket, as typed, versioned records (issue 22).

A view was a dict built in ``dealerpi.views.roles`` and read key by key, laxly, by the console, the room's
bridge and the pages. Here each role's view is one ``msgspec.Struct`` (:class:`BoardView`, :class:`DealerView`,
:class:`HostView`, :class:`PanelView`), every key typed, an unknown key or a wrong type refused with its
path named (:func:`read_view`). ``v`` is the views' version, a key of every view; the daemon writes it, a
receiver that speaks another refuses the view.

The daemon still builds the view as JSON-ready data: what it sends after the first view is the *changes*
(:func:`dealerpi.wire.protocol.changes`, two levels deep, lists that grew sent as ``$append``), which a
record cannot express. So the first whole view goes in :class:`HelloResult`, and the console merges every
change into its copy and reads the sections it changed again (:func:`read_changed`, from ``DaemonLink`` in
``console/server.py``): a change that would leave a view with an unknown key or a wrong type is refused with
the key named, whichever frame carried it.

Records are ``forbid_unknown_fields`` with no defaults, so a view that lacks a key is refused too; the few
keys a view has only sometimes (the ``next`` input's, a tournament's clock or standings) are
``msgspec.UNSET`` when absent, which msgspec neither requires when decoding nor writes when encoding
(jcristharif.com/msgspec/supported-types.html, "UNSET").
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Generic, TypeVar

import msgspec
from msgspec import UNSET, UnsetType

from dealerpi.wire.records import RecordError, convert, unspoken

VERSION = 1


class _Record(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A record of a view: a key that is not a field is refused, a missing one too (no defaults)."""


# --- the public view: the board's, and the first part of every other ---------------------------------------

class SeatLine(_Record):
    player: str | None
    stack: int
    status: str
    bet: int
    blind: str | None
    button: bool
    turn: bool
    won: int
    cards: list[str]              # tabled at the showdown only (POT-5): public
    away: bool


class Pot(_Record):
    amount: int
    eligible: list[int]


class Pausing(_Record):
    reason: str
    after_hand: int


class NextHand(_Record):
    button: int
    sb: int | None
    bb: int | None


class Action(_Record):
    seat: int
    words: list[str]


class Step(_Record, rename={"break_": "break"}):
    """A step of a tournament's level schedule: a break, or a level's blinds (TRN-1)."""

    break_: bool
    minutes: int
    blinds: list[int] | UnsetType = UNSET
    ante: int | UnsetType = UNSET
    bb_ante: int | UnsetType = UNSET
    level: int | UnsetType = UNSET            # the next step's number


class Place(_Record):
    player: str
    place: int
    prize: int


class Finished(_Record):
    winner: str
    prize: int
    places: list[Place]


class LateEntry(_Record):
    until_level: int
    open: bool


class Tournament(_Record):
    """The clock and the standings (``views/tournament.py``): a table with a level schedule has the
    clock's keys, one with standings their keys, a finished tournament ``finished`` (TRN-1, TRN-4)."""

    paused: bool
    pause_reason: str | None
    level: int | UnsetType = UNSET
    step: Step | UnsetType = UNSET
    remaining: int | UnsetType = UNSET
    last: bool | UnsetType = UNSET
    next: Step | UnsetType | None = UNSET
    late_entry: LateEntry | UnsetType = UNSET
    players_left: int | UnsetType = UNSET
    entrants: int | UnsetType = UNSET
    pool: int | UnsetType = UNSET
    prizes: list[int] | UnsetType = UNSET
    places: list[Place] | UnsetType = UNSET
    finished: Finished | UnsetType = UNSET


class Winner(_Record):
    seat: int
    player: str
    chips: int
    hand: str | None
    text: str


class Share(_Record):
    seat: int
    player: str
    chips: int


class ResultPot(_Record):
    name: str
    amount: int
    split: bool
    shares: list[Share]


class HandResult(_Record):
    hand: int
    winners: list[Winner]
    pots: list[ResultPot]


class BoardView(_Record):
    """The board role's whole view (``views/roles.py`` ``public_view``): no hole card of a live hand, no
    alert; the room's bridge publishes it as the table's state."""

    hand: int
    game: str | None
    blinds: list[int] | None
    board: list[list[str]]
    pots: list[Pot]
    payouts: list[tuple[int, int]]
    seats: dict[str, SeatLine]
    in_hand: bool
    paused: str | None
    pausing: Pausing | None
    last_blinds: list[int | None]     # the button, small and big blind seats of the last hand
    next_hand: NextHand | None
    starting_stacks: list[tuple[int, int]]
    bust_by: dict[str, list[int]]     # PKO: a seat busted in the last hand, by the seats that won its chips
    tournament: Tournament | None
    action: Action | None
    board_labels: list[str]
    bomb: bool
    result: HandResult | None
    break_in: int | None
    announcement: str | None
    v: int


# --- the dealer's: what the table waits for, and the alerts ------------------------------------------------

class Legal(_Record, rename={"raise_": "raise"}):
    fold: bool
    check: bool
    call: int | None
    raise_: list[int] | None


class NextInput(_Record, rename={"for_": "for"}):
    """The journal format's ``next`` (docs/journal.md): ``expect`` and the keys of its kind."""

    expect: str
    for_: str | UnsetType = UNSET             # a card: "seat 4" or the street
    cards: list[str] | UnsetType = UNSET      # a four-card flop's burn choice (BRD-1): face up on the table
    seat: int | UnsetType = UNSET
    legal: Legal | UnsetType = UNSET
    seats: list[int] | UnsetType = UNSET      # a showdown's
    paused: str | UnsetType = UNSET           # START would be refused (TRN-5)


class AlertLine(_Record):
    rule: str
    message: str


class DealerView(BoardView):
    expect: str
    next: NextInput
    alerts: list[AlertLine]
    shoe: bool


# --- the host's: the status panel, the session ledger, the game form ----------------------------------------

class ShoeHealth(_Record):
    online: bool
    offline_reason: str | None
    reader_fault: bool
    reads_lost: int
    restarts: int


class JournalStatus(_Record):
    path: str
    inputs: int
    fault: str | None
    free_mb: int | None


class DisplayStatus(_Record):
    name: str
    ok: bool
    failures: int


class BankStatus(_Record):
    name: str
    where: str
    presses: int


class Status(_Record):
    shoe_online: bool
    shoe: ShoeHealth
    journal: JournalStatus
    displays: list[DisplayStatus]
    banks: list[BankStatus]


class LedgerSession(_Record):
    number: int
    kind: str
    at: str | None
    rules: str | None
    open: bool
    closed: bool
    finished: bool


class LedgerEvent(_Record):
    at: str | None
    kind: str
    player: str
    seat: int
    amount: int


class LedgerPlayer(_Record, rename={"in_": "in"}):
    player: str
    in_: int
    out: int
    on_table: int
    net: int


class Transfer(_Record, rename={"from_": "from"}):
    from_: str
    to: str
    amount: int
    paid: bool | UnsetType = UNSET


class MoneyNote(_Record):
    """An expense or a charge the host noted (``books/money.py``)."""

    id: str
    what: str | UnsetType = UNSET
    amount: int | UnsetType = UNSET
    paid_by: str | UnsetType = UNSET
    split: list[str] | UnsetType = UNSET
    players: list[str] | UnsetType = UNSET


class SessionLedger(_Record, rename={"in_": "in"}):
    """One session's money (``books/ledger.py`` with ``money.py``'s notes)."""

    session: LedgerSession
    events: list[LedgerEvent]
    players: list[LedgerPlayer]
    in_: int
    out: int
    on_table: int
    balanced: bool
    transfers: list[Transfer]
    expenses: list[MoneyNote]
    charges: list[MoneyNote]
    nets: dict[str, int] | UnsetType = UNSET


class Ledger(SessionLedger, kw_only=True):
    """The session in force and the evening's earlier ones (``table/api/ledger_book.py``)."""

    sessions: list[SessionLedger]


Policy = str | int | bool


class Level(_Record, rename={"break_": "break"}):
    """A level of a ``table`` input's schedule (docs/journal.md): a break's minutes, or blinds and antes."""

    minutes: int
    break_: bool | UnsetType = UNSET
    blinds: list[int] | UnsetType = UNSET
    ante: int | UnsetType = UNSET
    bb_ante: int | UnsetType = UNSET


class PayoutsByField(_Record):
    players: int
    percents: list[int | float]


class TableSettings(msgspec.Struct, forbid_unknown_fields=True):
    """A ``table`` input's settings (docs/journal.md), the keys a sender may write (``wire/inputs.py``):
    the game form's values and a queued change, and the room's ``table`` command."""

    game: str | UnsetType = UNSET
    rules: str | UnsetType = UNSET
    policies: dict[str, Policy] | UnsetType = UNSET
    seats: int | UnsetType = UNSET
    levels: list[Level] | UnsetType = UNSET
    blinds: list[int] | UnsetType = UNSET
    ante: int | UnsetType = UNSET
    bb_ante: int | UnsetType = UNSET
    limits: list[int] | UnsetType = UNSET
    buy_in: int | UnsetType = UNSET
    payouts: list[int | float | PayoutsByField] | UnsetType = UNSET
    starting_stack: int | UnsetType = UNSET
    late_entry_levels: int | UnsetType = UNSET
    reentries: int | UnsetType = UNSET
    rebuys: int | UnsetType = UNSET
    rebuy_levels: int | UnsetType = UNSET
    addon_chips: int | UnsetType = UNSET
    addon_price: int | UnsetType = UNSET
    bounty: int | UnsetType = UNSET


class Choices(_Record):
    games: dict[str, str]
    fixed_limit: list[str]
    presets: list[str]
    policies: dict[str, list[str]]


class Setup(_Record, rename={"from_": "from"}):
    """The host's game form (``ApiServer.setup``)."""

    values: TableSettings | None
    policies: dict[str, Policy] | None
    from_: str
    pending: TableSettings | None
    choices: Choices


class HostView(DealerView):
    status: Status
    ledger: Ledger
    setup: Setup


# --- the virtual-hardware panel's (a daemon on fake devices: dealerpi/sim/panel.py) --------------------------

class Hardware(_Record):
    seats: list[int]
    seat_buttons: list[str]
    dealer_buttons: list[str]
    leds: list[str]


class VirtualShoe(_Record):
    deck: str | None
    left: int | UnsetType = UNSET
    dealt: int | UnsetType = UNSET
    total: int | UnsetType = UNSET


class PanelView(HostView):
    hardware: Hardware
    frames: dict[str, str | None]   # a display's frame as a data: URL, by seat ("dealer": the dealer's)
    leds: dict[str, list[str]]
    virtual_shoe: VirtualShoe


RECORDS: dict[str, type[BoardView]] = {"board": BoardView, "dealer": DealerView, "host": HostView,
                                       "panel": PanelView}


# --- the message that carries a whole view ------------------------------------------------------------------

V = TypeVar("V", bound=BoardView)


class HelloResult(msgspec.Struct, Generic[V], forbid_unknown_fields=True):
    """The answer to a console's ``hello``: its role, that role's whole view, the API's version
    (``dealerpi.wire.api.VERSION``). Generic in the view: the role the console asked for picks the record."""

    role: str
    view: V
    version: int


class ViewError(ValueError):
    """A view that is not its role's record; the text names the key."""


def read_view(role: str, data: object) -> BoardView:
    """``data`` (a whole view, decoded JSON) as ``role``'s record, of this version; :class:`ViewError`
    naming the key otherwise."""
    record = RECORDS.get(role)
    if record is None:
        raise ViewError(f"no view for the role {role!r}")
    try:
        view = convert(data, record)
    except RecordError as error:
        raise ViewError(f"the {role}'s view: {error}") from None
    if (refusal := unspoken(view.v, VERSION, "this console")) is not None:
        raise ViewError(f"the {role}'s view: {refusal}")
    return view


_FIELDS: dict[type[BoardView], dict[str, tuple[str, Any]]] = {
    record: {field.encode_name: (field.name, field.type) for field in msgspec.structs.fields(record)}
    for record in RECORDS.values()}


def read_changed(role: str, record: BoardView, view: Mapping[str, object], keys: Iterable[str]) -> BoardView:
    """``record`` with the sections ``keys`` read again from ``view`` (the whole view, a change merged in):
    only what changed is converted, not the evening's ledger at every press (bench/bench_wire.py). A key the
    record lacks, a wrong type inside a section or another version is a :class:`ViewError` naming it."""
    fields = _FIELDS[type(record)]
    updates: dict[str, object] = {}
    for key in keys:
        if key not in fields:
            raise ViewError(f"the {role}'s view: Object contains unknown field `{key}`")
        name, kind = fields[key]
        try:
            updates[name] = msgspec.convert(view.get(key), kind)
        except msgspec.ValidationError as error:
            why = str(error).replace("`$", f"`{key}")
            raise ViewError(f"the {role}'s view: {why if ' - at `' in why else f'{why} - at `{key}`'}") from None
    if (refusal := unspoken(updates.get("v", VERSION), VERSION, "this console")) is not None:
        raise ViewError(f"the {role}'s view: {refusal}")
    return msgspec.structs.replace(record, **updates)
