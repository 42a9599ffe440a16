"""End to end in headless Chromium: `dealerpi sim` started as a newcomer starts it, a whole three-way hand with a
side pot played by clicking the page, the seats' displays and the pots checked, a screenshot saved.

Chromium is Debian's (``apt-get install chromium``, /usr/bin/chromium; another one through DEALERPI_CHROMIUM),
driven by the Python ``playwright`` package. Without it this test fails and says so: it is never skipped.
Set DEALERPI_SIM_SCREENSHOT=path to keep the screenshot (docs/simulator.png is made this way).
"""

from __future__ import annotations

import base64
import io
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from PIL import Image
from playwright.sync_api import Browser, Page, expect

from dealerpi.views.model import SeatView
from dealerpi.views.render import render_seat

BOARD = (("2c", "7d", "9s", "3h", "Jc"),)


@pytest.fixture(scope="module")
def sim_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("sim")
    process = subprocess.Popen([sys.executable, "-m", "dealerpi", "sim", "--no-browser", "--port", "0",
                                "--seed", "11", "--out", str(out)],
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert process.stdout is not None
    url = None
    deadline = time.monotonic() + 20
    lines = []
    while url is None and time.monotonic() < deadline:
        line = process.stdout.readline()
        lines.append(line)
        if match := re.search(r"DealerPi simulator: (http://127\.0\.0\.1:\d+/)$", line.strip()):
            url = match.group(1)
        if process.poll() is not None:
            break
    try:
        assert url is not None, "dealerpi sim did not print its URL:\n" + "".join(lines)
        yield url
    finally:
        process.terminate()
        process.wait(10)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def display(page: Page, seat: int | str) -> Image.Image:
    source = page.get_attribute(f"#seat-{seat} img.oled" if seat != "dealer" else "#dealer-screen", "src")
    assert source is not None and source.startswith("data:image/png;base64,")
    return Image.open(io.BytesIO(base64.b64decode(source.split(",", 1)[1]))).convert("1")


def expect_display(page: Page, seat: int, view: SeatView, timeout: float = 5.0) -> None:
    """Seat ``seat``'s display on the page shows exactly what the renderer draws for ``view``."""
    wanted = render_seat(view).tobytes()
    deadline = time.monotonic() + timeout
    while display(page, seat).tobytes() != wanted:
        assert time.monotonic() < deadline, f"seat {seat}'s display never showed {view}"
        page.wait_for_timeout(50)


def click(page: Page, selector: str) -> None:
    page.locator(selector).click()


def tap(page: Page, selector: str) -> None:
    """A finger's tap on a table button: 80 ms down, then a pause. The buttons are debounced (30 ms dead
    time after each edge), so two taps within a few milliseconds, as a bare click() makes them, would be
    chatter of one press, not two presses."""
    page.locator(selector).click(delay=80)
    page.wait_for_timeout(100)


def hold(page: Page, selector: str, ms: int) -> None:
    page.locator(selector).hover()
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def deal(page: Page, card: str) -> None:
    page.select_option("#pick", card)
    click(page, "#deal-pick")


def next_is(page: Page, text: str) -> None:
    expect(page.locator("#next-what")).to_have_text(text, timeout=5000)


def test_a_three_way_hand_with_a_side_pot_played_by_clicking(sim_url: str, browser: Browser, tmp_path: Path) -> None:
    """Seat 1 Ann 300 (button), seat 2 Bob 200 (small blind 1), seat 3 Cy 100 (big blind 3): Ann moves in,
    both call all-in. POT-1: main pot 3 x 100 = 300 for seats 1-3, side pot 2 x 100 = 200 for seats 1 and 2;
    POT-2: Ann's unmatched 100 comes back. Her aces win both pots: she pushes 500 and ends with 600."""
    page = browser.new_page(viewport={"width": 1440, "height": 1000})
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(sim_url)
    next_is(page, "start a hand")
    expect(page.locator("#seat-1 .seat-no")).to_have_text("1 Ann")

    tap(page, "[data-console=start]")                    # BLD-1: blinds from seats 2 and 3
    next_is(page, "card to seat 2")
    for card in ["Kh", "Qh", "Ah", "Kd", "Qd", "Ad"]:      # the deal starts left of the button
        deal(page, card)
    next_is(page, "action on seat 1")
    expect(page.locator("#pots .pot")).to_have_count(1)
    expect(page.locator("#pots .pot b")).to_have_text("4")

    # hole cards are on the page only for training
    assert page.locator(".seat .hole .card").count() == 0
    assert page.locator("[data-card=Ah]").count() == 0
    page.check("#training")
    expect(page.locator("#seat-1 .hole .card")).to_have_count(2)
    assert [page.locator("#seat-1 .hole .card").nth(i).get_attribute("data-card") for i in range(2)] == ["Ah", "Ad"]
    page.uncheck("#training")
    expect(page.locator(".seat .hole .card")).to_have_count(0)

    ann = SeatView(seat=1, player="Ann", stack=300, status="in", board=((),), pot=4, to_call=3, min_raise_to=6,
                   max_raise_to=300, your_action=True, is_button=True, blinds=(1, 3), hand_number=1)
    expect_display(page, 1, ann)
    expect(page.locator("#seat-1 .led.action")).to_have_class(re.compile(r"\blit\b"))
    expect(page.locator("#seat-1 .led.dealer")).to_have_class(re.compile(r"\blit\b"))
    tap(page, "#seat-1 [data-button=bet]")               # amount entry opens at the minimum, 6
    tap(page, "#seat-1 [data-button=bet]")               # POT: 3 to call + pot 7 after calling = 10
    tap(page, "#seat-1 [data-button=bet]")               # ALL-IN: 300
    expect_display(page, 1, SeatView(**{**ann.__dict__, "entry": 300, "entry_label": "ALL-IN"}))
    hold(page, "#seat-1 [data-button=bet]", 900)           # holding BET confirms
    next_is(page, "action on seat 2")
    tap(page, "#seat-2 [data-button=call]")              # Bob calls all-in for 200
    next_is(page, "action on seat 3")
    tap(page, "#seat-3 [data-button=call]")              # Cy calls all-in for 100
    next_is(page, "burn")

    pots = page.locator("#pots .pot")
    expect(pots).to_have_count(2)
    expect(pots.nth(0)).to_have_text("main pot 300 seats 1, 2, 3")
    expect(pots.nth(1)).to_have_text("side pot 1 200 seats 1, 2")
    # the round is over: the pot is 300 + 200 = 500; Ann has her unmatched 100 back; Bob is all-in
    expect_display(page, 1, SeatView(seat=1, player="Ann", stack=100, status="in", board=((),), pot=500,
                                     is_button=True, blinds=(1, 3), hand_number=1))
    expect_display(page, 2, SeatView(seat=2, player="Bob", stack=0, status="all-in", board=((),), pot=500,
                                     blind="SB", blinds=(1, 3), hand_number=1))

    for card in ["2s", "2c", "7d", "9s", "5s", "3h"]:      # burn, flop, burn, turn
        deal(page, card)
    next_is(page, "burn")
    expect(page.locator("#boards .card")).to_have_count(4)
    page.screenshot(path=str(tmp_path / "simulator.png"), full_page=True)
    if os.environ.get("DEALERPI_SIM_SCREENSHOT"):
        shutil.copy(tmp_path / "simulator.png", os.environ["DEALERPI_SIM_SCREENSHOT"])
    deal(page, "6s")
    deal(page, "Jc")
    next_is(page, "start a hand")

    payout = page.locator("#pots .payout")
    expect(payout).to_have_count(1)
    expect(payout).to_have_text("push 500 to seat 1")
    expect_display(page, 1, SeatView(seat=1, player="Ann", stack=600, status="in", board=BOARD, won=500,
                                     is_button=True, blinds=(1, 3), hand_number=1))
    for seat, name in ((2, "Bob"), (3, "Cy")):
        expect_display(page, seat, SeatView(seat=seat, player=name, stack=0, status="in", board=BOARD,
                                            blinds=(1, 3), hand_number=1))
    hand = page.locator("#hands li").first                 # the dealer's view of the finished hand
    expect(hand).to_contain_text("#1: 300 → seat 1 +300; 200 → seat 1 +200")
    for card in ["Kh", "Kd", "Qh", "Qd", "Ah", "Ad"]:
        expect(hand.locator(f"[data-card={card}]")).to_have_count(1)

    with page.expect_download() as download:
        click(page, "#dl-phh")
    phh = Path(download.value.path()).read_text()
    assert 'players = ["Bob", "Cy", "Ann"]' in phh and "finishing_stacks = [0, 0, 600]" in phh
    with page.expect_download() as download:
        click(page, "#dl-journal")
    journal = Path(download.value.path()).read_text().splitlines()
    assert len(journal) == 5 + 1 + 6 + 3 + 8                 # start-up, START, hole cards, actions, board
    assert errors == []


def test_the_page_fits_a_phone(sim_url: str, browser: Browser) -> None:
    """A dealer's tablet or a phone: no sideways scrolling, seats side by side, every button reachable."""
    page = browser.new_page(viewport={"width": 390, "height": 844}, has_touch=True)
    page.goto(sim_url)
    expect(page.locator("#seat-6 img.oled")).to_have_attribute("src", re.compile("^data:image/png"))
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    boxes = [page.locator(f"#seat-{seat}").bounding_box() for seat in range(1, 7)]
    for i, a in enumerate(boxes):
        assert a is not None and a["x"] >= 0 and a["x"] + a["width"] <= 390
        for b in boxes[i + 1:]:
            assert b is not None
            apart = a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"] or \
                a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"]
            assert apart, (a, b)
    for selector in ("#deal", "[data-console=start]", "#seat-6 [data-button=bet]"):
        button = page.locator(selector)
        button.scroll_into_view_if_needed()
        box = button.bounding_box()
        assert box is not None and box["width"] >= 40 and box["height"] >= 30
