"""The room page behind the console's guard (dealerpi.webkit.access, issue 15: "the console's stack and
auth"): a room listening beyond loopback needs a token for everything; ``?token=`` becomes the room's own
HttpOnly SameSite=Strict cookie and leaves the address (other keys such as ``big=1`` stay); a board token
looks but does not change the waiting lists; a WebSocket from another origin is refused. No broker needed:
the page reads the service's summary only."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from aiohttp import WSServerHandshakeError
from aiohttp.test_utils import TestClient, TestServer

from dealerpi.room.service import RoomService
from dealerpi.room.settings import Game, RoomSettings
from dealerpi.room.store import Store
from dealerpi.room.web import COOKIE, RoomPage
from dealerpi.wire.broker import MqttSettings

TOKENS = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}


def test_room_page_needs_a_token_off_loopback_and_a_board_token_only_looks(tmp_path: Path) -> None:
    settings = RoomSettings(tmp_path / "room.sqlite", "0.0.0.0:0", tmp_path / "state", MqttSettings("room"),
                            (Game("nlhe-1-3", ("t1",), 200),))
    store = Store(settings.database)

    async def main() -> None:
        page = RoomPage(RoomService(settings, store), TOKENS, token_required=True)
        client: TestClient[Any, Any] = TestClient(TestServer(page.app()))
        await client.start_server()
        try:
            bare = await client.get("/summary.json")
            assert (bare.status, await bare.text()) == (
                401, "401: the room needs its token: open the URL from the room's pairing.txt\n")
            wrong = await client.get("/summary.json", headers={"Cookie": f"{COOKIE}={'x' * 22}"})
            assert wrong.status == 401
            opened = await client.get(f"/?big=1&token={TOKENS['board']}", allow_redirects=False)
            assert (opened.status, opened.headers["Location"]) == (303, "/?big=1")
            cookie = opened.cookies[COOKIE]
            assert (cookie.value, cookie["httponly"], cookie["samesite"]) == (TOKENS["board"], True, "Strict")
            client.session.cookie_jar.clear()                  # from here each request names its own cookie
            board = {"Cookie": f"{COOKIE}={TOKENS['board']}"}
            summary = await (await client.get("/summary.json", headers=board)).json()
            assert summary["role"] == "board" and summary["games"][0]["name"] == "nlhe-1-3"
            origin = f"http://{client.host}:{client.port}"
            add = {"op": "add", "game": "nlhe-1-3", "player": "Zed"}
            looked = await client.post("/waiting", json=add, headers={**board, "Origin": origin})
            assert looked.status == 403
            host = {"Cookie": f"{COOKIE}={TOKENS['host']}"}
            no_origin = await client.post("/waiting", json=add, headers=host)
            assert (no_origin.status, await no_origin.text()) == (
                403, "403: a change comes from the room's own pages only\n")
            added = await client.post("/waiting", json=add, headers={**host, "Origin": origin})
            assert added.status == 200 and [w["player"] for w in store.waiting("nlhe-1-3")] == ["Zed"]
            try:
                await client.ws_connect("/ws", headers={**host, "Origin": "http://evil.example"})
                raise AssertionError("a WebSocket from another origin was accepted")
            except WSServerHandshakeError as exc:
                assert exc.status == 403
        finally:
            await client.close()

    try:
        asyncio.run(main())
    finally:
        store.close()
