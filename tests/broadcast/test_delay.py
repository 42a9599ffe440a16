"""The secure delay (issue 21): frames leave the delay after the table made them, at the table's pace; the auto
delay counts from the first hand; a countdown while it fills; no client can ask for sooner; the delay keeps
across a restart of the broadcast process (the inputs it missed read from the journal); a shorter delay
drops the session. The clock is the test's (ms): no real waiting."""

from __future__ import annotations

import asyncio
import datetime
import json
import stat
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from broadcast_kit import T0, Clock, Rig, play_hand, running
from console_kit import cards_in

from dealerpi.broadcast.delay import DelayLine
from dealerpi.table import controller as controller_module

DECK = [rank + suit for suit in "shdc" for rank in "23456789TJQKA"]


def test_inputs_leave_exactly_the_delay_after_the_table_made_them_board_cards_sync_ms_later() -> None:
    """Delay 60 s, board-sync 500 ms. Inputs at 1000 (the first hand's start), 3000 (an action), 4000 (a
    board card: +500 ms), 4100 (an action: not before the board card); the countdown counts from the first
    hand's start."""
    line = DelayLine(60_000, sync_ms=500)
    assert line.status(500) == {"state": "waiting", "delay_s": 60}
    line.first_hand_ms = 1000
    line.add(1000, "start")
    line.add(3000, "call")
    line.add(4000, "flop card", board_changed=True)
    line.add(4100, "check")
    assert line.status(1000) == {"state": "filling", "seconds_left": 60, "delay_s": 60}
    assert line.status(31_500) == {"state": "filling", "seconds_left": 30, "delay_s": 60}
    assert line.release(60_999) == []
    assert line.release(61_000) == ["start"]
    assert line.status(61_000) == {"state": "on_air", "delay_s": 60}
    assert line.release(64_499) == ["call"]
    assert line.release(64_500) == ["flop card", "check"]


async def _overlay_messages(rig: Rig, query: str = "") -> list[dict[str, object]]:
    token = json.loads((rig.tmp_path / "bstate" / "tokens.json").read_text())["broadcast"]
    messages: list[dict[str, object]] = []
    async with aiohttp.ClientSession() as http, \
            http.ws_connect(f"http://127.0.0.1:{rig.port}/overlay/feed?token={token}{query}") as socket:
        while True:
            try:
                message = await socket.receive_json(timeout=0.3)
            except TimeoutError:
                return messages
            messages.append(message)


def test_no_client_parameter_brings_the_delayed_feed_sooner(tmp_path: Path) -> None:
    """A feed asked with ?delay=0&at=now&since=0, one minute into a 30-minute delay, gets the countdown
    (29 minutes to go) and no frame: what it is sent is decided by the process's clock only."""
    async def run() -> list[dict[str, object]]:
        async with running(tmp_path, minutes=30) as rig:
            await play_hand(rig, DECK, ["fold", "fold"])
            rig.clock.ms = T0 + 60_000
            return await _overlay_messages(rig, "&delay=0&at=now&since=0")

    messages = asyncio.run(run())
    assert messages == [{"type": "status", "status": {"state": "filling", "seconds_left": 1740, "delay_s": 1800}}]


def test_the_delay_survives_a_restart_and_the_inputs_missed_meanwhile_come_from_the_journal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Hand 1 starts at T0 and is played (inputs 2 s apart); the broadcast stops; hand 2 is played while it is
    down; it starts again. Its session is the same (first hand at T0, the countdown 30 minutes from T0, not
    from the restart), its stored inputs kept their times, and hand 2's inputs were read from the journal,
    stamped with hand 2's start time (the journal's "at", to the second), so they are on the delayed feed;
    the clip list has each hand once.
    The state folder is 0700, its files 0600: hole cards are on this disk."""
    clock = Clock()
    monkeypatch.setattr(controller_module, "utc_now", lambda: datetime.datetime.fromtimestamp(
        clock.ms / 1000, datetime.UTC).isoformat(timespec="seconds").replace("+00:00", "Z"))   # the start's "at"

    async def run() -> tuple[list[int], list[int], list[str], dict[str, Any], set[str], list[int]]:
        async with running(tmp_path, minutes=30, clock=clock) as rig:
            await play_hand(rig, DECK, ["fold", "fold"])
            before = [stamped.ms for stamped in rig.session.events]
            await rig.stop_broadcast()
            rig.clock.ms = T0 + 100_000
            await play_hand(rig, DECK[13:] + DECK[:13], ["fold", "fold"])
            table = rig.controller.table
            hand2 = {card for seat in table.dealt_seats() for card in table.hole_cards(seat)}
            rig.clock.ms = T0 + 200_000
            await rig.start_broadcast(minutes=30)
            after = [stamped.ms for stamped in rig.session.events]
            types = [stamped.entry["type"] for stamped in rig.session.events]
            rig.clock.ms = T0 + 30 * 60_000 + 130_000              # past hand 2's place in the delayed feed
            assert rig.broadcast is not None
            await rig.broadcast.release_once()
            current = rig.session.current
            assert current is not None
            return before, after, types, current, hand2, [clip.number for clip in rig.session.clips.hands]

    before, after, types, current, hand2, clips = asyncio.run(run())
    assert clips == [1, 2]                                           # hand 1 replayed at the restart: listed once
    assert types[:5] == ["sit", "sit", "sit", "start", "card"]
    assert before[3:5] == [T0, T0 + 2000]                            # hand 1's start; its first card 2 s later
    assert after[:len(before)] == before                             # the stored inputs kept their times
    missed = after[len(before):]
    start_second = (T0 + 100_000) // 1000 * 1000                     # hand 2's "at": to the second
    assert types[len(before)] == "start" and missed == [start_second] * len(missed)
    assert len(missed) == 1 + 6 + 2                                  # its start, six hole cards, two folds
    assert current["hand"] == 2 and sorted(c for s in current["seats"].values() for c in s["cards"]) == sorted(hand2)
    folder = tmp_path / "bstate"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    assert {p.name: stat.S_IMODE(p.stat().st_mode) for p in folder.iterdir()} == {
        "session.json": 0o600, "events.jsonl": 0o600, "tokens.json": 0o600, "pairing.txt": 0o600,
        "clips.json": 0o600}


def test_a_shorter_delay_at_a_restart_drops_the_session_and_waits_a_full_delay_again(tmp_path: Path) -> None:
    """30 minutes, a hand at T0; restarted with 10 minutes at T0 + 5 min: the stored session (its hole cards)
    is deleted, the feed waits for a first hand again, and a hand at T0 + 6 min goes on air at T0 + 16 min,
    not at T0 + 10 min, when the old hand would have come out under the new delay."""
    async def run() -> tuple[dict[str, object], dict[str, object], dict[str, object]]:
        async with running(tmp_path, minutes=30) as rig:
            await play_hand(rig, DECK, ["fold", "fold"])
            await rig.stop_broadcast()
            rig.clock.ms = T0 + 5 * 60_000
            await rig.start_broadcast(minutes=10)
            waiting = rig.session.status()
            rig.clock.ms = T0 + 6 * 60_000
            await play_hand(rig, DECK[13:] + DECK[:13], ["fold", "fold"])
            rig.clock.ms = T0 + 11 * 60_000
            filling = rig.session.status()
            rig.clock.ms = T0 + 16 * 60_000
            on_air = rig.session.status()
            return waiting, filling, on_air

    waiting, filling, on_air = asyncio.run(run())
    assert waiting == {"state": "waiting", "delay_s": 600}
    assert filling == {"state": "filling", "seconds_left": 300, "delay_s": 600}
    assert on_air == {"state": "on_air", "delay_s": 600}


def test_the_stored_session_keeps_the_delayed_window_and_a_hand_not_the_evening(tmp_path: Path) -> None:
    """Delay 1 minute. Hand 1 at T0, hand 2 at T0 + 5 min, hand 3 at T0 + 10 min. At hand 3's start the
    delayed feed is at T0 + 9 min, so the stored session starts at hand 2's start (the last one before the
    feed's moment less a minute): hand 1's hole cards are on no file of the state folder any more, hand 2's
    are. A restart then resumes from hand 2 with the same first hand (the countdown is not run again)."""
    async def run() -> tuple[set[str], set[str], str, int | None, int, int]:
        async with running(tmp_path, minutes=1) as rig:
            table = rig.controller.table
            hands: list[set[str]] = []
            for number in range(3):
                rig.clock.ms = T0 + number * 5 * 60_000
                await play_hand(rig, DECK[13 * number:] + DECK[:13 * number], ["fold", "fold"])
                hands.append({card for seat in table.dealt_seats() for card in table.hole_cards(seat)})
            stored = "".join(path.read_text() for path in (tmp_path / "bstate").iterdir())
            kept = len(rig.session.events)
            await rig.stop_broadcast()
            await rig.start_broadcast(minutes=1)
            return hands[0], hands[1], stored, rig.session.line.first_hand_ms, kept, len(rig.session.events)

    hand1, hand2, stored, first, kept, resumed = asyncio.run(run())
    assert cards_in(stored, hand1) == []
    assert cards_in(stored, hand2) == sorted(hand2)
    assert first == T0
    assert kept == resumed == 2 * (6 + 2) + 1        # hand 2 after its start (cards, folds), hand 3 from its start


def test_inputs_the_journal_no_longer_has_are_a_warning_and_the_table_is_the_daemons(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The broadcast stops in hand 1; hand 1 ends and hand 2 starts while it is down, and hand 1's segment is
    gone when it comes back (rotated away, or deleted by hand). It says so (a WARNING naming the segment),
    takes the table from the daemon's hello, and keeps its session (the first hand's time)."""
    async def run() -> tuple[bool, int | None]:
        async with running(tmp_path, minutes=30) as rig:
            rig.submit({"type": "start"})
            await asyncio.sleep(0.05)
            await rig.stop_broadcast()
            await play_hand(rig, DECK, ["fold", "fold"], start=False)
            await play_hand(rig, DECK[13:] + DECK[:13], ["fold", "fold"])
            (tmp_path / "state" / "journal" / "000001.jsonl").unlink()
            await rig.start_broadcast(minutes=30)
            table = rig.session.table
            assert table is not None
            same = json.dumps(table.snapshot(), sort_keys=True) == json.dumps(
                rig.controller.table.snapshot(), sort_keys=True)
            return same, rig.session.line.first_hand_ms

    same, first = asyncio.run(run())
    assert same and first == T0
    warnings = [r.getMessage() for r in caplog.records if r.levelname == "WARNING" and "broadcast" in r.name]
    assert warnings == [f"broadcast: {tmp_path / 'state' / 'journal' / '000001.jsonl'} is gone: the inputs in it "
                        "cannot be read; the table is taken from the daemon as it is now"]
