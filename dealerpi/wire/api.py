"""The daemon's local API as typed, versioned records: one parse at the boundary (issue 22).

Klipper's API server and Moonraker answer ``{"id", "method", "params"}`` by looking the method up in a
registry of endpoints, each registered once with what it takes; so does ``dealerpi.table.api.server`` now. This
module is what both ends of the socket share: the envelope (:class:`Request`), the parameters of each method
(one ``msgspec.Struct`` each, unknown keys refused), and :func:`parse`, which turns a decoded message into
the request and its parameters or one sentence naming the key that is wrong.

msgspec was chosen by measurement (bench/bench_wire.py, docs/architecture.md "The wire"): it parses and
checks in one pass in C, 2 to 14 times faster than today's unchecked ``json.loads`` on the real views, where
pydantic v2 took 0.5 to 2 times ``json.loads``'s time and a hand-written check 4.5 to 19 times.

``v`` is the protocol's version: a request without one is version 1 (every client before it was added); a
daemon refuses a version it does not speak, and says its own in the ``hello`` answer (``"version"``).
"""

from __future__ import annotations

from typing import Annotated, Any

import msgspec

from dealerpi.wire.records import unspoken, words

VERSION = 1

Rid = Annotated[str, msgspec.Meta(max_length=64)]      # a request id: journaled with the input it names
Count = Annotated[int, msgspec.Meta(ge=0)]


class Request(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """``{"id": 7, "method": "input", "params": {...}, "v": 1}``; no ``id``: no answer is wanted."""

    method: str
    id: int | str | None = None
    params: dict[str, Any] = {}
    v: int = VERSION


class Params(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """A method's parameters; a key that is not a field is refused."""


class Hello(Params, frozen=True):
    role: str


class SendInput(Params, frozen=True):
    """An input from a page or the room: ``entry`` is checked key by key by :mod:`dealerpi.wire.inputs`."""

    entry: dict[str, Any]
    confirm: bool = False
    rid: Rid | None = None


class ChangeTable(Params, frozen=True):
    """The host's game form: only the changed keys of a table input (null removes one)."""

    changes: dict[str, Any] | None = None    # none, or empty: refused with the game form's reason
    rid: Rid | None = None
    confirm: bool = False                   # switching a tournament with no winner yet to a cash game (issue 19)


class NoParams(Params, frozen=True):
    pass


class JournalAt(Params, frozen=True):
    at: tuple[Count, Count]                 # [segment, byte offset]; [0, 0] first


class ShowQr(Params, frozen=True):
    url: Annotated[str, msgspec.Meta(max_length=200, pattern="^https?://")]
    label: Annotated[str, msgspec.Meta(max_length=12)]
    seconds: Annotated[float, msgspec.Meta(gt=0)] | None = None     # at most the daemon's QR_SECONDS


class Announce(Params, frozen=True):
    """The room director's announcement for the dealer display ("": none; docs/room.md)."""

    text: Annotated[str, msgspec.Meta(max_length=140)]


class LedgerNote(Params, frozen=True):
    """An expense, a charge, a paid mark or its removal (dealerpi/books/money.py checks the note)."""

    note: dict[str, Any]


class CloseSession(Params, frozen=True):
    rid: Rid | None = None


class Button(Params, frozen=True):
    """``press`` / ``release`` on the virtual-hardware panel: a seat number or ``"dealer"``, and a button."""

    where: int | str
    button: str


class Deal(Params, frozen=True):
    card: str | None = None
    after: int | None = None


class AlertLine(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    rule: str                    # a rule id (BET-12) or the daemon's own (UNDO, SHOE, ...)
    message: str


class InputAnswer(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The answer to ``input`` and ``change_table``. Refused before the journal (the role, a key, confirm):
    ``accepted`` and ``reason`` only. Journaled and applied: with the engine's ``alerts``; a table change
    says whether it is ``pending`` (applies from the next hand). A request id seen before: the answer it got
    then, with ``duplicate``. The room's bridge reads the daemon's answers as this record."""

    accepted: bool
    reason: str | None
    alerts: list[AlertLine] | msgspec.UnsetType = msgspec.UNSET
    pending: bool | msgspec.UnsetType = msgspec.UNSET
    duplicate: bool | msgspec.UnsetType = msgspec.UNSET
    confirm: bool | msgspec.UnsetType = msgspec.UNSET    # refused until confirmed (issue 19: an odd stack)

    def as_json(self) -> dict[str, Any]:
        said: dict[str, Any] = msgspec.to_builtins(self)
        return said


class NoteAnswer(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The answer to ``ledger_note``: accepted with the note's id, or the reason."""

    accepted: bool
    reason: str | None
    note: str | msgspec.UnsetType = msgspec.UNSET


class JournalChunk(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The answer to ``journal``: whole journal lines, and where the next chunk starts (None: the end)."""

    text: str
    next: tuple[Count, Count] | None


class QrShown(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    """The answer to ``show_qr``: the seconds the code stays on the dealer display."""

    shown: float


def refused(reason: str) -> dict[str, Any]:
    """An input refused before the journal, as its answer."""
    return InputAnswer(False, reason).as_json()


def params(record: Params) -> dict[str, Any]:
    """A method's parameters as the client sends them, built from the record the daemon parses them into:
    a field renamed on one side is a type error on the other."""
    built: dict[str, Any] = msgspec.to_builtins(record)
    return built


class ParseError(ValueError):
    """A request that is not what its method takes; the text is the answer's error message."""


def parse(message: object, params_of: dict[str, type[Params]]) -> tuple[Request, Params]:
    """The request in ``message`` (a decoded JSON object) and its parameters, typed; :class:`ParseError`
    names the key. ``params_of`` is the registry's method -> parameters."""
    try:
        request = msgspec.convert(message, Request)
    except msgspec.ValidationError as error:
        raise ParseError(f"a request: {_words(error)}") from None
    if (refusal := unspoken(request.v, VERSION, "this daemon")) is not None:
        raise ParseError(f"protocol {refusal}")
    kind = params_of.get(request.method)
    if kind is None:
        raise ParseError(f"unknown method {request.method!r}")
    try:
        return request, msgspec.convert(request.params, kind)
    except msgspec.ValidationError as error:
        raise ParseError(f"{request.method}: {_words(error)}") from None


def _words(error: msgspec.ValidationError) -> str:
    """msgspec's "Object contains unknown field `x` - at `$.params`" as "params: unknown key x" style words
    would lose its path; its own sentence names the key and where, so it is kept, with ``$`` as "params"."""
    return words(error).replace("`$`", "the params")
