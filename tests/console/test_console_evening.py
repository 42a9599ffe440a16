"""An evening at the console in headless Chromium (issue 14), against ``dealerpi run --fake`` and ``dealerpi
console`` as separate processes (test_console_browser's helpers): the host's, the dealer's and the board's
pages, each with its own token.

Ann (seat 1, 90) and Bob (seat 2, 200) play three hands, the cards typed on the dealer's page:
1. A bomb pot, ante 90 (seed 001): Ann is all in on the ante, nobody can bet, so both hands are turned face up
   at once (POT-5) and the board sees them; dealt from seat 2: Bob Kd Kc, Ann Ah As. The dealer runs it twice
   (POT-11), each run worth 180 / 2 = 90: board 1 7d 8h 9s 4d 6s (burns 2c 3c 5h), Ann's aces win; board 2
   Kh 3d Ks Qd 2h (burns 2d 4c 5c), Bob's four kings win. PHH has no bomb pot nor runs: the list says so.
2. Heads-up, Ann on the button posts 1, Bob 3 (BLD-4); dealt from seat 2: Bob Qh Qs, Ann Jd Jc; the dealer
   calls the clock on Ann (TRN-2, a 1 s clock in this config) and her time runs out facing the big blind: her
   hand is folded. Bob's 2 uncalled are his again (POT-2) and he wins 1 + 1 = 2 without showing. Neither
   hand was tabled: the host's list and downloads have Qh Qs Jd Jc (the positive control), the dealer's and
   the board's never.
3. In play: Ann Th Tc, Bob 9d 9c. No frame to any page, no list and no download has one of them; the journal
   does (the positive control).
The host replays hand 1 step by step; the status panel counts no button press (nobody touched the fake
buttons). Set DEALERPI_CONSOLE_SCREENSHOTS=folder to keep the screenshots (docs/console-*.png).
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from browser_kit import chromium
from console.test_console_browser import card, open_page, serve_table, shot, sit  # the processes, page helpers
from daemon_kit import CONFIG
from playwright.sync_api import Browser, Page, expect

from dealerpi.engine.table import Table
from dealerpi.journal_folder import read_folder

HAND_1 = ["Kd", "Ah", "Kc", "As"]
RUNS = ["2c", "7d", "8h", "9s", "3c", "4d", "5h", "6s", "2d", "Kh", "3d", "Ks", "4c", "Qd", "5c", "2h"]
HAND_2 = ["Qh", "Jd", "Qs", "Jc"]
UNSHOWN = ["Jc", "Jd", "Qh", "Qs"]                       # hand 2: Ann's folded, Bob's won without showing
HAND_3 = ["Th", "9d", "Tc", "9c"]                        # in play at the end
RUN = re.compile(r"(?<![A-Za-z0-9])(?:[2-9TJQKA][shdc])+(?![A-Za-z0-9])")    # "Kd", and PHH's "QhQs"


def cards_in(text: str, wanted: list[str]) -> list[str]:
    return sorted({run[i:i + 2] for run in RUN.findall(text) for i in range(0, len(run), 2)} & set(wanted))


@pytest.fixture(scope="module")
def evening(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, str]]]:
    yield from serve_table(tmp_path_factory.mktemp("evening"),
                           CONFIG.replace("blinds = [1, 3]", "blinds = [1, 3]\npolicies = { clock_seconds = 1 }"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    # each step crosses two processes and a fsync; on a shared 2-core machine at full load one took over the
    # 5 s default: wait longer (an assertion that fails still fails, later)
    expect.set_options(timeout=20_000)
    yield from chromium()
    expect.set_options(timeout=5_000)


def downloads(page: Page, view: str) -> dict[str, str]:
    """Every hand-history answer for ``view`` with ``page``'s cookie (its token)."""
    out, origin = {}, page.url.split("/")[0] + "//" + page.url.split("/")[2]
    for path in ("/hands.json", "/hands/1.json", "/hands/2.json", "/hands/2.phh", "/hands.phhs"):
        response = page.request.get(f"{origin}{path}?view={view}")
        assert response.status == 200, (view, path, response.text())
        out[f"{view} {path}"] = response.text()
    return out


def test_histories_tabled_cards_and_the_status_panel(evening: tuple[Path, dict[str, str]], browser: Browser) -> None:
    folder, urls = evening
    host, host_frames = open_page(browser, urls["host"], 1280, 800)
    dealer, dealer_frames = open_page(browser, urls["dealer"], 768, 1024)
    board, board_frames = open_page(browser, urls["board"], 1280, 720)
    expect(host.locator("#status")).to_contain_text("button presses: dealer console 0 · seat 1 0 · seat 2 0 · seat 3 0")
    expect(host.locator("#status")).to_contain_text("displays: all 4 working")
    expect(host.locator("#status")).to_contain_text("card reader working")
    for seat, name, stack in ((1, "Ann", 90), (2, "Bob", 200)):
        sit(host, seat, name, stack)

    host.fill("#bomb input[name=ante]", "90")
    host.select_option("#bomb select[name=boards]", "1")
    host.click("#bomb button")
    expect(dealer.locator("#expect")).to_have_text("next: card to seat 2")
    for text in HAND_1:
        card(dealer, text)
    # POT-5: all in, nobody can bet: both hands face up before the board, on the TV too
    expect(board.locator("#seat-1")).to_contain_text("A♥A♠")
    expect(board.locator("#seat-2")).to_contain_text("K♦K♣")
    dealer.get_by_role("button", name="Run it twice (POT-11)").click()
    expect(dealer.locator("#message")).to_contain_text("Run it 2 times")
    for text in RUNS:
        card(dealer, text)
    expect(board.locator("#pots")).to_contain_text("push 90 to seat 1")
    expect(board.locator("#pots")).to_contain_text("push 90 to seat 2")
    shot(board, "board-showdown")

    dealer.click("#start")
    for text in HAND_2:
        card(dealer, text)
    expect(dealer.locator("#expect")).to_have_text("next: action on seat 1")
    dealer.get_by_role("button", name="Clock on the player (TRN-2)").click()
    expect(dealer.locator("#pots")).to_contain_text("push 2 to seat 2")        # a second later: Ann folded
    expect(board.locator("#seat-2")).not_to_contain_text("Q")

    dealer.click("#start")
    for text in HAND_3:
        card(dealer, text)
    expect(dealer.locator("#expect")).to_have_text("next: action on seat 2")

    # the list: newest first, with names and the winning hand; the host sees hand 2's untabled cards (dimmed)
    expect(host.locator("#hands li")).to_have_count(2)
    expect(host.locator("#hand-1")).to_contain_text(
        "pot 180 · Ann wins 90 with one pair, aces; Bob wins 90 with four of a kind, kings")
    expect(host.locator("#hand-1")).to_contain_text("no PHH")
    expect(host.locator("#hand-2")).to_contain_text("pot 2 · Bob wins 2")
    expect(host.locator("#hand-2 .hole.unshown")).to_have_text(["Ann J♦J♣", "Bob Q♥Q♠"])
    expect(dealer.locator("#hand-2")).to_contain_text("Bob wins 2")
    expect(dealer.locator("#hand-2")).not_to_contain_text("Q♥")
    # the replayer: hand 1 from its start to the push, one input a step
    host.locator("#hand-1 button", has_text="Replay").click()
    expect(host.locator("#replay-what")).to_have_text("hand #1 (bomb pot): button seat 1")
    host.click("#replay-next")
    expect(host.locator("#replay-what")).to_have_text("Kd to seat 2 (Bob)")
    host.get_by_role("button", name="last step").click()
    expect(host.locator("#replay h3")).to_have_text("Hand #1, step 22 of 22")    # start, 4 + 16 cards, run
    expect(host.locator("#replay-what")).to_have_text("board: 2h")
    expect(host.locator("#replay")).to_contain_text("push 90 to seat 1")
    if folder_for_shots := os.environ.get("DEALERPI_CONSOLE_SCREENSHOTS"):     # the hands panel only
        host.locator("section[aria-label='hand histories']").screenshot(
            path=str(Path(folder_for_shots) / "console-host-hands.png"))
    with host.expect_download() as download:
        host.locator("#hand-2 a", has_text="PHH").click()
    assert cards_in(Path(download.value.path()).read_text(), UNSHOWN) == UNSHOWN    # the host's: all of them

    answers = {**downloads(host, "host"), **downloads(dealer, "dealer"), **downloads(board, "board")}
    journal = json.dumps(read_folder(folder / "state" / "journal", Table.from_snapshot).entries)
    assert cards_in(journal, HAND_3) == sorted(HAND_3)                         # the positive control
    for name, text in answers.items():
        assert cards_in(text, HAND_3) == [], name                              # nothing of the hand in play
        assert cards_in(text, UNSHOWN) == (UNSHOWN if name.startswith("host ") and "/1.json" not in name else []), name
    for role, frames in (("host", host_frames), ("dealer", dealer_frames), ("board", board_frames)):
        assert frames and cards_in("".join(frames), [*HAND_3, *UNSHOWN]) == [], role
