"""What the console's pages send over their WebSocket, as typed records (issue 22: one parse at the boundary).

Each operation a page sends (``dealerpi/console/static/*.js``) is one ``msgspec.Struct`` here, in a union
tagged by ``op`` (jcristharif.com/msgspec/structs.html "Tagged Unions"): ``input`` (console.js, table.js,
tournament.js), ``table`` (game.js, tournament.js), ``ledger_note`` and ``close_session`` (money.js),
``clear_alerts`` (console.js) and the virtual-hardware panel's ``press``, ``release``, ``deal``, ``shuffle``
(panel.js). :func:`read_op` reads one within the size and depth limits (:mod:`dealerpi.wire.limits`), an
unknown key, a missing one or a wrong type refused with msgspec's sentence naming the key; each record
says which request of the daemon's API it is (:meth:`PageOp.request`, built from :mod:`dealerpi.wire.api`'s
records, so a field renamed on one side is a type error on the other). The daemon checks every request
again by role; ``input``'s ``entry`` stays a JSON object, checked key by key by :mod:`dealerpi.wire.inputs`.

``v`` is the operations' version, absent in what the pages send (version 1): the console serves the pages
that send them, so both change together; a page left open across an upgrade that sends an operation this
console no longer reads gets the refusal naming the key, and a reload fixes it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from dealerpi.wire import api
from dealerpi.wire.limits import LimitError, check_json
from dealerpi.wire.records import RecordError, convert, unspoken

VERSION = 1


class PageOpError(ValueError):
    """An operation that is not its record; the text names the key (the page shows it as the reason).
    ``rid``: the operation's request id when one could be read, for the answer to echo."""

    def __init__(self, reason: str, rid: str | None = None) -> None:
        super().__init__(reason)
        self.rid = rid


class PageOp(msgspec.Struct, forbid_unknown_fields=True, frozen=True, kw_only=True, tag_field="op"):
    """An operation from a page; ``rid`` is the page's request id, echoed in the answer."""

    rid: api.Rid | None = None
    v: int = VERSION

    def request(self) -> tuple[str, api.Params]:
        """The daemon's method and its parameters for this operation."""
        raise NotImplementedError


class SendInput(PageOp, frozen=True, kw_only=True, tag="input"):
    """A journal input: ``entry`` is checked by the daemon key by key (wire/inputs.py); ``confirm``: the
    host confirms a refusal that a confirmation turns (issue 19)."""

    entry: dict[str, Any]
    confirm: bool = False

    def request(self) -> tuple[str, api.Params]:
        return "input", api.SendInput(entry=self.entry, confirm=self.confirm, rid=self.rid)


class ChangeTable(PageOp, frozen=True, kw_only=True, tag="table"):
    """The host's game or tournament form: the changed keys of the table (the daemon's game form checks
    them; null removes one)."""

    changes: dict[str, Any] | None = None
    confirm: bool = False

    def request(self) -> tuple[str, api.Params]:
        return "change_table", api.ChangeTable(changes=self.changes, rid=self.rid, confirm=self.confirm)


class LedgerNote(PageOp, frozen=True, kw_only=True, tag="ledger_note"):
    """An expense, a charge, a paid mark or its removal (books/money.py checks the note key by key)."""

    note: dict[str, Any]

    def request(self) -> tuple[str, api.Params]:
        return "ledger_note", api.LedgerNote(note=self.note)


class CloseSession(PageOp, frozen=True, kw_only=True, tag="close_session"):
    def request(self) -> tuple[str, api.Params]:
        return "close_session", api.CloseSession(rid=self.rid)


class ClearAlerts(PageOp, frozen=True, kw_only=True, tag="clear_alerts"):
    def request(self) -> tuple[str, api.Params]:
        return "clear_alerts", api.NoParams()


class Press(PageOp, frozen=True, kw_only=True, tag="press"):
    """A panel button held down: a seat number or ``"dealer"``, and the button's name."""

    where: int | str
    button: str

    def request(self) -> tuple[str, api.Params]:
        return "press", api.Button(where=self.where, button=self.button)


class Release(PageOp, frozen=True, kw_only=True, tag="release"):
    where: int | str
    button: str

    def request(self) -> tuple[str, api.Params]:
        return "release", api.Button(where=self.where, button=self.button)


class Deal(PageOp, frozen=True, kw_only=True, tag="deal"):
    """The virtual shoe deals its next card (or ``card``), once per ``after`` (the dealt count seen)."""

    card: str | None = None
    after: int | None = None

    def request(self) -> tuple[str, api.Params]:
        return "deal", api.Deal(card=self.card, after=self.after)


class Shuffle(PageOp, frozen=True, kw_only=True, tag="shuffle"):
    def request(self) -> tuple[str, api.Params]:
        return "shuffle", api.NoParams()


Op = SendInput | ChangeTable | LedgerNote | CloseSession | ClearAlerts | Press | Release | Deal | Shuffle
OPS: tuple[type[PageOp], ...] = (SendInput, ChangeTable, LedgerNote, CloseSession, ClearAlerts, Press, Release,
                                 Deal, Shuffle)
NAMES = tuple(str(kind.__struct_config__.tag) for kind in OPS)


def name(op: PageOp) -> str:
    """The ``op`` a record was read from."""
    return str(op.__struct_config__.tag)


_DECODER = msgspec.json.Decoder(Op)


def read_op(text: str | bytes) -> Op:
    """A page's operation (the WebSocket's text) as its record; :class:`PageOpError` says why not, naming
    the key: too long or deep (before parsing), not JSON, not an object, an unknown ``op``, a key the op
    does not take, a wrong type, a version not spoken here.

    Decoded straight into the record: 1.05 to 1.16 times the untyped decode it replaces for a sit (three
    runs on the dev VM; a decode then ``msgspec.convert`` took about 5 times); only a refused one is decoded
    again untyped, for the reason's words and its ``rid``."""
    try:
        check_json(text, "an operation")              # size and depth before parsing (issue 22, probe 2)
        record: Op = _DECODER.decode(text)
    except LimitError as error:                      # "(not JSON)": brackets that do not balance
        raise PageOpError("not JSON" if "not JSON" in str(error) else str(error)) from None
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        convert_op(_untyped(text))                    # raises, naming the key
        raise PageOpError(f"an operation: {error}") from None    # not reached: both read the same records
    if (refusal := unspoken(record.v, VERSION, "this console")) is not None:
        raise PageOpError(f"{name(record)}: {refusal}", record.rid)
    return record


def _untyped(text: str | bytes) -> object:
    try:
        return msgspec.json.decode(text)
    except msgspec.DecodeError:
        raise PageOpError("not JSON") from None


def convert_op(data: object) -> Op:
    """A decoded operation as its record (see :func:`read_op`)."""
    record: Op = convert_tagged(data, Op, NAMES, "this console")
    return record


def convert_tagged(data: object, union: Any, names: tuple[str, ...], speaker: str) -> Any:
    """``data`` (decoded JSON) as the record of ``union`` its ``op`` names (``names``: the union's tags),
    of version :data:`VERSION`; :class:`PageOpError` naming the key otherwise. Shared by the room's pages
    (:mod:`dealerpi.wire.room_pages`); ``speaker`` says who refuses a version."""
    if not isinstance(data, dict):
        raise PageOpError(f'an operation is a JSON object: {{"op": "{names[0]}", ...}}')
    op, rid = data.get("op"), data.get("rid")
    rid = rid if isinstance(rid, str) and len(rid) <= 64 else None
    if op not in names:
        raise PageOpError(f"op: one of {', '.join(names)}, not {op!r}", rid)
    try:
        record: Any = convert(data, union)        # a union of records tagged by op: msgspec picks the type
    except RecordError as error:
        raise PageOpError(f"{op}: {error}", rid) from None
    if (refusal := unspoken(record.v, VERSION, speaker)) is not None:
        raise PageOpError(f"{op}: {refusal}", rid)
    return record
