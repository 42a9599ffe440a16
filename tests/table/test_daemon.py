"""The daemon's wiring with fake devices: buttons -> panel -> journal -> engine -> views -> displays/LEDs.

Covers issue 5's daemon: inputs are journaled before the engine applies them, unknown tags become a DEAL-7
alert naming the UID and are not journaled, a failing display does not stop the table, a restart rebuilds
the same table from the journal, and READY=1 reaches systemd's notify socket.
"""

from __future__ import annotations

import asyncio
import os
import socket
import threading
from pathlib import Path
from typing import Any

import pytest
from daemon_kit import CONFIG, JOURNAL_TIME, Clock, FakeDecks, journal_lines, make, press, screen, untimed

from dealerpi.config import Config, load
from dealerpi.devices import FakeDevices
from dealerpi.engine import SeatStatus
from dealerpi.journal.file import Journal
from dealerpi.journal.folder import folder_for
from dealerpi.table.controller import Controller
from dealerpi.table.daemon import serve
from dealerpi.views.model import SeatView
from dealerpi.views.render import dealer_lines, render_dealer, render_seat


def seat_and_deal(config: Config, devices: FakeDevices, controller: Controller, clock: Clock) -> int:
    """Sit three players with BET on the empty seats, START, deal the hole cards; return the actor."""
    for panel in config.seats:
        press(devices, clock, panel.buttons["bet"])
    press(devices, clock, config.dealer.buttons["start"])
    uid = 0
    while controller.table.expectation().as_json().get("expect") == "card":
        controller.on_card(f"T{uid:02d}")
        uid += 1
    expectation = controller.table.expectation().as_json()
    assert expectation["expect"] == "action"
    return int(expectation["seat"])


def test_buttons_to_journal_to_engine_to_displays_and_leds(tmp_path: Path) -> None:
    config, devices, controller, clock = make(tmp_path)
    actor = seat_and_deal(config, devices, controller, clock)
    lines = journal_lines(config)
    assert len(lines[0].pop("journal")) == 16 and JOURNAL_TIME.fullmatch(lines[0].pop("at"))   # issue 20
    assert lines[0] == {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3], "by": "config"}
    assert lines[1:4] == [{"type": "sit", "seat": s, "player": f"Seat {s}", "stack": 300} for s in (1, 2, 3)]
    assert "at" in lines[4] and untimed(lines[4:5]) == [{"type": "start"}]      # journaled with its time
    assert [line["type"] for line in lines[5:]] == ["card"] * 6

    # the actor's LED is lit, nobody else's; the button LED is at the button's seat
    panels = {p.seat: p for p in config.seats}
    assert [devices.led_lit(panels[s].leds["action"]) for s in (1, 2, 3)] == [s == actor for s in (1, 2, 3)]
    button = controller.table.button()
    assert button is not None
    assert [devices.led_lit(panels[s].leds["dealer"]) for s in (1, 2, 3)] == [s == button for s in (1, 2, 3)]
    # every display shows exactly what its seat may see, worked by hand (not the daemon's own view re-rendered):
    # three-handed the button acts first, facing the big blind of 3 (call 3, raise 6 to 300); the blinds posted
    small_blind = button % 3 + 1
    big_blind = small_blind % 3 + 1
    common: dict[str, Any] = {"status": "in", "pot": 4, "blinds": (1, 3), "hand_number": 1}
    expected = {
        button: SeatView(seat=button, player=f"Seat {button}", stack=300, to_call=3, min_raise_to=6,
                         max_raise_to=300, your_action=True, is_button=True, **common),
        small_blind: SeatView(seat=small_blind, player=f"Seat {small_blind}", stack=299, bet=1, blind="SB", **common),
        big_blind: SeatView(seat=big_blind, player=f"Seat {big_blind}", stack=297, bet=3, blind="BB", **common),
    }
    assert actor == button
    for seat in (1, 2, 3):
        assert screen(devices, panels[seat].display) == render_seat(expected[seat]).tobytes(), seat
    assert controller.engine_views[actor].your_action

    # the actor raises: BET opens entry at the minimum, a tap steps to 1/2 POT, a hold confirms
    view = controller.engine_views[actor]
    press(devices, clock, panels[actor].buttons["bet"])
    shown = controller.panels[actor].overlay(view)
    assert shown.entry == view.min_raise_to
    assert screen(devices, panels[actor].display) == render_seat(shown).tobytes()
    press(devices, clock, panels[actor].buttons["bet"])
    half_pot = controller.panels[actor].amount
    devices.press(panels[actor].buttons["bet"])
    clock.now += 0.7
    controller.tick()                                   # the long press confirms
    devices.release(panels[actor].buttons["bet"])
    assert journal_lines(config)[-1] == {"type": "act", "seat": actor, "action": "raise", "to": half_pot}
    assert not controller.engine_views[actor].your_action
    assert controller.engine_views[actor].bet == half_pot


def test_unknown_tag_is_an_alert_naming_it_and_not_journaled(tmp_path: Path) -> None:
    config, devices, controller, clock = make(tmp_path)
    seat_and_deal(config, devices, controller, clock)
    before = config.journal.read_text()
    controller.on_card("04A1B2C3D4")
    assert config.journal.read_text() == before
    assert controller.alerts[-1].rule == "DEAL-7"
    assert "unknown tag 04A1B2C3D4" in controller.alerts[-1].message
    assert controller.dealer_view().alerts[0].rule == "DEAL-7"


def test_out_of_turn_press_is_refused_with_bet_12_on_the_seat(tmp_path: Path) -> None:
    config, devices, controller, clock = make(tmp_path)
    actor = seat_and_deal(config, devices, controller, clock)
    other = next(s for s in (1, 2, 3) if s != actor)
    press(devices, clock, next(p for p in config.seats if p.seat == other).buttons["call"])
    assert journal_lines(config)[-1]["seat"] == other           # journaled: it happened
    alert = controller.engine_views[other].alert
    assert alert is not None and alert.rule == "BET-12"
    assert any(a.rule == "BET-12" for a in controller.alerts)


def test_a_failing_display_does_not_stop_the_table(tmp_path: Path) -> None:
    config, devices, controller, clock = make(tmp_path)
    devices.broken.add(config.seats[1].display)
    actor = seat_and_deal(config, devices, controller, clock)
    assert controller.seat_slots[2].failed
    assert controller.engine_views[actor].your_action     # the table went on


def test_restart_rebuilds_the_same_table_from_the_journal(tmp_path: Path) -> None:
    config, devices, controller, clock = make(tmp_path)
    actor = seat_and_deal(config, devices, controller, clock)
    press(devices, clock, next(p for p in config.seats if p.seat == actor).buttons["call"])
    views = dict(controller.engine_views)
    count = len(journal_lines(config))
    controller.journal.close()
    controller.close()
    devices2 = FakeDevices(config)
    journal, entries = Journal.open(config.journal)
    again = Controller(config, devices2, journal, clock=clock, decks=FakeDecks())
    again.replay(entries)
    assert len(journal_lines(config)) == count                 # the table input was not journaled twice
    assert again.engine_views == views
    for panel in config.seats:
        assert screen(devices2, panel.display) == screen(devices, panel.display)


def test_serve_sends_ready_to_systemd_and_stops(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "table.toml"
    path.write_text(CONFIG)
    config = load(path)
    notify = tmp_path / "notify.sock"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(notify))
    sock.settimeout(10)
    monkeypatch.setenv("NOTIFY_SOCKET", str(notify))
    monkeypatch.setenv("WATCHDOG_USEC", "3000000")
    devices = FakeDevices(config)
    messages: list[str] = []

    def collect() -> None:
        while not any(m.startswith("STOPPING=1") for m in messages):
            messages.append(sock.recv(4096).decode())

    reader = threading.Thread(target=collect)
    reader.start()

    async def run() -> int:
        stop = asyncio.Event()

        def ready() -> None:
            asyncio.get_running_loop().call_later(0.3, stop.set)

        return await serve(config, devices, shoe_url="loop://", stop=stop, ready=ready)

    assert asyncio.run(run()) == 0
    reader.join(10)
    sock.close()
    devices.close()
    assert messages[0] == "READY=1"
    assert messages[1] == "STATUS=start"
    assert "WATCHDOG=1" in messages
    assert messages[-1] == "STOPPING=1"
    assert os.path.exists(folder_for(config.journal) / "000001.jsonl")    # the journal folder's first segment


def test_player_clock_time_reaches_the_engine_as_journaled_ticks_trn2(tmp_path: Path) -> None:
    """TRN-2 (home preset: 2 minutes): the engine has no clock; the daemon hands it elapsed seconds as journaled
    ``tick`` inputs while a clock runs. Facing the big blind, the seat's hand is folded when time is up."""
    config, devices, controller, clock = make(tmp_path)
    actor = seat_and_deal(config, devices, controller, clock)
    controller.submit({"type": "clock"})
    controller.tick()                              # the main loop runs right after an input: timing starts
    for _ in range(119):
        clock.now += 1.0
        controller.tick()
    assert controller.table.expectation().as_json()["seat"] == actor       # 119 s: still his turn
    clock.now += 1.0
    controller.tick()
    ticks = [e for e in journal_lines(config) if e["type"] == "tick"]
    assert sum(t["seconds"] for t in ticks) == 120 and all(t["seconds"] == 1 for t in ticks)
    assert controller.table.seat(actor).status is SeatStatus.FOLDED


def test_a_shot_clock_decision_is_timed_from_the_action_that_made_it_trn2(tmp_path: Path) -> None:
    """TRN-2 shot clock (20 s, the home preset's countdown 0): every decision gets its full time, counted from the
    input that made it (TDA 29: ties go to the player). The first actor calls 10.5 s into his clock, half a second
    after a journaled tick; the next seat must still be to act 19.75 s after that call (the old daemon kept
    counting from the last tick and took his 20th second 0.5 s early), and his time is up at 20 s."""
    text = CONFIG.replace('blinds = [1, 3]\n', 'blinds = [1, 3]\n\n[table.policies]\nshot_clock = 20\n')
    config, devices, controller, clock = make(tmp_path, config_text=text)
    actor = seat_and_deal(config, devices, controller, clock)
    controller.tick()                              # the main loop runs right after an input: timing starts
    for _ in range(21):
        clock.now += 0.5
        controller.tick()
    controller.submit({"type": "act", "seat": actor, "action": "call"})
    controller.tick()
    nxt = controller.table.expectation().as_json()["seat"]
    for _ in range(79):
        clock.now += 0.25
        controller.tick()
    assert controller.table.expectation().as_json()["seat"] == nxt           # 19.75 s: still his decision
    clock.now += 0.25
    controller.tick()
    assert controller.table.expectation().as_json().get("seat") != nxt


def test_no_ticks_are_journaled_while_no_clock_runs(tmp_path: Path) -> None:
    """A cash table with no clock called journals no time at all."""
    config, devices, controller, clock = make(tmp_path)
    seat_and_deal(config, devices, controller, clock)
    clock.now += 600
    controller.tick()
    assert not [e for e in journal_lines(config) if e["type"] == "tick"]


def test_old_alerts_are_cleared_by_the_next_hand_and_a_procedure_comes_first(tmp_path: Path) -> None:
    """Issue 14: alerts piled up across hands and hid the live one. An unknown tag (DEAL-7: a procedure) then an
    out-of-turn press (BET-12, newer): the dealer reads DEAL-7 first. The hand is folded out; the push alert
    (POT) is the newest; START clears them all: the new hand's screen has none of the old hand's alerts."""
    config, devices, controller, clock = make(tmp_path)
    actor = seat_and_deal(config, devices, controller, clock)
    controller.on_card("04A1B2C3D4")
    other = next(s for s in (1, 2, 3) if s != actor)
    press(devices, clock, next(p for p in config.seats if p.seat == other).buttons["call"])
    assert [a.rule for a in controller.dealer_view().alerts][:2] == ["DEAL-7", "BET-12"]
    while controller.table.expectation().waiting.value == "action":
        seat = controller.table.expectation().seat
        controller.submit({"type": "act", "seat": seat, "action": "fold"})
    assert controller.dealer_view().alerts[1].rule == "POT"              # after the procedure, the newest
    press(devices, clock, config.dealer.buttons["start"])
    assert controller.table.hand_number == 2
    assert not {"DEAL-7", "BET-12", "POT"} & {a.rule for a in controller.dealer_view().alerts}


def test_a_pending_undo_is_shown_with_its_seconds_and_its_lapse_is_said(tmp_path: Path) -> None:
    """Issue 14: UNDO on the console shows what CONFIRM will do and the seconds left on the dealer display; 5 s
    later without CONFIRM the display says "undo not confirmed: nothing changed" and the input stays."""
    config, devices, controller, clock = make(tmp_path)
    seat_and_deal(config, devices, controller, clock)
    count = len(journal_lines(config))
    press(devices, clock, config.dealer.buttons["undo"])
    view = controller.dealer_view()
    assert view.expect == "UNDO? 5s left"
    assert dealer_lines(view)[:3] == ("CONFIRM: take back", "  the last card read", "any other button:")
    assert screen(devices, config.dealer.display) == render_dealer(view).tobytes()
    clock.now += 2.0
    controller.tick()
    assert controller.dealer_view().expect == "UNDO? 3s left"
    assert screen(devices, config.dealer.display) == render_dealer(controller.dealer_view()).tobytes()
    clock.now += 3.0
    controller.tick()
    view = controller.dealer_view()
    assert view.expect == "undo not confirmed: nothing changed" and view.confirm == ()
    assert screen(devices, config.dealer.display) == render_dealer(view).tobytes()
    assert len(journal_lines(config)) == count and controller.table.accepted_count == count


def test_exposed_on_the_console_names_a_card_typed_by_hand_exp1(tmp_path: Path) -> None:
    """EXP-1 with a manual card (issue 14: a card the shoe could not read is typed on the console, journaled as
    a ``card`` with ``source: manual``): EXPOSED then CONFIRM on the dealer's buttons declares that card exposed,
    as it does a card the shoe read. Before, only a shoe read counted: "EXPOSED: no card read yet"."""
    config, devices, controller, clock = make(tmp_path)
    for panel in config.seats:
        press(devices, clock, panel.buttons["bet"])
    press(devices, clock, config.dealer.buttons["start"])
    controller.on_card("T00")
    controller.on_card("T01")
    controller.submit({"type": "card", "card": "Qh", "source": "manual"})       # the third card, typed
    controller.refresh()                                                         # as the local API does
    press(devices, clock, config.dealer.buttons["exposed"])
    press(devices, clock, config.dealer.buttons["confirm"])
    lines = journal_lines(config)
    assert lines[-2] == {"type": "card", "card": "Qh", "source": "manual"}
    assert lines[-1] == {"type": "exposed", "card": "Qh"}
    assert "EXP-1" in {alert.rule for alert in controller.dealer_view().alerts}


def test_a_pending_undo_is_cancelled_when_another_input_comes_first(tmp_path: Path) -> None:
    """Issue 14: UNDO says which input CONFIRM takes back ("take back the last card read"). If the player to act
    calls before CONFIRM, CONFIRM would take back the call instead: the UNDO is cancelled and the dealer is told
    "undo cancelled: another input came first"; CONFIRM then undoes nothing and the call stands."""
    config, devices, controller, clock = make(tmp_path)
    actor = seat_and_deal(config, devices, controller, clock)
    press(devices, clock, config.dealer.buttons["undo"])
    assert controller.dealer_view().expect == "UNDO? 5s left"
    panels = {p.seat: p for p in config.seats}
    press(devices, clock, panels[actor].buttons["call"])
    assert journal_lines(config)[-1]["type"] == "act"
    assert controller.dealer_view().expect == "undo cancelled: another input came first"
    count = len(journal_lines(config))
    press(devices, clock, config.dealer.buttons["confirm"])
    assert len(journal_lines(config)) == count and journal_lines(config)[-1]["type"] == "act"
