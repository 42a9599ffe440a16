"""The director's controls on the room page in headless Chromium (browser_kit: never skipped), issue 20:
``dealerpi room`` as its own process (no broker: the page works while the room retries it), a tournament of
three started from the page's desk. On a 390 x 844 phone every control is usable: no horizontal overflow,
each control inside the screen when tapped, its answer (or the reason it is refused) beside it. The big
screen (``?big=1``) at 1920 x 1080 shows the clock, the next level, the time to the break and the
announcement, and fits the screen. The page keeps its CSP: the controls run under it (no inline handler)."""

from __future__ import annotations

import os
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
from playwright.sync_api import Browser, Locator, Page, expect

from dealerpi.engine import Standings
from dealerpi.room.director.mtt import Director, new_state
from dealerpi.room.director.mtt_config import parse_tournament
from dealerpi.room.director.mtt_summary import standings_json
from dealerpi.room.store import Store

pytestmark = pytest.mark.slow   # Chromium: 10 s

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
levels = [{{blinds = [50, 100], minutes = 10}}, {{blinds = [100, 200], minutes = 10}}, {{break = true, minutes = 5}},
          {{blinds = [200, 400], ante = 50, minutes = 10}}]
"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def inside(page: Page, part: Locator) -> None:
    """``part`` wholly on the screen (the viewport), not off its side nor below it."""
    box = part.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
    assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box


def press(page: Page, row: Locator, name: str, answer: str | re.Pattern[str]) -> None:
    """Tap ``name`` in ``row``: the button is on the screen, and so is the answer beside it, in its row."""
    button = row.get_by_role("button", name=name, exact=True)
    button.click()
    inside(page, button)
    expect(row.locator(".answer")).to_have_text(answer, timeout=15_000)
    inside(page, row.locator(".answer"))


def test_the_directors_controls_on_a_phone_and_the_big_screen_on_a_tv(tmp_path: Path, browser: Browser) -> None:
    """Ann, Bob and Cy registered and started from the page (loopback: the host). On the phone the controls,
    closed at first, are opened; the clock
    paused (level 1 of 10 minutes), set to step 2 (100/200) with 5:00 left, stopped there; 1 minute added
    (6:00) and 5 removed (1:00); 5 more removed is refused (1:00 left: at most 59 s); a move, an
    unregistration and a place are refused with the reason (no table online; nobody has finished); the
    announcement is made. On the TV: level 2 at 1:00 (stopped), next the break, in 1:00, the announcement;
    the page's height at most 1080 px."""
    port = free_port()
    config = tmp_path / "room.toml"
    config.write_text(TOML.format(port=port, broker=free_port()))
    room = subprocess.Popen(dies_with_parent([sys.executable, "-m", "dealerpi", "room", "--config", str(config)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    errors: list[str] = []
    for page in (phone, tv):
        page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                phone.request.get(f"{url}/summary.json")
                break
            except Exception:                                       # not listening yet
                assert time.monotonic() < deadline and room.poll() is None, "the room did not start"
                time.sleep(0.2)
        for name in ("Ann", "Bob", "Cy"):
            assert phone.request.post(f"{url}/tournament", data={"op": "register", "player": name},
                                      headers={"Origin": url}).status == 200
        assert phone.request.post(f"{url}/tournament", data={"op": "start"}, headers={"Origin": url}).status == 200
        phone.goto(url + "/")
        director = phone.locator("#director")
        expect(director).to_be_visible(timeout=30_000)
        director.get_by_text("Director's controls").click()             # closed at first: the clock shows
        rows = {name: director.locator(".row", has=phone.locator("b", has_text=re.compile(f"^{name}$")))
                for name in ("Clock", "Set clock", "Time", "Move", "Unregister", "Place", "Announce")}
        press(phone, rows["Clock"], "pause", re.compile(r"^clock paused at step 1 \(50/100\), (10:00|9:[0-5]\d) left$"))
        rows["Set clock"].get_by_label("level").select_option("2")
        rows["Set clock"].get_by_label("time left").fill("5:00")
        press(phone, rows["Set clock"], "set", "clock set: step 2 (100/200), 5:00 left")
        press(phone, rows["Time"], "+1 min", "added 60 s: step 2 (100/200), 6:00 left")
        press(phone, rows["Time"], "−5 min", "removed 300 s: step 2 (100/200), 1:00 left")
        press(phone, rows["Time"], "−5 min", "time: 1:00 left of 10 minutes: add at most 540 s, remove at most "
                                             "59 s (another level: set the clock)")
        rows["Move"].get_by_label("player to move").fill("Ann")
        rows["Move"].get_by_label("seat").fill("3")
        press(phone, rows["Move"], "move", "Ann is not seated at a table in play")
        rows["Unregister"].get_by_label("player to unregister").fill("Ann")
        press(phone, rows["Unregister"], "unregister",
              "Ann's table is not online: his seat is not known (try again when it is)")
        rows["Place"].get_by_label("player whose place is wrong").fill("Bob")
        rows["Place"].get_by_label("right place").fill("2")
        press(phone, rows["Place"], "correct", "Bob has no place: he is still in")
        press(phone, rows["Place"], "undo", "undo: no place correction to take back")
        rows["Announce"].get_by_label("announcement").fill("Last hand before the break")
        press(phone, rows["Announce"], "announce", "announced: Last hand before the break")
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
        expect(phone.locator("#announcement")).to_have_text("Last hand before the break", timeout=15_000)
        expect(director.locator("#done")).to_contain_text("announce: announced: Last hand before the break",
                                                          timeout=15_000)
        director.scroll_into_view_if_needed()
        tv.goto(url + "/?big=1")
        expect(tv.locator("#clock")).to_have_text("Level 2 · 100/200 1:00", timeout=30_000)
        expect(tv.locator("#tournament .next")).to_have_text("next: Break · break in 1:00", timeout=15_000)
        expect(tv.locator("#announcement")).to_have_text("Last hand before the break", timeout=15_000)
        expect(tv.locator("#director")).to_be_hidden()
        assert tv.evaluate("document.documentElement.scrollHeight") <= 1080
        shots = os.environ.get("DEALERPI_SCREENSHOTS")          # docs/: the PNGs docs/room.md shows
        if shots:
            phone.evaluate("window.scrollTo(0, 0)")
            phone.screenshot(path=str(Path(shots) / "room-director-phone.png"), full_page=True)
            tv.screenshot(path=str(Path(shots) / "room-big-screen.png"))
        # no CSP refusal, no script error (a refused control is a 400, which Chromium logs as a failed load)
        assert [e for e in errors if not e.startswith("Failed to load resource")] == []
    finally:
        phone.close()
        tv.close()
        room.terminate()
        room.wait(10)


def test_a_finished_tournament_the_winner_on_the_tv_and_a_place_corrected_on_the_phone(
        tmp_path: Path, browser: Browser) -> None:
    """A room whose database holds a finished tournament of three (pool 3 x 40 = 120, 70/30 %: 84 and 36):
    Cy 3rd, Bob 2nd (36), Ann 1st (84). The TV's big screen says "Winner: Ann" within 1080 px. On the phone
    the director corrects Cy to 2nd: Cy 36, Bob 3rd 0, and the places line follows; undo: Bob 36 again."""
    port = free_port()
    config = tmp_path / "room.toml"
    config.write_text(TOML.format(port=port, broker=free_port()).replace('state = "state"\n',
                                                                        'state = "state"\ndatabase = "room.sqlite"\n'))
    settings, errors = parse_tournament({"tables": ["t1", "t2"], "seats": 6, "buy_in": 40, "starting_stack": 5000,
                                         "payouts": [70, 30], "levels": [{"blinds": [50, 100], "minutes": 10}]},
                                        "room.toml")
    assert settings is not None, errors
    director = Director(settings, new_state("x"))           # its state only is stored: the levels do not matter
    for name in ("Ann", "Bob", "Cy"):
        director.register(name, 0.0)
    director.start(7, 1000.0)
    standings = Standings(120, 3, (70, 30)).bust(["Cy"]).bust(["Bob"]).win("Ann")
    director.state.update(phase="finished", standings=standings_json(standings))
    store = Store(tmp_path / "room.sqlite")
    store.save_tournament(director.state, [])
    store.close()
    room = subprocess.Popen(dies_with_parent([sys.executable, "-m", "dealerpi", "room", "--config", str(config)]),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path)
    phone = browser.new_page(viewport={"width": 390, "height": 844})
    tv = browser.new_page(viewport={"width": 1920, "height": 1080})
    try:
        url = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                phone.request.get(f"{url}/summary.json")
                break
            except Exception:                                       # not listening yet
                assert time.monotonic() < deadline and room.poll() is None, "the room did not start"
                time.sleep(0.2)
        tv.goto(url + "/?big=1")
        expect(tv.locator("#winner")).to_have_text("Winner: Ann", timeout=30_000)
        assert tv.evaluate("document.documentElement.scrollHeight") <= 1080
        phone.goto(url + "/")
        phone.get_by_text("Director's controls").click(timeout=30_000)
        place = phone.locator("#director .row", has=phone.locator("b", has_text=re.compile("^Place$")))
        expect(place).to_be_visible()
        place.get_by_label("player whose place is wrong").fill("Cy")
        place.get_by_label("right place").fill("2")
        press(phone, place, "correct", "Cy 2, Bob 3: Cy wins 36, Bob wins 0")
        expect(phone.locator("#tournament")).to_contain_text("places: 1. Ann 84 · 2. Cy 36 · 3. Bob", timeout=15_000)
        press(phone, place, "undo", "undone: Cy 2, Bob 3; now Cy wins 0, Bob wins 36")
        expect(phone.locator("#tournament")).to_contain_text("places: 1. Ann 84 · 2. Bob 36 · 3. Cy", timeout=15_000)
        assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    finally:
        phone.close()
        tv.close()
        room.terminate()
        room.wait(10)
