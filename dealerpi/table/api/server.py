"""The table daemon's local API: a Unix domain socket for ``dealerpi console`` (docs/console.md).

The daemon stays off the network (its unit keeps ``PrivateNetwork=yes``, ``RestrictAddressFamilies=AF_UNIX``);
the console, a separate process, connects here. The protocol is in :mod:`dealerpi.wire.protocol`: a
connection says ``hello`` with its role and is then sent that role's view, first whole, then as changes
after every change of the table. An ``input`` request carries one journal input; the daemon checks the
role may send it, tags it with the sender (``"by": role``) and the time, and hands it to the controller,
which journals it (fsync) and then applies it, exactly like a button press. The console decides nothing
about the rules. A request id (``rid``) chosen by the console is journaled too, so an input resent after
a lost answer is applied once, across restarts as well, and answered as it was the first time.

Every request is parsed once into its typed record (:mod:`dealerpi.wire.api`) and answered by the one
endpoint registered for its method (:meth:`ApiServer._register`, Moonraker's shape); an input carries only
its type's keys (:mod:`dealerpi.wire.inputs`), so no page can write what only the daemon writes.

A daemon on fake devices also has the ``panel`` role (the simulator's, :mod:`dealerpi.table.virtual`): the
host's view plus the virtual hardware's frames, LEDs and shoe, and the ``press``/``release``/``deal``/
``shuffle`` requests that drive it. On real devices that role does not exist. Pins a connection holds are
released when it closes.

The ``broadcast`` role (issue 21, :mod:`dealerpi.wire.broadcast`) is the streamed table's process: every
accepted input as journaled, hole cards included, for a peer of the daemon's own user only.

The socket file is made group-writable (0660) in a directory only the service's group can enter
(RuntimeDirectoryMode=0750): the console's user is in that group, nobody else can connect.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import msgspec

from dealerpi.books import game_form
from dealerpi.books.ledger import CLOSE, Event, Ledger, Session
from dealerpi.engine import InputError, Outcome, Table, parse_config, parse_input, to_json
from dealerpi.journal.file import utc_now
from dealerpi.table.api import sessions, status_panel
from dealerpi.table.api.daemon_port import Daemon
from dealerpi.table.api.journal_download import journal_chunk
from dealerpi.table.api.ledger_book import LedgerBook
from dealerpi.table.api.qr_screen import qr_screen
from dealerpi.table.applied import Applied
from dealerpi.table.source import settings
from dealerpi.views.build import alert_order
from dealerpi.views.model import Alert
from dealerpi.views.roles import role_view
from dealerpi.wire import api
from dealerpi.wire import broadcast as broadcast_stream
from dealerpi.wire.api import ParseError, parse
from dealerpi.wire.inputs import WireError, sent_input
from dealerpi.wire.protocol import CONFIRMED, PANEL, ROLES, Decoder, ProtocolError, changes, encode, may_send
from dealerpi.wire.views import VERSION as VIEW_VERSION
from dealerpi.wire.views import ViewError, read_view

if TYPE_CHECKING:
    from dealerpi.config import Pin
    from dealerpi.table.virtual import Panel

_LOGGER = logging.getLogger(__name__)

QR_SECONDS = 60.0
RIDS_KEPT = 1000             # request ids kept (in memory and in a checkpoint): a page resends within seconds
MAX_BACKLOG = 1 << 20        # bytes a client may leave unread before it is dropped (a stuck page)


@dataclass(eq=False)
class _Client:
    writer: asyncio.StreamWriter
    task: asyncio.Task[None] | None = None
    role: str | None = None
    shown: dict[str, Any] = field(default_factory=dict)
    held: set[Pin] = field(default_factory=set)      # panel buttons this connection pressed, not released


@dataclass(frozen=True)
class Endpoint:
    """One method of the local API: its parameters' record, the call that answers it (``{"result": ...}``
    or ``{"error": {"message": ...}}``), the roles that may call it (None: any, once said hello) and the
    refusal for the others."""

    params: type[api.Params]
    call: Callable[[_Client, Any], dict[str, Any]]
    roles: frozenset[str] | None = None
    refusal: str = ""
    after_hello: bool = True


class ApiServer:
    """See the module docstring. Made before the journal is replayed (the ledger watches the replay too),
    started after it; :meth:`before` and :meth:`after` are called around every input the table applies."""

    def __init__(self, daemon: Daemon, path: Path) -> None:
        self.daemon = daemon
        self.path = path
        self.ledger = Ledger()                   # no time for replayed inputs journaled without one
        self.clients: set[_Client] = set()
        self.rids: dict[str, dict[str, Any]] = {}   # the request ids journaled, oldest first, with their answers
        self._server: asyncio.AbstractServer | None = None
        self._push_due = False
        self.panel: Panel | None = None   # the virtual hardware, on fake devices only
        self.book = LedgerBook(self.ledger, daemon.journal)     # the ledger with the host's money notes
        self.endpoints = self._register()
        self._params_of = {name: endpoint.params for name, endpoint in self.endpoints.items()}

    # --- the controller's hooks ----------------------------------------------------------------------

    def before(self, entry: Mapping[str, Any], table: Table) -> None:
        self.ledger.before(entry, table)

    def applied(self, step: Applied) -> None:       # the pipeline's publish (applied.py), live or replayed
        self.after(step.entry, step.outcome, step.table)

    def after(self, entry: Mapping[str, Any], outcome: Outcome, table: Table) -> None:
        """The input was applied (live, or replayed at start-up): its request id keeps the answer it got
        (issue 22, probe 4: a refused input sent again was answered accepted)."""
        if isinstance(entry.get("rid"), str):
            self.rids[entry["rid"]] = answer(entry, outcome)
            if len(self.rids) >= 2 * RIDS_KEPT:   # the older half goes; the last RIDS_KEPT stay, as in a checkpoint
                self.rids = dict(list(self.rids.items())[-RIDS_KEPT:])
        self.ledger.after(outcome.accepted, table)
        if self.panel is not None:
            self.panel.follow()
        if outcome.accepted:
            self._send_broadcast(entry)

    def checkpoint_data(self) -> dict[str, Any]:
        """What a journal checkpoint keeps for the API (the segments before it are not replayed at start-up):
        the ledger's events and the last :data:`RIDS_KEPT` request ids with their answers."""
        return {"ledger": [dataclasses.asdict(event) for event in self.ledger.events],
                "sessions": [session.as_json() for session in self.ledger.sessions],
                "rids": [[rid, said] for rid, said in list(self.rids.items())[-RIDS_KEPT:]]}

    def restore(self, data: object) -> None:
        """Start from a checkpoint's :meth:`checkpoint_data`. Its events stand before every input replayed
        now (index -1: an undo never reaches past a checkpoint's hand start)."""
        try:
            if not isinstance(data, Mapping):
                raise TypeError("no console part")
            events = [Event(**{**event, "index": -1}) for event in data["ledger"]]
            rids = dict(_kept_rid(item) for item in data["rids"])
            # the evening's sessions (issue 19); a checkpoint written before them has the events of one
            kept = [Session(**{**session, "index": -1, "ended": None if session["ended"] is None else -1})
                    for session in data.get("sessions", [])]
        except (KeyError, TypeError) as exc:
            _LOGGER.error("the checkpoint's console part is not usable (%s): the ledger starts empty", exc)
            self.daemon.alerts.append(Alert("LEDGER", "Session ledger: buy-ins before this restart are missing; "
                                                      "note them by hand"))
            return
        self.ledger.events, self.rids, self.ledger.sessions = events, rids, kept

    def changed(self) -> None:
        """The table or the dealer's screen changed: send each client its changes once, after this burst."""
        if self._push_due or not self.clients:
            return
        with contextlib.suppress(RuntimeError):          # no running loop (a test driving the controller)
            asyncio.get_running_loop().call_soon(self._push)
            self._push_due = True

    # --- the socket ----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Listen; a stale socket file of a previous run is replaced."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with contextlib.suppress(FileNotFoundError):
            if self.path.is_socket():
                self.path.unlink()
        self._server = await asyncio.start_unix_server(self._serve, path=str(self.path))
        os.chmod(self.path, 0o660)
        self.ledger.now = utc_now                # from now on inputs are live
        _LOGGER.info("local API listening on %s", self.path)

    async def stop(self) -> None:
        if self._server is not None:
            self._server.close()
            tasks = [client.task for client in self.clients if client.task is not None]
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            await self._server.wait_closed()
            self._server = None
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        client = _Client(writer, asyncio.current_task())
        self.clients.add(client)
        decoder = Decoder()
        try:
            while data := await reader.read(65536):
                for message in decoder.feed_each(data):
                    if isinstance(message, ProtocolError):      # refused before parsing: answered, read on
                        _LOGGER.warning("local API: a message refused: %s", message)
                        writer.write(encode({"error": {"message": str(message)}}))
                        continue
                    reply = self.handle(client, message)
                    if reply is not None:
                        writer.write(encode(reply))
                await writer.drain()
        except ProtocolError as exc:
            _LOGGER.warning("local API: dropping a client: %s", exc)
            with contextlib.suppress(ConnectionError):
                writer.write(encode({"error": {"message": str(exc)}}))
        except (ConnectionError, asyncio.CancelledError):   # the page went, or the daemon stops
            pass
        finally:
            self.clients.discard(client)
            self._release_held(client)
            writer.close()

    def _release_held(self, client: _Client) -> None:
        """A press cut off by a reload, a closed tab or a lost connection would stay held for ever (a BET tap
        stepping to ALL-IN): release every pin the closed connection held that no other one still holds."""
        if self.panel is None or not client.held:
            return
        still_held = set().union(*(other.held for other in self.clients))
        for pin in client.held - still_held:
            self.panel.release(pin)
        client.held.clear()

    # --- requests ------------------------------------------------------------------------------------

    def handle(self, client: _Client, message: Mapping[str, Any]) -> dict[str, Any]:
        """Answer one request: parsed once into its typed record (:func:`dealerpi.wire.api.parse`), then
        looked up in :attr:`endpoints` (Moonraker's registry, not an if-chain)."""
        try:
            request, params = parse(message, self._params_of)
        except ParseError as error:
            rid = message.get("id")
            return {"id": rid if isinstance(rid, int | str) else None, "error": {"message": str(error)}}
        endpoint = self.endpoints[request.method]
        if client.role == broadcast_stream.ROLE:
            return {"id": request.id, "error": {"message": "the broadcast role only listens"}}
        if endpoint.after_hello and client.role is None:
            return {"id": request.id, "error": {"message": "say hello with a role first"}}
        if endpoint.roles is not None and client.role not in endpoint.roles:
            return {"id": request.id, "error": {"message": endpoint.refusal}}
        return {"id": request.id, **endpoint.call(client, params)}

    def _register(self) -> dict[str, Endpoint]:
        """Every method of the local API, once: what it takes, who may call it, what answers it."""
        def result(call: Callable[[_Client, Any], object]) -> Callable[[_Client, Any], dict[str, Any]]:
            return lambda client, params: {"result": call(client, params)}

        def panel(method: str) -> Endpoint:
            kinds: dict[str, type[api.Params]] = {"press": api.Button, "release": api.Button, "deal": api.Deal}
            kind = kinds.get(method, api.NoParams)
            return Endpoint(kind, lambda client, params: self.operate_panel(client, method, params))

        return {
            "hello": Endpoint(api.Hello, self._hello, after_hello=False),
            "input": Endpoint(api.SendInput, result(lambda client, p: self.submit(
                str(client.role), p.entry, p.rid, p.confirm))),
            "change_table": Endpoint(api.ChangeTable, result(lambda _c, p: self.change_table(
                p.changes, p.rid, p.confirm)), frozenset({"host"}), "the game and the stakes are the host's"),
            "ledger": Endpoint(api.NoParams, result(lambda _c, _p: self.ledger_summary()), frozenset({"host"}),
                               "the ledger is the host's"),
            "ledger_note": Endpoint(api.LedgerNote, result(lambda _c, p: self.ledger_note(p.note)),
                                    frozenset({"host"}), "the ledger is the host's"),
            "close_session": Endpoint(api.CloseSession, result(lambda _c, p: self.close_session(p.rid)),
                                      frozenset({"host"}), "the ledger is the host's"),
            # what CONFIRM with nothing pending does on the console
            "clear_alerts": Endpoint(api.NoParams, result(lambda _c, _p: self._clear_alerts()),
                                     frozenset({"host", "dealer", PANEL}), "a board cannot clear the dealer's alerts"),
            "journal": Endpoint(api.JournalAt, lambda client, p: journal_chunk(self.daemon.table, self.daemon.journal,
                                                                                  str(client.role), list(p.at))),
            "show_qr": Endpoint(api.ShowQr, lambda client, p: self.show_qr(
                str(client.role), p.url, p.label, QR_SECONDS if p.seconds is None else p.seconds)),
            # the room director's announcement (the room's bridge, as the host): on the dealer display
            "announce": Endpoint(api.Announce, lambda _c, p: self._announce(p.text), frozenset({"host"}),
                                 "announcements are the room's"),
            # the pairing code was used: off the display at once
            "hide_qr": Endpoint(api.NoParams, lambda _c, _p: self._hide_qr(), frozenset({"host"}),
                                "pairing codes are the host's"),
            **{method: panel(method) for method in ("press", "release", "deal", "shuffle")},
        }

    def _hello(self, client: _Client, params: api.Hello) -> dict[str, Any]:
        role = params.role
        if role == broadcast_stream.ROLE:
            return self.hello_broadcast(client)
        if role == PANEL and self.panel is None:
            return {"error": {"message": "no virtual-hardware panel: this daemon drives real devices "
                                         "(the panel exists with dealerpi run --fake only)"}}
        if role not in (*ROLES, PANEL):
            return {"error": {"message": f"hello: role must be one of {', '.join(ROLES)}"}}
        shown = self.view(role)
        try:                   # the sender checks its own view as the record the console reads (wire/views.py)
            read_view(role, shown)
        except ViewError as error:      # a bug of the daemon's views: said, never sent
            _LOGGER.error("local API: the %s's view is not its record: %s", role, error)
            return {"error": {"message": f"the daemon's view is not what the console reads: {error}"}}
        client.role, client.shown = role, shown
        return {"result": {"role": role, "view": shown, "version": api.VERSION}}

    def hello_broadcast(self, client: _Client) -> dict[str, Any]:
        """The streamed table's process (issue 21, :mod:`dealerpi.wire.broadcast`): checked by the peer's
        user id, then sent the table now and every accepted input from here on, hole cards included."""
        answer = broadcast_stream.hello(client.writer, self.daemon.table.snapshot, self.daemon.journal,
                                        getattr(self.daemon, "wall", time.time))
        if "result" in answer:
            client.role = broadcast_stream.ROLE
        return answer

    def _send_broadcast(self, entry: Mapping[str, Any]) -> None:
        listeners = {client.writer: client for client in self.clients if client.role == broadcast_stream.ROLE}
        for stuck in broadcast_stream.send(list(listeners), entry, self.daemon.journal,
                                           getattr(self.daemon, "wall", time.time), MAX_BACKLOG):
            self.clients.discard(listeners[stuck])

    def _hide_qr(self) -> dict[str, Any]:
        self.daemon.dealer_overlay = None
        self.daemon.refresh_dealer()
        return {"result": {"hidden": True}}

    def _announce(self, text: str) -> dict[str, Any]:
        self.daemon.announcement = text.strip()
        self.daemon.refresh_dealer()
        self.changed()
        return {"result": {"announcement": self.daemon.announcement}}

    def _clear_alerts(self) -> dict[str, Any]:
        self.daemon.alerts.clear()
        self.daemon.refresh_dealer()
        return {"cleared": True}

    def operate_panel(self, client: _Client, method: str, params: api.Params) -> dict[str, Any]:
        """A finger on a virtual button, a card slid past the virtual shoe's reader, a shuffle."""
        panel = self.panel
        if client.role != PANEL or panel is None:
            return {"error": {"message": f"{method} is the virtual-hardware panel's: say hello as panel"}}
        if isinstance(params, api.Deal):
            error = panel.deal(params.card or None, params.after)
        elif isinstance(params, api.Button):
            pin = panel.pin(params.where, params.button)
            if pin is None:
                return {"error": {"message": f"{method}: no button {params.button!r} at {params.where!r}"}}
            if method == "press":
                client.held.add(pin)
                panel.press(pin)
            else:
                client.held.discard(pin)
                if not any(pin in other.held for other in self.clients if other is not client):
                    panel.release(pin)
            error = None
        else:
            error = panel.shuffle()
        return {"error": {"message": error}} if error else {"result": {"done": method}}

    def show_qr(self, role: str, url: object, label: object, seconds: object = QR_SECONDS) -> dict[str, Any]:
        """The host asks for a pairing code on the dealer display (issue 14). The URL carries a one-time code
        (issue 19): it is drawn, never journaled nor logged, and gone after ``seconds`` (at most
        ``QR_SECONDS``), at the next console button, or when the code is used (``hide_qr``)."""
        if role != "host":
            return {"error": {"message": "pairing codes are the host's"}}
        if not (isinstance(url, str) and url.startswith(("http://", "https://")) and len(url) <= 200
                and isinstance(label, str) and len(label) <= 12
                and isinstance(seconds, int | float) and 0 < seconds <= QR_SECONDS):
            return {"error": {"message": f"show_qr: url is an http(s) URL, label a short word, seconds at most "
                                         f"{QR_SECONDS:g}"}}
        self.daemon.show_on_dealer(qr_screen(url, label), float(seconds))
        return {"result": msgspec.to_builtins(api.QrShown(float(seconds)))}

    def submit(self, role: str, entry: object, rid: object, confirmed: bool) -> dict[str, Any]:
        """One input from a page: checked for the role, tagged, journaled and applied by the daemon."""
        if not isinstance(entry, Mapping):
            return api.refused("input: entry must be a JSON object")
        kind = entry.get("type")
        if (refusal := may_send(role, kind)) is not None:
            return api.refused(refusal)
        if kind in CONFIRMED and not confirmed:
            return api.refused(f"{kind} takes the hand back or ends it: confirm it first")
        try:
            entry = sent_input(entry)             # only the keys a sender may write (issue 22, probes 1 and 3)
        except WireError as error:
            return api.refused(str(error))
        if kind == "sit" and not confirmed and (odd := sessions.odd_stack(self.daemon.table.config, entry)) is not None:
            return api.InputAnswer(False, odd, confirm=True).as_json()     # issue 19 item 11
        if (seen := self._seen_rid(rid)) is not None:
            return seen
        tagged = _tagged(_as_record(entry), role, rid)
        if kind == "card":
            tagged["source"] = "manual"           # a card typed in, not read by the shoe (issue 14)
        outcome = self.daemon.submit(tagged)
        self.daemon.refresh()
        return answer(tagged, outcome)

    def _seen_rid(self, rid: object) -> dict[str, Any] | None:
        """The answer for a request id that is malformed or already journaled (applied once, across
        restarts); None: a new one, or none."""
        if rid is not None and (not isinstance(rid, str) or len(rid) > 64):
            return api.refused("rid must be a string of at most 64 characters")
        if rid is not None and rid in self.rids:
            return {**self.rids[rid], "duplicate": True}       # the answer it got, whatever it was
        return None

    def change_table(self, changes: object, rid: object, confirmed: bool = False) -> dict[str, Any]:
        """The host's game form: only the fields changed, laid over the table in force (or over the change
        already waiting for the hand's end), checked by the engine's parser, then journaled as a whole
        ``table`` input. During a hand it is journaled at once and applied from the next hand
        (``Controller.queue_table``): the answer says so."""
        if (seen := self._seen_rid(rid)) is not None:
            return seen
        daemon = self.daemon
        try:
            current = parse_config(daemon.pending_table) if daemon.pending_table is not None else daemon.table.config
            switching = isinstance(changes, Mapping) and current is not None \
                and sessions.is_tournament(current, changes) not in (None, current.policies.tournament)
            if switching and (refusal := sessions.switch_refusal(daemon.table, confirmed)) is not None:
                return refusal
            leaving = sessions.carried(daemon.table) if switching else []
            if switching and current is not None and current.policies.tournament and isinstance(changes, Mapping):
                entry = sessions.back_to_cash(current, changes, self.ledger.last_cash_table())
            else:
                entry = game_form.changed_table(current, changes)
            wanted = parse_config(entry)
        except InputError as error:
            return api.refused(str(error))
        panels = max(daemon.seat_slots, default=0)
        if wanted.seats > panels:                # a seat without buttons could never act (the config's [[seats]])
            return api.refused(f'table: "seats" {wanted.seats}: this table has seat panels for seats 1 to {panels} '
                               "only (the config's [[seats]])")
        tagged = _tagged(entry, "host", rid)
        if daemon.table.table_may_change():
            outcome = daemon.submit(tagged)
            later = False
            for leave in leaving if outcome.accepted else []:    # an ended tournament's players (sessions.py)
                daemon.submit(_tagged(leave, "host", None))
        else:
            outcome = daemon.queue_table(tagged)
            later = outcome.accepted
        daemon.refresh()
        return answer({**tagged, "after_hand": later}, outcome)

    def setup(self) -> dict[str, Any]:
        """The host's game form: the values in force, where they came from, a change waiting for the hand's
        end, and the choices (games, presets, policies)."""
        daemon = self.daemon
        config = daemon.table.config
        pending = daemon.pending_table
        try:
            shown = parse_config(pending) if pending is not None else config      # the form shows what comes next
        except InputError as error:              # a queued change is checked when queued: this is a bug
            _LOGGER.error("the table change waiting for the hand's end is not a table: %s", error)
            pending, shown = None, config
        return {"values": game_form.table_input(config) if config is not None else None,
                "policies": game_form.policy_values(shown.policies) if shown is not None else None,
                "from": daemon.table_source.words(),
                "pending": settings(pending) if pending is not None else None,
                "choices": game_form.CHOICES_VIEW}

    # --- views ---------------------------------------------------------------------------------------

    def status(self) -> dict[str, Any]:
        alerts: tuple[Alert, ...] = alert_order(self.daemon.alerts)     # as the dealer display orders them
        fault = self.daemon.fault_alert()             # a failing journal first, as on the dealer display (issue 23)
        alerts = (fault, *alerts) if fault is not None else alerts
        journal = self.daemon.journal
        slots = [self.daemon.dealer_slot, *self.daemon.seat_slots.values()]
        fake = getattr(self.daemon.devices, "kind", "") == "fake"
        shoe = self.daemon.shoe_health.as_json()
        return {"alerts": [(a.rule, a.message) for a in alerts], "shoe_online": shoe["online"], "shoe": shoe,
                "journal": {"path": str(journal.path), "inputs": journal.count, "fault": self.daemon.journal_fault,
                            "free_mb": status_panel.free_mb(Path(journal.path))},
                "displays": status_panel.displays(slots),
                "banks": status_panel.banks(self.daemon.config, self.daemon.presses, fake)}

    def ledger_summary(self) -> dict[str, Any]:
        return self.book.summary(self.daemon.table)

    def new_journal(self) -> None:
        """The daemon starts a new journal (a new evening): the money notes of the last one are put aside."""
        self.book.new_journal()

    def ledger_note(self, note: object) -> dict[str, Any]:
        """The host adds an expense, a charge, a paid mark, or removes one (ledger_book.py)."""
        answer = self.book.add_note(note, self.daemon.table)
        if answer["accepted"]:
            self.changed()
        return answer

    def close_session(self, rid: object) -> dict[str, Any]:
        """The host closes the cash game in force: only when money in equals money out (every player cashed
        out, in = out), and between hands. Journaled as the table in force with ``"session": "close"``, so
        a replay closes it at the same place; the next buy-in starts the next session."""
        if (seen := self._seen_rid(rid)) is not None:
            return seen
        summary, table = self.ledger_summary(), self.daemon.table
        if summary["session"]["kind"] != "cash":
            return {"accepted": False, "reason": "a tournament ends with its winner: go back to a cash game from "
                                                 "the game form"}
        if summary["on_table"] or summary["in"] != summary["out"]:
            return {"accepted": False, "reason": f"money in {summary['in']} is not money out {summary['out']} "
                                                 f"(on the table {summary['on_table']}): cash everyone out first"}
        if table.config is None or not table.table_may_change():
            return {"accepted": False, "reason": "a session closes between hands"}
        entry = {"type": "table", **game_form.table_input(table.config), "session": CLOSE}
        outcome = self.daemon.submit(_tagged(entry, "host", rid))
        self.daemon.refresh()
        return {"accepted": outcome.accepted, "reason": outcome.reason}

    def view(self, role: str) -> dict[str, Any]:
        if role == PANEL and self.panel is not None:     # the host's view and the virtual hardware's
            return {**self.view("host"), **self.panel.view()}
        extra = {"ledger": self.book.view(self.daemon.table), "setup": self.setup()} if role == "host" else {}
        # the room's announcement is public: the room reads it back from the table's view (docs/room.md)
        return {**role_view(role, self.daemon.table, self.status(), extra),
                "announcement": self.daemon.announcement or None, "v": VIEW_VERSION}

    def _push(self) -> None:
        self._push_due = False
        views: dict[str, dict[str, Any]] = {}
        for client in list(self.clients):
            if client.role in (None, broadcast_stream.ROLE):
                continue
            if client.role not in views:
                views[client.role] = self.view(client.role)
            diff = changes(client.shown, views[client.role])
            if not diff:
                continue
            client.shown = views[client.role]
            transport = client.writer.transport
            if transport.is_closing() or transport.get_write_buffer_size() > MAX_BACKLOG:
                _LOGGER.warning("local API: dropping a %s client that stopped reading", client.role)
                self.clients.discard(client)
                client.writer.close()
                continue
            client.writer.write(encode({"method": "view", "params": diff}))


def answer(entry: Mapping[str, Any], outcome: Outcome) -> dict[str, Any]:
    """The answer to an input, the same live and when start-up replays it (so a request id keeps it): a
    ``table`` change says whether it waits for the hand's end; a queued one (``after_hand``, which the engine
    refuses during the hand and the daemon applies at its end) was accepted."""
    if entry.get("type") == "table" and entry.get("after_hand"):
        return api.InputAnswer(True, None, [], pending=True).as_json()
    alerts = [api.AlertLine(a.rule, a.message) for a in outcome.alerts]
    pending = False if entry.get("type") == "table" else msgspec.UNSET
    return api.InputAnswer(outcome.accepted, outcome.reason, alerts, pending=pending).as_json()


def _kept_rid(item: object) -> tuple[str, dict[str, Any]]:
    """A checkpoint's request id and its answer; a checkpoint written before answers were kept has the id
    alone, which was answered accepted (what this daemon said then)."""
    if isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict):
        return str(item[0]), item[1]
    return str(item), {"accepted": True}


def _as_record(entry: Mapping[str, Any]) -> Mapping[str, Any]:
    """A page's or the room's input in its record's journal form (issue 22: typed from the producer to the
    journal, ``entries.to_json``): parsed once here. A ``table`` keeps the sender's keys (its record spells out
    every policy of the preset, which the config's line leaves to the preset); an input the engine cannot
    parse is journaled as sent, and the engine refuses it with the reason, as for every refused input."""
    if entry.get("type") == "table":
        return entry
    try:
        return to_json(parse_input(entry))
    except InputError:
        return entry


def _tagged(entry: Mapping[str, Any], by: str, rid: object) -> dict[str, Any]:
    """``entry`` as journaled: who sent it, when, and its request id if it has one."""
    return {**entry, "by": by, "at": utc_now(), **({"rid": rid} if rid is not None else {})}
