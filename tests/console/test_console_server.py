"""``dealerpi console`` (issue 14): tokens per role, pages and the WebSocket enforced by role, the token kept
out of the URL, the logs and stdout, loopback-only without a token; the pairing files readable by the
service user only; the WebSocket relays the daemon's view and changes, never a hole card."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import stat
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from aiohttp import ClientWebSocketResponse, WSMsgType
from aiohttp.test_utils import TestClient, TestServer
from console_kit import SHOE, make

from dealerpi.console.server import Console
from dealerpi.devices import FakeDevices
from dealerpi.devices.factory import PiDevices
from dealerpi.engine import Table
from dealerpi.sim.panel import VirtualPanel, make_panel
from dealerpi.table.api.server import ApiServer, _Client
from dealerpi.webkit.pairing import load_tokens, role_of, write_pairing

TOKENS = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}


def run(tmp_path: Path, body: Callable[[TestClient[Any, Any], Any], Awaitable[None]], *,
        token_required: bool = False) -> Any:
    """Start the daemon's API (console_kit) and the console's app in one loop; run ``body(client, controller)``."""
    _config, controller, api = make(tmp_path)

    async def main() -> None:
        await api.start()
        urls = {role: f"http://x/{role}?token={token}" for role, token in TOKENS.items()}
        console = Console(api.path, TOKENS, token_required, urls=urls)
        client: TestClient[Any, Any] = TestClient(TestServer(console.app()))
        await client.start_server()
        try:
            await body(client, controller)
        finally:
            await client.close()
            await api.stop()

    asyncio.run(main())
    return controller


async def receive(ws: ClientWebSocketResponse, frames: list[str], timeout: float = 0.3) -> None:
    """Collect frames until none comes for ``timeout`` seconds."""
    while True:
        try:
            message = await ws.receive(timeout)
        except TimeoutError:
            return
        if isinstance(message.data, str):
            frames.append(message.data)


def test_each_token_opens_only_its_role_pages(tmp_path: Path) -> None:
    """A board token cannot open the host's or dealer's page, nor the ledger; a dealer token not the host's."""
    async def body(client: TestClient[Any, Any], _controller: Any) -> None:
        expected = {"board": {"/board": 200, "/dealer": 403, "/host": 403, "/ledger.csv": 403, "/pair/board.svg": 403},
                    "dealer": {"/board": 200, "/dealer": 200, "/host": 403, "/ledger.csv": 403},
                    "host": {"/board": 200, "/dealer": 200, "/host": 200, "/ledger.csv": 200, "/pair/board.svg": 200}}
        for role, pages in expected.items():
            got = {}
            for path, _status in pages.items():
                response = await client.get(path, cookies={"dealerpi_console": TOKENS[role]}, allow_redirects=False)
                got[path] = response.status
            assert got == pages, role
        wrong = await client.get("/board", cookies={"dealerpi_console": "x" * 22})
        assert wrong.status == 401

    run(tmp_path, body)


def test_token_in_the_url_becomes_a_cookie_and_leaves_the_address(tmp_path: Path) -> None:
    async def body(client: TestClient[Any, Any], _controller: Any) -> None:
        response = await client.get(f"/dealer?token={TOKENS['dealer']}", allow_redirects=False)
        assert response.status == 303
        assert response.headers["Location"] == "/dealer"
        device = response.cookies["dealerpi_console"].value       # a device token of its own (issue 19)
        assert device != TOKENS["dealer"] and len(device) == 22
        assert response.cookies["dealerpi_console"]["httponly"] is True
        root = await client.get("/", cookies={"dealerpi_console": device}, allow_redirects=False)
        assert root.headers["Location"] == "/dealer"

    run(tmp_path, body)


def test_without_a_token_loopback_only_and_never_off_loopback(tmp_path: Path) -> None:
    """On a loopback listen a request naming the loopback host is the host; one naming another host (DNS
    rebinding) is refused. On any other listen a token is needed."""
    async def loopback(client: TestClient[Any, Any], _controller: Any) -> None:
        assert (await client.get("/host")).status == 200
        assert (await client.get("/host", headers={"Host": "evil.example:8765"})).status == 403

    async def network(client: TestClient[Any, Any], _controller: Any) -> None:
        assert (await client.get("/board")).status == 401
        assert (await client.get("/board", cookies={"dealerpi_console": TOKENS["board"]})).status == 200

    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
    run(tmp_path / "a", loopback)
    run(tmp_path / "b", network, token_required=True)


def test_websocket_from_another_origin_or_above_the_token_is_refused(tmp_path: Path) -> None:
    async def body(client: TestClient[Any, Any], _controller: Any) -> None:
        response = await client.get("/ws?view=host", cookies={"dealerpi_console": TOKENS["dealer"]})
        assert response.status == 403
        response = await client.get("/ws?view=board", headers={"Origin": "http://evil.example"})
        assert response.status == 403

    run(tmp_path, body)


def test_pages_sit_play_and_the_board_never_gets_a_hole_card(tmp_path: Path, caplog: pytest.LogCaptureFixture,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    """Through the console: the host sits three players and starts; the board page's own input is refused by
    the daemon; the shoe deals the six hole cards (Kd 8c 5d Qc 9c 4s, SHOE[:6]). Every frame to the board
    and dealer pages is searched for them (none), while the positive control, the journal, has all six.
    No token reaches a log or stdout."""
    caplog.set_level(logging.DEBUG)
    frames: dict[str, list[str]] = {"host": [], "dealer": [], "board": []}

    async def body(client: TestClient[Any, Any], controller: Any) -> None:
        sockets = {role: await client.ws_connect(f"/ws?view={role}",
                                                 headers={"Cookie": f"dealerpi_console={TOKENS[role]}"})
                   for role in frames}
        for role, ws in sockets.items():
            await receive(ws, frames[role], 0.2)
        host = sockets["host"]
        for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
            await host.send_str(json.dumps({"op": "input", "rid": f"s{seat}",
                                            "entry": {"type": "sit", "seat": seat, "player": name, "stack": 250}}))
        await receive(host, frames["host"])
        await sockets["board"].send_str(json.dumps({"op": "input", "entry": {"type": "start"}}))
        await sockets["dealer"].send_str(json.dumps({"op": "input", "entry": {"type": "start"}}))
        for role, ws in sockets.items():
            await receive(ws, frames[role])
        for uid in range(6):
            controller.on_card(f"T{uid:02d}")
            await asyncio.sleep(0.01)
        for role, ws in sockets.items():
            await receive(ws, frames[role])
            await ws.close()

    controller = run(tmp_path, body)
    assert {s: i.player for s, i in controller.table.seats.items()} == {1: "Ann", 2: "Bob", 3: "Cy"}
    board = [json.loads(f) for f in frames["board"]]
    assert board[0]["type"] == "view" and set(board[0]["view"]) == {"hand", "game", "blinds", "board", "pots",
                                                                     "payouts", "seats", "in_hand", "paused", "pausing",
                                                                     "last_blinds", "next_hand", "starting_stacks",
                                                                     "bust_by", "tournament", "action", "board_labels",
                                                                     "bomb", "result", "break_in", "announcement",
                                                                     "v"}      # the views' version (wire/views.py)
    assert {"type": "result", "rid": None, "accepted": False, "reason": "a board cannot send 'start' inputs"} in board
    assert any(f.get("type") == "changes" and f["changes"].get("seats", {}).get("2", {}).get("player") == "Bob"
               for f in board)
    dealer = [json.loads(f) for f in frames["dealer"]]
    bld1 = {"rule": "BLD-1", "message": "First hand: button seat 1, small blind seat 2, big blind seat 3"}
    assert {"type": "result", "rid": None, "accepted": True, "reason": None, "alerts": [bld1]} in dealer
    hole = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(SHOE[:6]) + r")(?![A-Za-z0-9])")
    journal = (tmp_path / "state" / "journal.jsonl").read_text()
    assert sorted(hole.findall(journal)) == sorted(SHOE[:6])                  # the positive control
    for role in ("board", "dealer", "host"):
        assert hole.findall("".join(frames[role])) == [], role
    printed = capsys.readouterr()
    for token in TOKENS.values():
        assert token not in caplog.text and token not in printed.out + printed.err


def test_tokens_are_made_once_and_files_are_0600(tmp_path: Path) -> None:
    state = tmp_path / "console"
    tokens = load_tokens(state)
    assert set(tokens) == {"host", "dealer", "board"} and len(set(tokens.values())) == 3
    assert all(len(t) == 22 for t in tokens.values())                        # 16 random bytes, base64url
    assert load_tokens(state) == tokens                                       # kept: paired devices stay paired
    pairing = write_pairing(state, {"host": "http://pi:8765/host?token=" + tokens["host"]})
    for path in (state / "tokens.json", pairing):
        assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert role_of(tokens["dealer"], tokens) == "dealer" and role_of("nope", tokens) is None
    (state / "tokens.json").write_text("{")
    with pytest.raises(ValueError, match=r"tokens.json: not JSON .*delete it to make new tokens"):
        load_tokens(state)


def test_host_puts_a_pairing_code_on_the_dealer_display_others_cannot(tmp_path: Path) -> None:
    """The dealer display shows the dealer's short URL as a QR code until a console button; a dealer token
    cannot ask, nor can another site's page (no Origin of this console)."""
    shown: list[Any] = []

    async def body(client: TestClient[Any, Any], controller: Any) -> None:
        controller.dealer_slot.show = shown.append
        origin = {"Origin": str(client.make_url("/")).rstrip("/")}
        dealer_cookie = {"Cookie": f"dealerpi_console={TOKENS['dealer']}"}
        dealer = await client.post("/pair/dealer/show", headers={**origin, **dealer_cookie})
        assert dealer.status == 403
        foreign = await client.post("/pair/dealer/show", headers={"Origin": "http://evil.example"})
        assert foreign.status == 403
        assert shown == []
        answer = await client.post("/pair/dealer/show", headers=origin)
        assert answer.status == 200 and await answer.json() == {"shown": 30.0}
        assert controller.dealer_overlay is not None and controller.dealer_overlay[0] is shown[-1]

    run(tmp_path, body)
    assert len(shown) == 1 and shown[0].size == (128, 64)


def test_a_page_is_told_when_the_daemon_goes_away(tmp_path: Path) -> None:
    """A fault is never hidden: the daemon's API stops (a restart), the page gets "offline" and its socket
    closes (the page reconnects every 2 s); with no daemon at all a new page gets "offline" at once."""
    async def body(client: TestClient[Any, Any], controller: Any) -> None:
        ws = await client.ws_connect("/ws?view=board")
        assert json.loads(await ws.receive_str(timeout=5))["type"] == "view"
        api = controller.api
        assert isinstance(api, ApiServer)
        await api.stop()
        offline = json.loads(await ws.receive_str(timeout=5))
        assert offline == {"type": "offline",
                           "message": "the table daemon went away: this page reconnects when it is back"}
        assert (await ws.receive(timeout=5)).type.name in ("CLOSE", "CLOSED", "CLOSING")
        again = await client.ws_connect("/ws?view=board")
        message = json.loads(await again.receive_str(timeout=5))
        assert message["type"] == "offline" and message["message"].startswith("the table daemon does not answer")

    run(tmp_path, body)


def test_the_command_names_the_file_when_it_cannot_start(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No [console] section, or a damaged tokens file: one line naming the file, no traceback."""
    from daemon_kit import CONFIG

    from dealerpi.console.main import main

    plain = tmp_path / "plain.toml"
    plain.write_text(CONFIG)
    assert main(["--config", str(plain)]) == 2
    assert capsys.readouterr().err == f"{plain}: no [console] section: add one (docs/console.md)\n"
    config = tmp_path / "table.toml"
    config.write_text(CONFIG + '\n[console]\nstate = "console"\nlisten = "127.0.0.1:0"\n')
    (tmp_path / "console").mkdir()
    (tmp_path / "console" / "tokens.json").write_text('{"host": "short"}')
    assert main(["--config", str(config)]) == 1
    assert capsys.readouterr().err == (
        f"dealerpi console: {tmp_path / 'console' / 'tokens.json'}: needs a token of 16 characters or more for "
        "each of host, dealer, board; delete it to make new tokens (every device re-pairs)\n")


# --- the virtual-hardware panel exists only on fake devices (dealerpi.sim.panel) --------------------------

NO_PANEL = ("no virtual-hardware panel: this daemon drives real devices (the panel exists with dealerpi run "
            "--fake only)")


def test_real_devices_get_no_panel_and_fake_ones_do(tmp_path: Path) -> None:
    """make_panel is the one place the daemon makes a panel: None for lgpio/I2C devices (PiDevices, made
    without touching a chip), a panel for the gpiozero MockFactory ones (the positive control)."""
    config, _controller, _api = make(tmp_path)
    table = Table()
    assert make_panel(config, PiDevices(config), lambda: table) is None
    fake = FakeDevices(config)
    assert isinstance(make_panel(config, fake, lambda: table), VirtualPanel)
    fake.close()


def test_without_a_panel_the_role_and_its_requests_are_refused(tmp_path: Path) -> None:
    """hello as panel: refused with the reason; a host connection cannot press a button either."""
    _config, _controller, api = make(tmp_path)
    assert api.panel is None
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    reply = api.handle(peer, {"id": 1, "method": "hello", "params": {"role": "panel"}})
    assert reply == {"id": 1, "error": {"message": NO_PANEL}}
    assert peer.role is None
    api.handle(peer, {"id": 2, "method": "hello", "params": {"role": "host"}})
    reply = api.handle(peer, {"id": 3, "method": "press", "params": {"where": 1, "button": "bet"}})
    assert reply == {"id": 3, "error": {"message": "press is the virtual-hardware panel's: say hello as panel"}}


def test_the_console_has_no_panel_page_without_a_panel(tmp_path: Path) -> None:
    """The host's token opens /host but not /panel (404 naming why), and the panel's WebSocket is refused;
    the dealer's token gets 403 for /panel before the daemon is asked (the page is the host's)."""
    async def body(client: TestClient[Any, Any], _controller: Any) -> None:
        host = {"dealerpi_console": TOKENS["host"]}
        assert (await client.get("/host", cookies=host)).status == 200
        response = await client.get("/panel", cookies=host)
        assert (response.status, await response.text()) == (404, f"404: {NO_PANEL}\n")
        response = await client.get("/panel", cookies={"dealerpi_console": TOKENS["dealer"]})
        assert (response.status, await response.text()) == (403, "403: a dealer token cannot open the panel's page\n")
        ws = await client.ws_connect("/ws?view=panel", headers={"Cookie": f"dealerpi_console={TOKENS['host']}"})
        message = await ws.receive(5)
        assert message.data == f'{{"type":"refused","message":"{NO_PANEL}"}}'
        assert (await ws.receive(5)).type is WSMsgType.CLOSE               # and the console closes it

    run(tmp_path, body, token_required=True)
