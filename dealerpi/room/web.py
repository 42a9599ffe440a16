"""The room page (aiohttp, the console's access style, docs/console.md): every table at a glance, the open
seats and waiting lists of the cash games, the players' statistics, the tournament's clock, field and desk
(registration, start); a WebSocket pushes the whole summary after every change (it is small: a few KB for
twenty tables). A player's sessions are asked for when the page opens his row (``/stats.json?player=NAME``):
they are not in the summary, which every change sends to every page.

Access is the console's guard (:mod:`dealerpi.webkit.access`): a token per role in ``state/tokens.json``
(:func:`dealerpi.webkit.pairing.load_tokens`; the host's token manages the waiting lists, the board's and
dealer's only look); without a token only on a loopback ``listen`` and a loopback Host, as the host. A change
(POST) needs this page's own Origin. No access log.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import hashlib
import json
from collections.abc import Callable
from importlib import resources
from typing import Any, TypeVar, assert_never

from aiohttp import web

from dealerpi.level_time import utc
from dealerpi.room.director.controls import ControlError
from dealerpi.room.service import RoomService
from dealerpi.room.store import COUNTS
from dealerpi.webkit.access import ROLE, same_origin, token_guard
from dealerpi.wire import room_pages
from dealerpi.wire.limits import LimitError, read_json
from dealerpi.wire.pages import PageOpError

COOKIE = "dealerpi_room"
PAGE = resources.files("dealerpi.room") / "static" / "room.html"
MONEY_JS = resources.files("dealerpi.room") / "static" / "money.js"


class RoomPage:
    def __init__(self, service: RoomService, tokens: dict[str, str], token_required: bool) -> None:
        self.service, self.tokens, self.token_required = service, tokens, token_required
        self.sockets: dict[web.WebSocketResponse, str] = {}       # each page's socket and its role
        self._due = False
        service.listeners.append(self._changed)

    def app(self) -> web.Application:
        guard = token_guard(self.tokens, self.token_required, COOKIE, what="the room",
                            where="the room's pairing.txt")
        app = web.Application(middlewares=[guard])
        app.on_response_prepare.append(_framing_headers)
        app.router.add_get("/", self._page)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/summary.json", self._summary)
        app.router.add_get("/stats.json", self._player)
        app.router.add_post("/waiting", self._waiting)
        app.router.add_post("/tournament", self._tournament)
        app.router.add_get("/money.js", _money_js)          # the tournament's money part of the page (its own file)
        app.router.add_post("/director", self._director)
        return app

    async def _page(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=PAGE.read_text(encoding="utf-8"), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    def _view(self, request: web.Request) -> dict[str, Any]:
        return {"role": request[ROLE], **self.service.summary()}

    async def _summary(self, request: web.Request) -> web.StreamResponse:
        return web.json_response(self._view(request))

    async def _player(self, request: web.Request) -> web.StreamResponse:
        """``?player=NAME``: his statistics overall and per session, the newest first (docs/room.md
        "Statistics"); every role may look, as every role sees the overall lines in the summary."""
        player = request.query.get("player", "")
        if not player.strip():
            raise web.HTTPBadRequest(text="400: /stats.json?player=NAME: the player whose statistics\n")
        minutes = self.service.settings.session_gap_minutes
        found = self.service.store.player_sessions(player, round(minutes * 60))
        if not found:
            raise web.HTTPNotFound(text=f"404: the room has no hands of {player!r}\n")
        return web.json_response({
            "player": player, "session_gap_minutes": minutes,
            "overall": {key: sum(getattr(session, key) for session in found) for key in COUNTS},
            "sessions": [{"table": s.table, "from": utc(s.start), "to": utc(s.end),
                          **{key: getattr(s, key) for key in COUNTS}} for s in found]})

    async def _waiting(self, request: web.Request) -> web.StreamResponse:
        """The host's waiting-list operations (:data:`dealerpi.wire.room_pages.WaitingOp`): ``{"op": "add",
        "game", "player"}``, ``{"op": "remove", "id"}``, ``{"op": "seat", "game"}`` (the first waiting player
        to the first open seat)."""
        op = _read(await _hosts_body(request, "the waiting lists are the host's"), room_pages.read_waiting)
        match op:
            case room_pages.AddWaiting():
                if not 0 < len(op.player.strip()) <= 24:
                    raise web.HTTPBadRequest(text="400: player: a name of 1 to 24 characters\n")
                try:
                    result: dict[str, Any] = {"id": self.service.add_waiting(self._game(op.game), op.player)}
                except ValueError as exc:
                    raise web.HTTPBadRequest(text=f"400: {exc}\n") from None
            case room_pages.RemoveWaiting():
                self.service.store.unwait(op.id)
                result = {"removed": op.id}
            case room_pages.SeatNext():
                result = {"command": await self.service.seat_next(self._game(op.game))}
            case _:
                assert_never(op)          # a new waiting op without its case is a type error (mypy)
        self._changed()
        return web.json_response(result)

    def _game(self, game: str) -> str:
        games = {g.name for g in self.service.settings.games}
        if game not in games:
            raise web.HTTPBadRequest(text=f"400: game: one of {', '.join(sorted(games))}\n")
        return game

    async def _tournament(self, request: web.Request) -> web.StreamResponse:
        """The host's tournament operations (:data:`dealerpi.wire.room_pages.TournamentOp`): ``{"op":
        "register", "player": NAME}``, ``{"op": "start"}``, and the money's rebuy, addon, race and deal
        (room/director/deal.py, docs/room.md)."""
        op = _read(await _hosts_body(request, "the tournament desk is the host's"), room_pages.read_tournament)
        try:
            match op:
                case room_pages.Register():
                    self.service.register(op.player)
                case room_pages.Start():
                    await self.service.start_tournament()
                case room_pages.Rebuy() | room_pages.Addon() | room_pages.Race() | room_pages.Deal():
                    await self.service.tournament_money(room_pages.body(op))
                case _:
                    assert_never(op)      # a new tournament op without its case is a type error (mypy)
        except ValueError as exc:                       # TournamentError, MoneyError, DealError
            raise web.HTTPBadRequest(text=f"400: {exc}\n") from None
        self._changed()
        return web.json_response(self.service.tournament())

    async def _director(self, request: web.Request) -> web.StreamResponse:
        """The director's controls (dealerpi/room/director/controls.py, docs/room.md): the host's only, as the desk;
        ``{"id": ..., "op": ...}`` (:data:`dealerpi.wire.room_pages.Control`); the answer is ``{"answer":
        TEXT}``, a refusal a 400 with the reason."""
        op = _read(await _hosts_body(request, "the director's controls are the host's"), room_pages.read_control)
        try:
            answer = await self.service.control(room_pages.body(op))
        except ControlError as exc:
            raise web.HTTPBadRequest(text=f"400: {exc}\n") from None
        self._changed()
        return web.json_response({"answer": answer})

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        if not same_origin(request):
            raise web.HTTPForbidden(text="403: a page of another origin cannot open the room\n")
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        self.sockets[ws] = request[ROLE]
        try:
            await ws.send_str(json.dumps(self._view(request)))
            async for _ in ws:
                pass
        finally:
            self.sockets.pop(ws, None)
        return ws

    def _changed(self) -> None:
        if self._due or not self.sockets:
            return
        with contextlib.suppress(RuntimeError):
            asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self._push()))
            self._due = True

    async def _push(self) -> None:
        self._due = False
        summary = self.service.summary()
        for ws, role in list(self.sockets.items()):
            if not ws.closed:
                with contextlib.suppress(ConnectionError):
                    await ws.send_str(json.dumps({"role": role, **summary}))


async def _money_js(request: web.Request) -> web.StreamResponse:
    return web.Response(text=MONEY_JS.read_text(encoding="utf-8"), content_type="text/javascript",
                        headers={"Cache-Control": "no-store"})


def _inline_hashes(page: str) -> str:
    """CSP sources for the page's own inline <style> and <script> (CSP Level 2 hash sources: exactly this
    text runs; anything injected does not)."""
    found = []
    for tag, kind in (("style", "style-src"), ("script", "script-src")):
        body = page.split(f"<{tag}>", 1)[1].split(f"</{tag}>", 1)[0]
        found.append(f"{kind} 'self' 'sha256-{base64.b64encode(hashlib.sha256(body.encode()).digest()).decode()}'")
    return "; ".join(found)


# issue 20: no page of the room's in another site's frame (clickjacking: the host's buttons), as the console's:
# X-Frame-Options for older browsers, CSP frame-ancestors for the rest; default-src 'self' for everything else
CSP = (f"default-src 'self'; {_inline_hashes(PAGE.read_text(encoding='utf-8'))}; connect-src 'self'; "
       "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


async def _framing_headers(request: web.Request, response: web.StreamResponse) -> None:
    response.headers["X-Frame-Options"] = "DENY"
    response.headers["Content-Security-Policy"] = CSP


_R = TypeVar("_R")


def _read(body: object, reader: Callable[[object], _R]) -> _R:
    """A body as its record (dealerpi/wire/room_pages.py); a 400 naming the key otherwise."""
    try:
        return reader(body)
    except PageOpError as error:
        raise web.HTTPBadRequest(text=f"400: {error}\n") from None


async def _hosts_body(request: web.Request, forbidden: str) -> Any:
    """The JSON body of a change only the host may make (403 ``forbidden`` for anyone else; 400 if the body
    is not JSON)."""
    if request[ROLE] != "host":
        raise web.HTTPForbidden(text=f"403: {forbidden}\n")
    try:           # size and depth before parsing (issue 22, probe 2: a deep body was a 500, RecursionError)
        return read_json(await request.read(), "the body")
    except LimitError as error:
        reason = "the body is a JSON object" if "not JSON" in str(error) else str(error)
        raise web.HTTPBadRequest(text=f"400: {reason}\n") from None
