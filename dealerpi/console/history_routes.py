"""The console's hand-history addresses: the list, a hand's replay, its PHH and the session's.

    GET /hands.json[?view=ROLE]            the finished hands kept (the last PLAYED_KEPT), newest last
    GET /hands/N.json[?view=ROLE]          hand N: its line of the list and its replay, step by step
    GET /hands/N.phh[?view=ROLE]           hand N as PHH
    GET /hands.phhs[?view=ROLE]            every listed hand as PHH

``view`` is the page asking (host, dealer, board), checked against the token like the page's WebSocket
(``view_of``): what a role may see is in :mod:`dealerpi.console.histories`. The journal is read in a worker
thread (the first read after a start replays the evening), one read at a time. A hand older than the ones
kept is answered 410 Gone with a sentence saying so, and the list says from which hand on it has them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from aiohttp import web

from dealerpi.console.hand_replay import steps
from dealerpi.console.histories import HandHistories, PlayedHand, listing, phh_text, session_phh

NO_STORE = {"Cache-Control": "no-store"}


class HistoryRoutes:
    """See the module docstring; ``histories`` None: the console was started without a journal to read."""

    def __init__(self, histories: HandHistories | None, view_of: Callable[[web.Request], str]) -> None:
        self.histories = histories
        self.view_of = view_of
        self._lock = asyncio.Lock()

    def add_to(self, app: web.Application) -> None:
        app.router.add_get("/hands.json", self._list)
        app.router.add_get("/hands.phhs", self._session)
        app.router.add_get(r"/hands/{number:\d+}.json", self._hand)
        app.router.add_get(r"/hands/{number:\d+}.phh", self._phh)

    async def _hands(self) -> list[PlayedHand]:
        if self.histories is None:
            raise web.HTTPServiceUnavailable(text="503: this console has no journal to read the hands from\n")
        async with self._lock:
            await asyncio.to_thread(self.histories.poll)
            return list(self.histories.played)

    async def _one(self, request: web.Request) -> PlayedHand:
        number = int(request.match_info["number"])
        hand = next((hand for hand in await self._hands() if hand.number == number), None)
        if hand is None and self.histories is not None and self.histories.gone(number):
            raise web.HTTPGone(text=f"410: hand #{number} is {self._older()}\n")
        if hand is None:
            raise web.HTTPNotFound(text=f"404: no finished hand #{number} (a hand is listed once the next one "
                                        "starts)\n")
        return hand

    async def _list(self, request: web.Request) -> web.StreamResponse:
        role = self.view_of(request)
        hands = await self._hands()
        older = (f"Hands before #{hands[0].number} are {self._older()}"
                 if hands and self.histories is not None and self.histories.gone(hands[0].number - 1) else None)
        return web.json_response({"hands": [listing(hand, role) for hand in hands], "older": older},
                                 headers=NO_STORE)

    def _older(self) -> str:
        keep = self.histories.keep_played if self.histories is not None else 0
        return (f"no longer kept here: the console keeps the last {keep} hands it read (docs/console.md); "
                "dealerpi replay --journal prints those the journal folder still holds")

    async def _hand(self, request: web.Request) -> web.StreamResponse:
        role = self.view_of(request)
        hand = await self._one(request)
        return web.json_response({**listing(hand, role), "steps": steps(hand, role)}, headers=NO_STORE)

    async def _phh(self, request: web.Request) -> web.StreamResponse:
        role = self.view_of(request)
        hand = await self._one(request)
        text = phh_text(hand, role)
        if text is None:
            raise web.HTTPNotFound(text=f"404: hand #{hand.number} has no PHH: {hand.phh_missing}\n")
        return web.Response(text=text, content_type="text/plain", headers={
            **NO_STORE, "Content-Disposition": f'attachment; filename="hand-{hand.number}-{role}.phh"'})

    async def _session(self, request: web.Request) -> web.StreamResponse:
        role = self.view_of(request)
        return web.Response(text=session_phh(await self._hands(), role), content_type="text/plain", headers={
            **NO_STORE, "Content-Disposition": f'attachment; filename="session-{role}.phhs"'})
