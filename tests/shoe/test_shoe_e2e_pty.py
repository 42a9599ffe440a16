"""End to end: the firmware's logic (fake reader) on one side of a pseudo-terminal, the daemon's shoe
link on the other, the USB cable pulled mid-hand. Every card read arrives once, in dealing order.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from shoe_pty import PtyShoe

from dealerpi.shoe.link import Backoff, ShoeEvent, ShoeLink, ShoeOffline, ShoeOnline
from dealerpi.shoe.session import CardRead

UIDS = [bytes([0x04, n, 0x10, 0x20, 0x30, 0x40, n]) for n in range(1, 13)]


def hexes(uids: list[bytes]) -> list[str]:
    return [uid.hex().upper() for uid in uids]


async def eventually(predicate: object, timeout: float = 10.0) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not predicate():  # type: ignore[operator]
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_usb_unplugged_mid_hand_loses_and_doubles_nothing(tmp_path: Path) -> None:
    shoe = PtyShoe(tmp_path / "ttyACM-shoe")
    cards: list[str] = []
    events: list[ShoeEvent] = []

    async def scenario() -> None:
        link = ShoeLink(str(shoe.path), on_card=cards.append, on_event=events.append, read_timeout=0.02,
                        heartbeat_timeout=3.0, backoff=Backoff(initial=0.05, factor=2, cap=0.2))
        await link.start()
        await asyncio.wait_for(link.wait_online(), 10)
        for uid in UIDS[:4]:  # hole cards for two seats
            await asyncio.to_thread(shoe.deal, uid)
        await eventually(lambda: len(cards) == 4)

        shoe.drop_from_host = True  # the next ACKs never reach the shoe...
        for uid in UIDS[4:6]:
            await asyncio.to_thread(shoe.deal, uid)
        await eventually(lambda: len(cards) == 6)  # ...though the host has the reads
        shoe.unplug()  # ...and then the cable comes out
        await eventually(lambda: any(isinstance(e, ShoeOffline) for e in events))
        assert not link.online

        for uid in UIDS[6:9]:  # the dealer goes on: burn and flop, read while unplugged
            await asyncio.to_thread(shoe.deal, uid)
        shoe.drop_from_host = False
        shoe.plug()
        await eventually(lambda: len(cards) >= 9)
        for uid in UIDS[9:]:
            await asyncio.to_thread(shoe.deal, uid)
        await eventually(lambda: len(cards) >= 12 and shoe.protocol.ring.acked == 12)
        await asyncio.sleep(0.5)  # room for a late duplicate to show up, if there were one
        await link.stop()

        assert cards == hexes(UIDS)
        counts = link.counters()
        assert counts["delivered"] == 12
        assert counts["repeats"] >= 2  # reads 5 and 6 came again after the reconnect and were dropped
        assert counts["lost"] == 0
        assert [type(e) for e in events] == [ShoeOnline, ShoeOffline, ShoeOnline]
        assert link.connects >= 2

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=60))
    finally:
        shoe.close()


def test_two_cards_in_quick_succession_and_a_stacked_pair_over_the_pty(tmp_path: Path) -> None:
    shoe = PtyShoe(tmp_path / "ttyACM-shoe")
    cards: list[str] = []

    async def scenario() -> None:
        link = ShoeLink(str(shoe.path), on_card=cards.append, read_timeout=0.02)
        await link.start()
        await asyncio.wait_for(link.wait_online(), 10)
        with shoe.lock:
            shoe.reader.field = [UIDS[0]]
        await asyncio.sleep(0.02)
        with shoe.lock:
            shoe.reader.field = [UIDS[0], UIDS[1]]  # the second card arrives while the first lingers
        await asyncio.sleep(0.02)
        with shoe.lock:
            shoe.reader.field = [UIDS[2], UIDS[3]]  # two stacked cards
        await eventually(lambda: len(cards) == 4)
        await asyncio.sleep(0.3)
        await link.stop()

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=60))
    finally:
        shoe.close()
    assert cards == hexes(UIDS[:4])


def test_a_read_the_daemon_cannot_journal_is_not_acked_and_comes_again(tmp_path: Path) -> None:
    """Issue 12, ACK only what is durable: while ``on_read`` answers False (the journal is failing), the
    shoe's ring keeps the read unacknowledged and resends it; once taken it is ACKed, and every read arrives
    exactly once, in order."""
    shoe = PtyShoe(tmp_path / "ttyACM-shoe", retry_ms=100)
    taken: list[CardRead] = []
    failing = [True]

    def on_read(read: CardRead) -> bool:
        if failing[0]:
            return False
        taken.append(read)
        return True

    async def scenario() -> None:
        link = ShoeLink(str(shoe.path), on_read=on_read, read_timeout=0.02)
        await link.start()
        await asyncio.wait_for(link.wait_online(), 10)
        await asyncio.to_thread(shoe.deal, UIDS[0])
        await asyncio.to_thread(shoe.deal, UIDS[1])
        await asyncio.sleep(0.5)                      # a few resends, each refused
        with shoe.lock:
            assert shoe.protocol.ring.acked == 0 and shoe.protocol.ring.newest == 2
        assert taken == []
        failing[0] = False
        await eventually(lambda: shoe.protocol.ring.acked == 2)
        await asyncio.to_thread(shoe.deal, UIDS[2])
        await eventually(lambda: shoe.protocol.ring.acked == 3)
        await asyncio.sleep(0.3)                      # room for a late duplicate, if there were one
        await link.stop()

    try:
        asyncio.run(asyncio.wait_for(scenario(), timeout=60))
    finally:
        shoe.close()
    assert [(r.uid, r.seq) for r in taken] == list(zip(hexes(UIDS[:3]), (1, 2, 3), strict=True))
