"""Issue 19 item 10: one time source for the tournament clock. The daemon counts the level clock in whole
seconds by journaled ticks every 5 s; a pause used to stop it at the last tick, dropping the seconds since
(up to 5 s a pause, for good: the level ran longer than its minutes). Now a pause counts them first, so the
figure every page shows while paused is the time left at the pause, and a resume goes on from it."""

from __future__ import annotations

from pathlib import Path

from console_kit import start
from table.test_sessions import change, client, send

TOURNAMENT = {"rules": "tournament", "buy_in": 30, "starting_stack": 1000,
              "levels": [{"blinds": [50, 100], "minutes": 20}, {"blinds": [100, 200], "minutes": 20}]}


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_trn1_trn5_a_pause_stops_the_clock_where_it_is_and_a_resume_goes_on(tmp_path: Path) -> None:
    """The schedule set up at 100 s; the daemon's loop runs at 100 (the clock starts), 105 (a tick of 5)
    and 108; the host pauses at 108: 8 s counted, 20:00 - 8 s = 1192 s left. 27 s of pause (the issue's
    case): still 1192, and the resume at 135 counts from 135: at 140, 1187."""
    clock = Clock()
    _config, controller, api = start(tmp_path, clock=clock)
    host = client(api, "host")
    assert change(api, host, TOURNAMENT)["accepted"]
    assert controller.table.levels is not None
    for moment in (100.0, 105.0, 108.0):
        clock.now = moment
        controller.tick()
    assert controller.table.levels.remaining == 1195
    assert send(api, host, {"type": "pause"})["accepted"]
    assert controller.table.levels.remaining == 1192
    for moment in (113.0, 120.0, 135.0):
        clock.now = moment
        controller.tick()
    assert controller.table.levels.remaining == 1192
    assert send(api, host, {"type": "resume"})["accepted"]
    for moment in (135.0, 140.0):
        clock.now = moment
        controller.tick()
    assert controller.table.levels.remaining == 1187
