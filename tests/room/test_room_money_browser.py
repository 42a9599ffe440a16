"""The room page's tournament money (dealerpi/room/static/money.js) in headless Chromium (browser_kit: never
skipped): ``dealerpi room`` as its own process (no broker: the page works while the room retries it), three
players registered and started with the desk CLI, a PKO with a rebuy."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from mqtt_kit import free_port
from orphan_kit import dies_with_parent
from playwright.sync_api import Browser, expect
from room_kit import desk

pytestmark = pytest.mark.slow   # Chromium, a real broker and the room as its own process: 3 s

TOML = """[room]
listen = "127.0.0.1:{port}"
state = "state"
[mqtt]
port = {broker}
[tournament]
tables = ["t1", "t2"]
seats = 6
buy_in = 40
bounty = 10
rebuys = 1
rebuy_levels = 1
starting_stack = 5000
payouts = [70, 30]
levels = [{{blinds = [50, 100], minutes = 10}}, {{blinds = [100, 200], minutes = 10}}]
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def test_the_room_page_shows_the_pko_heads_and_sends_a_rebuy(tmp_path: Path, browser: Browser) -> None:
    """Ann, Bob and Cy entered (bounty 10 of each 40: 10 on each head). The page's money part (its own
    script, allowed by the page's CSP) shows 3 entries and the heads; the host's rebuy for
    a name not in the tournament comes back with the room's words, one for Ann is taken (it waits for her
    table, which is offline here)."""
    port = free_port()
    config = tmp_path / "room.toml"
    config.write_text(TOML.format(port=port, broker=free_port()))
    room = subprocess.Popen(dies_with_parent([sys.executable, "-m", "dealerpi", "room", "--config", str(config)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    page = browser.new_page()
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        deadline = time.monotonic() + 60
        while subprocess.run([sys.executable, "-m", "dealerpi", "room", "desk", "--config", str(config), "show"],
                             capture_output=True, timeout=30).returncode != 0:
            assert time.monotonic() < deadline and room.poll() is None, "the room did not start"
            time.sleep(0.2)
        desk(config, "register", "Ann", "Bob", "Cy")
        desk(config, "start")
        page.goto(f"http://127.0.0.1:{port}/")
        money = page.locator("#money")
        expect(money).to_contain_text("entries 3; rebuys and add-ons 0", timeout=30_000)
        expect(money).to_contain_text("PKO heads: Ann 10, Bob 10, Cy 10")
        page.locator("#money .who").fill("Zed")
        page.get_by_role("button", name="rebuy").click()
        expect(page.locator("#money .answer")).to_have_text("400: Zed is not in the tournament\n")
        page.locator("#money .who").fill("Ann")
        page.get_by_role("button", name="rebuy").click()
        expect(page.locator("#money .answer")).to_have_text("sent")
        # the page's CSP lets its own script run (default-src 'self'); the 400 above is the only failed load
        # besides the browser's favicon.ico, which the room does not serve
        assert not [e for e in errors if "Content Security Policy" in e or "money.js" in e], errors
    finally:
        page.close()
        room.terminate()
        room.wait(10)
