"""``dealerpi broadcast --config FILE``: the streamed table's feeds, in their own process (issue 21).

Pages and feeds (aiohttp, on ``[broadcast] listen``), each with its own token (docs/broadcast.md):

- ``/venue`` and its WebSocket ``/venue/feed``: live, the public table, never a hole card of a live hand.
  The ``venue`` token, or any of the others, or the machine itself on a loopback listen.
- ``/overlay``, ``/overlay/vertical`` and ``/overlay/feed``: delayed, hole cards, equities, outs; a
  countdown while the delay fills. The ``broadcast`` token, always (on loopback too).
- ``/clips.csv``, ``/clips.edl``, ``POST /tags``: the host's clip list and tags (``host`` token; the POST
  with ``Authorization: Bearer TOKEN``).
- With ``mqtt = true``: the delayed feed's messages to the room's broker too (:mod:`dealerpi.broadcast.mqtt`).
- With ``room_url``: the room's statistics read for VPIP/PFR (:mod:`dealerpi.broadcast.room_stats`).

No request parameter chooses a moment: the delayed feed is what :class:`~dealerpi.broadcast.delay.DelayLine`
has released by this process's clock. Tokens live in ``state/tokens.json`` (0600); the URLs with them in
``state/pairing.txt``; never printed nor logged (no access log).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from dealerpi.broadcast.link import follow
from dealerpi.broadcast.room_stats import poll
from dealerpi.broadcast.session import BroadcastSession
from dealerpi.broadcast.settings import BroadcastSettings, SettingsError, load
from dealerpi.broadcast.store import Store, StoreError
from dealerpi.journal.folder import folder_for
from dealerpi.webkit.access import is_loopback
from dealerpi.webkit.pairing import load_tokens, role_of, write_private
from dealerpi.webkit.running import run_until_signal
from dealerpi.webkit.static_files import static_file
from dealerpi.wire.limits import LimitError, read_json
from dealerpi.wire.records import RecordError, convert
from dealerpi.wire.room_pages import Tag

_LOGGER = logging.getLogger(__name__)

ROLES = ("venue", "broadcast", "host")
COOKIE = "dealerpi_broadcast"
STATIC = resources.files("dealerpi.broadcast") / "static"
RELEASE_EVERY = 0.1                  # seconds between two looks at the delay line
MAX_NOTE = 200


@dataclass
class Broadcast:
    """The web side: access, pages, the two feeds."""

    session: BroadcastSession
    tokens: dict[str, str]
    loopback: bool
    title: str = "DealerPi"
    venue_sockets: set[web.WebSocketResponse] = field(default_factory=set)
    overlay_sockets: dict[web.WebSocketResponse, dict[str, Any]] = field(default_factory=dict)   # -> status sent
    _sending: set[asyncio.Future[None]] = field(default_factory=set)
    outlets: list[Callable[[dict[str, Any]], None]] = field(default_factory=list)   # the broker's publisher
    _outlet_status: dict[str, Any] | None = None

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self._index)
        app.router.add_get("/venue", self._page("venue.html", "venue"))
        app.router.add_get("/overlay", self._page("overlay.html", "broadcast"))
        app.router.add_get("/overlay/vertical", self._page("overlay.html", "broadcast"))
        app.router.add_get("/venue/feed", self._venue_feed)
        app.router.add_get("/overlay/feed", self._overlay_feed)
        app.router.add_get("/static/{name}", self._static)
        app.router.add_get("/clips.csv", self._clips_csv)
        app.router.add_get("/clips.edl", self._clips_edl)
        app.router.add_post("/tags", self._tag)
        self.session.venue_listeners.append(self._to_venue)
        return app

    # --- access ---------------------------------------------------------------------------------------

    def _role(self, request: web.Request) -> str | None:
        header = request.headers.get("Authorization", "")
        given = header.removeprefix("Bearer ").strip() if header.startswith("Bearer ") else ""
        given = given or request.query.get("token") or request.cookies.get(COOKIE) or ""
        if given:
            return role_of(given, self.tokens)
        host = urlsplit(f"//{request.host}").hostname or ""
        return "local" if self.loopback and is_loopback(host) else None

    def _allow(self, request: web.Request, wanted: str) -> None:
        """Raise unless the request may open ``wanted``'s pages: the venue's for any token or the machine
        itself on a loopback listen; the delayed feed's and the host's only with their own token."""
        role = self._role(request)
        if role == wanted or (wanted == "venue" and role in ("local", "host", "broadcast")):
            socket = request.headers.get("Upgrade", "").lower() == "websocket"
            if "token" in request.query and not socket:      # out of the address bar, into a cookie
                response = web.HTTPSeeOther(request.path)
                response.set_cookie(COOKIE, request.query["token"], httponly=True, samesite="Strict",
                                    max_age=400 * 86400)
                raise response
            if socket and not _same_origin(request):
                raise web.HTTPForbidden(text="403: a feed opened from another site's page\n")
            return
        raise web.HTTPUnauthorized(text=f"401: this needs the {wanted} token: see the broadcast's pairing.txt\n")

    # --- pages ----------------------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        raise web.HTTPSeeOther("/venue")

    def _page(self, name: str, role: str) -> Callable[[web.Request], Any]:
        async def page(request: web.Request) -> web.StreamResponse:
            self._allow(request, role)
            body = (STATIC / name).read_text(encoding="utf-8")
            return web.Response(text=body, content_type="text/html", headers={"Cache-Control": "no-store"})
        return page

    async def _static(self, request: web.Request) -> web.StreamResponse:
        return static_file(STATIC, request.match_info["name"])

    # --- feeds ----------------------------------------------------------------------------------------

    async def _venue_feed(self, request: web.Request) -> web.StreamResponse:
        self._allow(request, "venue")
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        self.venue_sockets.add(socket)
        try:
            if self.session.venue is not None:
                await socket.send_json({"type": "frame", "frame": self.session.venue})
            async for message in socket:
                if message.type == WSMsgType.ERROR:
                    break
        finally:
            self.venue_sockets.discard(socket)
        return socket

    async def _overlay_feed(self, request: web.Request) -> web.StreamResponse:
        self._allow(request, "broadcast")
        socket = web.WebSocketResponse(heartbeat=30)
        await socket.prepare(request)
        self.overlay_sockets[socket] = status = self.session.status()
        try:
            await socket.send_json({"type": "status", "status": status})
            if self.session.current is not None:
                await socket.send_json({"type": "frame", "frame": self.session.current})
            async for message in socket:        # nothing a client sends changes what it is sent
                if message.type == WSMsgType.ERROR:
                    break
        finally:
            self.overlay_sockets.pop(socket, None)
        return socket

    def _to_venue(self, frame: dict[str, Any]) -> None:
        for socket in list(self.venue_sockets):
            task = asyncio.ensure_future(_send(socket, {"type": "frame", "frame": frame}))
            self._sending.add(task)
            task.add_done_callback(self._sending.discard)

    async def release_loop(self) -> None:
        """Send the delayed frames as they come due, and the countdown as it changes."""
        while True:
            await self.release_once()
            await asyncio.sleep(RELEASE_EVERY)

    async def release_once(self) -> None:
        frames = [{"type": "frame", "frame": frame} for frame in self.session.release()]
        status = self.session.status()
        if self.outlets:
            messages = frames if status == self._outlet_status else [{"type": "status", "status": status}, *frames]
            self._outlet_status = status
            for outlet in self.outlets:
                for message in messages:
                    outlet(message)
        for socket, sent in list(self.overlay_sockets.items()):
            if status != sent:
                self.overlay_sockets[socket] = status
                await _send(socket, {"type": "status", "status": status})
            for message in frames:
                await _send(socket, message)

    # --- clips and tags -------------------------------------------------------------------------------

    async def _clips_csv(self, request: web.Request) -> web.StreamResponse:
        self._allow(request, "host")
        text = self.session.clips.csv_text(self.session.line.first_hand_ms, self.session.delay_ms)
        return web.Response(text=text, content_type="text/csv",
                            headers={"Content-Disposition": 'attachment; filename="clips.csv"'})

    async def _clips_edl(self, request: web.Request) -> web.StreamResponse:
        self._allow(request, "host")
        tagged = request.query.get("tagged") == "1"
        text = self.session.clips.edl_text(self.session.line.first_hand_ms, self.title, tagged_only=tagged)
        return web.Response(text=text, content_type="text/plain",
                            headers={"Content-Disposition": 'attachment; filename="clips.edl"'})

    async def _tag(self, request: web.Request) -> web.StreamResponse:
        """``POST /tags`` ``{"note": "..."}`` with ``Authorization: Bearer HOST_TOKEN`` (a header no other
        site's page can make a browser send, so no cross-site forgery)."""
        header = request.headers.get("Authorization", "")
        if not header.startswith("Bearer ") or role_of(header[7:].strip(), self.tokens) != "host":
            raise web.HTTPUnauthorized(text="401: POST /tags needs Authorization: Bearer <host token>\n")
        try:           # size and depth before parsing, then the record (issue 22; dealerpi/wire/room_pages.py)
            tag = convert(read_json(await request.read(), "the body"), Tag)
        except LimitError as error:
            reason = 'the body is JSON: {"note": "..."}' if "not JSON" in str(error) else str(error)
            raise web.HTTPBadRequest(text=f"400: {reason}\n") from None
        except RecordError as error:
            raise web.HTTPBadRequest(text=f"400: {error}\n") from None
        if len(tag.note) > MAX_NOTE:
            raise web.HTTPBadRequest(text=f'400: "note" is a string of at most {MAX_NOTE} characters\n')
        clip = self.session.clips.tag(tag.note, self.session.clock())
        if clip is None:
            raise web.HTTPConflict(text="409: no hand yet to tag\n")
        return web.json_response({"hand": clip.number, "tags": clip.tags})

    async def close(self) -> None:
        for socket in [*self.venue_sockets, *self.overlay_sockets]:
            await socket.close()


def _same_origin(request: web.Request) -> bool:
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


async def _send(socket: web.WebSocketResponse, message: dict[str, Any]) -> None:
    with contextlib.suppress(ConnectionError, RuntimeError):
        await socket.send_json(message)


def wall_ms() -> int:
    return int(time.time() * 1000)


def make_session(settings: BroadcastSettings, clock: Callable[[], int] = wall_ms) -> BroadcastSession:
    store = Store(settings.state)
    session = BroadcastSession(store, folder_for(settings.journal), settings.delay_ms, settings.sync_ms, clock,
                               settings.floor_ms)
    session.load()
    return session


async def serve(settings: BroadcastSettings, clock: Callable[[], int] = wall_ms,
                ready: Callable[[Broadcast, int], None] | None = None) -> None:
    """Serve until cancelled."""
    session = make_session(settings, clock)
    tokens = load_tokens(settings.state, ROLES)
    host, port = settings.listen_address()
    broadcast = Broadcast(session, tokens, loopback=is_loopback(host))
    runner = web.AppRunner(broadcast.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, host, port)
    await site.start()
    port = runner.addresses[0][1]
    shown = f"[{host}]" if ":" in host else host
    urls = {"venue": f"http://{shown}:{port}/venue?token={tokens['venue']}",
            "overlay": f"http://{shown}:{port}/overlay?token={tokens['broadcast']}",
            "overlay-vertical": f"http://{shown}:{port}/overlay/vertical?token={tokens['broadcast']}",
            "host-token": tokens["host"]}
    write_private(settings.state / "pairing.txt", "".join(f"{k} {v}\n" for k, v in urls.items()))
    print(f"DealerPi broadcast on {host}:{port}, delay {settings.delay_ms // 60000} min; the URLs with their "
          f"tokens: {settings.state / 'pairing.txt'}", flush=True)
    tasks = [asyncio.ensure_future(follow(settings.socket, session)), asyncio.ensure_future(broadcast.release_loop())]
    if settings.mqtt is not None:                   # the delayed feed to the room's broker too
        from dealerpi.broadcast.mqtt import Publisher  # aiomqtt only for a table that publishes

        publisher = Publisher(settings.mqtt)
        if session.current is not None:
            publisher.put({"type": "frame", "frame": session.current})
        broadcast.outlets.append(publisher.put)
        tasks.append(asyncio.ensure_future(publisher.run()))
    if settings.room_url is not None and settings.room_token is not None:   # VPIP/PFR from the room
        tasks.append(asyncio.ensure_future(poll(settings.room_url, settings.room_token, session)))
    if ready is not None:
        ready(broadcast, port)
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_EXCEPTION)
        for task in done:
            task.result()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        await broadcast.close()
        await runner.cleanup()
        session.odds.close()


def main(argv: list[str]) -> int:
    """``dealerpi broadcast --config FILE``."""
    parser = argparse.ArgumentParser(prog="dealerpi broadcast",
                                     description="The streamed table: a live venue feed and a delayed broadcast feed.")
    parser.add_argument("--config", type=Path, default=Path("/etc/dealerpi/broadcast.toml"))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    try:
        settings = load(args.config)
    except SettingsError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    try:
        return run_until_signal(serve(settings), "dealerpi broadcast")
    except (StoreError, RuntimeError) as exc:
        print(f"dealerpi broadcast: {exc}", file=sys.stderr)
        return 1
