"""The shoe reports each card leaving once, even while its tag lingers (firmware/shoefw/tracker.py)."""

from shoefw.tracker import CardTracker

A, B, C = "04A1A1A1A1A1A1", "04B2B2B2B2B2B2", "04C3C3C3C3C3C3"


def test_a_tag_lingering_in_the_field_is_reported_once() -> None:
    tracker = CardTracker(quiet_ms=500)
    reports = [tracker.update([A], now) for now in range(0, 10_000, 30)]
    assert reports[0] == [A]
    assert all(report == [] for report in reports[1:])


def test_a_flickering_tag_is_not_reported_again() -> None:
    tracker = CardTracker(quiet_ms=500)
    assert tracker.update([A], 0) == [A]
    assert tracker.update([], 100) == []
    assert tracker.update([], 300) == []
    assert tracker.update([A], 490) == []  # unseen for 490 ms < 500: the same card still lying there
    assert tracker.update([], 900) == []
    assert tracker.update([A], 989) == []  # 499 ms since the last sighting


def test_a_tag_unseen_for_the_quiet_time_is_a_new_card() -> None:
    tracker = CardTracker(quiet_ms=500)
    assert tracker.update([A], 0) == [A]
    assert tracker.update([A], 500) == [A]  # exactly quiet_ms since last seen: counts as gone
    assert tracker.tracked() == 1


def test_two_cards_in_quick_succession_are_both_reported() -> None:
    tracker = CardTracker(quiet_ms=5000)
    assert tracker.update([A], 0) == [A]
    assert tracker.update([A], 20) == []
    assert tracker.update([B], 40) == [B]  # the next card 40 ms later, the first already gone
    assert tracker.update([B, A], 60) == []


def test_two_stacked_cards_in_one_scan_are_both_reported_in_reader_order() -> None:
    tracker = CardTracker()
    assert tracker.update([B, A], 0) == [B, A]
    assert tracker.update([A, B], 30) == []
    assert tracker.update([C, C], 60) == [C]  # a reader listing one tag twice still makes one card


def test_stale_tags_are_forgotten_and_memory_is_capped() -> None:
    tracker = CardTracker(quiet_ms=1000, max_tracked=3)
    for i, uid in enumerate((A, B, C, "04D4D4D4D4D4D4")):
        tracker.update([uid], i)
    assert tracker.tracked() == 3
    assert tracker.update([A], 10) == [A]  # A (oldest) was dropped for the cap, so it is new again
    assert tracker.update([], 2000) == []
    assert tracker.tracked() == 0
