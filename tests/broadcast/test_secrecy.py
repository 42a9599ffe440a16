"""Secrecy of the streamed table (issue 21, house rules: hole cards never on a network interface before the
hand ends). A whole session of four hands, none of them shown down, so no hole card ever becomes public:
every non-delayed interface is captured (the venue feed's WebSocket and page, the delayed feed's WebSocket
and pages before the delay has passed, the process's log at INFO) and searched for every dealt hole card.
The positive control: once the clock passes the delay, the same capture of the delayed feed shows every
one of them, and the same search finds them. The clock is the test's: no real wait, no timing assert."""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path

import aiohttp
import pytest
from broadcast_kit import Rig, play_hand, running
from console_kit import cards_in

RANKS = "23456789TJQKA"
DECK = [rank + suit for suit in "shdc" for rank in RANKS]
# four hands ended by folds (no showdown): preflop, on the flop, on the turn, preflop after a raise
SCRIPTS = [["call", "call", "check", "bet:6", "fold", "fold"],
           ["fold", "fold"],
           ["call", "fold", "check", "check", "check", "bet:6", "fold"],
           ["raise:9", "fold", "fold"]]


async def _capture(socket: aiohttp.ClientWebSocketResponse, into: list[str]) -> None:
    async for message in socket:
        into.append(message.data)


async def _session(rig: Rig) -> tuple[dict[str, list[str]], set[str], list[str]]:
    base = f"http://127.0.0.1:{rig.port}"
    token = json.loads((rig.tmp_path / "bstate" / "tokens.json").read_text())["broadcast"]
    captured: dict[str, list[str]] = {"venue": [], "overlay": [], "pages": []}
    dealt: set[str] = set()
    async with aiohttp.ClientSession() as http:
        venue = await http.ws_connect(f"{base}/venue/feed")
        overlay = await http.ws_connect(f"{base}/overlay/feed?token={token}")
        tasks = [asyncio.ensure_future(_capture(venue, captured["venue"])),
                 asyncio.ensure_future(_capture(overlay, captured["overlay"]))]
        for number, script in enumerate(SCRIPTS):
            deck = DECK[13 * number:] + DECK[:13 * number]        # another deal each hand
            await play_hand(rig, deck, script)
            table = rig.controller.table
            dealt |= {card for seat in table.dealt_seats() for card in table.hole_cards(seat)}
            assert table.shown_cards() == {}                      # nothing tabled: every hole card is secret
            for path in ("/venue", "/overlay", "/overlay/vertical", "/clips.csv"):
                async with http.get(f"{base}{path}") as answer:   # without a token: the venue page only
                    captured["pages"].append(f"{answer.status} {await answer.text()}")
        assert rig.broadcast is not None
        await rig.broadcast.release_once()
        delayed_before = list(captured["overlay"])
        rig.clock.ms += 31 * 60_000                                 # past the 30-minute delay
        for _ in range(500):                                        # the release loop's next turn
            if any('"result"' in text and '"number": 4' in text for text in captured["overlay"]):
                break
            await asyncio.sleep(0.01)
        for task in tasks:
            task.cancel()
        await venue.close()
        await overlay.close()
    return {**captured, "overlay_before": delayed_before}, dealt, captured["overlay"]


def test_no_hole_card_on_any_live_interface_for_a_session_and_the_delayed_feed_shows_them_after_the_delay(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO)

    async def run() -> tuple[dict[str, list[str]], set[str], list[str]]:
        async with running(tmp_path, minutes=30) as rig:
            return await _session(rig)

    captured, dealt, delayed = asyncio.run(run())
    assert len(dealt) == 4 * 3 * 2                                   # 24 hole cards dealt, all different
    venue = "\n".join(captured["venue"])
    assert len(captured["venue"]) > 40 and '"board"' in venue       # the venue saw the whole session ...
    assert cards_in(venue, DECK) != []                               # ... its board cards (public) ...
    assert cards_in(venue, dealt) == []                              # ... and no hole card
    assert cards_in("\n".join(captured["pages"]), dealt) == []
    assert [page.split(" ", 1)[0] for page in captured["pages"][:4]] == ["200", "401", "401", "401"]
    before = "\n".join(captured["overlay_before"])
    assert '"state": "filling"' in before and '"frame"' not in before   # counting down, no frame yet
    assert cards_in(before, dealt) == []
    log = "\n".join(record.getMessage() for record in caplog.records)
    assert "following the table daemon" in log                       # the log was captured
    assert cards_in(log, dealt) == []
    # the positive control: the delayed feed, once the delay has passed, shows every hole card
    frames = [json.loads(text) for text in delayed]
    assert {"type": "status", "status": {"state": "on_air", "delay_s": 1800}} in frames
    assert cards_in("\n".join(delayed), dealt) == sorted(dealt)
