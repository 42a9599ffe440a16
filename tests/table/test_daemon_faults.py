"""The daemon when the journal fails (issue 12, item 2) and when the shoe is in trouble (item 5).

The journal sits on a fault-injecting file layer (tests/fault_kit.py). A failed append must leave the input
unapplied and unjournaled, keep the daemon up, show "journal failing: inputs paused" with the error on the
dealer's and every seat's display, refuse inputs with that reason until a probe on a timer succeeds, and
never let an exception out of a callback or ``tick()``.
"""

from __future__ import annotations

import errno
from pathlib import Path

import pytest
from daemon_kit import journal_lines, make, press, untimed
from fault_kit import FaultyOps

from dealerpi.journal.file import read
from dealerpi.shoe.alerts import shoe_alert
from dealerpi.shoe.link import ShoeOffline, ShoeOnline
from dealerpi.shoe.session import CardRead, ReaderFault, ReadsLost, ShoeRestarted
from dealerpi.table.durable import JOURNAL_PAUSED, PROBE_EVERY


def seated(tmp_path: Path, ops: FaultyOps) -> tuple:  # type: ignore[type-arg]
    config, devices, controller, clock = make(tmp_path, ops)
    for panel in config.seats:
        press(devices, clock, panel.buttons["bet"])        # BET on an empty seat sits a player
    return config, devices, controller, clock


@pytest.mark.parametrize(("call", "code", "words"), [
    ("write", errno.ENOSPC, "No space left on device (ENOSPC)"),
    ("fdatasync", errno.EIO, "Input/output error (EIO)"),
    ("write", errno.EROFS, "Read-only file system (EROFS)"),
])
def test_a_failing_journal_pauses_inputs_on_every_display_until_a_probe_succeeds(
        tmp_path: Path, call: str, code: int, words: str) -> None:
    ops = FaultyOps()
    config, devices, controller, clock = seated(tmp_path, ops)
    before = config.journal.read_bytes()
    ops.fail(call, code)
    press(devices, clock, config.dealer.buttons["start"])
    # nothing journaled, nothing applied: the hand did not start
    assert config.journal.read_bytes() == before
    assert controller.table.play is None
    message = f"{JOURNAL_PAUSED}: {words}. Free space or replace the SD card"
    assert controller.dealer_view().alerts[0].message == message
    for seat in (1, 2, 3):
        alert = controller.engine_views[seat].alert
        assert alert is not None and alert.rule == "JOURNAL" and alert.message == message
    # while paused every input is refused with that reason, without touching the journal
    writes = ops.calls.get("write", 0)
    outcome = controller.submit({"type": "start"})
    assert not outcome.accepted and outcome.reason == f"{JOURNAL_PAUSED} ({words})"
    assert ops.calls.get("write", 0) == writes
    # the probe runs on a timer; while the fault lasts, inputs stay paused
    clock.now += PROBE_EVERY
    controller.tick()
    assert controller.journal_fault == words
    ops.heal()
    clock.now += PROBE_EVERY - 0.1
    controller.tick()
    assert controller.journal_fault == words          # not yet time for the next probe
    clock.now += 0.1
    controller.tick()
    assert controller.journal_fault is None
    assert controller.dealer_view().alerts[-1].message.startswith("journal writable again")
    assert all(controller.engine_views[s].alert is None for s in (1, 2, 3))
    press(devices, clock, config.dealer.buttons["start"])
    assert controller.table.play is not None
    assert "at" in journal_lines(config)[-1] and untimed(journal_lines(config)[-1:]) == [{"type": "start"}]
    assert read(config.journal)[0] == journal_lines(config)   # nothing phantom, nothing torn


def test_a_card_that_cannot_be_journaled_is_not_taken_so_the_shoe_resends_it(tmp_path: Path) -> None:
    ops = FaultyOps()
    config, devices, controller, clock = seated(tmp_path, ops)
    press(devices, clock, config.dealer.buttons["start"])
    ops.fail("fdatasync", errno.EIO)
    assert controller.on_read(CardRead("T00", "0BADCAFE", 1)) is False   # no ACK
    assert controller.table.awaiting_first_card                           # the card was not taken
    assert controller.on_read(CardRead("T00", "0BADCAFE", 1)) is False   # the resend, still paused
    ops.heal()
    clock.now += PROBE_EVERY
    controller.tick()
    assert controller.on_read(CardRead("T00", "0BADCAFE", 1)) is True
    assert journal_lines(config)[-1] == {"type": "card", "card": "Ah", "shoe": {"boot": "0BADCAFE", "seq": 1}}


def test_a_read_already_in_the_journal_is_acked_and_never_applied_twice(tmp_path: Path) -> None:
    """A crash between the journal's fsync and the ACK: the shoe resends read 1 after the restart."""
    config, devices, controller, clock = seated(tmp_path, FaultyOps())
    press(devices, clock, config.dealer.buttons["start"])
    assert controller.on_read(CardRead("T00", "0BADCAFE", 1))
    restarted = make(tmp_path)[2]                               # a restart over the same journal
    assert restarted.shoe_position == ("0BADCAFE", 1)
    lines = journal_lines(config)
    assert restarted.on_read(CardRead("T00", "0BADCAFE", 1)) is True
    assert journal_lines(config) == lines
    assert restarted.on_read(CardRead("T01", "0BADCAFE", 2)) is True
    assert journal_lines(config)[-1]["shoe"] == {"boot": "0BADCAFE", "seq": 2}
    assert restarted.on_read(CardRead("T02", "0C0FFEE0", 1)) is True   # a new boot numbers from 1 again
    assert journal_lines(config)[-1] == {"type": "card", "card": "7c", "shoe": {"boot": "0C0FFEE0", "seq": 1}}


def test_a_timed_input_during_a_fault_does_not_raise_out_of_tick(tmp_path: Path) -> None:
    """Holding BET confirms an amount from tick(): with the journal failing it is refused, tick returns."""
    ops = FaultyOps()
    config, devices, controller, clock = seated(tmp_path, ops)
    press(devices, clock, config.dealer.buttons["start"])
    for uid in range(6):
        controller.on_read(CardRead(f"T{uid:02d}", "0BADCAFE", uid + 1))
    actor = controller.table.expectation().seat
    bet = next(p for p in config.seats if p.seat == actor).buttons["bet"]
    press(devices, clock, bet)                                # BET opens the entry
    lines = journal_lines(config)
    ops.fail("write", errno.ENOSPC)
    devices.press(bet)
    clock.now += 0.7
    controller.tick()                                         # the long press confirms: refused, no exception
    devices.release(bet)
    assert journal_lines(config) == lines
    assert controller.table.expectation().seat == actor
    assert controller.journal_fault == "No space left on device (ENOSPC)"


def test_a_bug_in_a_callback_is_an_alert_not_a_stopped_daemon(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    config, devices, controller, clock = seated(tmp_path, FaultyOps())

    def broken(entry: object) -> None:
        raise KeyError("bug")

    monkeypatch.setattr(controller.table, "apply", broken)
    press(devices, clock, config.dealer.buttons["start"])     # on_edge -> submit -> apply raises
    controller.tick()
    assert controller.on_read(CardRead("T00", "0BADCAFE", 1)) is False
    assert [a.rule for a in controller.alerts][-2:] == ["ERROR", "ERROR"]
    assert controller.alerts[-1].message == "internal error (KeyError): see the log; restart the table if it repeats"


def test_shoe_trouble_reaches_the_dealer_with_one_instruction_each(tmp_path: Path) -> None:
    """Issue 12 item 5: reads lost (naming the digest's procedure: DEAL-4 order, MIS-1 / MIS-4), shoe
    restarted, reader fault and its end, offline and back online. Before the shoe was ever online, offline
    is no news (the dealer display's header says "shoe offline") and neither is the first online."""
    controller = seated(tmp_path, FaultyOps())[2]
    events = [ShoeOffline("/dev/shoe", "no such file"), ShoeOnline("/dev/shoe"), ReadsLost("0BADCAFE", 4, 5),
              ShoeRestarted("0BADCAFE", "0C0FFEE0"),
              ReaderFault(True), ReaderFault(False), ShoeOffline("/dev/shoe", "device disconnected"),
              ShoeOnline("/dev/shoe")]
    for event in events:
        controller.on_shoe_event(event)
    # the dealer reads the newest first (issue 14); here in the order they came
    assert [(a.rule, a.message) for a in reversed(controller.dealer_view().alerts)] == [
        ("DEAL-4", "the shoe lost 2 card reads: count each hand's cards against the deal order; wrong before "
                   "action is a misdeal (MIS-1), after action that hand is dead (MIS-4)"),
        ("SHOE", "the shoe restarted (power or reset): check that the last card dealt shows here"),
        ("SHOE", "the shoe's card reader does not answer: stop dealing, check the reader cable"),
        ("SHOE", "the shoe's card reader works again: deal on"),
        ("SHOE", "shoe offline (device disconnected): stop dealing, check the shoe's USB cable"),
        ("SHOE", "shoe back online: deal on"),
    ]
    assert controller.shoe_health.online
    assert shoe_alert(ReadsLost("B", 3, 3), news=False).message.startswith(  # type: ignore[union-attr]
        "the shoe lost 1 card read:")


def test_an_unknown_tags_read_is_journaled_for_its_position_and_refused_by_the_engine(tmp_path: Path) -> None:
    """DEAL-7: an unknown tag is an alert, never a card. Its read is still journaled (card null, the tag,
    the read's identity), so after a restart the link resumes past it; otherwise the shoe's window would
    start after a read the journal never saw, and the dealer would be told of a lost read that was not."""
    ops = FaultyOps()
    config, devices, controller, clock = seated(tmp_path, ops)
    press(devices, clock, config.dealer.buttons["start"])
    before = controller.table.snapshot()
    assert controller.on_read(CardRead("04A1B2C3D4", "0BADCAFE", 1)) is True
    assert journal_lines(config)[-1] == {"type": "card", "card": None, "tag": "04A1B2C3D4",
                                         "shoe": {"boot": "0BADCAFE", "seq": 1}}
    assert controller.table.snapshot() == before
    assert controller.alerts[-1].rule == "DEAL-7"
    ops.fail("fdatasync", errno.EIO)
    assert controller.on_read(CardRead("04A1B2C3D5", "0BADCAFE", 2)) is False     # not journaled: not ACKed
    restarted = make(tmp_path)[2]
    assert restarted.shoe_position == ("0BADCAFE", 1)
    assert restarted.table.snapshot() == before
