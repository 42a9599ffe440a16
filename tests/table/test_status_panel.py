"""The host's status panel (issue 14): the shoe (online, reader fault, reads lost, restarts), the journal
(inputs, a write fault, space left), each display, and each button bank with its presses; the host's only."""

from __future__ import annotations

import collections
from pathlib import Path

from daemon_kit import make, press

from dealerpi.config import load
from dealerpi.shoe.link import ShoeOffline, ShoeOnline
from dealerpi.shoe.session import ReaderFault, ReadsLost, ShoeRestarted
from dealerpi.table.api.server import ApiServer
from dealerpi.table.api.status_panel import banks

ROOT = Path(__file__).resolve().parents[2]


def test_each_display_and_a_journal_fault_the_host_only(tmp_path: Path) -> None:
    _config, _devices, controller, _clock = make(tmp_path)
    api = ApiServer(controller, tmp_path / "api.sock")
    status = api.view("host")["status"]
    assert status["displays"] == [{"name": name, "ok": True, "failures": 0} for name in (
        "dealer (i2c-3@0x3d)", "seat 1 (i2c-1@0x3c)", "seat 2 (i2c-1@0x3d)", "seat 3 (i2c-3@0x3c)")]
    assert status["journal"]["fault"] is None and status["journal"]["inputs"] == 1     # the config's table
    assert isinstance(status["journal"]["free_mb"], int) and status["journal"]["free_mb"] > 0
    controller.seat_slots[2].failed, controller.seat_slots[2].failures = True, 3
    controller.durable.fault = "[Errno 28] No space left on device"
    status = api.view("host")["status"]
    assert status["displays"][2] == {"name": "seat 2 (i2c-1@0x3d)", "ok": False, "failures": 3}
    assert status["journal"]["fault"] == "[Errno 28] No space left on device"
    assert "status" not in api.view("dealer") and "status" not in api.view("board")


def test_the_shoe_reader_fault_reads_lost_and_restarts_stay_on_the_panel(tmp_path: Path) -> None:
    """Reads 5..7 lost (3, DEAL-4), then 10..10 (1): 4 lost; a reader fault stands until the shoe says it
    works again; offline keeps the link's reason until the shoe is back."""
    _config, _devices, controller, _clock = make(tmp_path)
    api = ApiServer(controller, tmp_path / "api.sock")
    assert api.view("host")["status"]["shoe"] == {"online": False, "offline_reason": None, "reader_fault": False,
                                                  "reads_lost": 0, "restarts": 0}
    for event in (ShoeOnline("loop://"), ReadsLost("0BADCAFE", 5, 7), ReaderFault(True),
                  ShoeRestarted("0BADCAFE", "0C0FFEE0"), ReadsLost("0C0FFEE0", 10, 10)):
        controller.on_shoe_event(event)
    assert api.view("host")["status"]["shoe"] == {"online": True, "offline_reason": None, "reader_fault": True,
                                                  "reads_lost": 4, "restarts": 1}
    controller.on_shoe_event(ReaderFault(False))
    controller.on_shoe_event(ShoeOffline("loop://", "the port vanished"))
    shoe = api.view("host")["status"]["shoe"]
    assert (shoe["online"], shoe["offline_reason"], shoe["reader_fault"]) == (False, "the port vanished", False)
    assert api.view("host")["shoe"] is False                     # the dealer's and host's one-word state too


def test_each_button_bank_counts_its_presses_and_says_where_it_is(tmp_path: Path) -> None:
    """Seat 2's FOLD twice and the dealer's START once: seat 2 counts 2, the dealer console 1, the rest 0."""
    config, devices, controller, clock = make(tmp_path)
    api = ApiServer(controller, tmp_path / "api.sock")
    for pin in (config.seats[1].buttons["fold"], config.seats[1].buttons["fold"], config.dealer.buttons["start"]):
        press(devices, clock, pin)
        controller.tick()
    assert [(b["name"], b["presses"]) for b in api.view("host")["status"]["banks"]] == [
        ("dealer console", 1), ("seat 1", 0), ("seat 2", 2), ("seat 3", 0)]
    assert api.view("host")["status"]["banks"][2]["where"] == "fake lines (fold GPIO9, call GPIO10, bet GPIO11)"
    assert banks(config, collections.Counter(), fake=False)[2]["where"] == \
        "the Pi's header: fold GPIO9, call GPIO10, bet GPIO11"             # the same table on a Pi


def test_a_bank_on_an_expander_names_its_chip_bus_and_address() -> None:
    """hardware/example.toml: seat 1's buttons are x0:0-2 (expander x0, bus 1, 0x20), the dealer's x3:3-5,
    x3:8-9 (expander x3, 0x23)."""
    config = load(ROOT / "hardware" / "example.toml")
    listed = {b["name"]: b["where"] for b in banks(config, collections.Counter(), fake=False)}
    assert listed["seat 1"] == "expander x0 (I2C bus 1, 0x20): fold x0:0, call x0:1, bet x0:2"
    assert listed["dealer console"] == ("expander x3 (I2C bus 1, 0x23): start x3:3, exposed x3:4, misdeal x3:5, "
                                        "undo x3:8, confirm x3:9")
