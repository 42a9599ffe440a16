"""The host's protocol state (dealerpi/shoe/session.py): every read delivered once, in order; losses named."""

from dealerpi.shoe.codec import HELLO, Ack, Beat, Card, Decoder, Hello, encode
from dealerpi.shoe.session import CardRead, HostSession, ReaderFault, ReadsLost, ShoeRestarted

BOOT = "0BADCAFE"
OTHER = "12345678"


def card(seq: int, boot: str = BOOT) -> bytes:
    return encode(Card(boot, seq, f"04{seq:012X}"))


def read(seq: int, boot: str = BOOT) -> CardRead:
    return CardRead(f"04{seq:012X}", boot, seq)


def sent(session: HostSession) -> list[Card | Beat | Ack | Hello]:
    return Decoder().feed(session.data_to_send())


def greeted(first: int = 1, newest: int = 0, **kwargs: object) -> HostSession:
    session = HostSession(**kwargs)  # type: ignore[arg-type]
    session.connected()
    assert sent(session) == [HELLO]
    assert session.receive_data(encode(Beat(BOOT, first, newest, 0))) == []
    return session


def test_reads_are_delivered_in_order_and_acked_once_per_batch() -> None:
    session = greeted()
    assert session.receive_data(card(1) + card(2)) == [read(1), read(2)]
    assert sent(session) == [Ack(BOOT, 2)]
    assert session.receive_data(card(3)) == [read(3)]
    assert sent(session) == [Ack(BOOT, 3)]


def test_a_resent_read_is_dropped_counted_and_acked_again() -> None:
    session = greeted()
    session.receive_data(card(1) + card(2))
    sent(session)
    assert session.receive_data(card(1) + card(2) + card(3)) == [read(3)]
    assert session.counters()["repeats"] == 2
    assert sent(session) == [Ack(BOOT, 3)]


def test_a_read_after_a_gap_waits_for_the_resend() -> None:
    session = greeted()
    session.receive_data(card(1))
    assert session.receive_data(card(3)) == []  # 2 was corrupted on the way
    assert session.counters()["gaps"] == 1
    assert sent(session) == [Ack(BOOT, 1), Ack(BOOT, 1)]
    assert session.receive_data(card(2) + card(3)) == [read(2), read(3)]


def test_a_fresh_host_starts_at_the_window_and_holds_cards_until_it_knows_it() -> None:
    """Reads before ``first`` were acknowledged to an earlier host (a daemon restart): not ours to deliver."""
    session = HostSession()
    session.connected()
    sent(session)
    assert session.receive_data(card(9)) == []  # sent before our HELLO arrived: boot unknown yet
    assert session.counters()["early"] == 1
    assert sent(session) == []  # a HELLO is already on its way
    assert session.receive_data(encode(Beat(BOOT, 8, 9, 0)) + card(8) + card(9)) == [read(8), read(9)]


def test_skip_backlog_ignores_reads_made_before_the_host_came() -> None:
    session = greeted(first=4, newest=6, skip_backlog=True)
    assert sent(session) == [Ack(BOOT, 6)]
    assert session.counters()["skipped"] == 3
    assert session.receive_data(card(4) + card(5) + card(6) + card(7)) == [read(7)]


def test_reads_that_fell_out_of_the_shoe_buffer_are_reported_lost() -> None:
    session = greeted()
    session.receive_data(card(1))
    assert session.receive_data(encode(Beat(BOOT, 5, 9, 0))) == [ReadsLost(BOOT, 2, 4)]
    assert session.counters()["lost"] == 3
    assert session.receive_data(card(5)) == [read(5)]


def test_a_shoe_restart_is_reported_with_the_reads_it_took_along() -> None:
    session = greeted()
    session.receive_data(card(1))
    session.receive_data(encode(Beat(BOOT, 1, 3, 0)))  # reads 2 and 3 exist, never arrived
    events = session.receive_data(card(1, OTHER))  # the new boot's first read, before its window
    assert events == []
    assert sent(session)[-1] == HELLO
    events = session.receive_data(encode(Beat(OTHER, 1, 1, 0)) + card(1, OTHER))
    assert events == [ShoeRestarted(BOOT, OTHER), ReadsLost(BOOT, 2, 3), read(1, OTHER)]
    assert ReadsLost(BOOT, 2, 3).count == 2


def test_a_heartbeat_behind_our_ack_gets_the_ack_again() -> None:
    session = greeted()
    session.receive_data(card(1) + card(2))
    sent(session)
    assert session.receive_data(encode(Beat(BOOT, 2, 2, 0))) == []  # the shoe missed ACK 2
    assert sent(session) == [Ack(BOOT, 2)]


def test_reader_fault_is_reported_on_change_only() -> None:
    session = greeted()
    beats = [encode(Beat(BOOT, 1, 0, flags)) for flags in (1, 1, 0, 0)]
    assert [session.receive_data(b) for b in beats] == [[ReaderFault(True)], [], [ReaderFault(False)], []]


def test_resume_from_a_journal_position_skips_what_was_delivered_before_a_daemon_restart() -> None:
    session = HostSession(resume_from=(BOOT, 5))
    session.connected()
    sent(session)
    assert session.receive_data(encode(Beat(BOOT, 5, 6, 0)) + card(5) + card(6)) == [read(6)]
    assert sent(session) == [Ack(BOOT, 5), Ack(BOOT, 6)]


def test_frames_only_the_host_sends_are_counted_as_unexpected() -> None:
    session = greeted()
    assert session.receive_data(encode(HELLO) + encode(Ack(BOOT, 1))) == []  # an echoing port
    assert session.counters()["unexpected"] == 2


def test_a_refused_read_is_not_acked_and_is_delivered_again_when_resent() -> None:
    """ACK only what is durable (issue 12): the daemon could not journal read 2, so the batch's ACK covers
    read 1 only, and the resent 2 and 3 are delivered again, in order."""
    session = greeted()
    assert session.receive_data(card(1) + card(2) + card(3)) == [read(1), read(2), read(3)]
    session.refuse(read(2))
    session.refuse(read(3))                       # past the taken-back point already: changes nothing
    assert sent(session) == [Ack(BOOT, 1)]
    assert session.counters()["delivered"] == 1
    assert session.receive_data(card(2) + card(3)) == [read(2), read(3)]
    assert sent(session) == [Ack(BOOT, 3)]
    assert session.counters()["delivered"] == 3
