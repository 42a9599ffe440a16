"""A whole evening run from the host's phone alone (issue 19's goal), in headless Chromium at 390x844 with touch,
the TV board at 1920x1080 beside it, against ``dealerpi run --fake`` and ``dealerpi console``: the host seats,
deals (manual cards: the shoe is offline), fixes and settles from the table-first page only; the players act
with their seat buttons (the daemon's virtual-hardware panel, tests/phone_kit.py). Each answer of the table
is checked inside the viewport with its rule id in the detail line only; the board is no taller than the TV
in each state. In the slow lane (``pytest -m slow``): about a minute on an idle machine.

1. Cash, home rules, a four-card flop picked by the floor (TDA 39-A): Ann, Bob, Cy and Dee sit with 100.
   Hand 1: Dee straddles 6 (BLD-9); all fold to her: she wins the blinds 1 + 3 and gets her uncalled 3 back
   (POT-2): "Dee wins 7".
2. Cy and Dee step away; hand 2 is a double-board bomb pot of 100 (seed 001): Ann 99 (her small blind paid)
   and Bob 100 all in on the ante, Bob's uncalled 1 back (POT-2); run twice (POT-11): four boards.
3. Cy and Dee come back; Bob buys 50 more chips (BET-16, between hands).
4. Hand 3: the dealer exposes a hole card (EXP-1), the flop comes with a fourth card and the floor picks the
   burn (BRD-1); an undo (with confirm) takes the pick back and it is picked again; all fold.
5. Dee cashes out; the ledger balances.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import chromium
from console.test_console_browser import serve_table
from console.test_console_evening import FOUR_SEATS
from console.test_console_phone import answer, pick, shot
from phone_kit import TV, Daemon, in_viewport, phone_page
from playwright.sync_api import Browser, Page, expect

TDA = FOUR_SEATS.replace('blinds = [1, 3]\n', 'blinds = [1, 3]\npolicies = { four_card_flop = "tda" }\n')
DECK = [rank + suit for rank in "AKQJT98765432" for suit in "shdc"]


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("phone-evening"), TDA)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=20_000)
    yield from chromium()
    expect.set_options(timeout=5_000)


def fits(board: Page, state: str) -> None:
    height = board.evaluate("document.documentElement.scrollHeight")
    lowest = board.evaluate("Math.max(...[...document.querySelectorAll('main *')]"
                            ".map((e) => e.getBoundingClientRect().bottom))")
    assert height <= 1080 and lowest <= 1080, (state, height, lowest)
    shot(board, f"evening-{state}")


def seat_sheet(phone: Page, seat: int) -> None:
    phone.tap(f"#tf-seat-{seat}")
    expect(phone.locator("#sheet")).to_contain_text(f"Seat {seat}")


def close_sheet(phone: Page) -> None:
    phone.locator("#sheet .close").tap()
    expect(phone.locator("#sheet")).to_be_hidden()


def waiting_for(phone: Page) -> str:
    return str(phone.locator("#bar-what").get_attribute("data-waiting"))


def deal(phone: Page, cards: Iterator[str]) -> None:
    """Card after card from the phone's picker while the bar asks for one."""
    while True:
        kind = waiting_for(phone)
        if kind not in ("card", "burn"):
            return
        before = phone.locator("#bar-what").inner_text()
        count = phone.evaluate("document.querySelectorAll('#felt .card').length")
        pick(phone, next(cards))
        phone.wait_for_function("([text, count]) => document.querySelector('#bar-what').innerText !== text"
                                " || document.querySelectorAll('#felt .card').length !== count", arg=[before, count])


def read(phone: Page, detail: str) -> str:
    """An alert shown at the finger: inside the viewport, its rule in the detail line; read, then tapped away."""
    toast = phone.locator("#toast")
    expect(toast.locator(".toast-detail")).to_have_text(detail)
    in_viewport(phone, toast)
    text = toast.locator(".toast-main").inner_text()
    toast.locator(".toast-ok").tap()
    expect(toast).to_be_hidden()
    return text


def view(host: Daemon) -> dict[str, Any]:
    return host.request("hello", {"role": "host"})["result"]["view"]


def everyone(host: Daemon, panel: Daemon, button: str) -> None:
    """Each seat to act presses ``button`` until no one is to act."""
    while (now := view(host))["next"]["expect"] == "action":
        panel.press(now["next"]["seat"], button)


@pytest.mark.slow
def test_a_whole_evening_from_the_phone(evening: tuple[Path, dict[str, str]], browser: Browser) -> None:
    folder, urls = evening
    phone, errors = phone_page(browser, urls["host"])
    board, board_errors = phone_page(browser, urls["board"], TV)
    panel, host = Daemon(folder, "panel"), Daemon(folder, "host")      # the players' buttons; a reader only
    names = {1: "Ann", 2: "Bob", 3: "Cy", 4: "Dee"}
    for seat, name in names.items():
        seat_sheet(phone, seat)
        phone.fill("#tf-sit input[name=player]", name)
        phone.fill("#tf-sit input[name=stack]", "100")
        phone.tap("#tf-sit button")
        expect(phone.locator(f"#tf-seat-{seat}")).to_contain_text(name)
        close_sheet(phone)
    fits(board, "seated")

    # 1. a straddle (BLD-9): Dee, left of the big blind, before the first card
    phone.tap("#bar-start")
    answer(phone, "First hand: button seat 1, small blind seat 2, big blind seat 3", "BLD-1")
    seat_sheet(phone, 4)
    phone.locator("#sheet button", has_text="Straddle").tap()
    expect(phone.locator("#tf-seat-4")).to_contain_text("bet 6")
    close_sheet(phone)
    deal(phone, iter(DECK))
    everyone(host, panel, "fold")
    answer(phone, "Push: seat 4 7", "POT")              # the dealer's push, on the phone too
    expect(board.locator("#winner")).to_have_text("Dee wins 7")
    expect(phone.locator("#tf-result")).to_have_text("Dee wins 7")
    fits(board, "straddle")

    # 2. away (between hands) and a double-board bomb pot all in on the ante, run twice
    for seat in (3, 4):
        seat_sheet(phone, seat)
        phone.locator("#sheet button", has_text="Away").tap()
        expect(phone.locator(f"#tf-seat-{seat}")).to_contain_text("away")
        close_sheet(phone)
    phone.tap("#bar-bomb")
    phone.fill("#bomb-ante", "100")
    phone.select_option("#bomb-boards", "2")
    phone.tap("#bomb-go")
    cards = iter(DECK)
    for _ in range(4):
        pick(phone, next(cards))
    phone.tap("#bar-more")
    phone.tap("#bar [data-more=run2]")
    deal(phone, cards)
    expect(board.locator(".board-tag")).to_have_text(["Run 1 · Board 1", "Run 1 · Board 2", "Run 2 · Board 1",
                                                      "Run 2 · Board 2"])
    expect(board.locator("#kind")).to_have_text(" · Bomb pot")
    expect(board.locator("#winner div")).not_to_have_count(0)
    fits(board, "bomb-run-twice")
    assert read(phone, "POT").startswith("Push: ")

    # 3. back, and Bob buys more chips (BET-16: a top-up between hands)
    for seat in (3, 4):
        seat_sheet(phone, seat)
        phone.locator("#sheet button", has_text="Back in").tap()
        expect(phone.locator(f"#tf-seat-{seat}")).not_to_contain_text("away")
        close_sheet(phone)
    bob = view(host)["seats"]["2"]["stack"]
    seat_sheet(phone, 2)
    phone.fill("#sheet input[aria-label='chips to add']", "50")
    phone.locator("#sheet button", has_text="Add chips").tap()
    expect(phone.locator("#tf-seat-2 .seat-stack")).to_have_text(str(bob + 50))
    close_sheet(phone)

    # 4. an exposed card (EXP-1), a four-card flop (BRD-1), an undo of the burn pick
    phone.tap("#bar-start")
    cards = iter(DECK)
    for _ in range(3):
        pick(phone, next(cards))
    third = DECK[2]
    phone.tap("#bar-more")
    phone.tap("#bar [data-more=exposed]")
    pick(phone, third)
    toast = phone.locator("#toast")
    expect(toast.locator(".toast-detail")).to_have_text("EXP-1")
    in_viewport(phone, toast)
    toast.locator(".toast-ok").tap()
    deal(phone, cards)
    everyone(host, panel, "call")
    deal(phone, cards)                                  # the burn and the flop
    phone.tap("#bar-more")
    phone.tap("#bar [data-more=stray]")
    pick(phone, next(cards))
    expect(phone.locator("#bar [data-burn]")).to_have_count(4)
    first = str(phone.locator("#bar [data-burn]").first.get_attribute("data-burn"))
    phone.locator("#bar [data-burn]").first.tap()
    expect(phone.locator("#bar [data-burn]")).to_have_count(0)
    undo = phone.locator("#bar button[data-key=tf-undo]")
    undo.tap()
    expect(undo).to_have_text("Undo: sure?")
    undo.tap()
    expect(phone.locator("#bar [data-burn]")).to_have_count(4)
    phone.tap(f"#bar [data-burn='{first}']")
    expect(phone.locator("#bar [data-burn]")).to_have_count(0)
    everyone(host, panel, "fold")
    assert read(phone, "POT").startswith("Push: ")
    expect(board.locator("#winner")).to_contain_text(" wins ")
    fits(board, "exposed-four-card-flop")

    # 5. Dee cashes out; the ledger balances (the host's ledger, under the table)
    seat_sheet(phone, 4)
    cash_out = phone.locator("#sheet button[data-key=tf-leave4]")
    cash_out.tap()
    expect(cash_out).to_contain_text("Cash out")
    cash_out.tap()
    expect(phone.locator("#tf-seat-4")).to_contain_text("open")
    expect(phone.locator("#check")).to_contain_text(": balanced")
    shot(phone, "evening-phone")
    assert errors == [] and board_errors == []
    panel.close()
    host.close()
