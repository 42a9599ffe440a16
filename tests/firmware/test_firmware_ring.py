"""The ring buffer of reads the host has not acknowledged (firmware/shoefw/ring.py)."""

import pytest
from shoefw.ring import ReadRing


def test_reads_are_numbered_from_one_and_pending_until_acked() -> None:
    ring = ReadRing(capacity=4)
    assert ring.first() == 1 and ring.pending() == []
    assert [ring.add(uid) for uid in ("AA", "BB", "CC")] == [1, 2, 3]
    assert ring.pending() == [(1, "AA"), (2, "BB"), (3, "CC")]
    assert ring.ack(2) is True
    assert ring.pending() == [(3, "CC")]
    assert ring.first() == 3
    assert ring.ack(1) is True  # an old cumulative ACK changes nothing
    assert ring.first() == 3
    assert ring.pending(limit=5) == [(3, "CC")]


def test_an_ack_for_a_read_never_made_is_refused() -> None:
    ring = ReadRing(capacity=4)
    ring.add("AA")
    assert ring.ack(2) is False
    assert ring.acked == 0


def test_overflow_overwrites_the_oldest_unacked_and_moves_first() -> None:
    ring = ReadRing(capacity=4)
    for i in range(6):
        ring.add(f"{i:02X}")
    assert ring.overwritten == 2
    assert ring.first() == 3  # reads 1 and 2 are gone: the heartbeat will tell the host
    assert ring.pending() == [(3, "02"), (4, "03"), (5, "04"), (6, "05")]
    assert ring.pending(limit=2) == [(3, "02"), (4, "03")]


def test_acked_reads_are_overwritten_without_loss() -> None:
    ring = ReadRing(capacity=2)
    ring.add("AA")
    ring.ack(1)
    ring.add("BB")
    ring.add("CC")
    assert ring.overwritten == 0
    assert ring.pending() == [(2, "BB"), (3, "CC")]


def test_read_numbers_do_not_wrap() -> None:
    ring = ReadRing(capacity=2, max_seq=2)
    ring.add("AA")
    ring.add("BB")
    with pytest.raises(OverflowError):
        ring.add("CC")
