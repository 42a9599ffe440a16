"""Issue 19 item 3 from the host's page in headless Chromium, against real ``dealerpi run --fake`` and
``dealerpi console`` processes: a cash game cashed out even, then a tournament set up from its form and
three players seated at 1000. The page said "in 450 = on the table 5500 + cashed out 450: NOT balanced";
now the cash game stays balanced in its own session, and the tournament's line is its entries."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from console.test_console_browser import open_page, serve_table, sit
from daemon_kit import CONFIG
from playwright.sync_api import Browser, expect

pytestmark = pytest.mark.slow   # Chromium: 17 s


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("sessions"), CONFIG)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def test_item3_a_tournament_after_a_cash_game_from_the_phone(table: tuple[Path, dict[str, str]],
                                                             browser: Browser) -> None:
    """Ann buys in 250 and Bob 200 (blinds 1/3, home maximum 300), both cash out: in 450 = out 450; Ann's
    pizza for both (31: shares 16 and 15) makes Bob owe her 15, marked paid, and the game is closed. The
    tournament (one level 50/100, buy-in 30, all to first place, starting stack 1000) and three seated at
    1000: the page's ledger line is the tournament's, entries 3 x 30 = 90, and the PokerNow CSV still has
    the cash game's rows as they were (Ann 250 in, 250 out, net 0), then the tournament's entries."""
    _folder, urls = table
    host, _frames = open_page(browser, urls["host"], 390, 844)
    sit(host, 1, "Ann", 250)
    sit(host, 2, "Bob", 200)
    for seat in (1, 2):
        host.locator(f"#seat-{seat} button", has_text="Cash out").click()
        host.locator(f"#seat-{seat} button", has_text="Confirm cash-out").click()
        expect(host.locator(f"#seat-{seat}")).not_to_contain_text("Confirm")
    expect(host.locator("#check")).to_have_text("in 450 = on the table 0 + cashed out 450: balanced")
    # home money: Ann paid 31 for a pizza shared with Bob: shares 16 and 15, so Bob owes Ann 15
    host.fill("#money-form [name=what]", "pizza")
    host.fill("#money-form [name=amount]", "31")
    host.select_option("#money-form [name=paid_by]", "Ann")
    host.click("#money-form button")
    expect(host.locator("#money-transfers li")).to_have_text(["Bob pays Ann 15 Mark paid"])
    expect(host.locator("#money-notes li")).to_have_text(["pizza: 31 paid by Ann, shared by Ann, Bob Remove"])
    host.locator("#money-transfers button").click()
    expect(host.locator("#money-transfers li")).to_have_text(["Bob pays Ann 15 Paid ✓ (undo)"])
    host.click("#close-session")                     # in = out: closed; the next session is empty
    expect(host.locator("#check")).to_have_text("in 0 = on the table 0 + cashed out 0: balanced")
    host.fill("#tournament [name=levels]", "50/100 20")
    host.fill("#tournament [name=payouts]", "100")
    host.fill("#tournament [name=buy_in]", "30")
    host.fill("#tournament [name=starting_stack]", "1000")
    host.click("#tournament button")
    expect(host.locator("#clock")).to_be_visible()
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        sit(host, seat, name, 1000)
    expect(host.locator("#check")).to_have_text(
        "Tournament: entries 90, prizes paid 0: the pool is paid when there is a winner")
    csv = host.request.get(urls["host"].split("/host")[0] + "/ledger.csv?format=pokernow").text().splitlines()
    assert csv[0] == "player_nickname,player_id,session_start_at,session_end_at,buy_in,buy_out,stack,net"
    assert [row.split(",")[:2] + row.split(",")[4:] for row in csv[1:]] == [
        ["Ann", "Ann", "250", "250", "0", "0"], ["Bob", "Bob", "200", "200", "0", "0"],
        ["Ann", "Ann", "30", "0", "0", "-30"], ["Bob", "Bob", "30", "0", "0", "-30"],
        ["Cy", "Cy", "30", "0", "0", "-30"]]


@pytest.fixture(scope="module")
def tourney(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("sit500"), CONFIG)


def test_item11_a_short_stack_is_seated_only_after_confirm(tourney: tuple[Path, dict[str, str]],
                                                           browser: Browser) -> None:
    """TRN-9: the tournament's starting stack is 1000; Ann typed 500: the page says why and offers Confirm
    next to the reason; confirmed, Ann sits with 500."""
    _folder, urls = tourney
    host, _frames = open_page(browser, urls["host"], 390, 844)
    host.fill("#tournament [name=levels]", "50/100 20")
    host.fill("#tournament [name=starting_stack]", "1000")
    host.click("#tournament button")
    expect(host.locator("#clock")).to_be_visible()
    host.select_option("#sit-seat", "1")
    host.fill("#sit input[name=player]", "Ann")
    host.fill("#sit input[name=stack]", "500")
    host.click("#sit button")
    expect(host.locator("#message")).to_contain_text(
        "seat 1: Ann would start with 500, not the starting stack 1000 (TRN-9: every entrant gets the full stack)")
    expect(host.locator("#seat-1")).not_to_contain_text("Ann")
    host.click("#confirm-refused")
    expect(host.locator("#seat-1")).to_contain_text("Ann")
    expect(host.locator("#seat-1")).to_contain_text("500")
