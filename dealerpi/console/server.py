"""``dealerpi console --config FILE``: the host's, the dealer's and the board's pages, in their own process.

The table daemon stays off the network; this process serves the pages (aiohttp) on ``[console] listen`` and
talks to the daemon over its Unix socket (:mod:`dealerpi.table.api.server`): each page's WebSocket gets its own
connection to the daemon, which sends that role's view once and then only its changes, and which checks
every input against the role again. The console decides nothing about the rules.

Access (:mod:`dealerpi.webkit.access`, shared with the room page): each role has a token
(:mod:`dealerpi.webkit.pairing`), a page opened with ``?token=`` gets it as a cookie, a loopback ``listen``
lets the machine itself in as the host, a change needs the page's own Origin. The token's role decides which
pages it may open: host all three, dealer the dealer's and the board's, board the board's. No access log: a
URL may carry a token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import msgspec
from aiohttp import WSCloseCode, WSMsgType, web

from dealerpi import config as config_module
from dealerpi.books.ledger import csv_text
from dealerpi.books.money import pokernow_csv
from dealerpi.console.histories import HandHistories
from dealerpi.console.history_routes import HistoryRoutes
from dealerpi.webkit.access import DEVICE, ROLE, is_loopback, same_origin, security_headers, token_guard
from dealerpi.webkit.devices import CODE_SECONDS, Devices
from dealerpi.webkit.pairing import load_tokens, local_address, local_name, page_urls, qr_svg, write_pairing
from dealerpi.webkit.static_files import static_file
from dealerpi.wire import api, pages
from dealerpi.wire.api import InputAnswer, JournalChunk, NoteAnswer, QrShown
from dealerpi.wire.protocol import PANEL, Decoder, ProtocolError, encode, merge
from dealerpi.wire.records import RecordError, convert, unspoken
from dealerpi.wire.views import RECORDS, BoardView, HelloResult, Ledger, ViewError, read_changed
from dealerpi.wire.views import VERSION as VIEW_VERSION

_LOGGER = logging.getLogger(__name__)

COOKIE = "dealerpi_console"
STATIC = resources.files("dealerpi.console") / "static"
# which pages a token of each role may open (a page's role is the role its connection to the daemon has)
# (the panel: the virtual hardware of a daemon on fake devices, dealerpi.sim.panel; the host's only)
PAGES = {"host": ("host", "dealer", "board", PANEL), "dealer": ("dealer", "board"), "board": ("board",)}
REQUEST_SECONDS = 10.0
OFFLINE = {"type": "offline", "message": "the table daemon went away: this page reconnects when it is back"}


class DaemonLink:
    """One connection to the daemon's socket: requests with ids, and the pushed view changes handed to
    ``on_push`` in the order they came (the hello's whole view first).

    Every view is checked at this boundary (issue 22): the hello's answer as :class:`HelloResult` with the
    role's record, each change merged into this link's copy and the sections it changed read again as the
    record's (:func:`dealerpi.wire.views.read_changed`). A view that is not its record is logged with the key named and
    the link closed: the pages say offline rather than show a view nobody checked. :attr:`record` is the
    view now, typed."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter,
                 on_push: Callable[[dict[str, Any]], Awaitable[None]]) -> None:
        self._reader, self._writer, self._on_push = reader, writer, on_push
        self._pending: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._next_id = 0
        self.role: str | None = None            # the role said in hello: its view's record
        self._view: dict[str, Any] = {}         # the view with every change merged: what is checked
        self.record: BoardView | None = None
        self.closed = asyncio.Event()
        self._task = asyncio.ensure_future(self._pump())

    @classmethod
    async def open(cls, path: Path, on_push: Callable[[dict[str, Any]], Awaitable[None]]) -> DaemonLink:
        reader, writer = await asyncio.open_unix_connection(str(path))
        return cls(reader, writer, on_push)

    async def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._pending[number := self._next_id] = future
        if method == "hello":
            self.role = str(params.get("role"))
        self._writer.write(encode({"id": number, "method": method, "params": params}))
        try:
            return await asyncio.wait_for(future, REQUEST_SECONDS)
        finally:
            self._pending.pop(number, None)      # answered or timed out: a link open all week keeps none

    async def _pump(self) -> None:
        decoder = Decoder(max_message=None)      # the daemon's views: no cap (issue 22, probe 6; protocol.py)
        try:
            while data := await self._reader.read(65536):
                for message in decoder.feed(data):
                    future = self._pending.pop(message.get("id", -1), None)
                    if "view" in message.get("result", {}):          # the hello's answer: the whole view
                        self._first(message["result"])
                        await self._on_push({"type": "view", "view": message["result"]["view"]})
                    elif message.get("method") == "view":
                        self._follow(message.get("params"))
                        await self._on_push({"type": "changes", "changes": message.get("params", {})})
                    if future is not None and not future.done():
                        future.set_result(message)
        except (ConnectionError, ProtocolError) as exc:
            _LOGGER.warning("the daemon's socket: %s", exc)
        except ViewError as exc:
            _LOGGER.error("the daemon's socket: a view refused, the link closed: %s", exc)
        finally:
            self.closed.set()
            for future in self._pending.values():
                if not future.done():
                    future.set_exception(ConnectionError("the table daemon closed the connection"))

    def _first(self, result: object) -> None:
        """The hello's answer, checked as :class:`HelloResult` of the role's view; kept as a copy to merge
        the changes into (the caller forwards the frame itself)."""
        record = RECORDS.get(self.role or "")
        if record is None:
            raise ViewError(f"a view for the role {self.role!r}, which has none")
        try:
            hello: HelloResult[BoardView] = convert(result, HelloResult[record])  # type: ignore[valid-type]
        except RecordError as error:
            raise ViewError(f"the {self.role}'s hello: {error}") from None
        if (refusal := unspoken(hello.view.v, VIEW_VERSION, "this console")) is not None:
            raise ViewError(f"the {self.role}'s view: {refusal}")
        self.record = hello.view
        self._view = msgspec.json.decode(msgspec.json.encode(result["view"]))  # type: ignore[index]

    def _follow(self, changes: object) -> None:
        """A pushed change merged into the copy, and the sections it changed read again as the record's."""
        if self.role is None or self.record is None:
            raise ViewError("a view's change before any hello")
        if not isinstance(changes, dict):
            raise ViewError(f"the {self.role}'s view: a change is a JSON object, not {type(changes).__name__}")
        merge(self._view, msgspec.json.decode(msgspec.json.encode(changes)))   # a copy: the frame goes on
        self.record = read_changed(self.role, self.record, self._view, changes)

    async def close(self) -> None:
        self._writer.close()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


@dataclass
class Console:
    """The web side: access by role, the pages, the WebSocket relay to the daemon."""

    socket_path: Path
    tokens: dict[str, str]
    token_required: bool
    urls: dict[str, str]
    pages: dict[web.WebSocketResponse, str] = field(default_factory=dict)     # each open page's device id
    histories: HandHistories | None = None       # the finished hands, read from the journal (histories.py)
    base: str = ""                               # http://ADDRESS:PORT for pairing codes ("": the request's)
    devices: Devices = field(default_factory=lambda: Devices(None))

    def app(self) -> web.Application:
        guard = token_guard(self.tokens, self.token_required, COOKIE, what="this console",
                            where="the console's pairing.txt or the host's QR code", devices=self.devices,
                            redeemed=self._redeemed)
        app = web.Application(middlewares=[security_headers, guard])
        app.router.add_get("/", self._root)
        for page in PAGES["host"]:
            app.router.add_get(f"/{page}", self._page)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/ledger.csv", self._ledger_csv)
        app.router.add_get("/journal.jsonl", self._journal)
        app.router.add_get("/pair/{role}.svg", self._pair)
        app.router.add_post("/pair/dealer/show", self._pair_on_dealer)     # the dealer's only (issue 19)
        app.router.add_get("/devices.json", self._devices)
        app.router.add_post("/devices/{id}/revoke", self._revoke)
        app.router.add_get("/static/{name}", self._static)
        HistoryRoutes(self.histories, self._view_of).add_to(app)
        return app

    # --- access --------------------------------------------------------------------------------------

    @staticmethod
    def _allowed(request: web.Request, page: str) -> None:
        if page not in PAGES[request[ROLE]]:
            raise web.HTTPForbidden(text=f"403: a {request[ROLE]} token cannot open the {page}'s page\n")

    def _view_of(self, request: web.Request) -> str:
        """The page a request is for (``?view=``, else the token's role), once the token may open it."""
        page = request.query.get("view", request[ROLE])
        if page not in PAGES["host"]:
            raise web.HTTPNotFound()
        self._allowed(request, page)
        return page

    # --- pages and files -----------------------------------------------------------------------------

    async def _root(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPSeeOther(f"/{request[ROLE]}")

    async def _page(self, request: web.Request) -> web.StreamResponse:
        page = request.path.strip("/")
        self._allowed(request, page)
        if page == PANEL:
            answer = await self._ask("hello", {"role": PANEL}, role=None)
            if "error" in answer:
                raise web.HTTPNotFound(text=f"404: {answer['error']['message']}\n")
        return web.Response(text=(STATIC / f"{page}.html").read_text(encoding="utf-8"), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _static(self, request: web.Request) -> web.StreamResponse:
        return static_file(STATIC, request.match_info["name"])

    def _code_url(self, request: web.Request, role: str, seconds: float) -> str:
        """A one-time pairing code's short URL (``/?t=CODE``: small enough for a QR code two pixels a module
        on the dealer display), by this console's address, else the address the host's page came by."""
        base = self.base or f"{request.scheme}://{request.host}"
        return f"{base}/?t={self.devices.issue(role, seconds)}"

    async def _pair(self, request: web.Request) -> web.StreamResponse:
        """The QR code of a one-time pairing code (devices.py) for the dealer's or the board's page, on the
        host's own screen: another phone or a TV scans it and gets a token of its own."""
        self._allowed(request, "host")
        role = request.match_info["role"]
        if role not in ("dealer", "board"):
            raise web.HTTPNotFound()
        svg = qr_svg(self._code_url(request, role, CODE_SECONDS["host"]))
        return web.Response(text=svg, content_type="image/svg+xml",
                            headers={"Cache-Control": "no-store", "Cross-Origin-Resource-Policy": "same-origin"})

    async def _pair_on_dealer(self, request: web.Request) -> web.StreamResponse:
        """A one-time code for the dealer's page on the dealer display, for the dealer to scan at the table:
        good for 30 s and taken off the display once used (devices.py says why). Only the dealer's: the
        host's token never goes on a display the table can see, and there is no route for it."""
        self._allowed(request, "host")
        seconds = CODE_SECONDS["display"]
        answer = await self._ask("show_qr", {"url": self._code_url(request, "dealer", seconds), "label": "dealer",
                                             "seconds": seconds})
        if "error" in answer:
            raise web.HTTPBadRequest(text=f"400: {answer['error']['message']}\n")
        return web.json_response(msgspec.to_builtins(_result(answer, "show_qr", QrShown)))

    def _redeemed(self, role: str) -> None:
        """A code was used: a dealer's code leaves the dealer display at once (it pairs nothing more)."""
        if role == "dealer":
            task = asyncio.ensure_future(self._ask("hide_qr", {}))
            # a daemon away: the code lapses anyway (its exception is taken, not left to the loop's log)
            task.add_done_callback(lambda done: None if done.cancelled() else done.exception())

    async def _devices(self, request: web.Request) -> web.StreamResponse:
        """The paired devices, for the host to see which phone is which and revoke one."""
        self._allowed(request, "host")
        return web.json_response({"devices": self.devices.listing(), "this": request[DEVICE] or None},
                                 headers={"Cache-Control": "no-store"})

    async def _revoke(self, request: web.Request) -> web.StreamResponse:
        """Revoke a device: its token stops working and its open pages are closed now."""
        self._allowed(request, "host")
        device = request.match_info["id"]
        if not self.devices.revoke(device):
            raise web.HTTPNotFound(text=f"404: no paired device {device!r}\n")
        for ws, owner in list(self.pages.items()):
            if owner == device:
                await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"this device was revoked")
        return web.json_response({"revoked": device})

    async def _ledger_csv(self, request: web.Request) -> web.StreamResponse:
        self._allowed(request, "host")
        answer = await self._ask("ledger", {})
        _result(answer, "ledger", Ledger)          # checked as its record; the CSV writers read the dict
        if request.query.get("format") == "pokernow":      # PokerNow's columns, every session (money.py)
            return web.Response(text=pokernow_csv(answer["result"]["sessions"]), content_type="text/csv",
                                headers={"Content-Disposition": 'attachment; filename="ledger_pokernow.csv"'})
        return web.Response(text=csv_text(answer["result"]), content_type="text/csv",
                            headers={"Content-Disposition": 'attachment; filename="ledger.csv"'})

    async def _journal(self, request: web.Request) -> web.StreamResponse:
        """The journal's kept segments as one file, between hands only (409 during a hand: its card lines are
        the live hole cards); read in chunks, each checked again, so a hand that starts meanwhile stops it."""
        self._allowed(request, "host")
        parts: list[str] = []
        at: list[int] | None = [0, 0]
        while at is not None:
            answer = await self._ask("journal", {"at": at})
            if "error" in answer:
                raise web.HTTPConflict(text=f"409: {answer['error']['message']}\n")
            chunk = _result(answer, "journal", JournalChunk)
            parts.append(chunk.text)
            at = None if chunk.next is None else list(chunk.next)
        return web.Response(text="".join(parts), content_type="application/x-ndjson",
                            headers={"Content-Disposition": 'attachment; filename="journal.jsonl"'})

    async def _ask(self, method: str, params: dict[str, Any], role: str | None = "host") -> dict[str, Any]:
        """One request to the daemon as ``role`` (None: no hello first), on a connection of its own."""
        try:
            link = await DaemonLink.open(self.socket_path, _ignore)
        except OSError as exc:
            raise web.HTTPServiceUnavailable(text=f"503: the table daemon does not answer: {exc}\n") from None
        try:
            if role is not None:
                await link.request("hello", {"role": role})
            return await link.request(method, params)
        except (ConnectionError, TimeoutError) as exc:
            raise web.HTTPServiceUnavailable(text=f"503: the table daemon went away: {exc}\n") from None
        finally:
            await link.close()

    # --- the live page -------------------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            raise web.HTTPForbidden(text="403: a page of another origin cannot open this console\n")
        page = self._view_of(request)
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        self.pages[ws] = request[DEVICE]

        async def forward(message: dict[str, Any]) -> None:
            if not ws.closed:
                with contextlib.suppress(ConnectionError):
                    await ws.send_str(json.dumps(message, separators=(",", ":")))

        try:
            link = await DaemonLink.open(self.socket_path, forward)
        except OSError as exc:
            await forward({"type": "offline", "message": f"the table daemon does not answer ({exc.strerror or exc}):"
                                                        " is dealerpi.service running?"})
            await ws.close()
            return ws
        async def watch() -> None:               # the daemon went away: say so; the page reconnects
            await link.closed.wait()
            await forward(OFFLINE)
            await ws.close()

        watcher = asyncio.ensure_future(watch())
        try:
            hello = await link.request("hello", {"role": page})
            if "error" in hello:
                await forward({"type": "refused", "message": hello["error"]["message"]})
                return ws
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await forward(await self._operate(link, message.data))
        except (ConnectionError, TimeoutError):
            await forward(OFFLINE)
        finally:
            watcher.cancel()
            await link.close()
            await ws.close()
            self.pages.pop(ws, None)
        return ws

    async def close(self) -> None:
        """Close every page's socket (the pages reconnect to the next console), so stopping takes no wait."""
        for ws in list(self.pages):
            await ws.close(code=WSCloseCode.GOING_AWAY, message=b"the console stops")

    async def _operate(self, link: DaemonLink, text: str) -> dict[str, Any]:
        """One operation from a page, read once as its record (:mod:`dealerpi.wire.pages`): one that is not
        is refused with the key named and the page's socket reads on; one that is goes to the daemon as the
        request it names, and its answer back to the page in the shape its op gets (:func:`_reply`)."""
        try:
            op = pages.read_op(text)
        except pages.PageOpError as error:
            return {"type": "result", "accepted": False, "reason": str(error),
                    **({} if error.rid is None else {"rid": error.rid})}
        method, params = op.request()
        answer = await link.request(method, api.params(params))
        return {"type": "result", **_reply(op, answer)}


def _reply(op: pages.Op, answer: dict[str, Any]) -> dict[str, Any]:
    """The daemon's answer to ``op`` for the page, by the op's record: an input's and a form's answer read
    as :class:`InputAnswer` (a note's as :class:`NoteAnswer`); the others say only accepted or why not."""
    match op:
        case pages.SendInput():
            return {"rid": op.rid, **_answer(answer, "input")}
        case pages.ChangeTable():                  # the host's game form (game.js): its answer names the form
            return {"rid": op.rid, "form": "game", **_answer(answer, "change_table")}
        case pages.LedgerNote():                   # the host's money (money.js)
            return {"op": "ledger_note", "rid": op.rid, **_answer(answer, "ledger_note", NoteAnswer)}
        case pages.CloseSession():
            return {"op": "close_session", "rid": op.rid, **_answer(answer, "close_session")}
        case pages.ClearAlerts():
            return {**_done(answer), **({} if op.rid is None else {"rid": op.rid})}
        case pages.Press() | pages.Release() | pages.Deal() | pages.Shuffle():   # the panel: the daemon checks
            return {"op": pages.name(op), **_done(answer), **({} if op.rid is None else {"rid": op.rid})}


def _done(answer: dict[str, Any]) -> dict[str, Any]:
    """An answer read only for ``result`` or ``error`` (its content unused)."""
    return {"accepted": "result" in answer, "reason": answer.get("error", {}).get("message")}


async def _ignore(message: dict[str, Any]) -> None:
    return None


def _answer(answer: dict[str, Any], method: str, record: type[InputAnswer] | type[NoteAnswer] = InputAnswer
            ) -> dict[str, Any]:
    """An input's (or a note's) answer for the page: its ``result`` read as its record (dealerpi/wire/api.py)
    and passed on as that record writes it; an error's message as a refusal; an answer that is not its
    record is the daemon's fault: logged with the key named, and the page told the input's fate is unknown."""
    if "result" not in answer:
        return {"accepted": False, "reason": answer.get("error", {}).get("message")}
    try:
        said: dict[str, Any] = msgspec.to_builtins(convert(answer["result"], record))
    except RecordError as error:
        why = str(error)
        _LOGGER.error("the daemon's answer to %s is not its record: %s", method, why)
        return {"accepted": False, "reason": f"the table daemon's answer was not understood ({why}): look at the "
                                             "table before sending it again"}
    return said


_T = TypeVar("_T")


def _result(answer: dict[str, Any], method: str, record: type[_T]) -> _T:
    """An answer's ``result`` as its record (dealerpi/wire): one that is not is the daemon's fault, said in
    the log with the key named and answered 502, never passed on unchecked."""
    try:
        return convert(answer.get("result"), record)
    except RecordError as error:
        why = str(error)
        _LOGGER.error("the daemon's answer to %s is not its record: %s", method, why)
        raise web.HTTPBadGateway(text=f"502: the table daemon's answer to {method} was not understood: "
                                      f"{why}\n") from None


# --- the command ---------------------------------------------------------------------------------------


async def serve(settings: config_module.ConsoleSettings, ready: Callable[[int], None] | None = None,
                journal: Path | None = None) -> None:
    """Serve until cancelled; the hand histories come from ``journal`` (the table config's)."""
    tokens = load_tokens(settings.state)
    host, port = settings.listen_address()
    console = Console(settings.socket, tokens, token_required=not is_loopback(host), urls={},
                      histories=HandHistories(journal) if journal is not None else None,
                      devices=Devices(settings.state / "devices.json"))
    runner = web.AppRunner(console.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    port = runner.addresses[0][1]
    console.urls = page_urls(settings.listen, port, tokens)
    console.base = console.urls["host"].partition("/host?")[0]
    listed = dict(console.urls)
    # the same pages by the mDNS name; asked in a thread: a name nobody answers can take seconds to fail
    if (name := await asyncio.to_thread(local_name, host, local_address())) is not None:
        listed.update({f"{role} (mDNS)": url.replace(console.base, f"http://{name}:{port}")
                       for role, url in console.urls.items()})
    pairing = write_pairing(settings.state, listed)
    # the URLs with tokens go to the pairing file only: never to stdout (the system journal) or a log
    print(f"DealerPi console on {settings.listen.rpartition(':')[0]}:{port}; each role's URL with its token: "
          f"{pairing}", flush=True)
    if ready is not None:
        ready(port)
    try:
        await asyncio.Event().wait()
    finally:
        await console.close()
        await runner.cleanup()
