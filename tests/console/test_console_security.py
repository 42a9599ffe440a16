"""Issue 19, "Security": the pairing QR is an SVG a browser draws, no open redirect, no way to put the host's
token on a table display, one-time short-lived pairing codes, per-device tokens the host lists and revokes,
pairing URLs by address (and the ``.local`` name where mDNS answers), and the anti-framing headers on every
page of the console."""

from __future__ import annotations

import asyncio
import xml.etree.ElementTree as ET
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import DummyCookieJar
from aiohttp.test_utils import TestClient, TestServer
from console_kit import make

from dealerpi.console.server import Console
from dealerpi.webkit.devices import CODE_SECONDS, Devices
from dealerpi.webkit.pairing import local_name, page_urls, qr_svg

TOKENS = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}
HOST = {"Cookie": f"dealerpi_console={TOKENS['host']}"}


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def run(tmp_path: Path, body: Callable[[TestClient[Any, Any], Any, Console], Awaitable[None]], *,
        token_required: bool = True, clock: Callable[[], float] | None = None) -> Any:
    """The daemon's API (console_kit) and the console's app in one loop, devices kept in ``tmp_path``; the
    client keeps no cookies (each request says whose it is)."""
    _config, controller, api = make(tmp_path)

    async def main() -> None:
        await api.start()
        console = Console(api.path, TOKENS, token_required, urls={}, base="http://192.168.1.20:8765",
                          devices=Devices(tmp_path / "devices.json", clock=clock or Clock()))
        client: TestClient[Any, Any] = TestClient(TestServer(console.app()), cookie_jar=DummyCookieJar())
        await client.start_server()
        try:
            await body(client, controller, console)
        finally:
            await client.close()
            await api.stop()

    asyncio.run(main())
    return controller


async def raw_get(client: TestClient[Any, Any], target: str) -> tuple[int, str]:
    """A GET of ``target`` as a browser sends it (aiohttp's client refuses a path that starts with //):
    the status and the Location header."""
    reader, writer = await asyncio.open_connection(client.host, client.port)
    writer.write(f"GET {target} HTTP/1.1\r\nHost: {client.host}:{client.port}\r\nConnection: close\r\n\r\n"
                 .encode())
    head = (await reader.read()).decode("latin-1").split("\r\n\r\n")[0].split("\r\n")
    writer.close()
    fields = dict(line.split(": ", 1) for line in head[1:])
    return int(head[0].split()[1]), fields.get("Location", "")


def origin(client: TestClient[Any, Any]) -> dict[str, str]:
    return {"Origin": str(client.make_url("/")).rstrip("/")}


def test_the_pairing_qr_is_an_svg_document_a_browser_draws() -> None:
    """Item 2: an ``<img>`` draws an SVG file only if its root element is in the SVG namespace; segno's
    inline output (``xmldecl=False``) had none, so the image was broken."""
    root = ET.fromstring(qr_svg("http://192.168.1.20:8765/?t=abc"))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"


def test_no_open_redirect_from_a_token_url(tmp_path: Path) -> None:
    """``GET //evil.example/x?token=`` was answered 303 to ``//evil.example/x``, which a browser reads as
    another site: the redirect stays on this console's own paths."""
    async def body(client: TestClient[Any, Any], _controller: Any, _console: Console) -> None:
        for path in ("//evil.example/x", "///evil.example/x", "/\\evil.example/x"):
            status, location = await raw_get(client, f"{path}?token={TOKENS['dealer']}")
            assert status == 303, path
            assert location.startswith("/") and not location.startswith(("//", "/\\")), (path, location)

    run(tmp_path, body)


def test_the_host_token_never_goes_to_a_table_display(tmp_path: Path) -> None:
    """There is no ``POST /pair/host/show`` (nor for the board): only the dealer's code goes on the dealer
    display, and it is a one-time pairing code, not the dealer's token; once used it leaves the display."""
    shown: list[Any] = []

    async def body(client: TestClient[Any, Any], controller: Any, console: Console) -> None:
        controller.dealer_slot.show = shown.append
        issued: list[str] = []
        issue = console.devices.issue

        def issue_kept(role: str, seconds: float) -> str:
            issued.append(issue(role, seconds))
            return issued[-1]

        console.devices.issue = issue_kept  # type: ignore[method-assign]
        for role in ("host", "board"):
            answer = await client.post(f"/pair/{role}/show", headers={**origin(client), **HOST})
            assert answer.status == 404, role
        assert shown == []
        answer = await client.post("/pair/dealer/show", headers={**origin(client), **HOST})
        assert answer.status == 200 and await answer.json() == {"shown": CODE_SECONDS["display"]}
        assert controller.dealer_overlay is not None and controller.dealer_overlay[0] is shown[0]
        assert TOKENS["dealer"] not in issued[0]
        used = await client.get(f"/?t={issued[0]}", allow_redirects=False)      # the dealer scans it
        assert used.status == 303
        for _ in range(100):                                      # the display is told at once, not awaited
            if controller.dealer_overlay is None:
                break
            await asyncio.sleep(0.01)
        assert controller.dealer_overlay is None and shown[-1] is not shown[0]    # the dealer's screen again

    run(tmp_path, body)
    assert shown[0].size == (128, 64)


def test_a_pairing_code_pairs_one_device_once_and_expires(tmp_path: Path) -> None:
    """A code (the QR's ``/?t=CODE``) gives one device its own token as a cookie, once: a second use is 401,
    and an unused code is 401 after its lifetime. The code is not the dealer's token."""
    clock = Clock()

    async def body(client: TestClient[Any, Any], _controller: Any, console: Console) -> None:
        assert console.devices is not None
        code = console.devices.issue("dealer", CODE_SECONDS["display"])
        assert TOKENS["dealer"] not in code
        first = await client.get(f"/?t={code}", allow_redirects=False)
        assert first.status == 303 and first.headers["Location"] == "/"
        cookie = first.cookies["dealerpi_console"].value
        assert cookie not in (code, *TOKENS.values())
        page = await client.get("/dealer", cookies={"dealerpi_console": cookie}, allow_redirects=False)
        assert page.status == 200
        assert (await client.get("/host", cookies={"dealerpi_console": cookie})).status == 403
        again = await client.get(f"/?t={code}", allow_redirects=False)
        assert again.status == 401
        late = console.devices.issue("board", CODE_SECONDS["display"])
        clock.now += CODE_SECONDS["display"] + 1
        assert (await client.get(f"/?t={late}", allow_redirects=False)).status == 401

    run(tmp_path, body, clock=clock)


def test_the_host_lists_and_revokes_a_device(tmp_path: Path) -> None:
    """Each paired device is listed (role, name, when); revoking one makes its cookie 401 at once while the
    others stay paired; a dealer cannot list or revoke; the list survives a restart (devices.json, 0600)."""
    async def body(client: TestClient[Any, Any], _controller: Any, console: Console) -> None:
        assert console.devices is not None
        cookies = []
        for role in ("dealer", "board"):
            code = console.devices.issue(role, CODE_SECONDS["host"])
            answer = await client.get(f"/?t={code}", allow_redirects=False,
                                      headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8)"})
            cookies.append(answer.cookies["dealerpi_console"].value)
        dealer, board = cookies
        listing = await (await client.get("/devices.json", headers=HOST)).json()
        assert [(d["role"], d["name"]) for d in listing["devices"]] == [("dealer", "Android 14; Pixel 8"),
                                                                        ("board", "Android 14; Pixel 8")]
        assert (await client.get("/devices.json", cookies={"dealerpi_console": dealer})).status == 403
        refused = await client.post(f"/devices/{listing['devices'][1]['id']}/revoke",
                                    headers={**origin(client), "Cookie": f"dealerpi_console={dealer}"})
        assert refused.status == 403
        revoke = await client.post(f"/devices/{listing['devices'][0]['id']}/revoke",
                                   headers={**origin(client), **HOST})
        assert revoke.status == 200
        assert (await client.get("/dealer", cookies={"dealerpi_console": dealer})).status == 401
        assert (await client.get("/board", cookies={"dealerpi_console": board})).status == 200
        assert (await client.post("/devices/nope/revoke", headers={**origin(client), **HOST})).status == 404

    run(tmp_path, body)
    kept = Devices(tmp_path / "devices.json")
    assert [d["role"] for d in kept.listing()] == ["board"]
    assert (tmp_path / "devices.json").stat().st_mode & 0o777 == 0o600


def test_a_role_token_url_pairs_the_device_with_its_own_token(tmp_path: Path) -> None:
    """The host's URL from pairing.txt becomes a device token of its own in the cookie, so the host's phone
    too is listed and can be revoked; the role token itself never sits in a browser."""
    async def body(client: TestClient[Any, Any], _controller: Any, _console: Console) -> None:
        answer = await client.get(f"/host?token={TOKENS['host']}", allow_redirects=False)
        assert answer.status == 303 and answer.headers["Location"] == "/host"
        cookie = answer.cookies["dealerpi_console"].value
        assert cookie != TOKENS["host"]
        assert (await client.get("/host", cookies={"dealerpi_console": cookie})).status == 200
        listing = await (await client.get("/devices.json", headers=HOST)).json()
        assert [d["role"] for d in listing["devices"]] == ["host"]

    run(tmp_path, body)


def test_every_page_and_answer_forbids_framing(tmp_path: Path) -> None:
    """Clickjacking: every answer of the console (pages, files, errors, redirects) says X-Frame-Options DENY
    and a Content-Security-Policy with frame-ancestors 'none' (OWASP Clickjacking Defense Cheat Sheet)."""
    async def body(client: TestClient[Any, Any], _controller: Any, _console: Console) -> None:
        refused = await client.get("/host")
        assert refused.status == 401 and refused.headers.get("X-Frame-Options") == "DENY"
        for path, status in (("/host", 200), ("/board", 200), ("/static/console.js", 200), ("/nope", 404),
                             ("/ledger.csv", 200), (f"/?token={TOKENS['host']}", 303)):
            response = await client.get(path, headers=HOST, allow_redirects=False)
            assert response.status == status, path
            assert response.headers.get("X-Frame-Options") == "DENY", path
            policy = response.headers.get("Content-Security-Policy", "")
            assert "frame-ancestors 'none'" in policy and "default-src 'self'" in policy, path

    run(tmp_path, body)


def test_pairing_urls_name_the_address_and_the_local_name_where_mdns_answers() -> None:
    """Item 13: on a wildcard listen the URLs carried the bare host name (``http://vm:18766/``), which phones
    often cannot resolve. Now the address of the interface phones reach, and the ``.local`` name only when
    it resolves (mDNS answers) to that address. The finders are passed in: no lookup leaves this test."""
    def address() -> str:
        return "192.168.1.20"

    answers = {"table.local": "192.168.1.20"}
    assert page_urls("0.0.0.0:8765", 8765, {"dealer": "d" * 22}, address=address) == {
        "dealer": "http://192.168.1.20:8765/dealer?token=" + "d" * 22}
    assert local_name("0.0.0.0", "192.168.1.20", hostname=lambda: "table", resolve=answers.get) == "table.local"
    answers["table.local"] = "192.168.1.99"          # another machine answers for the name: not ours
    assert local_name("0.0.0.0", "192.168.1.20", hostname=lambda: "table", resolve=answers.get) is None
    answers.clear()                                  # mDNS does not answer
    assert local_name("0.0.0.0", "192.168.1.20", hostname=lambda: "table", resolve=answers.get) is None
    assert page_urls("127.0.0.1:8765", 8765, {"board": "b" * 22}) == {
        "board": "http://127.0.0.1:8765/board?token=" + "b" * 22}
