"""The board on a TV (issue 19): 1920x1080 in headless Chromium against ``dealerpi run --fake`` and ``dealerpi
console``; in each state the page is no taller than the screen (the document and every element in it: nothing
cut off below, nothing to scroll): 10 seats in a hand, a pot won when all fold, a bomb pot all in on the ante
run three times (POT-11), a double-board bomb pot (seed 001), a tournament's director's clock (TRN-1, TRN-4).
The winner is named with the hand in words (dealerpi/views/hand_words.py), the pots and boards labelled.
Cards are typed as the host over the daemon's socket and the players press their seat buttons through the
virtual-hardware panel (tests/phone_kit.py). Set DEALERPI_CONSOLE_SCREENSHOTS=folder to keep the screenshots.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import chromium
from console.test_console_browser import serve_table
from console.test_console_phone import shot
from daemon_kit import CONFIG
from phone_kit import PHONE, TV, Daemon, fits_the_tv, phone_page
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.slow   # Chromium, the daemon and console as processes: 66 s

ROOT = Path(__file__).resolve().parents[2]
DECK = [rank + suit for rank in "AKQJT98765432" for suit in "shdc"]      # Ah... ordered: the test's shoe
TOURNAMENT = CONFIG.replace('rules = "home"\nseats = 3\nblinds = [1, 3]', '''rules = "tournament"
seats = 3
buy_in = 30
starting_stack = 1000
payouts = [70, 30]
levels = [{blinds = [50, 100], minutes = 10}, {break = true, minutes = 5}, {blinds = [100, 200], minutes = 10}]''')


@pytest.fixture(scope="module")
def ten(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    """The 10-seat example table (hardware/example.toml) on fake devices."""
    text = (ROOT / "hardware" / "example.toml").read_text().replace('devices = "pi"', 'devices = "fake"')
    text = text.replace('journal = "/var/lib/dealerpi/journal"', 'journal = "state/journal.jsonl"')
    text = text.replace('decks = "/var/lib/dealerpi/decks"', 'decks = "decks"')
    assert "/var/lib/dealerpi" not in text.split("#")[0] and '"/var/lib/dealerpi' not in text, \
        "the example's paths moved: this test must not write to the machine's /var/lib/dealerpi"
    yield from serve_table(tmp_path_factory.mktemp("tv10"), text)


@pytest.fixture(scope="module")
def tournament(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("tvmtt"), TOURNAMENT)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=20_000)
    yield from chromium()
    expect.set_options(timeout=5_000)


def fits(board: Page, state: str) -> None:
    shot(board, f"board-{state}")
    fits_the_tv(board, state)


def deal_all(host: Daemon, cards: Iterator[str]) -> dict[str, Any]:
    """Card after card while the table waits for one (hole cards, burns, boards); the view it ends in."""
    while True:
        view: dict[str, Any] = host.request("hello", {"role": "host"})["result"]["view"]
        if view["next"]["expect"] not in ("card", "burn"):
            return view
        host.send({"type": "card", "card": next(cards)})


def test_ten_seats_and_bomb_pots_fit_the_tv(ten: tuple[Path, dict[str, str]], browser: Browser) -> None:
    """Issue 19: 10 seats, the pot of a hand all fold to the big blind (won without a showdown: no hand named,
    POT-8; its uncalled part back, POT-2), a bomb pot
    of 100 all in on the ante run three times (POT-11: Run 1, 2, 3), a double-board bomb pot (Board 1, 2)."""
    folder, urls = ten
    board, errors = phone_page(browser, urls["board"], TV)
    host, panel = Daemon(folder, "host"), Daemon(folder, "panel")
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"]
    for seat, name in enumerate(names, 1):
        host.send({"type": "sit", "seat": seat, "player": name, "stack": 100})
    # the phone's drawn table holds ten seats without overlap, inside the screen's width
    phone, phone_errors = phone_page(browser, urls["host"], PHONE)
    expect(phone.locator("#tf-seat-10")).to_contain_text("Jo")
    # one snapshot of the ten seats, taken in the page between two of its renders (a view change redraws them)
    boxes = phone.evaluate("""[...Array(10).keys()].map(i => {
        const r = document.querySelector('#tf-seat-' + (i + 1)).getBoundingClientRect();
        return {x: r.x, y: r.y, width: r.width, height: r.height}; })""")
    assert all(box["height"] > 0 for box in boxes)                                   # every seat is drawn
    for one, other in itertools.combinations(boxes, 2):
        apart = (one["x"] + one["width"] <= other["x"] or other["x"] + other["width"] <= one["x"] or
                 one["y"] + one["height"] <= other["y"] or other["y"] + other["height"] <= one["y"])
        assert apart, (one, other)
    assert all(box["x"] >= 0 and box["x"] + box["width"] <= 390 for box in boxes)
    shot(phone, "phone-ten")
    phone.context.close()
    host.send({"type": "start"})
    view = deal_all(host, iter(DECK))
    expect(board.locator("#seats tr.turn")).to_have_count(1)
    fits(board, "ten-seats")
    while view["next"]["expect"] == "action":                  # everyone folds to the big blind
        panel.press(view["next"]["seat"], "fold")
        view = host.request("hello", {"role": "host"})["result"]["view"]
    bb = view["last_blinds"][1]
    # blinds 1/3 (hardware/example.toml): the big blind's uncalled 2 goes back to it (POT-2), the pot is 1 + 1
    assert view["blinds"] == [1, 3]
    expect(board.locator("#winner")).to_have_text(f"{names[bb - 1]} wins 2")
    fits(board, "folded")

    # a bomb pot all in on the ante: nobody can bet, so the board may be run three times (POT-11)
    stacks = {int(seat): info["stack"] for seat, info in view["seats"].items()}
    ante = max(stacks.values())                                 # every player all in on the ante
    host.send({"type": "start", "bomb": {"ante": ante, "boards": 1}})
    cards = iter(DECK)
    for _ in range(20):
        host.send({"type": "card", "card": next(cards)})
    view = host.request("hello", {"role": "host"})["result"]["view"]
    assert view["next"]["expect"] in ("burn", "card"), view["next"]
    host.send({"type": "run", "times": 3})
    deal_all(host, cards)
    expect(board.locator(".board-tag")).to_have_text(["Run 1", "Run 2", "Run 3"])
    expect(board.locator("#kind")).to_have_text(" · Bomb pot")
    # the hole cards are the 20 aces to tens, each run's board a full house that no hole card betters: all ten
    # play the board in every run and split (POT-3); the main pot is each player's 99 (the smallest stack)
    expect(board.locator("#winner")).to_have_text(re.compile(
        r"^Ann \d+, Bob \d+, Cy \d+, Dee \d+, Eve \d+, Fay \d+, Gus \d+, Hal \d+, Ivy \d+ and Jo \d+ win with a full "
        r"house, nines full of eights and a full house, sevens full of sixes and a full house, fives full of fours$"))
    expect(board.locator(".pot-line").first).to_have_text("Main pot 990split 10 ways")
    fits(board, "run-three-times")

    # a double-board bomb pot (seed 001): each busted player tops up first (BET-16, between hands)
    view = host.request("hello", {"role": "host"})["result"]["view"]
    for seat, info in view["seats"].items():
        if info["stack"] < 50:
            host.send({"type": "chips", "seat": int(seat), "amount": 50})
    host.send({"type": "start", "bomb": {"ante": 50, "boards": 2}})
    deal_all(host, iter(DECK))
    expect(board.locator(".board-tag")).to_have_text(["Board 1", "Board 2"])
    expect(board.locator(".pot-line").first).to_contain_text(re.compile(r"^(Pot|Main pot) \d+"))
    fits(board, "double-board")
    assert errors == [] and phone_errors == []
    host.close()
    panel.close()


def test_the_directors_clock_fits_the_tv(tournament: tuple[Path, dict[str, str]], browser: Browser) -> None:
    """Issue 19, TRN-1: level 1 of 10 minutes then a break: the break is 10 minutes away less the time run;
    three players of 1000: average stack 1,000, chips in play 3,000; the prize pool 3 x 30 = 90 (TRN-4)."""
    folder, urls = tournament
    board, errors = phone_page(browser, urls["board"], TV)
    host = Daemon(folder, "host")
    for seat, name in enumerate(["Ann", "Bob", "Cy"], 1):
        host.send({"type": "sit", "seat": seat, "player": name, "stack": 1000})
    expect(board.locator("#clock-level")).to_have_text("Level 1")
    expect(board.locator("#clock-extra")).to_have_text(
        re.compile(r"^Break in (10:00|9:[0-5]\d) · Average stack 1,000 · Chips in play 3,000$"))
    expect(board.locator("#clock-field")).to_contain_text("Prize pool 90")
    fits(board, "clock")
    host.send({"type": "start"})
    deal_all(host, iter(DECK))
    # the blinds 50 and 100 are in the pot: the chips in play stay 3,000 (stacks and pots, counted once)
    expect(board.locator("#clock-extra")).to_contain_text("Chips in play 3,000")
    fits(board, "clock-hand")
    assert errors == []
    host.close()


# a level of one minute, then the break: the board rings at the change (the daemon's ticks come every 5 s)
QUICK = TOURNAMENT.replace("levels = [{blinds = [50, 100], minutes = 10},",
                           "levels = [{blinds = [50, 100], minutes = 1},")
# the page's AudioContext, counting the tones the bell starts (a headless browser has no speakers to listen to)
FAKE_AUDIO = """
window.tones = [];
window.AudioContext = class {
  constructor() { this.currentTime = 0; this.destination = {}; }
  createOscillator() {
    const tone = {frequency: {value: 0}, connect: (next) => next, start: () => window.tones.push(tone.frequency.value),
                  stop: () => {}};
    return tone;
  }
  createGain() {
    return {gain: {setValueAtTime: () => {}, exponentialRampToValueAtTime: () => {}}, connect: (next) => next};
  }
};
"""


@pytest.fixture(scope="module")
def quick(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("tvbell"), QUICK)


@pytest.mark.slow
def test_the_board_rings_at_a_new_level(quick: tuple[Path, dict[str, str]], browser: Browser) -> None:
    """Issue 19, TRN-1: the director's clock rings at each new step of the schedule, once the TV's first tap
    allowed sound (a browser's autoplay policy): the tap rings once (880, 660, 880 Hz); the break, after the
    one-minute level 1, rings again."""
    _folder, urls = quick
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    context.add_init_script(FAKE_AUDIO)
    board = context.new_page()
    board.goto(urls["board"])
    expect(board.locator("#clock-level")).to_have_text("Level 1")
    board.locator("#sound").click()
    expect(board.locator("#sound")).to_be_hidden()
    assert board.evaluate("window.tones") == [880, 660, 880]
    expect(board.locator("#clock-level")).to_have_text("Break", timeout=90_000)
    assert board.evaluate("window.tones") == [880, 660, 880] * 2
    context.close()
