"""The tournament clock (TRN-1): levels of rising blinds; a level that ends mid-hand starts after the hand."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path

from dealerpi import config as config_module
from dealerpi.sim.clock import TournamentClock
from dealerpi.sim.host import SimTable
from dealerpi.sim.server import SIM_CONFIG, START_JOURNAL


def with_clock(tmp_path: Path, body: Callable[[SimTable, TournamentClock, list[float], Path], None]) -> None:
    """``body(sim, clock, now, journal)`` on the simulator's start journal with 20-minute levels; ``now[0]`` is the
    clock's time in seconds."""
    async def scenario() -> None:
        now = [0.0]
        journal = tmp_path / "journal.jsonl"
        journal.write_text(START_JOURNAL.read_text())
        sim = SimTable.open(config_module.load(str(SIM_CONFIG)), journal)
        clock = TournamentClock(sim, minutes=20, on_tick=lambda: None, clock=lambda: now[0])
        assert clock.start() is None
        try:
            body(sim, clock, now, journal)
        finally:
            clock.stop()
            await sim.stop()

    asyncio.run(scenario())


def test_levels_raise_the_blinds_between_hands(tmp_path: Path) -> None:
    def body(sim: SimTable, clock: TournamentClock, now: list[float], journal: Path) -> None:
        now[0] = 1199.0
        clock.poll()
        assert clock.text() == "level 1 1/3: 0:01 left"
        now[0] = 1200.0
        clock.poll()                                    # no hand is being played: level 2 starts now
        assert (sim.table.config.small_blind, sim.table.config.big_blind) == (2, 6)
        assert clock.text() == "level 2 2/6: 20:00 left"
        last = json.loads(journal.read_text().splitlines()[-1])
        assert last == {"type": "table", "game": "nlhe", "rules": "home", "seats": 6, "blinds": [2, 6]}

        assert sim.submit({"type": "start"}).accepted
        for card in ["Kh", "Qh", "Ah", "Kd", "Qd", "Ad"]:
            assert sim.submit({"type": "card", "card": card}).accepted
        now[0] = 2400.0
        clock.poll()                                    # a hand is on: level 3 waits for it
        assert sim.table.config.big_blind == 6
        assert clock.text() == "level 2 2/6: over; level 3 starts with the next hand"
        assert sim.submit({"type": "act", "seat": 1, "action": "fold"}).accepted
        assert sim.submit({"type": "act", "seat": 2, "action": "fold"}).accepted
        assert sim.table.expectation().as_json() == {"expect": "start"}
        clock.poll()
        assert (sim.table.config.small_blind, sim.table.config.big_blind) == (3, 9)
        assert [e.rule for e in sim.log if e.kind == "clock"] == ["TRN-1", "TRN-1", "TRN-1"]

    with_clock(tmp_path, body)


def test_trn1_a_long_hand_does_not_delay_the_next_level(tmp_path: Path) -> None:
    """20-minute levels. Level 2 ends at 40:00 during a hand that ends at 43:00: level 3 applies from the next
    hand, and it began at 40:00, so it has 17:00 left (20 - 3) and ends at 60:00, not 63:00 (issue 14)."""
    def body(sim: SimTable, clock: TournamentClock, now: list[float], journal: Path) -> None:
        now[0] = 1200.0
        clock.poll()
        assert sim.submit({"type": "start"}).accepted
        for card in ["Kh", "Qh", "Ah", "Kd", "Qd", "Ad"]:
            assert sim.submit({"type": "card", "card": card}).accepted
        now[0] = 2580.0                                 # 43:00, the hand still on
        clock.poll()
        assert sim.submit({"type": "act", "seat": 1, "action": "fold"}).accepted
        assert sim.submit({"type": "act", "seat": 2, "action": "fold"}).accepted
        clock.poll()
        assert clock.text() == "level 3 3/9: 17:00 left"

    with_clock(tmp_path, body)
