"""The room page's tournament in headless Chromium (browser_kit: never skipped), end to end: ``dealerpi room``
as its own process (no broker: the page works while the room retries it), the desk CLI registering three
players and starting, the page showing the clock, the field and the prizes; ``?big=1`` only the tournament."""

from __future__ import annotations

import re
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

pytestmark = pytest.mark.slow   # Chromium and a real broker: 6 s

TOML = """[room]
listen = "127.0.0.1:{port}"
state = "state"
[mqtt]
port = {broker}
[tournament]
tables = ["t1", "t2"]
seats = 6
buy_in = 40
starting_stack = 5000
payouts = [70, 30]
levels = [{{blinds = [50, 100], minutes = 10}}, {{blinds = [100, 200], minutes = 10}}]
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def test_the_room_page_shows_the_tournaments_clock_field_and_prizes(tmp_path: Path, browser: Browser) -> None:
    """Ann, Bob and Cy registered with the desk CLI and started: level 1 (50/100, 10 minutes) counting down
    from 10:00; 3 of 3 left, average 3 x 5000 / 3 = 5000; pool 3 x 40 = 120; 2 places paid, 70 % and 30 %:
    84 and 36. The big screen (?big=1) hides the cash games and the players' statistics."""
    port = free_port()
    config = tmp_path / "room.toml"
    config.write_text(TOML.format(port=port, broker=free_port()))
    room = subprocess.Popen(dies_with_parent([sys.executable, "-m", "dealerpi", "room", "--config", str(config)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    page = browser.new_page()
    try:
        deadline = time.monotonic() + 60
        while subprocess.run([sys.executable, "-m", "dealerpi", "room", "desk", "--config", str(config), "show"],
                             capture_output=True, timeout=30).returncode != 0:
            assert time.monotonic() < deadline and room.poll() is None, "the room did not start"
            time.sleep(0.2)
        desk(config, "register", "Ann", "Bob", "Cy")
        shown = desk(config, "start")
        assert "running: Level 1 50/100" in shown and "3 of 3 left, average 5000, pool 120, 2 paid" in shown
        page.goto(f"http://127.0.0.1:{port}/")
        expect(page.locator("#clock")).to_have_text(re.compile(r"^Level 1 · 50/100 (10:00|9:[0-5]\d)$"),
                                                    timeout=30_000)       # a loaded machine: the page's first push
        expect(page.locator("#tournament")).to_contain_text("running · players 3 of 3 · average stack 5000 · "
                                                            "prize pool 120 · 2 places paid: 84, 36")
        cash = page.get_by_role("heading", name="Cash games")
        expect(cash).to_be_visible()
        page.goto(f"http://127.0.0.1:{port}/?big=1")
        expect(page.locator("#clock")).to_be_visible()
        expect(cash).to_be_hidden()
        expect(page.locator("#players")).to_be_hidden()
    finally:
        page.close()                        # its WebSocket closed: the room's page stops at once
        room.terminate()
        room.wait(10)
