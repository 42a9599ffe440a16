"""``dealerpi sim``: the simulated table served as one local web page (aiohttp, one WebSocket).

Why aiohttp: it is already a dependency, it is asyncio (the table, the shoe link and the page share one
event loop), and it serves static files and WebSockets without a framework on top.

The page gets the whole state after every change (``state.build_state``) and sends operations: a button
press or release (a mock pin driven low or high), a card to deal, a setup input. Only 127.0.0.1 is served
unless ``--host`` says otherwise; then a token is needed for everything (page, files, WebSocket), given
once as ``?token=`` and kept in a cookie. Without a token, a request must name the loopback host (a DNS
rebinding page names its own), and a WebSocket from a page of another origin is refused: no web site open
in the same browser can drive the table or read it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hmac
import json
import logging
import os
import secrets
import socket
import sys
import tempfile
import webbrowser
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSMsgType, web

from dealerpi import config as config_module
from dealerpi.console.access import is_loopback
from dealerpi.console.running import run_until_signal
from dealerpi.console.static_files import static_file
from dealerpi.journal import JournalError
from dealerpi.journal import read as read_journal
from dealerpi.sim.clock import TournamentClock
from dealerpi.sim.histories import phh_text
from dealerpi.sim.host import SimTable
from dealerpi.sim.state import ImageCache, build_state

_LOGGER = logging.getLogger(__name__)

DEFAULT_PORT = 8765
COOKIE = "dealerpi_sim_token"
STATIC = resources.files("dealerpi.sim") / "static"
SIM_CONFIG = resources.files("dealerpi.sim") / "table.toml"
START_JOURNAL = resources.files("dealerpi.sim") / "start.jsonl"


@dataclass(eq=False)
class _Viewer:
    socket: web.WebSocketResponse
    training: bool = False
    last: str = ""
    held: set[tuple[int | str, str]] = field(default_factory=set)   # pins this viewer pressed, not released


@dataclass
class SimServer:
    """The web side: routes, viewers, and the push after every change of the table."""

    sim: SimTable
    token: str | None = None
    viewers: set[_Viewer] = field(default_factory=set)
    images: ImageCache = field(default_factory=ImageCache)
    clock: TournamentClock | None = None
    _push_due: bool = False

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app.router.add_get("/", self._index)
        app.router.add_get("/ws", self._socket)
        app.router.add_get("/download/journal.jsonl", self._journal)
        app.router.add_get("/download/hands.phhs", self._hands)
        app.router.add_get("/static/{name}", self._static)
        self.sim.on_change(self.push_soon)
        return app

    # --- access --------------------------------------------------------------------------------------

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]) -> web.StreamResponse:
        """Without the token (when one is set) there is nothing to see: not the page, not a file."""
        if self.token is None:
            if not is_loopback(urlsplit(f"//{request.host}").hostname or ""):
                return web.Response(status=403, text="403: this table answers to 127.0.0.1 only\n")
            return await handler(request)
        given = request.query.get("token") or request.cookies.get(COOKIE) or ""
        if not hmac.compare_digest(given.encode(), self.token.encode()):
            return web.Response(status=401, text="401: this table needs its token (the URL dealerpi sim printed)\n")
        response = await handler(request)
        if request.query.get("token"):
            response.set_cookie(COOKIE, self.token, httponly=True, samesite="Strict")
        return response

    # --- pages and files -----------------------------------------------------------------------------

    async def _index(self, request: web.Request) -> web.StreamResponse:
        return web.Response(text=(STATIC / "index.html").read_text(encoding="utf-8"), content_type="text/html",
                            headers={"Cache-Control": "no-store"})

    async def _static(self, request: web.Request) -> web.StreamResponse:
        return static_file(STATIC, request.match_info["name"])

    async def _journal(self, request: web.Request) -> web.StreamResponse:
        """The journal, between hands only: during a hand its card lines are the live hand's hole cards, which
        no viewer may see (house rules). Redacting them would leave a file that no longer rebuilds the table."""
        if not self.sim.table.between_hands:
            return web.Response(status=409, text="409: the journal holds the hole cards of the hand in progress: "
                                                 "download it when the hand is over\n")
        return web.Response(body=self.sim.journal_path.read_bytes(), content_type="application/x-ndjson",
                            headers={"Content-Disposition": 'attachment; filename="journal.jsonl"'})

    async def _hands(self, request: web.Request) -> web.StreamResponse:
        text = phh_text(self.sim.table.accepted)
        return web.Response(text=text, content_type="application/toml",
                            headers={"Content-Disposition": 'attachment; filename="hands.phhs"'})

    # --- the live page -------------------------------------------------------------------------------

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and urlsplit(origin).netloc != request.host:
            raise web.HTTPForbidden(text="403: a page of another origin cannot open this table\n")
        ws = web.WebSocketResponse(heartbeat=20)
        await ws.prepare(request)
        viewer = _Viewer(ws)
        self.viewers.add(viewer)
        try:
            await self._send(viewer)
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    continue
                try:
                    operation = json.loads(message.data)
                    error = self.operate(viewer, operation) if isinstance(operation, dict) else "not an object"
                except (ValueError, KeyError, TypeError) as exc:
                    error = f"bad operation: {exc}"
                if error:
                    await ws.send_json({"type": "error", "message": error})
                self.push_soon()
        finally:
            self.viewers.discard(viewer)
            self._release_held(viewer)
        return ws

    def _release_held(self, viewer: _Viewer) -> None:
        """A press cut off by a reload, a closed tab or a lost connection would stay held for ever (a BET tap
        stepping to ALL-IN): release every pin the closed page held that no other page still holds."""
        still_held = set().union(*(other.held for other in self.viewers))
        for where, name in viewer.held - still_held:
            self.sim.release(where, name)
        viewer.held.clear()
        self.push_soon()

    def operate(self, viewer: _Viewer, op: dict[str, Any]) -> str | None:
        """Carry out one operation from the page; return an error to show, or None."""
        kind = op.get("op")
        sim = self.sim
        if kind in ("press", "release"):
            where: int | str = "dealer" if "console" in op else int(op["seat"])
            name = str(op["console"] if "console" in op else op["button"])
            if not sim.has_button(where, name):
                return f"no such button: {where} {name}"
            if kind == "press":
                viewer.held.add((where, name))
                sim.press(where, name)
            else:
                viewer.held.discard((where, name))
                sim.release(where, name)
            return None
        if kind == "training":
            viewer.training = bool(op.get("on"))
            return None
        if kind == "deal":
            card = op.get("card")
            return sim.deal(str(card) if card else None)
        if kind == "flag":
            if op.get("kind") not in ("exposed", "boxed"):
                return "flag: kind is exposed or boxed"
            return sim.flag(str(op["kind"]))
        if kind == "shuffle":
            sim.shuffle()
            return None
        if kind == "input":
            entry = op.get("entry")
            if not isinstance(entry, dict) or entry.get("type") not in PAGE_INPUTS:
                return f"input: one of {', '.join(PAGE_INPUTS)}"
            outcome = sim.submit(entry)
            return None if outcome.accepted else outcome.reason
        if kind == "table":
            outcome = sim.submit(table_input(op))
            return None if outcome.accepted else outcome.reason
        if kind == "clock":
            return self._clock(int(op.get("minutes", 0)))
        return f"unknown operation {kind!r}"

    def _clock(self, minutes: int) -> str | None:
        if self.clock is not None:
            self.clock.stop()
            self.clock = None
        if minutes <= 0:
            self.push_soon()
            return None
        self.clock = TournamentClock(self.sim, minutes=minutes, on_tick=self.push_soon)
        return self.clock.start()

    async def close(self) -> None:
        """Say goodbye to every page (a closed socket, not a hung one, when the simulator stops)."""
        if self.clock is not None:
            self.clock.stop()
        for viewer in list(self.viewers):
            await viewer.socket.close()

    def push_soon(self) -> None:
        """Send the new state to every viewer once, after the current burst of changes."""
        if self._push_due:
            return
        self._push_due = True
        asyncio.get_running_loop().call_soon(lambda: asyncio.ensure_future(self._push()))

    async def _push(self) -> None:
        self._push_due = False
        for viewer in list(self.viewers):
            await self._send(viewer)

    async def _send(self, viewer: _Viewer) -> None:
        text = json.dumps(build_state(self.sim, self.images, training=viewer.training,
                                      clock_text=self.clock.text() if self.clock else ""))
        if text == viewer.last or viewer.socket.closed:
            return
        viewer.last = text
        with contextlib.suppress(ConnectionError):
            await viewer.socket.send_str(text)


# What the page may send as journal inputs: the setup, and the dealer's pick of a burn card. Actions come
# only from the seats' pins, cards only through the shoe.
PAGE_INPUTS = ("sit", "leave", "chips", "button", "away", "back", "burn")


def table_input(op: dict[str, Any]) -> dict[str, Any]:
    """The journal's ``table`` input from the page's Table form (limits only for a fixed-limit game)."""
    from dealerpi.engine.games import GAMES, Structure

    entry: dict[str, Any] = {"type": "table", "game": op.get("game"), "rules": op.get("rules", "home"),
                             "seats": op.get("seats"), "blinds": op.get("blinds")}
    game = GAMES.get(str(op.get("game")))
    if game is not None and game.structure is Structure.FIXED_LIMIT:
        entry["limits"] = op.get("limits")
    if op.get("ante"):
        entry["ante"] = op["ante"]
    return entry


# --- the command ---------------------------------------------------------------------------------------


async def _open_browser(url: str) -> bool:
    """Open ``url`` in a graphical browser, if there is one. On Linux without a display Python's webbrowser
    would fall back to a text browser in this terminal (lynx, w3m), so it is not asked; it runs in a thread
    because some browsers' launchers wait."""
    if sys.platform.startswith("linux") and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        return False
    return bool(await asyncio.to_thread(webbrowser.open, url))


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="dealerpi sim",
                                     description="The whole table in a browser, every device fake.")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 = any free)")
    parser.add_argument("--host", default="127.0.0.1",
                        help="address to listen on (default 127.0.0.1; any other needs a token)")
    parser.add_argument("--token", help="the token a viewer needs (made up and printed if --host needs one)")
    parser.add_argument("--no-browser", action="store_true", help="do not open the page in a browser")
    parser.add_argument("--journal", type=Path, help="start from this journal (it is copied, not changed)")
    parser.add_argument("--config", type=Path, help="a table config to simulate (default: the 10-seat example)")
    parser.add_argument("--out", type=Path, help="folder for the evening's journal (default: a new temporary one)")
    parser.add_argument("--seed", type=int, help="seed of the virtual deck's shuffles (repeatable sessions)")
    return parser


def prepare_journal(args: argparse.Namespace) -> Path:
    """The evening's journal: ``--out``'s own (resumed), a copy of ``--journal``, or the start-up table."""
    out = args.out or Path(tempfile.mkdtemp(prefix="dealerpi-sim-"))
    out.mkdir(parents=True, exist_ok=True)
    journal = out / "journal.jsonl"
    if journal.exists():
        if args.journal is not None:
            raise FileExistsError(f"{journal} exists: give --journal a fresh --out, or drop --journal to go on "
                                  "from it")
        return journal
    source = args.journal.read_text(encoding="utf-8") if args.journal else START_JOURNAL.read_text(encoding="utf-8")
    journal.write_text(source if source.endswith("\n") or not source else source + "\n", encoding="utf-8")
    return journal


async def serve(args: argparse.Namespace, config: config_module.Config, journal: Path) -> None:
    """Run the simulator until cancelled (Ctrl-C)."""
    import random

    token = args.token
    if not is_loopback(args.host) and not token:
        token = secrets.token_urlsafe(16)
    sim = SimTable.open(config, journal, deck_rng=random.Random(args.seed) if args.seed is not None else None)
    server = SimServer(sim, token)
    runner = web.AppRunner(server.app(), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, args.host, args.port)
    await site.start()
    await sim.start()
    port = runner.addresses[0][1]
    shown_host = socket.gethostname() if args.host in ("0.0.0.0", "::") else args.host
    shown_host = f"[{shown_host}]" if ":" in shown_host else shown_host
    url = f"http://{shown_host}:{port}/" + (f"?token={token}" if token else "")
    print(f"DealerPi simulator: {url}", flush=True)
    print(f"journal: {journal}", flush=True)
    if not args.no_browser and not await _open_browser(url):
        print("no browser found here: open the URL above in one", flush=True)
    try:
        await asyncio.Event().wait()
    finally:
        await server.close()
        await sim.stop()
        await runner.cleanup()


def main(argv: list[str]) -> int:
    """``dealerpi sim [--port N] [--host H --token T] [--no-browser] [--journal FILE]``."""
    args = _parser().parse_args(argv)
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s", stream=sys.stderr)
    if args.journal is not None and not args.journal.is_file():
        print(f"dealerpi sim: {args.journal}: no such journal file", file=sys.stderr)
        return 2
    try:
        config = config_module.load(args.config or str(SIM_CONFIG))
        journal = prepare_journal(args)
        read_journal(journal)                    # a damaged journal is an error now, not half a table later
    except config_module.ConfigError as exc:
        print("\n".join(exc.errors), file=sys.stderr)
        return 2
    except (OSError, JournalError) as exc:
        print(f"dealerpi sim: {exc}", file=sys.stderr)
        return 2
    return run_until_signal(serve(args, config, journal), "dealerpi sim", port_option="--port")
