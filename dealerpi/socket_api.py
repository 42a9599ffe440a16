"""The table daemon's local API: a Unix domain socket for ``dealerpi console`` (docs/console.md).

The daemon stays off the network (its unit keeps ``PrivateNetwork=yes``, ``RestrictAddressFamilies=AF_UNIX``);
the console, a separate process, connects here. The protocol is in :mod:`dealerpi.console.protocol`: a
connection says ``hello`` with its role and is then sent that role's view, first whole, then as changes
after every change of the table. An ``input`` request carries one journal input; the daemon checks the
role may send it, tags it with the sender (``"by": role``) and the time, and hands it to the controller,
which journals it (fsync) and then applies it, exactly like a button press. The console decides nothing
about the rules. A request id (``rid``) chosen by the console is journaled too, so an input resent after
a lost answer is applied once, across restarts as well.

A daemon on fake devices also has the ``panel`` role (:mod:`dealerpi.sim.panel`): the host's view plus the
virtual hardware's frames, LEDs and shoe, and the ``press``/``release``/``deal``/``shuffle`` requests that
drive it. On real devices that role does not exist. Pins a connection holds are released when it closes.

The socket file is made group-writable (0660) in a directory only the service's group can enter
(RuntimeDirectoryMode=0750): the console's user is in that group, nobody else can connect.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from dealerpi.console import game_form, status_panel
from dealerpi.console.ledger import Event, Ledger
from dealerpi.console.protocol import CONFIRMED, PANEL, ROLES, Decoder, ProtocolError, changes, encode, may_send
from dealerpi.console.qr_screen import qr_screen
from dealerpi.console.views import role_view
from dealerpi.engine.inputs import InputError, parse_config
from dealerpi.engine.table import Table
from dealerpi.journal import utc_now
from dealerpi.journal_folder import segment_name, segments_of
from dealerpi.shoe.health import ShoeHealth
from dealerpi.table_source import TableSource, settings
from dealerpi.views.build import alert_order
from dealerpi.views.model import Alert

if TYPE_CHECKING:
    from dealerpi.config import Pin
    from dealerpi.sim.panel import VirtualPanel

_LOGGER = logging.getLogger(__name__)

QR_SECONDS = 60.0
RIDS_KEPT = 1000             # request ids kept (in memory and in a checkpoint): a page resends within seconds
MAX_BACKLOG = 1 << 20        # bytes a client may leave unread before it is dropped (a stuck page)
JOURNAL_CHUNK = 24 * 1024    # journal bytes an answer carries: JSON-escaped, well under MAX_MESSAGE


class Daemon(Protocol):
    """What the API needs of :class:`dealerpi.controller.Controller`."""

    table: Table
    alerts: Any
    journal: Any
    journal_fault: str | None
    seat_slots: dict[int, Any]
    dealer_slot: Any
    config: Any
    devices: Any
    shoe_health: ShoeHealth
    presses: Any
    table_source: TableSource
    pending_table: dict[str, Any] | None

    def submit(self, entry: dict[str, Any]) -> Any: ...
    def queue_table(self, entry: dict[str, Any]) -> Any: ...
    def refresh(self) -> None: ...
    def refresh_dealer(self) -> None: ...
    def fault_alert(self) -> Alert | None: ...
    def show_on_dealer(self, image: Any, seconds: float) -> None: ...


@dataclass(eq=False)
class _Client:
    writer: asyncio.StreamWriter
    task: asyncio.Task[None] | None = None
    role: str | None = None
    shown: dict[str, Any] = field(default_factory=dict)
    held: set[Pin] = field(default_factory=set)      # panel buttons this connection pressed, not released


class ApiServer:
    """See the module docstring. Made before the journal is replayed (the ledger watches the replay too),
    started after it; :meth:`before` and :meth:`after` are called around every input the table applies."""

    def __init__(self, daemon: Daemon, path: Path) -> None:
        self.daemon = daemon
        self.path = path
        self.ledger = Ledger()                   # no time for replayed inputs journaled without one
        self.clients: set[_Client] = set()
        self.rids: dict[str, None] = {}          # the request ids journaled, oldest first
        self._server: asyncio.AbstractServer | None = None
        self._push_due = False
        self._summary: tuple[object, dict[str, Any]] | None = None
        self.panel: VirtualPanel | None = None   # the virtual hardware, on fake devices only

    # --- the controller's hooks ----------------------------------------------------------------------

    def before(self, entry: Mapping[str, Any], table: Table) -> None:
        if isinstance(entry.get("rid"), str):
            self.rids[entry["rid"]] = None
            if len(self.rids) >= 2 * RIDS_KEPT:   # the older half goes; the last RIDS_KEPT stay, as in a checkpoint
                self.rids = dict.fromkeys(list(self.rids)[-RIDS_KEPT:])
        self.ledger.before(entry, table)

    def after(self, entry: Mapping[str, Any], accepted: bool, table: Table) -> None:
        self.ledger.after(accepted, table)
        if self.panel is not None:
            self.panel.follow()

    def checkpoint_data(self) -> dict[str, Any]:
        """What a journal checkpoint keeps for the API (the segments before it are not replayed at start-up):
        the ledger's events and the last :data:`RIDS_KEPT` request ids."""
        return {"ledger": [dataclasses.asdict(event) for event in self.ledger.events],
                "rids": list(self.rids)[-RIDS_KEPT:]}

    def restore(self, data: object) -> None:
        """Start from a checkpoint's :meth:`checkpoint_data`. Its events stand before every input replayed
        now (index -1: an undo never reaches past a checkpoint's hand start)."""
        try:
            if not isinstance(data, Mapping):
                raise TypeError("no console part")
            events = [Event(**{**event, "index": -1}) for event in data["ledger"]]
            rids = dict.fromkeys(str(rid) for rid in data["rids"])
        except (KeyError, TypeError) as exc:
            _LOGGER.error("the checkpoint's console part is not usable (%s): the ledger starts empty", exc)
            self.daemon.alerts.append(Alert("LEDGER", "Session ledger: buy-ins before this restart are missing; "
                                                      "note them by hand"))
            return
        self.ledger.events, self.rids = events, rids

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
                for message in decoder.feed(data):
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

    def handle(self, client: _Client, message: Mapping[str, Any]) -> dict[str, Any] | None:
        """Answer one request (None for a message without an id that needs no answer)."""
        rid = message.get("id")
        params = message.get("params") or {}
        method = message.get("method")
        if not isinstance(params, Mapping):
            return {"id": rid, "error": {"message": "params must be an object"}}
        if method == "hello":
            role = params.get("role")
            if role == PANEL and self.panel is None:
                return {"id": rid, "error": {"message": "no virtual-hardware panel: this daemon drives real devices "
                                                        "(the panel exists with dealerpi run --fake only)"}}
            if role not in (*ROLES, PANEL):
                return {"id": rid, "error": {"message": f"hello: role must be one of {', '.join(ROLES)}"}}
            client.role = str(role)
            client.shown = self.view(client.role)
            return {"id": rid, "result": {"role": client.role, "view": client.shown}}
        if client.role is None:
            return {"id": rid, "error": {"message": "say hello with a role first"}}
        if method == "input":
            result = self.submit(client.role, params.get("entry"), params.get("rid"), bool(params.get("confirm")))
            return {"id": rid, "result": result}
        if method == "change_table":
            if client.role != "host":
                return {"id": rid, "error": {"message": "the game and the stakes are the host's"}}
            return {"id": rid, "result": self.change_table(params.get("changes"), params.get("rid"))}
        if method == "ledger":
            if client.role != "host":
                return {"id": rid, "error": {"message": "the ledger is the host's"}}
            return {"id": rid, "result": self.ledger_summary()}
        if method == "clear_alerts":             # what CONFIRM with nothing pending does on the console
            if client.role == "board":
                return {"id": rid, "error": {"message": "a board cannot clear the dealer's alerts"}}
            self.daemon.alerts.clear()
            self.daemon.refresh_dealer()
            return {"id": rid, "result": {"cleared": True}}
        if method == "journal":
            return {"id": rid, **self.journal_chunk(client.role, params.get("at"))}
        if method in ("press", "release", "deal", "shuffle"):
            return {"id": rid, **self.operate_panel(client, method, params)}
        if method == "show_qr":
            return {"id": rid, **self.show_qr(client.role, params.get("url"), params.get("label"))}
        return {"id": rid, "error": {"message": f"unknown method {method!r}"}}

    def operate_panel(self, client: _Client, method: str, params: Mapping[str, Any]) -> dict[str, Any]:
        """A finger on a virtual button, a card slid past the virtual shoe's reader, a shuffle."""
        panel = self.panel
        if client.role != PANEL or panel is None:
            return {"error": {"message": f"{method} is the virtual-hardware panel's: say hello as panel"}}
        if method == "deal":
            card = params.get("card")
            error = panel.deal(str(card) if card else None, params.get("after"))
        elif method == "shuffle":
            error = panel.shuffle()
        else:
            where, name = params.get("where"), params.get("button")
            pin = panel.pin(where, name)
            if pin is None:
                return {"error": {"message": f"{method}: no button {name!r} at {where!r}"}}
            if method == "press":
                client.held.add(pin)
                panel.press(pin)
            else:
                client.held.discard(pin)
                if not any(pin in other.held for other in self.clients if other is not client):
                    panel.release(pin)
            error = None
        return {"error": {"message": error}} if error else {"result": {"done": method}}

    def journal_chunk(self, role: str, at: object) -> dict[str, Any]:
        """Whole journal lines from ``at`` ([segment, byte offset]; [0, 0] first), at most :data:`JOURNAL_CHUNK`
        bytes, and where the next chunk starts (None at the end): the console's journal download. The host's
        only, and between hands only: during a hand its card lines are the live hole cards (house rules).
        Redacting them instead would leave a file that no longer rebuilds the table."""
        if role not in ("host", PANEL):
            return {"error": {"message": "the journal is the host's"}}
        if not self.daemon.table.between_hands:
            return {"error": {"message": "the journal holds the hole cards of the hand in progress: download it "
                                         "when the hand is over"}}
        if not (isinstance(at, list) and len(at) == 2 and all(isinstance(n, int) and n >= 0 for n in at)):
            return {"error": {"message": "journal: at is [segment, offset]"}}
        folder: Path | None = getattr(self.daemon.journal, "folder", None)    # a JournalFolder's
        if folder is None:
            return {"error": {"message": "this journal is not a journal folder"}}
        segment, offset = at
        for number in segments_of(folder):
            if number < segment:
                continue
            if number != segment:
                segment, offset = number, 0
            with (folder / segment_name(number)).open("rb") as file:
                file.seek(offset)
                data = file.read(JOURNAL_CHUNK)
            end = data.rfind(b"\n") + 1
            if end:
                return {"result": {"text": data[:end].decode(), "next": [number, offset + end]}}
        return {"result": {"text": "", "next": None}}

    def show_qr(self, role: str, url: object, label: object) -> dict[str, Any]:
        """The host asks for a pairing code on the dealer display (issue 14). The URL carries a token: it is
        drawn, never journaled nor logged, and gone after ``QR_SECONDS`` or at the next console button."""
        if role != "host":
            return {"error": {"message": "pairing codes are the host's"}}
        if not (isinstance(url, str) and url.startswith(("http://", "https://")) and len(url) <= 200
                and isinstance(label, str) and len(label) <= 12):
            return {"error": {"message": "show_qr: url is an http(s) URL, label a short word"}}
        self.daemon.show_on_dealer(qr_screen(url, label), QR_SECONDS)
        return {"result": {"shown": QR_SECONDS}}

    def submit(self, role: str, entry: object, rid: object, confirmed: bool) -> dict[str, Any]:
        """One input from a page: checked for the role, tagged, journaled and applied by the daemon."""
        if not isinstance(entry, Mapping):
            return {"accepted": False, "reason": "input: entry must be a JSON object"}
        kind = entry.get("type")
        if (refusal := may_send(role, kind)) is not None:
            return {"accepted": False, "reason": refusal}
        if kind in CONFIRMED and not confirmed:
            return {"accepted": False, "reason": f"{kind} takes the hand back or ends it: confirm it first"}
        if (answer := self._seen_rid(rid)) is not None:
            return answer
        tagged = _tagged(entry, role, rid)
        if kind == "card":
            tagged["source"] = "manual"           # a card typed in, not read by the shoe (issue 14)
        outcome = self.daemon.submit(tagged)
        self.daemon.refresh()
        return {"accepted": outcome.accepted, "reason": outcome.reason,
                "alerts": [{"rule": a.rule, "message": a.message} for a in outcome.alerts]}

    def _seen_rid(self, rid: object) -> dict[str, Any] | None:
        """The answer for a request id that is malformed or already journaled (applied once, across
        restarts); None: a new one, or none."""
        if rid is not None and (not isinstance(rid, str) or len(rid) > 64):
            return {"accepted": False, "reason": "rid must be a string of at most 64 characters"}
        if rid is not None and rid in self.rids:
            return {"accepted": True, "duplicate": True}
        return None

    def change_table(self, changes: object, rid: object) -> dict[str, Any]:
        """The host's game form: only the fields changed, laid over the table in force (or over the change
        already waiting for the hand's end), checked by the engine's parser, then journaled as a whole
        ``table`` input. During a hand it is journaled at once and applied from the next hand
        (``Controller.queue_table``): the answer says so."""
        if (answer := self._seen_rid(rid)) is not None:
            return answer
        daemon = self.daemon
        try:
            current = parse_config(daemon.pending_table) if daemon.pending_table is not None else daemon.table.config
            entry = game_form.changed_table(current, changes)
            wanted = parse_config(entry)
        except InputError as error:
            return {"accepted": False, "reason": str(error)}
        panels = max(daemon.seat_slots, default=0)
        if wanted.seats > panels:                # a seat without buttons could never act (the config's [[seats]])
            return {"accepted": False, "reason": f'table: "seats" {wanted.seats}: this table has seat panels for '
                                                 f"seats 1 to {panels} only (the config's [[seats]])"}
        tagged = _tagged(entry, "host", rid)
        if daemon.table.table_may_change():
            outcome = daemon.submit(tagged)
            later = False
        else:
            outcome = daemon.queue_table(tagged)
            later = outcome.accepted
        daemon.refresh()
        return {"accepted": outcome.accepted, "reason": outcome.reason, "pending": later,
                "alerts": [{"rule": a.rule, "message": a.message} for a in outcome.alerts]}

    def setup(self) -> dict[str, Any]:
        """The host's game form: the values in force, where they came from, a change waiting for the hand's
        end, and the choices (games, presets, policies)."""
        daemon = self.daemon
        config = daemon.table.config
        pending = daemon.pending_table
        shown = parse_config(pending) if pending is not None else config      # the form shows what comes next
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
        table = self.daemon.table
        key = (tuple(self.ledger.events), tuple((s, i.player, i.stack) for s, i in sorted(table.seats.items())))
        if self._summary is None or self._summary[0] != key:
            self._summary = (key, self.ledger.summary(table))
        return self._summary[1]

    def view(self, role: str) -> dict[str, Any]:
        if role == PANEL and self.panel is not None:     # the host's view and the virtual hardware's
            return {**self.view("host"), **self.panel.view()}
        extra = {"ledger": self.ledger_summary(), "setup": self.setup()} if role == "host" else {}
        return role_view(role, self.daemon.table, self.status(), extra)

    def _push(self) -> None:
        self._push_due = False
        views: dict[str, dict[str, Any]] = {}
        for client in list(self.clients):
            if client.role is None:
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


def _tagged(entry: Mapping[str, Any], by: str, rid: object) -> dict[str, Any]:
    """``entry`` as journaled: who sent it, when, and its request id if it has one."""
    return {**entry, "by": by, "at": utc_now(), **({"rid": rid} if rid is not None else {})}
