"""The table-first page on a phone (issue 19), in headless Chromium at 390x844 with touch, against ``dealerpi run
--fake`` and ``dealerpi console`` as separate processes (test_console_browser's serve_table): a hand run from
the phone alone, every state the engine can wait in (``Waiting``) found with its control in the bar, each
refusal and alert shown inside the viewport next to the finger with its rule id in the detail line only, and
the winner by name with the hand in words on the phone and on the TV board (1920x1080, no taller than the
screen). The players act with their seat buttons, pressed here through the daemon's virtual-hardware panel
(tests/phone_kit.py), as on the table. Manual cards: the shoe is offline. Set DEALERPI_CONSOLE_SCREENSHOTS=
folder to keep the screenshots (docs/console-phone*.png are made this way).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from console.test_console_browser import serve_table
from daemon_kit import CONFIG
from phone_kit import TV, Daemon, in_viewport, phone_page
from playwright.sync_api import Browser, Page, expect

from dealerpi import config as config_module
from dealerpi.engine import Waiting

pytestmark = pytest.mark.slow   # Chromium, the daemon and console as processes: 15 s

# BRD-1 (TDA 39-A): the floor picks the burn of a four-card flop, so the table waits for that pick
TDA_TABLE = CONFIG.replace('blinds = [1, 3]\n', 'blinds = [1, 3]\npolicies = { four_card_flop = "tda" }\n')


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("phone"), TDA_TABLE)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    expect.set_options(timeout=20_000)        # two processes and a fsync a step, on a loaded 2-core machine
    yield from chromium()
    expect.set_options(timeout=5_000)


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("DEALERPI_CONSOLE_SCREENSHOTS")
    if folder:
        page.evaluate("window.scrollTo(0, 0)")        # the table at the top, as the page opens
        page.screenshot(path=str(Path(folder) / f"console-{name}.png"))


def waiting(page: Page, kind: Waiting) -> None:
    expect(page.locator("#bar-what")).to_have_attribute("data-waiting", kind.value)


def pick(page: Page, card: str) -> None:
    """Two taps in the bar's card picker: the rank, then the suit (which sends the card)."""
    page.tap(f"#bar [data-rank='{card[0]}']")
    page.tap(f"#bar [data-suit='{card[1]}']")


def answer(page: Page, main: str, detail: str | None) -> None:
    """The table's answer is next to the finger: inside the viewport, the sentence without a rule id, the
    rule id (if any) in the detail line; then the finger taps it away."""
    toast = page.locator("#toast")
    expect(toast.locator(".toast-main")).to_have_text(main)
    if detail is None:
        expect(toast.locator(".toast-detail")).to_have_count(0)
    else:
        expect(toast.locator(".toast-detail")).to_have_text(detail)
    in_viewport(toast)
    toast.locator(".toast-ok").tap()
    expect(toast).to_be_hidden()


def test_a_hand_from_the_phone_alone_walks_every_waiting_state(table: tuple[Path, dict[str, str]],
                                                               browser: Browser) -> None:
    """Issue 19: START, the hole cards, the players' actions, the burn, a four-card flop and its burn pick
    (BRD-1, TDA 39-A), the turn and river, the showdown (POT-5), an undo with confirm: each state's control is
    in the bar, in the viewport; Ann 9h 5d beats Bob Kd 2c on 9c 5s Jd 8d 7c, "two pair, nines and fives"."""
    folder, urls = table
    phone, errors = phone_page(browser, urls["host"])
    board, board_errors = phone_page(browser, urls["board"], TV)
    panel = Daemon(folder, "panel")
    seen: set[Waiting] = set()

    def at(kind: Waiting) -> None:
        waiting(phone, kind)
        seen.add(kind)

    # seats from the drawn table: a tap on an open seat, a name and a buy-in
    for seat, name, stack in ((1, "Ann", 100), (2, "Bob", 100)):
        phone.tap(f"#tf-seat-{seat}")
        phone.fill("#tf-sit input[name=player]", name)
        phone.fill("#tf-sit input[name=stack]", str(stack))
        phone.tap("#tf-sit button")
        expect(phone.locator(f"#tf-seat-{seat}")).to_contain_text(name)
        phone.tap(f"#tf-seat-{seat}")                   # closes the seat's sheet
        expect(phone.locator("#sheet")).to_be_hidden()

    at(Waiting.START)
    # item 1: the game form's refusal, 1,091 px above the viewport before, is now by its Apply button
    phone.tap("#bar [data-goto=setup]")
    phone.fill("#game [name=sb]", "5")
    phone.fill("#game [name=bb]", "2")
    phone.locator("#game button", has_text="Apply").tap()
    answer(phone, 'Table: "blinds" 5/2: the big blind must be positive and at least the small blind', None)
    phone.locator("#game-reset").tap()
    phone.evaluate("window.scrollTo(0, 0)")
    in_viewport(phone.locator("#bar-start"))
    phone.tap("#bar-start")
    # BLD-4: the heads-up first hand's alert, where the finger was
    answer(phone, "First hand: heads-up: seat 1 has the button and posts the small blind, seat 2 the big blind",
           "BLD-4")
    expect(phone.locator("#tf-seat-1")).to_contain_text("SB")
    expect(phone.locator("#tf-seat-2")).to_contain_text("BB")

    at(Waiting.CARD)
    expect(phone.locator("#bar-what")).to_have_text("Card to Bob (seat 2)")
    # a refusal during the deal: no top-up in a hand (BET-16), said next to the sheet's button
    phone.tap("#tf-seat-1")
    shot(phone, "phone-seat")
    phone.fill("#sheet input[aria-label='chips to add']", "50")
    phone.locator("#sheet button", has_text="Add chips").tap()
    answer(phone, "Cannot add chips during a hand", None)
    phone.locator("#sheet .close").tap()
    for card in ("Kd", "9h", "2c", "5d"):               # from seat 2, left of the button
        pick(phone, card)

    at(Waiting.ACTION)
    expect(phone.locator("#bar-what")).to_contain_text("Ann to act")
    in_viewport(phone.locator("#bar-clock"))
    # run it twice while betting is possible: refused, POT-11 in the detail line only
    phone.tap("#bar-more")
    phone.tap("#bar [data-more=run2]")
    answer(phone, "Run it N times only when no more betting is possible", "POT-11")
    expect(phone.locator("#bar [data-more]")).to_have_count(0)     # the row closes once a control is used
    panel.press(1, "call")                              # Ann calls 3
    panel.press(2, "call")                              # Bob checks

    at(Waiting.BURN)
    pick(phone, "2h")
    for card in ("9c", "5s", "Jd"):
        at(Waiting.CARD)
        pick(phone, card)
    at(Waiting.ACTION)
    # a fourth flop card comes out (BRD-1, TDA 39-A): the floor picks the burn among the four
    phone.tap("#bar-more")
    phone.tap("#bar [data-more=stray]")
    pick(phone, "3h")
    at(Waiting.BURN_CHOICE)
    expect(phone.locator("#bar [data-burn]")).to_have_count(4)
    shot(phone, "phone-burn")
    answer(phone, "Four-card flop (TDA 39-A): scramble the four cards face down, the floor picks one as the next "
                  "burn; flag it; the rest is the flop", "BRD-1")
    phone.tap("#bar [data-burn='3h']")
    answer(phone, "3h is the turn burn; the flop is 9c 5s Jd", "BRD-1")
    at(Waiting.ACTION)
    panel.press(2, "call")
    panel.press(1, "call")
    at(Waiting.CARD)                                    # the turn, its burn already picked
    pick(phone, "8d")
    at(Waiting.ACTION)                                  # the card is in before the players act
    panel.press(2, "call")
    panel.press(1, "call")
    at(Waiting.BURN)
    pick(phone, "4s")
    pick(phone, "7c")
    at(Waiting.ACTION)
    panel.press(2, "call")
    panel.press(1, "call")

    at(Waiting.SHOWDOWN)
    in_viewport(phone.locator("#bar [data-show='1']"))
    phone.tap("#bar [data-show='1']")
    phone.tap("#bar [data-muck='2']")
    answer(phone, "Push: seat 1 6", "POT")             # the dealer's push, said where the finger was
    at(Waiting.START)
    won = "Ann wins 6 with two pair, nines and fives"
    expect(phone.locator("#tf-result")).to_have_text(won)
    expect(board.locator("#winner")).to_have_text(won)
    assert board.evaluate("document.documentElement.scrollHeight") <= 1080
    # UNDO with confirm: the muck comes back, the showdown waits again; muck again
    undo = phone.locator("#bar button[data-key=tf-undo]")
    undo.tap()
    expect(undo).to_have_text("Undo: sure?")
    undo.tap()
    at(Waiting.SHOWDOWN)
    expect(board.locator("#winner")).to_be_empty()
    phone.tap("#bar [data-muck='2']")
    expect(board.locator("#winner")).to_have_text(won)
    shot(phone, "phone")
    shot(board, "board-winner")

    # the one state no page can see: a table daemon never runs without a table (its config must have one)
    bare = folder / "bare.toml"
    bare.write_text(CONFIG.replace('[table]\ngame = "nlhe"\nrules = "home"\nseats = 3\nblinds = [1, 3]\n', ""))
    with pytest.raises(config_module.ConfigError, match="table: must be a table"):
        config_module.load(bare)
    assert seen == set(Waiting) - {Waiting.TABLE}
    assert errors == [] and board_errors == []
    panel.close()


@pytest.fixture(scope="module")
def dealer_table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("phone-dealer"), CONFIG)


def test_the_dealers_phone_deals_and_fixes_but_has_no_money_controls(dealer_table: tuple[Path, dict[str, str]],
                                                                     browser: Browser) -> None:
    """Issue 19 (items 7, 8): the dealer's page is the same page without the host's seat and money controls; it
    has the exposed card (EXP-1), the card found face up in the deck (EXP-6) and the extra card (MIS-2), each
    answered in the viewport; at 390 px the seats' status and bets are shown on the host's, the dealer's and
    the board's pages (they were hidden below 480 px)."""
    folder, urls = dealer_table
    host = Daemon(folder, "host")
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        host.send({"type": "sit", "seat": seat, "player": name, "stack": 100})
    dealer, errors = phone_page(browser, urls["dealer"])
    dealer.tap("#tf-seat-1")
    expect(dealer.locator("#sheet")).to_contain_text("Seat 1: Ann")
    for host_only in ("Add chips", "Cash out", "Away", "Straddle", "Move to"):
        expect(dealer.locator("#sheet button", has_text=host_only)).to_have_count(0)
    dealer.locator("#sheet .close").tap()
    expect(dealer.locator("#bar [data-goto=setup]")).to_have_count(0)

    dealer.tap("#bar-start")
    answer(dealer, "First hand: button seat 1, small blind seat 2, big blind seat 3", "BLD-1")
    expect(dealer.locator("#bar-what")).to_have_text("Card to Bob (seat 2)")
    for card in ("Kd", "8c", "5d"):
        pick(dealer, card)
    # EXP-1: seat 1's card, the third off the deck, turns face up: the deal goes on, seat 1 gets the next card
    dealer.tap("#bar-more")
    dealer.tap("#bar [data-more=exposed]")
    expect(dealer.locator("#bar-what")).to_have_text("Exposed card: pick it")
    pick(dealer, "5d")
    answer(dealer, "5d was exposed: finish the deal, give seat 1 the next card, and 5d becomes the burn", "EXP-1")
    # EXP-6: a card found face up in the stub is out of play
    dealer.tap("#bar-more")
    dealer.tap("#bar [data-more=boxed]")
    pick(dealer, "2d")
    answer(dealer, "2d was boxed: it is out of play", "EXP-6")
    # MIS-2: one card too many after the starting hands becomes the burn
    dealer.tap("#bar-more")
    dealer.tap("#bar [data-more=extra]")
    answer(dealer, "One extra card after the starting hands: it becomes the burn", "MIS-2")

    # item 7: at 390 px the status and the bet are on every page's seat list (Bob's small blind of 1)
    board, board_errors = phone_page(browser, urls["board"])
    host_page, host_errors = phone_page(browser, urls["host"])
    for page in (dealer, board, host_page):
        status = page.locator("#seat-2 td").nth(3)
        expect(status).to_be_visible()
        expect(status).to_have_text("in · SB · bet 1")
    assert errors == board_errors == host_errors == []
    host.close()
