"""Driving a ``dealerpi run --fake`` table from a test beside the phone's page (issue 19): the players' seat buttons
through the daemon's virtual-hardware panel (press and release, as a finger on the panel page does), and inputs
as the host, over the daemon's own Unix socket (docs/console.md, "The local API"). Also the phone's context
(390x844, touch) and the check that an element is inside the viewport."""

from __future__ import annotations

import socket
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Locator, Page, expect

from dealerpi.wire.protocol import Decoder, encode

PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
TV = {"viewport": {"width": 1920, "height": 1080}}


class Daemon:
    """One connection to the daemon's socket with a role ("panel" presses seat buttons, "host" sends inputs)."""

    def __init__(self, folder: Path, role: str) -> None:
        self._sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._sock.connect(str(folder / "run" / "api.sock"))
        self._decoder = Decoder()
        self._id = 0
        answer = self.request("hello", {"role": role})
        assert "error" not in answer, answer
        self.view: dict[str, Any] = answer["result"]["view"]

    def request(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        self._id += 1
        self._sock.sendall(encode({"id": self._id, "method": method, "params": params}))
        while True:
            data = self._sock.recv(65536)
            assert data, "the daemon closed the socket"
            for message in self._decoder.feed(data):
                if message.get("id") == self._id:
                    return message

    def send(self, entry: dict[str, Any], confirm: bool = False) -> dict[str, Any]:
        """An input as this role; the answer must be accepted."""
        answer = self.request("input", {"entry": entry, "confirm": confirm})
        assert answer.get("result", {}).get("accepted"), (entry, answer)
        result: dict[str, Any] = answer["result"]
        return result

    def press(self, seat: int, button: str) -> None:
        """A finger on a seat's button: down 80 ms, up (the buttons are debounced 30 ms)."""
        assert "error" not in self.request("press", {"where": seat, "button": button})
        time.sleep(0.08)
        assert "error" not in self.request("release", {"where": seat, "button": button})
        time.sleep(0.08)

    def close(self) -> None:
        self._sock.close()


def phone_page(browser: Browser, url: str, options: dict[str, Any] = PHONE) -> tuple[Page, list[str]]:
    """A page in its own context (its own cookie jar), and the script errors it has (a test checks none)."""
    page = browser.new_context(**options).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    expect(page.locator("#link")).to_have_text("connected", timeout=15000)
    return page, errors


def in_viewport(locator: Locator) -> None:
    """The element is wholly inside the visible screen (not only in the page, scrolled away): measured in the
    page in one step (the bar is redrawn at each view change: two calls could meet two different renders)."""
    x, y, width, height, screen_width, screen_height = locator.evaluate(
        "e => { const r = e.getBoundingClientRect(); return [r.x, r.y, r.width, r.height, innerWidth, innerHeight]; }")
    assert width > 0 and height > 0, (x, y, width, height)
    assert y >= 0 and y + height <= screen_height, (x, y, width, height, screen_width, screen_height)
    assert x >= 0 and x + width <= screen_width, (x, y, width, height, screen_width, screen_height)


def fits_the_tv(board: Page, state: str) -> None:
    """No taller than the TV (1080 px): the document, and the lowest bottom of anything drawn on it."""
    height = board.evaluate("document.documentElement.scrollHeight")
    lowest = board.evaluate("Math.max(...[...document.querySelectorAll('main *')]"
                            ".map((e) => e.getBoundingClientRect().bottom))")
    assert height <= 1080 and lowest <= 1080, (state, height, lowest)
