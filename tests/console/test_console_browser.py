"""End to end in headless Chromium (issue 14): ``dealerpi run --fake`` and ``dealerpi console`` started as
separate processes, as systemd starts them; the host's page on a phone (390 px), the dealer's and the
board's pages each with its own token from the console's pairing.txt.

The host seats three players, the dealer starts a hand and types the six hole cards (the shoe is offline:
manual cards), takes the last one back with UNDO and CONFIRM and types it again; the board's page never
receives one of them (every WebSocket frame is searched; the positive control: the journal has all six);
a board token cannot open the host's page; the host cashes a player out, and the ledger balances.
Chromium is Debian's (tests/browser_kit.py); without it this test fails and says so.
Set DEALERPI_CONSOLE_SCREENSHOTS=folder to keep the screenshots (docs/console-*.png are made this way).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from daemon_kit import CONFIG
from playwright.sync_api import Browser, Page, WebSocket, expect

from dealerpi.engine import Table
from dealerpi.journal.folder import read_folder

pytestmark = pytest.mark.slow   # Chromium: 24 s

ROOT = Path(__file__).resolve().parents[2]
HOLE = ["Kd", "8c", "5d", "Qc", "9c", "4s"]          # dealt from seat 2 (left of the button, seat 1)


def _start(command: list[str], log: Path, pattern: str) -> subprocess.Popen[bytes]:
    """Start ``command`` with its output in ``log`` (a pipe nobody reads could fill and stop it) and wait
    until the output shows ``pattern``."""
    with log.open("wb") as out:
        process = subprocess.Popen([sys.executable, "-m", "dealerpi", *command], stdout=out, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 30
    while not re.search(pattern, log.read_text()):
        if process.poll() is not None or time.monotonic() > deadline:
            process.kill()
            raise AssertionError(f"dealerpi {command[0]} did not start:\n{log.read_text()}")
        time.sleep(0.05)
    return process


def serve_table(folder: Path, config_text: str) -> Iterator[tuple[Path, dict[str, str]]]:
    """The daemon and the console on a fake table; yields the folder and each role's URL."""
    config = folder / "table.toml"
    config.write_text(config_text + '\n[console]\nsocket = "run/api.sock"\nstate = "console"\n'
                                    'listen = "127.0.0.1:0"\n')
    daemon = _start(["run", "--fake", "--config", str(config), "--shoe", "loop://"], folder / "daemon.log",
                    r"dealerpi ready")
    console = None
    try:
        console = _start(["console", "--config", str(config)], folder / "console.log",
                         r"DealerPi console on 127\.0\.0\.1:\d+")
        urls = dict(line.split(" ", 1) for line in (folder / "console" / "pairing.txt").read_text().splitlines())
        yield folder, urls
    finally:
        for process in (console, daemon):
            if process is not None:
                process.terminate()
                process.wait(10)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """Three seats (tests/daemon_kit.py)."""
    yield from serve_table(tmp_path_factory.mktemp("console"), CONFIG)


@pytest.fixture(scope="module")
def ten_seats(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """The 10-seat example table (hardware/example.toml) on fake devices."""
    folder = tmp_path_factory.mktemp("console10")
    text = (ROOT / "hardware" / "example.toml").read_text().replace('devices = "pi"', 'devices = "fake"')
    text = text.replace('journal = "/var/lib/dealerpi/journal"', 'journal = "state/journal.jsonl"')
    text = text.replace('decks = "/var/lib/dealerpi/decks"', 'decks = "decks"')
    yield from serve_table(folder, text)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def open_page(browser: Browser, url: str, width: int, height: int) -> tuple[Page, list[str]]:
    """A page in its own browser context (its own cookie jar) and every WebSocket frame it receives."""
    page = browser.new_context(viewport={"width": width, "height": height}).new_page()
    frames: list[str] = []
    errors: list[str] = []

    def on_socket(ws: WebSocket) -> None:
        ws.on("framereceived", lambda payload: frames.append(payload if isinstance(payload, str) else ""))

    page.on("websocket", on_socket)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(url)
    expect(page.locator("#link")).to_have_text("connected", timeout=10000)
    assert "token" not in page.url                     # the token went to a cookie, out of the address bar
    assert errors == []
    return page, frames


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("DEALERPI_CONSOLE_SCREENSHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"console-{name}.png"), full_page=True)


def sit(page: Page, seat: int, name: str, stack: int) -> None:
    page.select_option("#sit-seat", str(seat))
    page.fill("#sit input[name=player]", name)
    page.fill("#sit input[name=stack]", str(stack))
    page.click("#sit button")
    expect(page.locator(f"#seat-{seat}")).to_contain_text(name)
    # the table's answer comes after the seat's change: the form is cleared only then, so wait for it
    expect(page.locator("#sit input[name=player]")).to_have_value("")


def card(page: Page, text: str) -> None:
    page.fill("#card input[name=card]", text)
    page.click("#card button")


def test_an_evening_from_the_host_dealer_and_board_pages(table: tuple[Path, dict[str, str]], browser: Browser) -> None:
    folder, urls = table
    host, _host_frames = open_page(browser, urls["host"], 390, 844)
    dealer, _dealer_frames = open_page(browser, urls["dealer"], 768, 1024)
    board, board_frames = open_page(browser, urls["board"], 1280, 720)

    # roles: a board token cannot open the host's page (the server says so, not only the page)
    refused = board.context.request.get(urls["host"].split("?")[0])
    assert refused.status == 403 and "a board token cannot open the host's page" in refused.text()

    for seat, name, stack in ((1, "Ann", 250), (2, "Bob", 300), (3, "Cy", 200)):
        sit(host, seat, name, stack)
    expect(board.locator("#seat-2")).to_contain_text("Bob")
    expect(host.locator("#check")).to_have_text("in 750 = on the table 750 + cashed out 0: balanced")

    dealer.click("#start")                             # BLD-1: button 1, blinds from seats 2 and 3
    expect(dealer.locator("#expect")).to_have_text("next: card to seat 2")
    # extras only where the rules allow, with the engine's reason when not
    host.select_option("#straddle-seat", "1")
    host.click("#straddle button")
    expect(host.locator("#message")).to_have_text(
        "BLD-9: seat 1 has the button (last action) and may not straddle (seed 001; seed 002 B8f)")
    dealer.get_by_role("button", name="Run it twice", exact=True).click()
    expect(dealer.locator("#message")).to_have_text("run it N times only when no more betting is possible (POT-11)")
    for text in HOLE:
        card(dealer, text.lower())                     # typed as a dealer would: "kd" is Kd
    expect(dealer.locator("#expect")).to_have_text("next: action on seat 1")
    dealer.click("#undo")                              # UNDO, then CONFIRM: the last card comes back
    expect(dealer.locator("#undo")).to_have_text("Confirm undo?")
    dealer.click("#undo")
    expect(dealer.locator("#expect")).to_have_text("next: card to seat 1")
    card(dealer, HOLE[-1])
    expect(board.locator("#seat-1.turn")).to_contain_text("Ann")      # whose turn, on the TV
    shot(dealer, "dealer")
    shot(board, "board")

    journal = read_folder(folder / "state" / "journal", Table.from_snapshot).entries    # every segment
    typed = [e for e in journal if e["type"] == "card"]
    assert [e["card"] for e in typed] == [*HOLE, HOLE[-1]]                    # the positive control
    assert {(e["by"], e["source"]) for e in typed} == {("dealer", "manual")}
    search = re.compile(r"(?<![A-Za-z0-9])(" + "|".join(HOLE) + r")(?![A-Za-z0-9])")
    assert len(search.findall(json.dumps(typed))) == 7                        # the search finds them there
    assert board_frames and search.findall("".join(board_frames)) == []      # and never on the board

    # MIS-1: a misdeal before any action (confirmed): the same hand is dealt again
    dealer.click("#misdeal")
    expect(dealer.locator("#misdeal")).to_have_text("Confirm misdeal?")
    dealer.click("#misdeal")
    expect(dealer.locator("#expect")).to_have_text("next: card to seat 2")
    for text in HOLE:
        card(dealer, text)
    # MIS-4: the dealer declares seats 1 and 2 dead (each confirmed): Cy wins the blinds, 1 + 3 = 4
    for dead in ("1", "2"):
        dealer.select_option("#dead-seat", dead)
        dealer.click("#dead-button")
        expect(dealer.locator("#dead-button")).to_have_text("Confirm dead hand?")
        dealer.click("#dead-button")
        expect(dealer.locator("#dead-button")).to_have_text("Dead hand")
    expect(host.locator("#expect")).to_have_text("next: start")
    # issue 15: a pause shows at once, before anyone presses START: the dealer's words, the board's line
    expect(board.locator("#held")).to_be_hidden()
    host.click("#pause-clock")
    expect(dealer.locator("#expect")).to_have_text("next: PAUSED: the host paused the clock: wait for resume")
    expect(board.locator("#held")).to_have_text("Paused: the host paused the clock")
    host.click("#resume-clock")
    expect(board.locator("#held")).to_be_hidden()
    expect(dealer.locator("#expect")).to_have_text("next: start")
    # the procedures first, the newest first (issue 14): seat 2's dead hand, then seat 1's
    expect(host.locator("#alerts li").first).to_contain_text("MIS-4 Seat 2's hand is dead")
    dealer.click("#clear-alerts")                      # as CONFIRM with nothing pending: on every page
    expect(host.locator("#alerts li")).to_have_count(0)
    host.locator("#seat-3 button", has_text="Cash out").click()
    host.locator("#seat-3 button", has_text="Confirm cash-out").click()
    expect(host.locator("#seat-3")).to_contain_text("—")
    # in 250 + 300 + 200 = 750; Cy leaves with 200 + 1 (Bob's small blind) = 201, his own 3 back;
    # on the table Ann 250 + Bob 299 = 549; 549 + 201 = 750. Nets: Bob -1, Cy +1.
    expect(host.locator("#check")).to_have_text("in 750 = on the table 549 + cashed out 201: balanced")
    expect(host.locator("#transfers")).to_have_text("Bob pays Cy 1")
    shot(host, "host")
    # BLD-8: between hands Bob moves to the seat Cy left; his stack goes with him
    host.select_option("#move-seat", "2")
    host.select_option("#move-to", "3")
    host.click("#move button")
    expect(host.locator("#seat-3")).to_contain_text("Bob")
    expect(host.locator("#seat-3")).to_contain_text("299")
    expect(board.locator("#seat-2")).to_contain_text("—")


def test_ten_seats_fit_a_phone_a_tablet_and_a_tv_without_overlap(ten_seats: tuple[Path, dict[str, str]],
                                                                 browser: Browser) -> None:
    """Issue 14: 10 seats at 390 px (the host's phone), 768 px (the dealer's tablet) and 1280x800 (the board):
    no page is wider than its screen, and no two seat rows overlap."""
    _folder, urls = ten_seats
    host, _ = open_page(browser, urls["host"], 390, 844)
    for seat in range(1, 11):
        sit(host, seat, f"Player {seat:02d}", 300)
    for role, (width, height) in (("host", (390, 844)), ("dealer", (768, 1024)), ("board", (1280, 800))):
        page = host if role == "host" else open_page(browser, urls[role], width, height)[0]
        expect(page.locator("#seat-10")).to_contain_text("Player 10")
        assert page.evaluate("document.documentElement.scrollWidth") <= width, role
        # one snapshot of the ten rows, taken in the page between two of its renders (ten separate
        # bounding_box() calls could each meet a different render on a loaded machine: None mid-render)
        boxes = page.evaluate("""[...Array(10).keys()].map(i => {
            const r = document.querySelector('#seat-' + (i + 1)).getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height}; })""")
        assert all(box["height"] > 0 for box in boxes), role                     # every row is drawn
        for upper, lower in itertools.pairwise(boxes):
            assert upper["y"] + upper["height"] <= lower["y"] + 0.5, role           # one under the other
            assert lower["x"] >= 0 and lower["x"] + lower["width"] <= width, role   # inside the screen
