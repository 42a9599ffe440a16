"""Seat and dealer screens against golden images (tests/views/golden/*.png).

Each golden PNG is a committed reference that was looked at, enlarged, by eye before it was committed: names,
stacks, markers, pot, amount to call, raise range, YOUR ACTION, the amount being entered (e.g. 26 = half pot:
raise to 12 + (19 + 9) / 2), refusals with their rule id (BET-2), and the dealer's expectation, alerts (EXP-1,
MIS-1), pots and payouts. The comparison is pixel-exact, and nothing here writes a golden: a screen changed on
purpose is drawn by hand (``render_all()[name].resize((512, 256)).show()``), checked by eye, and its PNG replaced
in the same commit, whose message says what changed and why (issue 22: goldens regenerated in place by this
module's own ``__main__`` could never fail the program that made them).
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from PIL import Image

from dealerpi.engine import Structure
from dealerpi.views.model import Alert, DealerView, PotView, SeatView
from dealerpi.views.render import dealer_lines, dealer_pages, render_dealer, render_seat, seat_ranges


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    """Pixel-exact equality of two 1-bit images (ImageChops.difference misreports mode "1")."""
    return a.size == b.size and a.convert("1").tobytes() == b.convert("1").tobytes()

GOLDEN = Path(__file__).resolve().parent / "golden"

ANN = SeatView(seat=3, player="Ann", stack=280, status="in", pot=47, bet=3, blinds=(1, 3), hand_number=12)

SEATS: dict[str, SeatView] = {
    "seat_empty": SeatView(seat=7, player=None, stack=0, blinds=(1, 3)),
    "seat_waiting": SeatView(seat=2, player="Bob", stack=300, status="waiting", blinds=(1, 3)),
    # pre-flop, Ann in the big blind on the button's left, facing a raise to 12: call 9, raise 21 to 283
    "seat_your_action_call": SeatView(seat=3, player="Ann", stack=280, status="in", pot=19, bet=3, to_call=9,
                                      min_raise_to=21, max_raise_to=283, your_action=True, blind="BB",
                                      blinds=(1, 3), hand_number=12),
    "seat_your_action_check": SeatView(seat=5, player="Carmen", stack=1140, status="in", pot=60,
                                       can_check=True, min_raise_to=3, max_raise_to=1140, your_action=True,
                                       is_button=True, blinds=(1, 3), hand_number=12),
    "seat_entry_half_pot": SeatView(seat=3, player="Ann", stack=280, status="in", pot=19, bet=3, to_call=9,
                                    min_raise_to=21, max_raise_to=283, your_action=True, blind="BB",
                                    blinds=(1, 3), hand_number=12, entry=26, entry_label="1/2 POT"),
    "seat_entry_all_in": SeatView(seat=5, player="Carmen", stack=1140, status="in", pot=60, can_check=True,
                                  min_raise_to=3, max_raise_to=1140, your_action=True, is_button=True,
                                  blinds=(1, 3), hand_number=12, entry=1140, entry_label="ALL-IN"),
    "seat_fold_guard": SeatView(seat=5, player="Carmen", stack=1140, status="in", pot=60, can_check=True,
                                min_raise_to=3, max_raise_to=1140, your_action=True, blinds=(1, 3),
                                hand_number=12, notice="FOLD again = fold"),
    "seat_folded": SeatView(seat=4, player="Dmitri", stack=97, status="folded", pot=47, blinds=(1, 3),
                            hand_number=12),
    "seat_all_in": SeatView(seat=6, player="Eve", stack=0, status="all-in", pot=230, bet=110, blind="SB",
                            blinds=(1, 3), hand_number=12),
    # BET-2: a raise below the minimum raise is refused, and the seat is told why
    "seat_alert_refused": SeatView(seat=3, player="Ann", stack=280, status="in", pot=19, bet=3, to_call=9,
                                   min_raise_to=21, max_raise_to=283, your_action=True, blinds=(1, 3),
                                   hand_number=12,
                                   alert=Alert("BET-2", "raise to 15 refused: the minimum raise is to 21")),
    # issue 14, BET-5: fixed limit 10/20 on the turn, Ann has 20 in and faces a raise to 40: the call adds 20,
    # the one raise size is to 60; no range, no pot or all-in names
    "seat_your_action_limit": SeatView(seat=3, player="Ann", stack=280, status="in", pot=130, bet=20, to_call=20,
                                       min_raise_to=60, max_raise_to=60, your_action=True, blinds=(5, 10),
                                       hand_number=12, structure=Structure.FIXED_LIMIT),
    # BET-8: pot-limit, the small blind (1 in) faces a raise to 6 with 10 in the middle: the most is
    # 6 + 10 + 5 = 21, the pot
    "seat_your_action_pot_limit": SeatView(seat=2, player="Bob", stack=299, status="in", pot=10, bet=1, to_call=5,
                                           min_raise_to=9, max_raise_to=21, your_action=True, blind="SB",
                                           blinds=(1, 3), hand_number=12, structure=Structure.POT_LIMIT),
    "seat_won": SeatView(seat=8, player="Fatima", stack=512, status="in", pot=0, blinds=(1, 3), hand_number=12,
                         won=212),
}

DEALERS: dict[str, tuple[DealerView, int]] = {
    "dealer_start": (DealerView(hand_number=0, expect="start"), 0),
    "dealer_card_to_seat": (DealerView(hand_number=12, expect="card to seat 4", button=2,
                                       pots=(PotView(4, (1, 2, 3, 4, 5, 6)),)), 0),
    "dealer_action_side_pots": (DealerView(hand_number=12, expect="action on seat 5", button=2,
                                           pots=(PotView(330, (1, 3, 5, 6)), PotView(120, (3, 5))),
                                           board=(("Ah", "Kd", "7c"),)), 0),
    # EXP-1: an exposed card during the deal; the dealer is told the procedure and the rule id
    "dealer_alert_exposed": (DealerView(hand_number=12, expect="burn", button=2,
                                        alerts=(Alert("EXP-1", "exposed card Ah: it becomes the burn card; "
                                                                "deal seat 4 the next card"),),
                                        pots=(PotView(4, (1, 2, 3, 4, 5, 6)),)), 0),
    "dealer_payouts": (DealerView(hand_number=12, expect="start", button=2,
                                  payouts=((5, 330), (3, 120)), pots=(PotView(330, (1, 3, 5, 6)),
                                                                      PotView(120, (3, 5))),
                                  board=(("Ah", "Kd", "7c", "2s", "9h"),)), 0),
    "dealer_shoe_offline_page2": (DealerView(hand_number=13, expect="card to seat 1", button=3,
                                             shoe_online=False,
                                             alerts=(Alert("MIS-1", "two exposed cards: misdeal, reshuffle"),
                                                     Alert("DEAL-4", "unknown tag 04A1B2C3D4 read: "
                                                                     "take the card out, check the deck")),
                                             pots=(PotView(4, (1, 2, 3, 4)),)), 1),
}


def render_all() -> dict[str, Image.Image]:
    images = {name: render_seat(view) for name, view in SEATS.items()}
    images.update({name: render_dealer(view, page) for name, (view, page) in DEALERS.items()})
    return images


RENDERED = render_all()


@pytest.mark.parametrize("name", sorted(RENDERED))
def test_screen_matches_golden(name: str) -> None:
    rendered = RENDERED[name]
    assert rendered.mode == "1" and rendered.size == (128, 64)
    golden = Image.open(GOLDEN / f"{name}.png").convert("1")
    assert same_pixels(rendered, golden), f"{name} differs from its golden image"


def test_every_golden_file_has_a_screen() -> None:
    assert sorted(p.stem for p in GOLDEN.glob("*.png")) == sorted(RENDERED)


@pytest.mark.parametrize("name", sorted(SEATS))
def test_seat_screen_never_shows_hole_cards(name: str) -> None:
    """No display shows hole cards before showdown: the renderer ignores them, so a view holding them
    draws the same pixels as one without."""
    view = SEATS[name]
    with_cards = dataclasses.replace(view, hole_cards=("Ah", "Kd"))
    assert same_pixels(render_seat(with_cards), render_seat(view))


def test_dealer_lines_end_of_hand_say_what_to_push_to_whom() -> None:
    view, _ = DEALERS["dealer_payouts"]
    assert dealer_lines(view) == (
        "pot (1,3,5,6)     330", "side1 (3,5)       120", "board Ah Kd 7c 2s 9h",
        "push 330 to seat 5", "push 120 to seat 3", "hand #12 button 2")
    assert dealer_pages(view) == 1


def test_dealer_alerts_come_first_with_rule_id_and_wrap() -> None:
    view = DealerView(hand_number=3, expect="burn", shoe_online=False,
                      alerts=(Alert("EXP-1", "exposed card Ah: it becomes the burn card"),
                              Alert("MIS-1", "two exposed cards: misdeal")),
                      pots=(PotView(4, (1, 2)),))
    assert dealer_lines(view) == (
        "SHOE OFFLINE: deal by", "  hand, enter cards", "! EXP-1: exposed card", "  Ah: it becomes the",
        "  burn card", "! MIS-1: two exposed", "  cards: misdeal", "pot (1,2)           4", "hand #3")
    assert dealer_pages(view) == 2
    # page numbers wrap around, so the daemon can just count
    assert same_pixels(render_dealer(view, 2), render_dealer(view, 0))
    assert not same_pixels(render_dealer(view, 1), render_dealer(view, 0))


def test_seat_ranges() -> None:
    assert seat_ranges((1, 2, 3, 5, 6, 8, 9, 10)) == "1-3,5,6,8-10"
    assert seat_ranges((4,)) == "4"
    assert seat_ranges(tuple(range(1, 11))) == "1-10"
