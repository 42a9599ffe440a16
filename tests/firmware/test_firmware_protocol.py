"""The shoe's protocol logic under CPython with a fake reader and a fake clock (firmware/shoefw/protocol.py).

Frames are checked against the wire format in dealerpi/shoe/codec.py's docstring.
"""

from codec import HELLO, Ack, Beat, Card, Decoder, Hello, encode
from fw_fakes import ScriptedReader
from shoefw.protocol import ShoeProtocol
from shoefw.ring import ReadRing
from shoefw.tracker import CardTracker

BOOT = "0BADCAFE"
UID_A = bytes.fromhex("04A224B2C15E80")
UID_B = bytes.fromhex("04B1B2B3B4B5B6")
UID_C = bytes.fromhex("DEADBEEF")


def make_shoe(**kwargs: object) -> tuple[ShoeProtocol, ScriptedReader, Decoder]:
    reader = ScriptedReader()
    shoe = ShoeProtocol(reader, BOOT, **kwargs)  # type: ignore[arg-type]
    return shoe, reader, Decoder()


def frames_out(shoe: ShoeProtocol, host: Decoder) -> list[Card | Beat | Ack | Hello]:
    return host.feed(shoe.take_output())


def test_boot_sends_a_heartbeat_with_an_empty_window() -> None:
    shoe, _, host = make_shoe()
    assert shoe.step(0) == []
    assert frames_out(shoe, host) == [Beat(BOOT, 1, 0, 0)]
    shoe.step(999)
    assert frames_out(shoe, host) == []
    shoe.step(1000)
    assert frames_out(shoe, host) == [Beat(BOOT, 1, 0, 0)]


def test_cards_passing_are_each_sent_once_with_rising_numbers() -> None:
    shoe, reader, host = make_shoe()
    sent = []
    now = 0
    for uid in (UID_A, UID_B, UID_C):
        reader.field = [uid]
        for _ in range(5):  # the tag stays in the field for five scans
            shoe.step(now)
            now += 30
        reader.field = []
        shoe.step(now)
        now += 30
        sent += [f for f in frames_out(shoe, host) if isinstance(f, Card)]
    assert sent == [Card(BOOT, 1, "04A224B2C15E80"), Card(BOOT, 2, "04B1B2B3B4B5B6"),
                    Card(BOOT, 3, "DEADBEEF")]
    assert shoe.counters()["cards"] == 3


def test_unacked_reads_are_resent_after_retry_ms_and_acked_ones_are_not() -> None:
    shoe, reader, host = make_shoe(retry_ms=1000, beat_ms=10_000)
    shoe.step(0)
    host.feed(shoe.take_output())
    reader.field = [UID_A]
    shoe.step(100)
    reader.field = [UID_B]
    shoe.step(200)
    reader.field = []
    assert frames_out(shoe, host) == [Card(BOOT, 1, "04A224B2C15E80"), Card(BOOT, 2, "04B1B2B3B4B5B6")]
    shoe.step(1199)
    assert frames_out(shoe, host) == []
    shoe.step(1200)  # 1000 ms after the last card frame
    assert frames_out(shoe, host) == [Card(BOOT, 1, "04A224B2C15E80"), Card(BOOT, 2, "04B1B2B3B4B5B6")]
    shoe.receive(encode(Ack(BOOT, 1)), 1300)
    shoe.step(2200)
    assert frames_out(shoe, host) == [Card(BOOT, 2, "04B1B2B3B4B5B6")]
    shoe.receive(encode(Ack(BOOT, 2)), 2300)
    shoe.step(5000)
    assert frames_out(shoe, host) == []


def test_hello_gets_a_heartbeat_then_every_unacked_read_in_order() -> None:
    shoe, reader, host = make_shoe(retry_ms=60_000)
    for i in range(20):
        reader.field = [bytes([0x04, i, 0, 0, 0, 0, i])]
        shoe.step(i * 50)
    shoe.receive(encode(Ack(BOOT, 3)), 1000)
    host.feed(shoe.take_output())
    shoe.receive(b"$H*", 1001)  # half a HELLO: nothing yet
    assert frames_out(shoe, host) == []
    shoe.receive(encode(HELLO)[3:], 1002)  # the rest
    frames = frames_out(shoe, host)
    assert frames[0] == Beat(BOOT, 4, 20, 0)
    resent = frames[1:]
    assert all(isinstance(f, Card) for f in resent)
    assert [f.seq for f in resent if isinstance(f, Card)] == list(range(4, 21))  # all 17, not just a resend burst
    assert isinstance(resent[0], Card) and resent[0].uid == "04030000000003"


def test_acks_from_another_boot_or_for_reads_never_made_are_counted_and_ignored() -> None:
    shoe, reader, _ = make_shoe()
    reader.field = [UID_A]
    shoe.step(0)
    shoe.receive(encode(Ack("12345678", 1)) + encode(Ack(BOOT, 5)), 10)
    assert shoe.ring.acked == 0
    assert shoe.counters()["stale_acks"] == 2


def test_garbage_from_the_host_is_counted_never_fatal() -> None:
    shoe, _, _ = make_shoe()
    shoe.receive(b"\x03\xff AT\r\n$A,0BADCAFE,1*0000\n" + b"$" + b"9" * 200 + b"\n", 0)
    shoe.receive(encode(Card(BOOT, 1, "DEADBEEF")), 1)  # a frame only the shoe should send
    counts = shoe.counters()
    assert counts["bad_crc"] == 1
    assert counts["overlong"] == 1
    assert counts["unexpected"] == 1
    assert counts["noise_bytes"] == len(b"\x03\xff AT")  # the line's "\r\n" ending is not noise


def test_a_failing_reader_is_reset_every_third_failure_and_flagged_in_the_heartbeat() -> None:
    shoe, reader, host = make_shoe(beat_ms=100)
    reader.failures = 7
    reader.reset_failures = 1
    for i in range(7):
        assert shoe.step(i * 100) == []
    beats = [f for f in frames_out(shoe, host) if isinstance(f, Beat)]
    assert [b.flags for b in beats] == [0, 0, 1, 1, 1, 1, 1]  # flagged from the third failure on
    assert reader.resets == 2  # after failures 3 and 6
    counts = shoe.counters()
    assert (counts["scan_errors"], counts["reader_resets"], counts["reset_errors"]) == (7, 2, 1)
    reader.field = [UID_A]
    assert shoe.step(700) == ["04A224B2C15E80"]  # the reader works again: no read is lost
    assert frames_out(shoe, host) == [Card(BOOT, 1, "04A224B2C15E80"), Beat(BOOT, 1, 1, 0)]


def test_a_read_made_while_the_reader_flickers_with_errors_is_still_reported_once() -> None:
    shoe, reader, host = make_shoe()
    reader.field = [UID_A]
    shoe.step(0)
    reader.failures = 2
    shoe.step(30)
    shoe.step(60)
    shoe.step(90)
    assert [f.seq for f in frames_out(shoe, host) if isinstance(f, Card)] == [1]


def test_the_heartbeat_tells_the_host_which_reads_were_overwritten() -> None:
    shoe, reader, host = make_shoe(ring=ReadRing(capacity=4), tracker=CardTracker(quiet_ms=1),
                                   beat_ms=1000, retry_ms=60_000)
    for i in range(6):
        reader.field = [bytes([i, i, i, i])]
        shoe.step(i * 10)
    reader.field = []
    shoe.step(1000)
    beats = [f for f in frames_out(shoe, host) if isinstance(f, Beat)]
    assert beats[-1] == Beat(BOOT, 3, 6, 0)  # reads 1 and 2 can no longer be resent
    assert shoe.counters()["overwritten"] == 2
