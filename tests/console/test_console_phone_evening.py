"""A whole evening run from the host's phone alone (issue 19's goal), in headless Chromium at 390x844 with touch,
the TV board at 1920x1080 beside it, against ``dealerpi run --fake`` and ``dealerpi console``: the host seats,
deals (manual cards: the shoe is offline), fixes and settles from the table-first page only; the players act
with their seat buttons (the daemon's virtual-hardware panel, tests/phone_kit.py). Each answer of the table
is checked inside the viewport with its rule id in the detail line only; the board is no taller than the TV
in each state. Marked slow (``pytest -m "not slow"`` leaves it out): about 40 s.

1. Cash, home rules, a four-card flop picked by the floor (TDA 39-A): Ann, Bob, Cy and Dee sit with 100.
   Hand 1: Dee straddles 6 (BLD-9); all fold to her: she wins the blinds 1 + 3 and gets her uncalled 3 back
   (POT-2): "Dee wins 7".
2. Cy and Dee step away; hand 2 is a double-board bomb pot of 100 (seed 001): Ann 99 (her small blind paid)
   and Bob 100 all in on the ante, Bob's uncalled 1 back (POT-2); run twice (POT-11): four boards.
3. Cy and Dee come back; Bob buys 50 more chips (BET-16, between hands).
4. Hand 3: the dealer exposes a hole card (EXP-1), the flop comes with a fourth card and the floor picks the
   burn (BRD-1); an undo (with confirm) takes the pick back and it is picked again; all fold.
5. Dee cashes out; the ledger balances.
6. Everyone cashes out; the host sets up a tournament (buy-in 20, 1000 chips, 50/100 then a break) from the
   Setup forms; Ann and Bob sit; heads-up (BLD-4) Ann goes all in with aces and Bob calls with 7-2: Ann wins
   2000 with one pair, aces, and the tournament (TRN-4): the board's clock names her and stops.
7. Cash again: Ann leaves, the game form's rules set to home bring the cash game back (blinds 1/3, no
   clock); Ann and Bob buy in for 100 and a hand starts; the new session's ledger balances.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_kit import chromium
from console.test_console_browser import serve_table
from console.test_console_evening import FOUR_SEATS
from console.test_console_phone import answer, pick, shot
from phone_kit import TV, Daemon, fits_the_tv, in_viewport, phone_page
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
    shot(board, f"evening-{state}")
    fits_the_tv(board, state)


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
    in_viewport(toast)
    text = toast.locator(".toast-main").inner_text()
    toast.locator(".toast-ok").tap()
    expect(toast).to_be_hidden()
    return text


def all_in(panel: Daemon, seat: int) -> None:
    """BET opens the amount at the minimum, two taps go on to the pot and all-in (the half pot is below the
    minimum raise here), and a hold of 0.6 s confirms (docs/seat-panel.md)."""
    for _ in range(3):
        panel.press(seat, "bet")
    assert "error" not in panel.request("press", {"where": seat, "button": "bet"})
    time.sleep(0.8)
    assert "error" not in panel.request("release", {"where": seat, "button": "bet"})


def view(host: Daemon) -> dict[str, Any]:
    shown: dict[str, Any] = host.request("hello", {"role": "host"})["result"]["view"]
    return shown


def everyone(host: Daemon, panel: Daemon, button: str) -> None:
    """Each seat to act presses ``button`` until no one is to act."""
    while (now := view(host))["next"]["expect"] == "action":
        panel.press(now["next"]["seat"], button)


@pytest.mark.slow
def test_a_whole_evening_from_the_phone(evening: tuple[Path, dict[str, str]], browser: Browser) -> None:
    """The module's steps 1 to 7 (BLD-9, seed 001, POT-11, BET-16, EXP-1, BRD-1, TRN-4, TRN-9)."""
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
    phone.tap("#bar-straddle")                          # the bar offers it before the first card
    phone.tap("#bar [data-straddle='4']")
    expect(phone.locator("#tf-seat-4")).to_contain_text("bet 6")
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
    in_viewport(toast)
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

    # 6. a tournament to its winner: everyone cashes out, the host sets it up from the Setup forms (under the
    # table), Ann and Bob sit with the starting stack 1000, all in on the first hand
    for seat in (1, 2, 3):
        seat_sheet(phone, seat)
        leave = phone.locator(f"#sheet button[data-key=tf-leave{seat}]")
        leave.tap()
        leave.tap()
        expect(phone.locator(f"#tf-seat-{seat}")).to_contain_text("open")
        close_sheet(phone)
    expect(phone.locator("#check")).to_contain_text(": balanced")
    phone.tap("#bar [data-goto=setup]")
    phone.fill("#tournament [name=levels]", "50/100 20\nbreak 10\n100/200 20")
    phone.fill("#tournament [name=payouts]", "100")
    phone.fill("#tournament [name=buy_in]", "20")
    phone.fill("#tournament [name=starting_stack]", "1000")
    phone.locator("#tournament button").tap()
    expect(board.locator("#clock-level")).to_have_text("Level 1")
    phone.evaluate("window.scrollTo(0, 0)")
    # TRN-9: a stack other than the starting stack is asked about, with a Confirm by the reason; not confirmed
    seat_sheet(phone, 2)
    phone.fill("#tf-sit input[name=player]", "Bob")
    phone.fill("#tf-sit input[name=stack]", "500")
    phone.tap("#tf-sit button")
    expect(phone.locator("#toast .toast-main")).to_have_text(
        "Seat 2: Bob would start with 500, not the starting stack 1000: confirm to seat Bob with 500")
    expect(phone.locator("#toast .toast-detail")).to_have_text("TRN-9: every entrant gets the full stack")
    in_viewport(phone.locator("#toast-confirm"))
    phone.locator("#toast .toast-ok").tap()
    expect(phone.locator("#tf-seat-2")).to_contain_text("open")
    close_sheet(phone)
    for seat, name in ((1, "Ann"), (2, "Bob")):
        seat_sheet(phone, seat)
        phone.fill("#tf-sit input[name=player]", name)
        phone.fill("#tf-sit input[name=stack]", "1000")
        phone.tap("#tf-sit button")
        expect(phone.locator(f"#tf-seat-{seat}")).to_contain_text(name)
        close_sheet(phone)
    expect(phone.locator("#tf-clock")).to_have_text(re.compile(r"^Level 1 · (20:00|19:[0-5]\d)$"))   # on the phone
    # two players of 1000 (TRN-4: two entrants of 20, a pool of 40, all to the winner)
    expect(board.locator("#clock-extra")).to_have_text(
        re.compile(r"^Break in (20:00|19:[0-5]\d) · Average stack 1,000 · Chips in play 2,000$"))
    fits(board, "tournament")
    phone.tap("#bar-start")
    said = read(phone, "BLD-4")                         # heads-up: the button posts the small blind, acts first
    found = re.fullmatch(r"Heads-up: seat (\d) has the button and posts the small blind, seat (\d) the big blind", said)
    assert found, said
    button, big = int(found.group(1)), int(found.group(2))
    ann, bob = ("As", "Ah"), ("7c", "2d")
    first_cards, second_cards = (ann, bob) if big == 1 else (bob, ann)
    # dealt from the big blind (left of the button): Ann gets the aces, Bob 7-2; the button goes all in, the big
    # blind calls; both hands face up (POT-5); the board Kd Qh 8c 5s 9d (burns 3s 4h 6h) pairs neither
    for first, second in zip(first_cards, second_cards, strict=True):
        pick(phone, first)
        pick(phone, second)
    expect(phone.locator("#bar-what")).to_have_attribute("data-waiting", "action")   # the cards are in
    all_in(panel, button)
    panel.press(big, "call")
    deal(phone, iter(["3s", "Kd", "Qh", "8c", "4h", "5s", "6h", "9d"]))
    expect(board.locator("#winner")).to_have_text("Ann wins 2000 with one pair, aces")
    # the push, the places and the prize (TRN-4: two entrants of 20, all to first place), at the finger
    answer(phone, "Push: seat 1 2000 · Bob finishes 2 · Ann wins the tournament and 40", "POT · TRN-4")
    expect(board.locator("#clock-time")).to_have_text("Winner: Ann")
    expect(board.locator("#clock-next")).to_have_text("Tournament over")
    fits(board, "tournament-over")

    # 7. cash again: the winner leaves (TRN-4), the game form's rules set to home bring the cash game back
    # (its blinds 1/3, no level clock); Ann and Bob buy in for 100; a hand; the new session's ledger balances
    seat_sheet(phone, 1)
    leave = phone.locator("#sheet button[data-key=tf-leave1]")
    leave.tap()
    leave.tap()
    expect(phone.locator("#tf-seat-1")).to_contain_text("open")
    close_sheet(phone)
    phone.tap("#bar [data-goto=setup]")
    phone.select_option("#game-rules", "home")
    phone.locator("#game button", has_text="Apply").tap()
    expect(board.locator("#clock")).to_be_hidden()
    phone.evaluate("window.scrollTo(0, 0)")
    for seat, name in ((1, "Ann"), (2, "Bob")):
        seat_sheet(phone, seat)
        phone.fill("#tf-sit input[name=player]", name)
        phone.fill("#tf-sit input[name=stack]", "100")
        phone.tap("#tf-sit button")
        expect(phone.locator(f"#tf-seat-{seat}")).to_contain_text(name)
        close_sheet(phone)
    phone.tap("#bar-start")
    expect(board.locator("#blinds")).to_have_text("1/3")
    expect(phone.locator("#check")).to_have_text("in 200 = on the table 200 + cashed out 0: balanced")
    fits(board, "cash-again")
    assert errors == [] and board_errors == []
    panel.close()
    host.close()
