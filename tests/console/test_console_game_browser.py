"""The host's game form in headless Chromium (issue 14), against real ``dealerpi run --fake`` and ``dealerpi console``
processes: the form shows the values in force, sends only what the host changed (an ante survives a change of
the blinds: the old simulator's form dropped it), shows the engine's refusal, and says "applies from the next hand"
while a hand is in play. Chromium is Debian's (tests/browser_kit.py); without it this test fails and says so."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from console.test_console_browser import open_page, serve_table, shot, sit  # the same two processes and page helpers
from daemon_kit import CONFIG
from playwright.sync_api import Browser, Page, expect

from dealerpi.engine import Table
from dealerpi.journal.folder import read_folder

pytestmark = pytest.mark.slow   # Chromium: 27 s


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("game"), CONFIG)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    yield from chromium()


def tables(folder: Path) -> list[dict[str, object]]:
    entries = read_folder(folder / "state" / "journal", Table.from_snapshot).entries
    return [{k: v for k, v in e.items() if k not in ("at", "rid")} for e in entries if e["type"] == "table"]


def field(page: Page, name: str) -> str:
    return page.locator(f"#game [name={name}]").input_value()


def test_the_game_form_shows_what_is_in_force_and_sends_only_the_changes(
        table: tuple[Path, dict[str, str]], browser: Browser) -> None:
    folder, urls = table
    host, _ = open_page(browser, urls["host"], 390, 844)
    dealer, _ = open_page(browser, urls["dealer"], 768, 1024)
    board, _ = open_page(browser, urls["board"], 1280, 720)
    expect(host.locator("#game-from")).to_have_text("In force, set from the config file's [table].")
    assert (field(host, "game"), field(host, "sb"), field(host, "bb"), field(host, "ante")) == ("nlhe", "1", "3", "0")

    host.fill("#game [name=ante]", "1")
    host.click("#game button:not([type])")
    expect(host.locator("#game-from")).to_contain_text("In force, set from the console (host, ")
    host.fill("#game [name=sb]", "2")
    host.fill("#game [name=bb]", "4")
    host.click("#game button:not([type])")
    expect(board.locator("#blinds")).to_have_text("2/4")
    assert field(host, "ante") == "1"                     # the form shows the ante in force, and it stayed
    assert tables(folder)[1:] == [
        {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3], "ante": 1, "by": "host"},
        {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [2, 4], "ante": 1, "by": "host"}]

    host.fill("#game [name=sb]", "5")                     # refused by the engine's parser, which says why
    host.fill("#game [name=bb]", "2")
    host.click("#game button:not([type])")
    expect(host.locator("#message")).to_have_text(
        'table: "blinds" 5/2: the big blind must be positive and at least the small blind')
    assert (field(host, "sb"), field(host, "bb")) == ("5", "2")        # what the host typed is kept to fix
    host.click("#game-reset")
    assert (field(host, "sb"), field(host, "bb")) == ("2", "4")

    for seat, name in ((1, "Ann"), (2, "Bob")):
        sit(host, seat, name, 200)
    dealer.click("#start")
    expect(dealer.locator("#expect")).to_have_text("next: card to seat 2")
    host.fill("#game [name=ante]", "0")                   # 0: no ante (the key is removed)
    host.locator("#game details summary").click()
    host.select_option("#game [name=straddles]", "none")
    host.click("#game button:not([type])")
    expect(host.locator("#message")).to_have_text("accepted: it applies from the next hand (a hand is in play)")
    expect(host.locator("#game-pending")).to_have_text(
        "A change waits for this hand's end: blinds 2/4. It applies from the next hand; the form shows it.")
    queued = tables(folder)[-1]
    assert queued == {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [2, 4],
                      "policies": {"straddles": "none"}, "by": "host", "after_hand": True}
    assert field(host, "ante") == "0" and field(host, "straddles") == "none"


@pytest.fixture(scope="module")
def tourney(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("tourney"), CONFIG)


def test_the_host_sets_up_a_tournament_and_the_board_shows_the_clock(
        tourney: tuple[Path, dict[str, str]], browser: Browser) -> None:
    """TRN-1, TRN-4, TRN-9 from the pages: the schedule written as lines; the board's big clock shows the level,
    its blinds, the time left (the daemon's, counted down by the page), the next level, the field and the pool;
    90 = 3 x 30 paid 65/35 (the row for up to 6 players): 58 and 31, the remainder 1 to first place: 59 and 31."""
    folder, urls = tourney
    host, _ = open_page(browser, urls["host"], 390, 844)
    board, _ = open_page(browser, urls["board"], 1280, 720)
    expect(board.locator("#clock")).to_be_hidden()                         # a cash game has no clock
    host.fill("#tournament [name=levels]", "100/50 10")                    # the engine's parser says why not
    host.click("#tournament button")
    expect(host.locator("#message")).to_have_text(
        'table: "levels": step 1: blinds 100/50 are not possible (TRN-1)')
    host.fill("#tournament [name=levels]", "50/100 10\n100/200 ante 25 10\nbreak 5\n150/300 bb 300 10")
    host.fill("#tournament [name=payouts]", "2: 100\n6: 65 35\n10: 50 30 20")
    host.fill("#tournament [name=buy_in]", "30")
    host.fill("#tournament [name=starting_stack]", "3000")
    host.fill("#tournament [name=late_entry_levels]", "1")
    host.click("#tournament button")
    expect(board.locator("#clock")).to_be_visible()
    expect(board.locator("#clock-level")).to_have_text("Level 1")
    expect(board.locator("#clock-blinds")).to_have_text("50/100")
    expect(board.locator("#clock-next")).to_have_text("Next: level 2, 100/200 ante 25")
    expect(board.locator("#clock-time")).to_have_text(re.compile(r"^(10:00|9:[0-5]\d)$"))
    setup = tables(folder)[-1]
    assert setup == {"type": "table", "game": "nlhe", "rules": "tournament", "seats": 3, "blinds": [50, 100],
                     "buy_in": 30, "starting_stack": 3000, "late_entry_levels": 1,
                     "levels": [{"blinds": [50, 100], "minutes": 10},
                                {"blinds": [100, 200], "ante": 25, "minutes": 10}, {"break": True, "minutes": 5},
                                {"blinds": [150, 300], "bb_ante": 300, "minutes": 10}],
                     "payouts": [{"players": 2, "percents": [100]}, {"players": 6, "percents": [65, 35]},
                                 {"players": 10, "percents": [50, 30, 20]}], "by": "host"}
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        sit(host, seat, name, 3000)
    expect(board.locator("#clock-field")).to_have_text("Players 3 of 3 · Prize pool 90 · Late entry until level 1")
    expect(board.locator("#clock-prizes li")).to_have_text(["1. 59", "2. 31"])
    host.click("#pause-clock")
    expect(board.locator("#clock-state")).to_have_text("paused: the host paused the clock")
    stopped = board.locator("#clock-time").inner_text()
    board.wait_for_timeout(1500)
    assert board.locator("#clock-time").inner_text() == stopped           # paused: the page does not count
    host.click("#resume-clock")
    expect(board.locator("#clock-state")).to_have_text("")
    shot(board, "board-clock")
