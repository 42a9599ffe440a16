"""The daemon's shoe link (dealerpi/shoe/link.py) over pyserial's loop:// port and ports that fail."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import pytest
import serial

from dealerpi.shoe.codec import Beat, Card, encode
from dealerpi.shoe.link import Backoff, LinkState, ShoeEvent, ShoeLink, ShoeOffline, ShoeOnline
from dealerpi.shoe.session import ReaderFault

BOOT = "0BADCAFE"


async def eventually(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


class Recorder:
    def __init__(self) -> None:
        self.cards: list[str] = []
        self.events: list[ShoeEvent] = []
        self.sleeps: list[float] = []

    async def sleep(self, delay: float) -> None:
        self.sleeps.append(delay)
        await asyncio.sleep(0)


def loop_port() -> serial.Serial:
    return serial.serial_for_url("loop://", timeout=0.02)


def make_link(recorder: Recorder, open_port: Callable[[], serial.Serial] | None = None,
              url: str = "loop://", **kwargs: object) -> ShoeLink:
    return ShoeLink(url, on_card=recorder.cards.append, on_event=recorder.events.append,
                    open_port=open_port, sleep=recorder.sleep, **kwargs)  # type: ignore[arg-type]


def run(scenario: Callable[[], Awaitable[None]]) -> None:
    asyncio.run(asyncio.wait_for(scenario(), timeout=20))


def test_any_pyserial_url_works_reads_arrive_once_in_order() -> None:
    """loop:// echoes our HELLO and ACKs back (counted as unexpected); what the 'shoe' writes is read."""
    recorder = Recorder()
    port = loop_port()

    async def scenario() -> None:
        link = make_link(recorder, lambda: port)
        await link.start()
        port.write(encode(Beat(BOOT, 1, 0, 1)))
        await asyncio.wait_for(link.wait_online(), 5)
        port.write(b"".join(encode(Card(BOOT, seq, f"{seq:08X}")) for seq in (1, 2, 1, 3)))
        await eventually(lambda: len(recorder.cards) == 3)
        assert recorder.cards == ["00000001", "00000002", "00000003"]
        assert link.position == (BOOT, 3)
        assert recorder.events == [ShoeOnline("loop://"), ReaderFault(True)]
        counts = link.counters()
        assert counts["repeats"] == 1 and counts["delivered"] == 3 and counts["unexpected"] >= 1
        await link.stop()
        assert link.state is LinkState.STOPPED
        assert not port.is_open

    run(scenario)


def test_failures_back_off_exponentially_up_to_the_cap_with_one_warning(
        caplog: pytest.LogCaptureFixture) -> None:
    recorder = Recorder()
    attempts = []

    def flaky_open() -> serial.Serial:
        attempts.append(1)
        if len(attempts) <= 5:
            raise serial.SerialException("could not open port /dev/ttyACM0: No such file or directory")
        port = loop_port()
        port.write(encode(Beat(BOOT, 1, 0, 0)))
        return port

    async def scenario() -> None:
        link = make_link(recorder, flaky_open, backoff=Backoff(initial=0.1, factor=2, cap=0.5))
        await link.start()
        await asyncio.wait_for(link.wait_online(), 5)
        await link.stop()

    caplog.set_level(logging.DEBUG, logger="dealerpi.shoe.link")
    run(scenario)
    assert recorder.sleeps == [0.1, 0.2, 0.4, 0.5, 0.5]
    assert recorder.events == [ShoeOffline("loop://", "could not open port /dev/ttyACM0: No such file or "
                                           "directory"), ShoeOnline("loop://")]
    offline = [r for r in caplog.records if "offline" in r.getMessage()]
    assert [r.levelno for r in offline] == [logging.WARNING] + [logging.DEBUG] * 4
    assert any(r.levelno == logging.INFO and "back online after 5" in r.getMessage() for r in caplog.records)


def test_a_silent_port_is_offline_and_is_reopened() -> None:
    """An open port that carries no valid frame (a hung shoe, the REPL) counts as offline."""
    recorder = Recorder()

    async def scenario() -> None:
        link = make_link(recorder, heartbeat_timeout=0.15, backoff=Backoff(initial=0.01, cap=0.01))
        await link.start()
        await eventually(lambda: link.connects >= 3)
        assert recorder.events[0] == ShoeOffline("loop://", "no frame from the shoe for 0.15 s")
        assert len(recorder.events) == 1  # reported once, not once per attempt
        assert not link.online
        await link.stop()

    run(scenario)


def test_an_unknown_url_scheme_stops_the_link_with_a_clear_reason() -> None:
    recorder = Recorder()

    async def scenario() -> None:
        link = ShoeLink("nosuch://shoe", on_card=recorder.cards.append, on_event=recorder.events.append,
                        sleep=recorder.sleep)
        await link.start()
        await eventually(lambda: link.state is LinkState.STOPPED and bool(recorder.events))
        await link.stop()

    run(scenario)
    assert recorder.sleeps == []
    [event] = recorder.events
    assert isinstance(event, ShoeOffline)
    assert "'nosuch://shoe' is not usable" in event.reason and "protocol 'nosuch' not known" in event.reason


def test_a_failing_callback_is_logged_and_reads_keep_flowing(caplog: pytest.LogCaptureFixture) -> None:
    port = loop_port()
    got: list[str] = []

    def picky(uid: str) -> None:
        if uid == "00000001":
            raise RuntimeError("daemon bug")
        got.append(uid)

    async def scenario() -> None:
        link = ShoeLink("loop://", on_card=picky, open_port=lambda: port)
        await link.start()
        port.write(encode(Beat(BOOT, 1, 0, 0)) + encode(Card(BOOT, 1, "00000001"))
                   + encode(Card(BOOT, 2, "00000002")))
        await eventually(lambda: got == ["00000002"])
        assert link.online
        await link.stop()

    run(scenario)
    assert any("callback failed" in r.getMessage() and r.exc_info for r in caplog.records)


def test_stop_while_waiting_to_reconnect_returns_promptly() -> None:
    async def scenario() -> None:
        def never() -> serial.Serial:
            raise serial.SerialException("gone")

        link = ShoeLink("loop://", on_card=print, open_port=never, backoff=Backoff(initial=60, cap=60))
        await link.start()
        await eventually(lambda: link.state is LinkState.WAITING)
        await asyncio.wait_for(link.stop(), 1)
        assert link.state is LinkState.STOPPED

    run(scenario)
