"""The controller's one publish (issue 22, applied.py): every input reaches each observer once, in the
journal's order, live when it was given and again (not live) when start-up replays it; what happened is
the engine's event (HandStarted), not the input's type; a replay tells the dealer nothing again."""

from __future__ import annotations

from pathlib import Path

from daemon_kit import make, press

from dealerpi.devices import FakeDevices
from dealerpi.journal.file import Journal
from dealerpi.table.applied import Applied
from dealerpi.table.controller import Controller


class Recorder:
    """An observer that keeps (type, live, accepted, a hand started) of each input it is shown."""

    def __init__(self) -> None:
        self.seen: list[tuple[object, bool, bool, bool]] = []

    def applied(self, step: Applied) -> None:
        self.seen.append((step.entry.get("type"), step.live, step.outcome.accepted, step.started))


def test_issue22_each_input_is_published_once_live_then_replayed_with_the_engines_events(tmp_path: Path) -> None:
    config, devices, controller, clock = make(tmp_path)
    recorder = Recorder()
    controller.observers.append(recorder)
    for panel in config.seats:
        press(devices, clock, panel.buttons["bet"])           # BET on an empty seat sits a player
    press(devices, clock, config.dealer.buttons["start"])
    refused = controller.submit({"type": "start"})            # a hand is in play: refused, no hand dealt
    assert not refused.accepted
    live = [("sit", True, True, False)] * 3 + [("start", True, True, True), ("start", True, False, False)]
    assert recorder.seen == live
    # the dealer was told of the refusal once, live (the positive control of the replay's silence below)
    assert [a.message for a in controller.alerts if a.rule == "REFUSED"] == [refused.reason]
    controller.close()
    controller.journal.close()

    journal, entries = Journal.open(config.journal)
    restarted = Controller(config, FakeDevices(config), journal, clock=clock)
    replayed = Recorder()
    restarted.observers.append(replayed)
    restarted.replay(entries)
    # the config's table line, then the same five inputs, none of them live; nothing journaled again
    assert replayed.seen == [("table", False, True, False)] + [(kind, False, accepted, started)
                                                               for kind, _live, accepted, started in live]
    assert len(entries) == 6 and journal.count == 6
    assert [a for a in restarted.alerts if a.rule == "REFUSED"] == []
    restarted.close()
    journal.close()
