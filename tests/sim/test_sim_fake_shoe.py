"""The simulator's shoe on a pty speaks the firmware's protocol to the daemon's real ShoeLink."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable

from dealerpi.shoe.codec import HELLO, Ack, Beat, Card, Decoder, Hello, encode
from dealerpi.shoe.link import ShoeLink, ShoeOnline
from dealerpi.sim.fake_shoe import FakeShoe

UIDS = [f"0453740000{i:04X}" for i in range(6)]


async def _until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        assert loop.time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_cards_reach_the_link_once_each_in_order_and_are_acknowledged() -> None:
    async def scenario() -> None:
        shoe = FakeShoe(beat=0.2, boot="5151AB01")
        await shoe.start()
        got: list[str] = []
        events: list[object] = []
        link = ShoeLink(shoe.url, on_card=got.append, on_event=events.append)
        await link.start()
        try:
            await asyncio.wait_for(link.wait_online(), 5)
            assert events == [ShoeOnline(shoe.url)]
            for uid in UIDS:
                assert shoe.deal(uid) == UIDS.index(uid) + 1
            await _until(lambda: len(got) == len(UIDS) and shoe.pending == 0)
            assert got == UIDS
            assert link.counters()["repeats"] == 0 and link.counters()["bad_crc"] == 0
        finally:
            await link.stop()
            await shoe.stop()

    asyncio.run(scenario())


def test_hello_gets_a_heartbeat_and_the_unacknowledged_reads_again() -> None:
    """firmware/shoefw/protocol.py: H is answered by B then every read the host has not acknowledged."""
    async def scenario() -> None:
        shoe = FakeShoe(beat=60, boot="5151AB02")
        await shoe.start()
        host = os.open(shoe.url, os.O_RDWR | os.O_NOCTTY)
        decoder = Decoder()
        try:
            shoe.deal(UIDS[0])
            shoe.deal(UIDS[1])
            os.write(host, encode(Ack("5151AB02", 1)))
            await _until(lambda: shoe.pending == 1)
            await asyncio.sleep(0.05)
            _drain(host, decoder)
            os.write(host, encode(HELLO))
            frames: list[object] = []

            def two_frames() -> bool:
                frames.extend(_drain(host, decoder))
                return len(frames) >= 2

            await _until(two_frames)
            assert frames[:2] == [Beat("5151AB02", 2, 2, 0), Card("5151AB02", 2, UIDS[1])]
        finally:
            os.close(host)
            await shoe.stop()

    asyncio.run(scenario())


def _drain(fd: int, decoder: Decoder) -> list[Card | Beat | Ack | Hello]:
    os.set_blocking(fd, False)
    try:
        return decoder.feed(os.read(fd, 4096))
    except BlockingIOError:
        return []
