"""The OBS overlay (1920x1080 and 1080x1920, transparent) and the venue's TV page in Debian's Chromium (issue 21).

The spot, worked by hand: Ann (seat 1, button) folds Qh Jh; Bob (seat 2) Ah Kh and Cy (seat 3) 9c 9d check to
the turn on 9h 5h 2c 3s, burns Th and 8d. Seen: 12 cards, so 40 unseen. Bob wins on a river heart that does
not pair the board (4h 6h 7h 8h; 2h and 3h give Cy a full house; Qh Jh Th are out of the deck: the "true
outs") or any 4 (a wheel: 4c 4d 4s, and 4h counted once): 7 of 40, equity 0.175; Cy 33/40 = 0.825. A camera
table that cannot see the muck would say 10/44.

Set DEALERPI_BROADCAST_SCREENSHOTS=folder to keep the screenshots (docs/broadcast-*.png are made this way).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
from pathlib import Path
from typing import Any

import pytest
from broadcast_kit import Rig, play_hand, running
from browser_kit import ARGS, CHROMIUM
from console_kit import cards_in
from playwright.async_api import Page, async_playwright

pytestmark = pytest.mark.slow   # Chromium: 10 s

# dealt seat 2, 3, 1 twice; burn, flop, burn, turn (the river's burn is not dealt: the hand stays in play)
DECK = ["Ah", "9c", "Qh", "Kh", "9d", "Jh", "Th", "9h", "5h", "2c", "8d", "3s"]
SCRIPT = ["fold", "call", "check", "check", "check", "check", "check"]
HOLE = ["Ah", "Kh", "9c", "9d", "Qh", "Jh"]


async def _shot(page: Page, name: str) -> None:
    folder = os.environ.get("DEALERPI_BROADCAST_SCREENSHOTS")
    if folder:
        await page.screenshot(path=str(Path(folder) / f"broadcast-{name}.png"), omit_background=True)


async def _equities_done(rig: Rig) -> None:
    odds = rig.session.odds
    await asyncio.to_thread(concurrent.futures.wait, odds.pending())
    odds.collect()


async def _pages(rig: Rig) -> dict[str, Any]:
    base = f"http://127.0.0.1:{rig.port}"
    token = json.loads((rig.tmp_path / "bstate" / "tokens.json").read_text())["broadcast"]
    seen: dict[str, Any] = {}
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        venue = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await venue.goto(f"{base}/venue")
        await play_hand(rig, DECK, SCRIPT)
        await venue.wait_for_selector("#board .card[data-card='3s']")
        seen["venue"] = await venue.content()
        await _shot(venue, "venue")
        await _equities_done(rig)
        rig.clock.ms += 60_000 + 30 * 2000                   # the delay (1 min) past the turn's last check
        assert rig.broadcast is not None
        await rig.broadcast.release_once()
        for name, path, width, height in (("overlay", "/overlay", 1920, 1080),
                                          ("overlay-vertical", "/overlay/vertical", 1080, 1920)):
            page = await browser.new_page(viewport={"width": width, "height": height})
            await page.goto(f"{base}{path}?token={token}")
            await page.wait_for_selector(".seat[data-seat='3'] .equity")
            seen[name] = await page.content()
            seen[name + "-text"] = await page.inner_text("body")
            await _shot(page, name)
        await play_hand(rig, ["2d", "7h"], [], start=False)  # burn, river 7h: Bob's flush; shown down
        rig.clock.ms += 2 * 60_000
        await rig.broadcast.release_once()
        await page.wait_for_selector("#result .winner")
        await page.wait_for_selector("#leaderboard:not([hidden])")
        seen["showdown-text"] = await page.inner_text("body")
        seen["showdown-folded"] = await page.eval_on_selector_all(".seat.folded",
                                                                  "nodes => nodes.map(n => n.dataset.seat)")
        await _shot(page, "overlay-showdown")
        await browser.close()
    return seen


def test_the_overlay_shows_names_cards_true_equities_and_outs_and_the_venue_page_none(tmp_path: Path) -> None:
    async def run() -> dict[str, Any]:
        async with running(tmp_path, minutes=1) as rig:
            return await _pages(rig)

    seen = asyncio.run(run())
    venue = seen["venue"]
    assert all(name in venue for name in ("Ann", "Bob", "Cy"))
    assert cards_in(venue, ["9h", "5h", "2c", "3s"]) == ["2c", "3s", "5h", "9h"]    # the board: public
    assert cards_in(venue, HOLE) == []                                              # no hole card
    for name in ("overlay", "overlay-vertical"):
        text, html = seen[name + "-text"], seen[name]
        assert all(player in text for player in ("Ann", "Bob", "Cy")), name
        assert cards_in(html, HOLE) == sorted(HOLE), name             # every hand face up, Ann's folded one too
        assert "Bob\n297 (99 BB)" in text and "300 (100 BB)" in text, name   # chips and big blinds (3)
        assert "Cy checks" in text, name                                # the last action
        assert "17.5%" in text and "82.5%" in text, name               # 7/40 and 33/40
        assert "7 outs: 4c 4d 4h 4s 6h 7h 8h" in text, name
        assert "Pot 6" in text, name                                   # both blinds of 3 (Bob completed)
    showdown = seen["showdown-text"]
    assert "Bob wins 6 with a flush, ace high" in showdown           # the river 7h: Ah Kh 9h 7h 5h
    board = showdown.index("Chip counts")
    assert showdown[board:].split("\n")[1:4] == ["1. Bob 303 (101 BB)", "2. Ann 300 (100 BB)",
                                                  "3. Cy 297 (99 BB)"]     # the leaderboard, big blinds of 3
    assert seen["showdown-folded"] == ["1"]                           # Ann's folded hand greyed after the hand too
