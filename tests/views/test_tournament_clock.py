"""The tournament's level clock never drifts (issue 14, TRN-1): level k starts at the clock's start + the durations
of the steps before it, whatever the hands do, and across a restart of the daemon (level_time.py). Time is
injected: the daemon's monotonic clock and the wall clock are plain numbers here; nothing sleeps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from console_kit import start
from daemon_kit import CONFIG

from dealerpi.config import Config
from dealerpi.views.roles import public_view

# three 10-minute levels (TRN-1); the tournament preset (dead button, TDA clock, no top-ups)
TOURNAMENT = CONFIG.replace('rules = "home"\nseats = 3\nblinds = [1, 3]', '''rules = "tournament"
seats = 3
buy_in = 30
payouts = [70, 30]
levels = [{blinds = [50, 100], minutes = 10}, {blinds = [100, 200], minutes = 10},
          {blinds = [150, 300], ante = 25, minutes = 10}]''')
W0 = 1_795_000_000.0          # the wall clock when the tournament's clock starts (2026-11-18, any time would do)


class Clocks:
    """The daemon's monotonic clock and the wall clock, moved on together (or apart, for a restart)."""

    def __init__(self) -> None:
        self.mono, self.wall = 100.0, W0

    def forward(self, seconds: float) -> None:
        self.mono += seconds
        self.wall += seconds


def boot(tmp_path: Path, clocks: Clocks) -> tuple[Config, Any]:
    config, controller, _api = start(tmp_path, TOURNAMENT, clock=lambda: clocks.mono, wall=lambda: clocks.wall)
    return config, controller


def ticks(config: Config) -> list[dict[str, Any]]:
    folder = config.journal.with_suffix("")
    lines = [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines()]
    return [line for line in lines if line["type"] == "tick"]


def seated(tmp_path: Path, clocks: Clocks) -> tuple[Config, Any]:
    config, controller = boot(tmp_path, clocks)
    for seat, name in ((1, "Ann"), (2, "Bob"), (3, "Cy")):
        assert controller.submit({"type": "sit", "seat": seat, "player": name, "stack": 3000}).accepted
    assert controller.submit({"type": "button", "seat": 1}).accepted
    controller.tick()                               # the main loop's first pass: the level clock counts from now
    return config, controller


def test_trn1_a_hand_that_runs_past_a_level_does_not_delay_the_next_level(tmp_path: Path) -> None:
    """10-minute levels; a hand starts at 9:00 and ends at 13:00, 3 minutes into level 2. Level 2's blinds
    (100/200) apply from the next hand (TRN-1), and level 3 still starts at 20:00 = 10 + 10 minutes after the
    start, not 10 minutes after the hand's end (23:00, the old simulator's clock)."""
    clocks = Clocks()
    config, controller = seated(tmp_path, clocks)
    clocks.forward(540)
    controller.tick()
    assert controller.submit({"type": "start"}).accepted                    # 9:00, level 1
    assert controller.table.play.stakes == (50, 100, 0, 0)
    for uid in range(6):
        controller.on_card(f"T{uid:02d}")
    clocks.forward(240)                                                      # 13:00, the hand goes on
    controller.tick()
    levels = controller.table.levels
    assert (levels.index, levels.elapsed) == (1, 180)                       # level 2, 3:00 into it
    assert controller.table.play.stakes == (50, 100, 0, 0)                  # this hand keeps level 1's
    assert public_view(controller.table)["blinds"] == [50, 100]             # and the board says so
    assert public_view(controller.table)["tournament"]["level"] == 2
    for seat in (1, 2):                                                     # button 1: seats 1 and 2 fold
        assert controller.submit({"type": "act", "seat": seat, "action": "fold"}).accepted
    assert public_view(controller.table)["blinds"] == [100, 200]            # the next hand's
    assert controller.submit({"type": "start"}).accepted
    assert controller.table.play.stakes == (100, 200, 0, 0)                 # the next hand: level 2
    clocks.forward(415)                                                      # 19:55 (ticks come every 5 s)
    controller.tick()
    assert (controller.table.levels.index, controller.table.levels.remaining) == (1, 5)
    clocks.forward(5)                                                        # 20:00 = 600 + 600 s
    controller.tick()
    assert (controller.table.levels.index, controller.table.levels.elapsed) == (2, 0)
    assert sum(t["seconds"] for t in ticks(config)) == 1200
    assert ticks(config)[-1]["at"] == "2026-11-18T11:26:40Z"                 # W0 + 1200 s, in UTC


def test_trn1_the_time_the_daemon_was_down_comes_off_the_level(tmp_path: Path) -> None:
    """Ticks to 5:00, the daemon stops; it starts again at 8:00 by the wall clock: one tick of 180 s is journaled
    at start-up, so 2:00 are left in level 1 (600 - 300 - 180 = 120), and level 2 starts at 10:00 as scheduled."""
    clocks = Clocks()
    config, controller = seated(tmp_path, clocks)
    clocks.forward(300)
    controller.tick()
    controller.journal.close()
    clocks.wall += 180                           # down for 3 minutes; a new boot's monotonic clock starts anew
    clocks.mono = 5.0
    config, controller = boot(tmp_path, clocks)
    assert [t["seconds"] for t in ticks(config)] == [300, 180]
    assert (controller.table.levels.index, controller.table.levels.remaining) == (0, 120)
    controller.tick()
    clocks.forward(120)
    controller.tick()
    assert (controller.table.levels.index, controller.table.levels.elapsed) == (1, 0)


def test_trn1_a_restart_after_a_checkpoint_still_finds_the_time_counted(tmp_path: Path) -> None:
    """A hand's start writes a checkpoint; start-up then replays only that hand's inputs. The wall time counted
    is in the checkpoint (and in the ticks after it): 4:00 down is 240 s more."""
    clocks = Clocks()
    config, controller = seated(tmp_path, clocks)
    clocks.forward(60)
    controller.tick()
    assert controller.submit({"type": "start"}).accepted                     # checkpoint: no tick after it
    controller.journal.close()
    clocks.wall += 240
    config, controller = boot(tmp_path, clocks)
    assert [t["seconds"] for t in ticks(config)] == [60, 240]
    assert controller.table.levels.elapsed == 300


def test_trn1_a_wall_clock_behind_the_journal_adds_nothing_and_says_so(tmp_path: Path) -> None:
    """A Pi without a real-time clock may boot with the time of its last shutdown: a wall clock behind the last
    tick adds no time (never a negative tick) and the dealer is told to check the clock."""
    clocks = Clocks()
    config, controller = seated(tmp_path, clocks)
    clocks.forward(300)
    controller.tick()
    controller.journal.close()
    clocks.wall = W0 + 100
    config, controller = boot(tmp_path, clocks)
    assert [t["seconds"] for t in ticks(config)] == [300]
    assert [(a.rule, a.message) for a in controller.alerts][-1] == (
        "TRN-1", "System clock behind the journal: level time lost while down. Check the time (NTP) and the "
                 "tournament clock")


def test_trn5_a_paused_clock_owes_nothing_for_the_time_down(tmp_path: Path) -> None:
    """The table was paused (TRN-5, the engine's pause input) when the daemon stopped: the level clock stood
    still, so the time down does not come off it either."""
    clocks = Clocks()
    config, controller = seated(tmp_path, clocks)
    clocks.forward(300)
    controller.tick()
    assert controller.submit({"type": "pause", "reason": "break"}).accepted
    controller.journal.close()
    clocks.wall += 900
    config, controller = boot(tmp_path, clocks)
    assert [t["seconds"] for t in ticks(config)] == [300]
    assert controller.table.levels.elapsed == 300 and controller.table.levels.paused
