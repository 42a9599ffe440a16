"""Issue 19: what a page sees at once after a tap between hands. Item 12: "Away" after a hand showed nothing
until the next START (the finished hand's seats all said "in"); an empty seat kept the cards its last player
showed (low)."""

from __future__ import annotations

from views.test_tabled_cards import apply, dealt_hand, views

from dealerpi.engine import Table


def played_to_a_show() -> Table:
    """tests/views/test_tabled_cards.py's hand: Ann folds, Bob and Cy check it down, Cy mucks, Bob shows
    Kd Qc and wins the 6 (blinds 1 + 3 and Bob's call of 2)."""
    table = dealt_hand()
    apply(table, *({"type": "act", "seat": s, "action": a} for s, a in ((1, "fold"), (2, "call"), (3, "check"))))
    for street in (["Jh", "2d", "3c", "7d"], ["6h", "Td"], ["Ac", "2c"]):
        apply(table, *({"type": "card", "card": c} for c in street),
              {"type": "act", "seat": 2, "action": "check"}, {"type": "act", "seat": 3, "action": "check"})
    apply(table, {"type": "muck", "seat": 3}, {"type": "show", "seat": 2})
    return table


def test_item12_away_after_a_hand_shows_at_once_on_every_page() -> None:
    """DEAL-9: a player away is dealt out from the next hand. Marked away after the hand, seat 3 says "away"
    on every page now, not at the next START; Bob's seat still shows the hand's result."""
    table = played_to_a_show()
    apply(table, {"type": "away", "seat": 3})
    for role, view in views(table).items():
        assert view["seats"]["3"]["status"] == "away", role
        assert view["seats"]["2"]["status"] == "in" and view["seats"]["2"]["cards"] == ["Kd", "Qc"], role


def test_an_empty_seat_shows_no_cards_of_the_player_who_left() -> None:
    """Bob showed Kd Qc and cashes out after the hand: his seat is empty on every page, without his cards
    (the positive control: they were there before he left)."""
    table = played_to_a_show()
    assert all(view["seats"]["2"]["cards"] == ["Kd", "Qc"] for view in views(table).values())
    apply(table, {"type": "leave", "seat": 2})
    for role, view in views(table).items():
        assert view["seats"]["2"]["player"] is None and view["seats"]["2"]["cards"] == [], role
