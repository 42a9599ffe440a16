"""The daemon's producers build the engine's input records and the pipeline writes them with ``to_json``
(issue 22); the journal stays byte-identical for the same presses. A scripted session through the real
paths (gpiozero's fake pins, the debouncer, the seat panels, the dealer's buttons, the shoe's reads, the level
clock's timer) journals exactly the lines below, written by hand from docs/journal.md: ``"type"`` first,
the record's keys in order, defaults left out, then the daemon's own keys (a start's and a tick's ``at``, the
shoe's read). The same test passes on the code before the records (the dict producers)."""

from __future__ import annotations

import re
from pathlib import Path

from daemon_kit import CONFIG, Clock, FakeDecks, press

from dealerpi.config import load
from dealerpi.devices import FakeDevices
from dealerpi.journal.file import Journal
from dealerpi.shoe.session import CardRead
from dealerpi.table.controller import Controller

WALL = 1796083200.0        # 2026-12-01T00:00:00Z: a tick's "at"
BOOT = "0BADCAFE"
LEVELS = 'blinds = [1, 3]\nlevels = [{ blinds = [1, 3], minutes = 20 }, { blinds = [2, 4], minutes = 20 }]'
NOW = re.compile(r'"at":"(?!2026-12-01T00:00:00Z)\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"')   # utc_now: a start's
JOURNAL_ID = re.compile(r'"journal":"[0-9a-f]{16}"')              # a new journal's id (issue 20)


def test_issue22_a_scripted_session_journals_the_same_lines(tmp_path: Path) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG.replace("blinds = [1, 3]", LEVELS))
    config = load(path)
    devices = FakeDevices(config)
    journal, entries = Journal.open(config.journal)
    clock = Clock()
    controller = Controller(config, devices, journal, clock=clock, decks=FakeDecks(), wall=lambda: WALL)
    controller.replay(entries)
    seat = {p.seat: p.buttons for p in config.seats}
    dealer = config.dealer.buttons

    for s in (1, 2, 3):
        press(devices, clock, seat[s]["bet"])                 # BET on an empty seat sits a player
    press(devices, clock, dealer["start"])
    controller.tick()                                         # the level clock runs: counted from here
    for k in range(6):                                        # the hole cards, from the shoe's link
        assert controller.on_read(CardRead(f"T{k:02d}", BOOT, k + 1))
    clock.now += 5.5
    controller.tick()                                         # 5 whole seconds off the level
    button = controller.table.button()
    assert button is not None, "no hand was started"
    small, big = button % 3 + 1, (button + 1) % 3 + 1         # three-handed the button acts first
    press(devices, clock, seat[button]["bet"])                # opens entry at the minimum raise, 6
    devices.press(seat[button]["bet"])
    clock.now += 0.7
    controller.tick()                                         # the long press confirms
    devices.release(seat[button]["bet"])
    press(devices, clock, seat[small]["call"])
    press(devices, clock, seat[big]["fold"])
    assert controller.on_read(CardRead("T06", BOOT, 7))       # Jd
    for button_name in ("exposed", "undo", "misdeal"):        # each asks, CONFIRM gives it
        press(devices, clock, dealer[button_name])
        press(devices, clock, dealer["confirm"])
    assert controller.on_read(CardRead("04A1B2C3", BOOT, 8))  # a tag in no deck (DEAL-7)
    controller.close()
    journal.close()

    shoe = '"shoe":{{"boot":"0BADCAFE","seq":{}}}'.format
    expected = [
        '{"type":"table","game":"nlhe","rules":"home","seats":3,"blinds":[1,3],'
        '"levels":[{"blinds":[1,3],"minutes":20},{"blinds":[2,4],"minutes":20}],"by":"config","journal":ID,"at":NOW}',
        '{"type":"sit","seat":1,"player":"Seat 1","stack":300}',
        '{"type":"sit","seat":2,"player":"Seat 2","stack":300}',
        '{"type":"sit","seat":3,"player":"Seat 3","stack":300}',
        '{"type":"start","at":NOW}',
        *(f'{{"type":"card","card":"{card}",{shoe(k + 1)}}}'
          for k, card in enumerate(["Ah", "Kd", "7c", "2s", "9h", "Qc"])),
        '{"type":"tick","seconds":5,"at":"2026-12-01T00:00:00Z"}',
        f'{{"type":"act","seat":{button},"action":"raise","to":6}}',
        f'{{"type":"act","seat":{small},"action":"call"}}',
        f'{{"type":"act","seat":{big},"action":"fold"}}',
        f'{{"type":"card","card":"Jd",{shoe(7)}}}',
        '{"type":"exposed","card":"Jd"}',
        '{"type":"undo"}',
        '{"type":"misdeal"}',
        f'{{"type":"card","card":null,"tag":"04A1B2C3",{shoe(8)}}}',
    ]
    written = config.journal.read_text(encoding="utf-8").splitlines()
    assert [JOURNAL_ID.sub('"journal":ID', NOW.sub('"at":NOW', line)) for line in written] == expected
