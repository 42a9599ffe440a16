"""The dynamic delay (issue 21, PokerGFX's "skip breaks"; TRN-1 breaks): while the delayed table is on a
tournament break, the break's dead air is dropped and the delay shrinks by it, never below
``min_delay_minutes``. The invariant: every input leaves no sooner than the least delay after the table
applied it, so no hole card is on the delayed feed sooner than that after it was dealt. The clock is the
test's (ms): no real waiting, no timing assert."""

from __future__ import annotations

import asyncio
import datetime
import json
from pathlib import Path
from typing import Any

from broadcast_kit import T0, Clock, Rig, play_hand, running
from console_kit import cards_in
from daemon_kit import CONFIG

from dealerpi.broadcast.delay import DelayLine

DECK = [rank + suit for suit in "shdc" for rank in "23456789TJQKA"]
MIN = 60_000
# a tournament (TRN-1): level 1 of 10 minutes, a 5-minute break, level 2
TOURNAMENT = CONFIG.replace('rules = "home"', 'rules = "tournament"\nlevels = [{blinds = [1, 3], minutes = 10}, '
                            '{break = true, minutes = 5}, {blinds = [2, 4], minutes = 20}]')


def test_a_break_within_the_margin_is_skipped_whole_and_the_delay_shrinks_by_its_length() -> None:
    """Delay 30 min, least 15. The last input before a break at 0 (the table on a break after it), a tick
    at 1 min, the tick that ends the 5-minute break at 5 min, the next hand's start at 5 min 10 s. At 30 min
    the delayed table reaches the break: its inputs are 30, 29 and 25 min old, all at least 15: they leave
    now, and the delay is 30 - 5 = 25 min: the start leaves at 5:10 + 25:00 = 30:10, not 35:10."""
    line = DelayLine(30 * MIN, floor_ms=15 * MIN)
    line.first_hand_ms = -10 * MIN
    line.add(0, "hand over, break", on_break=True)
    line.add(1 * MIN, "break tick", on_break=True)
    line.add(5 * MIN, "break ends", on_break=False)
    line.add(5 * MIN + 10_000, "start")
    assert line.release(30 * MIN - 1) == []
    assert line.release(30 * MIN) == ["hand over, break", "break tick", "break ends"]
    assert line.delay_ms == 25 * MIN
    assert line.status(30 * MIN) == {"state": "on_air", "delay_s": 25 * 60}
    assert line.release(30 * MIN + 9_999) == []
    assert line.release(30 * MIN + 10_000) == ["start"]


def test_a_break_longer_than_the_margin_shrinks_the_delay_to_the_least_and_no_further() -> None:
    """Delay 30 min, least 15, a 20-minute break (a tick a minute, the 20th ends it), the next start at 20:10.
    At 30:00 the inputs up to 15:00 are 15 min old: they leave (the delay is 15 min); the tick at 16:00 waits
    for 31:00, the one that ends the break for 35:00, the start for 35:10: 15 min each, never less."""
    line = DelayLine(30 * MIN, floor_ms=15 * MIN)
    line.first_hand_ms = -10 * MIN
    line.add(0, "break begins", on_break=True)
    for minute in range(1, 21):
        line.add(minute * MIN, f"tick {minute}", on_break=minute < 20)
    line.add(20 * MIN + 10_000, "start")
    assert line.release(30 * MIN) == ["break begins", *[f"tick {m}" for m in range(1, 16)]]
    assert line.delay_ms == 15 * MIN
    assert line.release(31 * MIN - 1) == []
    assert line.release(31 * MIN) == ["tick 16"]
    assert line.release(35 * MIN) == ["tick 17", "tick 18", "tick 19", "tick 20"]
    assert line.release(35 * MIN + 9_999) == []
    assert line.release(35 * MIN + 10_000) == ["start"]


def test_no_skip_outside_a_break_nor_without_a_least_delay() -> None:
    """Dead air between hands that is not a break (a pause, a slow table) is not skipped: the delay stays 30
    min; without ``min_delay_minutes`` a break is not skipped either."""
    for floor, on_break in ((15 * MIN, False), (None, True)):
        line = DelayLine(30 * MIN, floor_ms=floor)
        line.first_hand_ms = 0
        line.add(0, "hand over", on_break=on_break)
        line.add(10 * MIN, "start")
        assert line.release(30 * MIN) == ["hand over"]
        assert line.release(40 * MIN - 1) == []
        assert line.release(40 * MIN) == ["start"]
        assert line.delay_ms == 30 * MIN


def _recording(rig: Rig) -> list[tuple[int, dict[str, Any]]]:
    """Every frame the delayed feed lets out, with this process's clock when it did."""
    released: list[tuple[int, dict[str, Any]]] = []
    session = rig.session
    release = session.release

    def wrapped() -> list[dict[str, Any]]:
        frames = release()
        released.extend((session.clock(), frame) for frame in frames)
        return frames

    session.release = wrapped                                   # type: ignore[method-assign]
    return released


def test_a_tournament_break_is_skipped_and_no_hole_card_airs_sooner_than_the_least_delay(tmp_path: Path) -> None:
    """Delay 30 min, least 15 min (TRN-1 levels: 10 min, a 5-minute break, level 2). Hand 1 at T0 (inputs 2 s
    apart), a tick a minute: the one at 10:00 starts the break, the one at 15:00 ends it; hand 2 at 15:10.
    The delayed feed, looked at every second from 30:00 to 42:00: at 40:00 it reaches the break and skips it
    whole (its last input, at 15:00, is 25 min old then): the delay is 25 min, and hand 2's six hole cards
    (dealt 15:12-15:22; the overlay shows the hands once the deal is complete) air at 15:22 + 25 min =
    40:22, 5 minutes sooner than without the skip, each one at least the 15-minute least delay after the
    table dealt it, and every frame at least that after its input (the invariant). The
    clip list has hand 2 (15:10-15:26) on air at 40:10-40:26 and 10:10-10:26 into the stream (less the first
    hand's start, less the 5 minutes skipped). A restart keeps the delay at 25 min (it is not 30 again, nor shorter)."""
    async def run() -> tuple[list[tuple[int, dict[str, Any]]], dict[str, int], set[str], list[str], int, int]:
        async with running(tmp_path, minutes=30, extra="min_delay_minutes = 15\n", table_text=TOURNAMENT) as rig:
            released = _recording(rig)
            await play_hand(rig, DECK, ["fold", "fold"])
            for minute in range(1, 16):
                rig.clock.ms = T0 + minute * MIN
                rig.submit({"type": "tick", "seconds": 60})
            assert rig.controller.table.levels is not None and not rig.controller.table.levels.on_break
            rig.clock.ms = T0 + 15 * MIN + 10_000
            await play_hand(rig, DECK[13:] + DECK[:13], ["fold", "fold"])
            table = rig.controller.table
            hand2 = {card for seat in table.dealt_seats() for card in table.hole_cards(seat)}
            dealt = {stamped.entry["card"]: stamped.ms for stamped in rig.session.events
                     if stamped.entry["type"] == "card" and stamped.ms > T0 + 15 * MIN}
            assert rig.broadcast is not None
            for at in range(T0 + 30 * MIN, T0 + 42 * MIN + 1, 1_000):
                rig.clock.ms = at
                await rig.broadcast.release_once()
            clips = rig.session.clips.csv_text(rig.session.line.first_hand_ms, rig.session.delay_ms).splitlines()
            delay = rig.session.status()["delay_s"]
            await rig.stop_broadcast()
            await rig.start_broadcast(minutes=30, extra="min_delay_minutes = 15\n")
            return released, dealt, hand2, clips, delay, rig.session.status()["delay_s"]

    released, dealt, hand2, clips, delay, after_restart = asyncio.run(run())
    assert len(hand2) == 6 and set(dealt) == hand2
    lags = [now - frame["ms"] for now, frame in released]
    assert min(lags) == 25 * MIN                      # the skip happened: some frames aired 25 min after ...
    assert all(lag >= 15 * MIN for lag in lags)       # ... and none sooner than the least delay (the invariant)
    first_seen: dict[str, int] = {}
    for now, frame in released:
        for seat in frame["seats"].values():
            for card in seat["cards"]:
                first_seen.setdefault(card, now)
    assert {first_seen[card] for card in hand2} == {T0 + 15 * MIN + 22_000 + 25 * MIN}
    assert all(first_seen[card] - dealt[card] >= 15 * MIN for card in hand2)
    assert (delay, after_restart) == (25 * 60, 25 * 60)
    start, end = T0 + 15 * MIN + 10_000, T0 + 15 * MIN + 26_000         # six cards and two folds, 2 s apart
    assert clips[2] == (f"2,{_iso(start)},{_iso(end)},{_iso(start + 25 * MIN)},{_iso(end + 25 * MIN)},"
                        "00:10:10.000,00:10:26.000,")
    assert json.loads((tmp_path / "bstate" / "session.json").read_text())["skipped_ms"] == 5 * MIN


def _iso(ms: int) -> str:
    return datetime.datetime.fromtimestamp(ms / 1000, datetime.UTC).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z")


def test_a_restart_with_a_shorter_least_delay_drops_the_session(tmp_path: Path) -> None:
    """Least 15 min, then restarted with least 10 (the delay unchanged at 30): the floor a session's cards
    were promised may not be lowered during it, so the stored session (its hole cards) is dropped, as for a
    shorter delay: its inputs are deleted and the feed waits for a first hand and a full delay again."""
    async def run() -> tuple[dict[str, Any], set[str], str, str]:
        async with running(tmp_path, minutes=30, extra="min_delay_minutes = 15\n", clock=Clock(),
                           table_text=TOURNAMENT) as rig:
            await play_hand(rig, DECK, ["fold", "fold"])
            table = rig.controller.table
            hand1 = {card for seat in table.dealt_seats() for card in table.hole_cards(seat)}
            before = (tmp_path / "bstate" / "events.jsonl").read_text()
            await rig.stop_broadcast()
            await rig.start_broadcast(minutes=30, extra="min_delay_minutes = 10\n")
            after = (tmp_path / "bstate" / "events.jsonl").read_text()
            return rig.session.status(), hand1, before, after

    status, hand1, before, after = asyncio.run(run())
    assert status == {"state": "waiting", "delay_s": 1800}
    assert cards_in(before, hand1) == sorted(hand1)           # the stored inputs had them ...
    assert after == ""                                        # ... and are dropped: a new session
