"""Issue 20: the room page on a 390 px phone (it was 456 px wide), its host removing a name from a waiting list,
and its framing headers (X-Frame-Options, CSP frame-ancestors, default-src 'self' with the page's own inline
style and script allowed by hash: the page still draws). ``dealerpi room`` as its own process (no broker: the
page works while the room retries it), a database holding a table's hands (the players' statistics), a cash
game's waiting list and a tournament registering, in headless Chromium (browser_kit)."""

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
from room_kit import table_playing

from dealerpi.room.store import Store

pytestmark = pytest.mark.slow   # Chromium: 4 s

TOML = """[room]
database = "room.sqlite"
listen = "127.0.0.1:{port}"
state = "state"
[mqtt]
port = {broker}
[[games]]
name = "nlhe-1-3"
tables = ["cash-table-number-one", "cash-table-number-two"]
stack = 300
[tournament]
tables = ["t1", "t2"]
seats = 6
buy_in = 40
starting_stack = 5000
payouts = [70, 30]
levels = [{{blinds = [50, 100], minutes = 10}}]
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def test_the_room_page_fits_a_phone_removes_a_name_and_cannot_be_framed(tmp_path: Path, browser: Browser) -> None:
    """Three hands of Ann, Bartholomew-Fitzgerald (a long name: 22 characters) and Cy stored; Zed and Yves
    wait for nlhe-1-3; Ann and Bob registered for the tournament. At 390 x 844 CSS px the page is no wider
    than the screen (scrollWidth 390; before: 511, the statistics' table); every section is drawn. The
    host's × by Zed removes him: Yves waits alone. Every answer carries X-Frame-Options: DENY and a CSP with
    frame-ancestors 'none' and default-src 'self'."""
    reader = table_playing(tmp_path / "table", 3, ("Ann", "Bartholomew-Fitzgerald", "Cy"))
    store = Store(tmp_path / "room.sqlite")
    for hand in reader.poll():
        store.add_hand("t9", reader.session, hand.seq, hand.number, hand.phh)
    store.close()
    port = free_port()
    config = tmp_path / "room.toml"
    config.write_text(TOML.format(port=port, broker=free_port()))
    room = subprocess.Popen(dies_with_parent([sys.executable, "-m", "dealerpi", "room", "--config", str(config)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    page = browser.new_page(viewport={"width": 390, "height": 844})
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                response = page.request.get(f"{url}/summary.json")
                break
            except Exception:                                       # not listening yet
                assert time.monotonic() < deadline and room.poll() is None, "the room did not start"
                time.sleep(0.2)
        for answer in (response, page.request.get(url + "/")):
            assert answer.headers["x-frame-options"] == "DENY"
            csp = answer.headers["content-security-policy"]
            assert "frame-ancestors 'none'" in csp and csp.startswith("default-src 'self'; ")
        for body, path in (({"op": "add", "game": "nlhe-1-3", "player": "Zed"}, "/waiting"),
                           ({"op": "add", "game": "nlhe-1-3", "player": "Yves"}, "/waiting"),
                           ({"op": "register", "player": "Ann"}, "/tournament"),
                           ({"op": "register", "player": "Bob"}, "/tournament")):
            assert page.request.post(url + path, data=body, headers={"Origin": url}).status == 200
        page.goto(url + "/")
        expect(page.locator("#games .waiter")).to_have_text(["Zed", ", Yves"], timeout=30_000)
        expect(page.locator("#players")).to_contain_text("Ann")
        expect(page.locator("#tournament")).to_contain_text("registered (2): Ann, Bob")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        page.get_by_title("remove Zed").click()
        expect(page.locator("#games .waiter")).to_have_text(["Yves"], timeout=10_000)
    finally:
        page.close()
        room.terminate()
        room.wait(10)
