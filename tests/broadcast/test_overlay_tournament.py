"""The overlay's tournament graphics (issue 21): the action clock when it runs (TRN-2: the shot clock, its
final countdown, a time bank), the level, its clock and the payouts (TRN-1, TRN-4), the leaderboard between
hands with VPIP/PFR from the card room's statistics (read from the room's own page, docs/room.md), all on
the delayed feed at the delayed time. A real room page (its store, its token guard) and Debian's Chromium.
The clock is the test's (ms): no real waiting."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestServer
from broadcast_kit import T0, Clock, Rig, running
from browser_kit import ARGS, CHROMIUM
from daemon_kit import CONFIG
from playwright.async_api import Page, async_playwright

from dealerpi.broadcast import room_stats
from dealerpi.broadcast.session import BroadcastSession
from dealerpi.room.service import RoomService
from dealerpi.room.settings import Game, RoomSettings
from dealerpi.room.store import Store
from dealerpi.room.web import RoomPage
from dealerpi.wire.broker import MqttSettings

DECK = [rank + suit for suit in "shdc" for rank in "23456789TJQKA"]
TOKENS = {"host": "h" * 22, "dealer": "d" * 22, "board": "b" * 22}
# TRN-1/TRN-4: 3 entrants at 100, 50/30/20; TRN-2: a 25-second shot clock (+5 s countdown), one time bank of 30 s
TOURNAMENT = CONFIG.replace('rules = "home"', 'rules = "tournament"\nbuy_in = 100\npayouts = [50, 30, 20]\n'
                            'levels = [{blinds = [1, 3], minutes = 10}, {blinds = [2, 4], minutes = 10}]\n'
                            'policies = {shot_clock = 25, time_banks = 1, time_bank_seconds = 30}')
HEAD = 'variant = "NT"\nantes = [0, 0, 0]\nblinds_or_straddles = [1, 3, 0]\nmin_bet = 3\n' \
       'starting_stacks = [250, 250, 250]\nplayers = ["Bob", "Cy", "Ann"]\n'
# Ann raises to 9 (VPIP, PFR), Bob calls (VPIP), Cy folds his big blind: pot 41 to Ann at the showdown
RAISED = HEAD + '''actions = ["d dh p1 7s6s", "d dh p2 9d2h", "d dh p3 AsAd", "p3 cbr 9", "p1 cc", "p2 f",
  "d db KhQc3s", "p1 cc", "p3 cbr 10", "p1 cc", "d db 2c", "p1 cc", "p3 cc", "d db 8d", "p1 cc", "p3 cc",
  "p1 sm 7s6s", "p3 sm AsAd"]
finishing_stacks = [231, 247, 272]
'''
# Ann calls 3 (VPIP), Bob completes (VPIP), Cy checks his option (not VPIP); Cy wins at the showdown
LIMPED = HEAD + '''actions = ["d dh p1 7s6s", "d dh p2 AhAc", "d dh p3 Jd9d", "p3 cc", "p1 cc", "p2 cc", "d db KhQc3s",
  "p1 cc", "p2 cc", "p3 cc", "d db 2c", "p1 cc", "p2 cc", "p3 cc", "d db 8d", "p1 cc", "p2 cc", "p3 cc",
  "p1 sm 7s6s", "p2 sm AhAc", "p3 sm Jd9d"]
finishing_stacks = [247, 256, 247]
'''


async def _shot(page: Page, name: str) -> None:
    """DEALERPI_BROADCAST_SCREENSHOTS=folder keeps the screenshots (docs/broadcast-overlay-*.png)."""
    folder = os.environ.get("DEALERPI_BROADCAST_SCREENSHOTS")
    if folder:
        await page.screenshot(path=str(Path(folder) / f"broadcast-{name}.png"), omit_background=True)


def _recording(rig: Rig) -> list[tuple[int, dict[str, Any]]]:
    released: list[tuple[int, dict[str, Any]]] = []
    session = rig.session
    release = session.release

    def wrapped() -> list[dict[str, Any]]:
        frames = release()
        released.extend((session.clock(), frame) for frame in frames)
        return frames

    session.release = wrapped                                   # type: ignore[method-assign]
    return released


async def _session(rig: Rig, fetched: asyncio.Event, base: str, token: str) -> dict[str, Any]:
    await asyncio.wait_for(fetched.wait(), 10)                  # the room's figures, stamped T0 - 1 min
    released = _recording(rig)
    table = rig.controller.table
    rig.clock.ms = T0
    rig.submit({"type": "start"})
    for card in DECK[:6]:
        rig.clock.ms += 2000
        rig.submit({"type": "card", "card": card})
    actor = table.expectation().seat
    for seconds in (20, 7, 3):                                  # the shot clock: 30 -> 10 -> 3 (final) -> bank
        rig.clock.ms += seconds * 1000
        rig.submit({"type": "tick", "seconds": seconds})
    for _ in range(2):
        rig.clock.ms += 2000
        rig.submit({"type": "act", "seat": table.expectation().seat, "action": "fold"})
    assert table.between_hands
    for _ in range(500):                                        # the daemon's events are at the broadcast
        if rig.session.last_ms == rig.clock.ms:
            break
        await asyncio.sleep(0.01)
    rig.clock.ms = T0 + 50_000
    rig.session.add_stats({"Ann": {"hands": 4, "vpip": 3, "pfr": 1}, "Bob": {"hands": 2, "vpip": 2, "pfr": 0},
                           "Cy": {"hands": 2, "vpip": 0, "pfr": 0}})   # a later look at the room
    seen: dict[str, Any] = {"actor": actor, "released": released}
    assert rig.broadcast is not None
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = await browser.new_page(viewport={"width": 1920, "height": 1080})
        await page.goto(f"{base}/overlay?token={token}")
        for at in range(T0, T0 + 60_000 + 50_000 + 1, 1000):
            rig.clock.ms = at + 60_000
            await rig.broadcast.release_once()
            if at == T0 + 12_000 + 27_000:                       # the delayed table in the final countdown
                await page.wait_for_selector(".clock.final")
                seen["final"] = await page.inner_text("body")
                await _shot(page, "overlay-tournament")
        await page.wait_for_selector("#leaderboard:not([hidden]) .stats")
        await page.wait_for_function("document.body.innerText.includes('(4 hands)')")
        seen["between"] = await page.inner_text("body")
        await _shot(page, "overlay-leaderboard")
        await browser.close()
    return seen


@pytest.mark.slow   # Chromium and a room page: 4 s
def test_the_action_clock_the_level_and_the_payouts_and_vpip_pfr_at_the_delayed_time(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Delay 1 minute. The room has two hands of Ann, Bob and Cy (tests/room's, worked by hand there): Ann VPIP
    2 of 2, PFR 1 (100%, 50%); Bob 2, 0 (100%, 0%); Cy 0, 0. The broadcast reads them at T0 - 1 min.
    Hand 1 at T0: six hole cards 2 s apart, then the first to act's shot clock: 25 + 5 s from the last card
    (T0 + 12 s), ticks of 20, 7 and 3 s: 10 s left, 3 s in the final countdown, then his time bank (30 + 5 s,
    none left); he folds, and Bob's decision has its own 25 + 5 s (and his bank) until he folds. Each
    frame leaves 1 minute after its input with that moment's clock; the level
    (1, blinds 1/3) has 600 - 30 = 570 s left after the ticks; 3 players of 3, pool 300, pays 150/90/60.
    A look at the room at T0 + 50 s (Ann 3 of 4, 1 of 4: 75%, 25%) is on the overlay from T0 + 110 s, not
    before."""
    room_settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "room-state",
                                 MqttSettings("room"), (Game("nlhe-1-3", ("t1",), 200),))
    store = Store(room_settings.database)
    store.add_hand("t1", "s1", 1, 1, RAISED)
    store.add_hand("t1", "s1", 2, 2, LIMPED)
    (tmp_path / "room-token").write_text(TOKENS["board"] + "\n")
    fetched = asyncio.Event()
    add_stats = BroadcastSession.add_stats

    def counted(self: BroadcastSession, players: dict[str, dict[str, int]]) -> None:
        add_stats(self, players)
        fetched.set()

    monkeypatch.setattr(BroadcastSession, "add_stats", counted)
    monkeypatch.setattr(room_stats, "POLL_SECONDS", 3600.0)      # one look at the room, at the start

    async def run() -> dict[str, Any]:
        server = TestServer(RoomPage(RoomService(room_settings, store), TOKENS, token_required=True).app(),
                            host="127.0.0.1")
        await server.start_server()
        clock = Clock()
        clock.ms = T0 - 60_000
        try:
            extra = f'room_url = "http://127.0.0.1:{server.port}"\nroom_token_file = "room-token"\n'
            async with running(tmp_path, minutes=1, extra=extra, clock=clock, table_text=TOURNAMENT) as rig:
                token = json.loads((tmp_path / "bstate" / "tokens.json").read_text())["broadcast"]
                return await _session(rig, fetched, f"http://127.0.0.1:{rig.port}", token)
        finally:
            await server.close()

    try:
        seen = asyncio.run(run())
    finally:
        store.close()
    released, actor = seen["released"], seen["actor"]
    assert actor == 1                         # three-handed, the button (Ann, seat 1) acts first pre-flop
    assert all(now - frame["ms"] == 60_000 for now, frame in released)        # each at its delayed time
    clocks = [(frame["ms"] - T0, frame["clock"]) for _, frame in released if frame["clock"] is not None]
    assert clocks == [(12_000, {"seat": actor, "remaining": 30, "final": False, "banks_left": 1}),
                      (32_000, {"seat": actor, "remaining": 10, "final": False, "banks_left": 1}),
                      (39_000, {"seat": actor, "remaining": 3, "final": True, "banks_left": 1}),
                      (42_000, {"seat": actor, "remaining": 35, "final": False, "banks_left": 0}),
                      (44_000, {"seat": 2, "remaining": 30, "final": False, "banks_left": 1})]   # Bob's turn
    after = next(frame for _, frame in released if frame["ms"] == T0 + 42_000)["tournament"]
    assert (after["level"], after["step"]["blinds"], after["remaining"]) == (1, [1, 3], 570)
    assert (after["players_left"], after["entrants"], after["pool"], after["prizes"]) == (3, 3, 300, [150, 90, 60])
    stats = {seat["player"]: seat["stats"] for seat in released[0][1]["seats"].values() if seat["player"]}
    assert stats == {"Ann": {"hands": 2, "vpip": 100, "pfr": 50}, "Bob": {"hands": 2, "vpip": 100, "pfr": 0},
                     "Cy": {"hands": 2, "vpip": 0, "pfr": 0}}
    later = [(now, frame) for now, frame in released if frame["ms"] == T0 + 50_000]
    assert [now for now, _ in later] == [T0 + 110_000]              # the later look, redrawn a minute after it
    assert later[0][1]["seats"]["1"]["stats"] == {"hands": 4, "vpip": 75, "pfr": 25}
    assert all(frame["seats"]["1"]["stats"]["hands"] == 2 for now, frame in released if now < T0 + 110_000)
    final = seen["final"]
    assert "Clock 3 s (1 time bank)" in final and "Level 1 \u00b7 1/3 \u00b7 9:33" in final   # 600 - 27 s
    assert "Players 3 of 3 \u00b7 Prize pool 300" in final and "Pays 1. 150 \u00b7 2. 90 \u00b7 3. 60" in final
    between = seen["between"]
    board = between.index("Chip counts")
    # Ann (button) and Bob (small blind, 1) fold: Cy (big blind) wins 1; stacks in big blinds of 3
    assert between[board:].split("\n")[1:4] == [
        "1. Cy 301 (100.3 BB) VPIP 0% PFR 0% (2 hands)",
        "2. Ann 300 (100 BB) VPIP 75% PFR 25% (4 hands)",
        "3. Bob 299 (99.7 BB) VPIP 100% PFR 0% (2 hands)"]


def test_a_room_that_refuses_or_does_not_answer_is_one_warning_and_no_figures(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture) -> None:
    """The room's real page with a wrong token (401), then a port where nothing listens: each is one WARNING
    naming the room and why, however many looks fail; nothing reaches the overlay (no figures, no
    traceback)."""
    room_settings = RoomSettings(tmp_path / "room.sqlite", "127.0.0.1:0", tmp_path / "room-state",
                                 MqttSettings("room"), (Game("nlhe-1-3", ("t1",), 200),))
    store = Store(room_settings.database)
    monkeypatch.setattr(room_stats, "POLL_SECONDS", 0.01)
    added: list[dict[str, dict[str, int]]] = []

    class Session:
        def add_stats(self, players: dict[str, dict[str, int]]) -> None:
            added.append(players)

    async def looks(url: str) -> None:
        task = asyncio.ensure_future(room_stats.poll(url, "w" * 22, Session()))   # type: ignore[arg-type]
        await asyncio.sleep(0.3)                     # many looks, every 10 ms
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task

    async def run() -> str:
        server = TestServer(RoomPage(RoomService(room_settings, store), TOKENS, token_required=True).app(),
                            host="127.0.0.1")
        await server.start_server()
        url = f"http://127.0.0.1:{server.port}"
        await looks(url)
        await server.close()
        await looks(url)                             # nothing listens there any more
        return url

    try:
        url = asyncio.run(run())
    finally:
        store.close()
    assert added == []
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING" and "room_stats" in r.name]
    assert len(warnings) == 2 and all(w.startswith(f"the room's statistics at {url}: ") for w in warnings)
    assert "the room answered 401 to /summary.json (is room_token_file the room's board token?)" in warnings[0]
    assert all(r.exc_info is None for r in caplog.records)
