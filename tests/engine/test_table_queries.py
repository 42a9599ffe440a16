"""The engine's face read by seat number: seat state, pots with eligible seats, payouts, board, showdown cards.

One hand, worked by hand: blinds 1/3; seat 1 (300) has the button, seat 2 (100) the small blind, seat 3 (300)
the big blind. Pre-flop seat 1 raises to 10, seat 2 moves all-in for 100, seats 3 and 1 call: a main pot of
3 x 100 = 300 for all three (POT-1). On the flop seat 3 bets 50 and seat 1 calls: a side pot of 2 x 50 = 100
for seats 1 and 3 only. Seat 2's aces win the main pot, seat 3's kings the side pot.
"""

from __future__ import annotations

from typing import Any

from journal_kit import act, cards, sit, table

from dealerpi.engine import LegalActions, PotNow, SeatStatus, Table, Waiting
from dealerpi.engine.games import Structure

HOLE = {2: ["As", "Ad"], 3: ["Ks", "Kd"], 1: ["7c", "2h"]}


def played(extra: list[dict[str, Any]]) -> Table:
    t = Table()
    journal = [table(seats=6), sit(1, 300), sit(2, 100), sit(3, 300), {"type": "button", "seat": 1},
               {"type": "start"}, *cards(*[HOLE[seat][k] for k in range(2) for seat in (2, 3, 1)]),
               act(1, "raise", 10), act(2, "all_in"), act(3, "call"), act(1, "call"), *extra]
    for entry in journal:
        outcome = t.apply(entry)
        assert outcome.accepted, (entry, outcome.reason)
    return t


def test_seats_pots_and_legal_actions_on_the_flop_pot1() -> None:
    """After the flop (burn 3c, 9h 5d 4s) the action is on seat 3, who may check or bet 3 (BET-1: the big blind)
    to 200 (his 300 less 100); seat 2 is all-in with 0 behind. One pot of 300, every seat eligible."""
    t = played(cards("3c", "9h", "5d", "4s"))
    assert t.expectation().waiting is Waiting.ACTION and t.expectation().seat == 3
    three = t.seat(3)
    assert (three.player, three.stack, three.status, three.bet, three.blind) == ("P3", 200, SeatStatus.IN, 0, "BB")
    assert three.legal == LegalActions(fold=True, check=True, call_to=None, raise_span=(3, 200),
                                       structure=Structure.NO_LIMIT, bet=0, all_in_to=200)
    assert (t.seat(2).stack, t.seat(2).status, t.seat(2).legal) == (0, SeatStatus.ALL_IN, None)
    assert (t.seat(1).stack, t.seat(1).is_button, t.seat(1).legal) == (200, True, None)
    assert t.seat(4).status is SeatStatus.EMPTY and t.seat(4).player is None
    assert [(p.amount, sorted(p.eligible)) for p in t.pots()] == [(300, [1, 2, 3])]
    assert t.pot_total() == 300 and t.board() == (("9h", "5d", "4s"),) and t.button() == 1
    assert t.dealt_seats() == (2, 3, 1)


def test_a_side_pot_names_only_the_seats_that_can_win_it_pot1() -> None:
    """Seat 3 bets 50 and seat 1 calls: main pot 300 (seats 1, 2, 3) and a side pot of 2 x 50 = 100 (seats 1, 3);
    the seats' bets are cleared by the turn's deal."""
    t = played([*cards("3c", "9h", "5d", "4s"), act(3, "bet", 50), act(1, "call")])
    assert [PotNow(p.amount, tuple(sorted(p.eligible))) for p in t.pots()] == [PotNow(300, (1, 2, 3)),
                                                                               PotNow(100, (1, 3))]
    assert (t.seat(3).stack, t.seat(1).stack) == (150, 150)


def test_showdown_cards_are_only_the_tabled_hands_and_payouts_after_pot7() -> None:
    """POT-7: after seat 2 shows, the public sees seat 2's cards only; seat 1's own cards are his alone. At the end
    seat 2 wins the main pot (300) with aces, seat 3 the side pot (100) with kings; seat 1 mucked. Stacks: seat 2
    300, seat 3 150 + 100 = 250, seat 1 150 (sum 700 = 300 + 100 + 300)."""
    river = [*cards("3c", "9h", "5d", "4s"), act(3, "bet", 50), act(1, "call"), *cards("3h", "Jc"),
             act(3, "check"), act(1, "check"), *cards("3d", "8s"), act(3, "check"), act(1, "check")]
    t = played([*river, {"type": "show", "seat": 2}])
    assert t.shown_cards() == {2: ("As", "Ad")}
    assert t.hole_cards(1) == ("7c", "2h") and t.payouts() == ()
    t.apply({"type": "show", "seat": 3})
    assert t.apply({"type": "muck", "seat": 1}).accepted
    assert t.between_hands and t.pots() == ()
    assert t.payouts() == ((2, 300), (3, 100))
    assert t.shown_cards() == {2: ("As", "Ad"), 3: ("Ks", "Kd")}
    assert [(t.seat(s).stack, t.seat(s).won) for s in (1, 2, 3)] == [(150, 0), (300, 300), (250, 100)]


def test_dealt_hand_gives_the_phh_writer_the_forced_bets_by_player_bld_9() -> None:
    """Seed 001's straddles (BLD-9): six seats, seat 6 on the button; seat 1 posts the small blind 1, seat 2 the
    big blind 3, seat 3 straddles 6 and seat 4 12. In the hand's player order (seats 1 to 6, first left of the
    button) the blinds are 1, 3, 6, 12, 0, 0; no antes, no dead blinds. Before any hand there is none."""
    t = Table()
    assert t.apply(table(seats=6)).accepted and t.dealt_hand() is None
    for entry in [*(sit(s) for s in range(1, 7)), {"type": "button", "seat": 6}, {"type": "start"},
                  {"type": "straddle", "seat": 3}, {"type": "straddle", "seat": 4}]:
        assert t.apply(entry).accepted, entry
    dealt = t.dealt_hand()
    assert dealt is not None
    assert (dealt.number, dealt.seats, dealt.players, dealt.seat_count) == (
        1, (1, 2, 3, 4, 5, 6), ("P1", "P2", "P3", "P4", "P5", "P6"), 6)
    assert (dealt.blinds, dealt.antes, dealt.dead) == ((1, 3, 6, 12, 0, 0), (0,) * 6, (0,) * 6)
    assert dealt.hand.stacks == [299, 297, 294, 288, 300, 300]


def test_the_hands_blinds_their_seats_and_no_returned_card_bld1() -> None:
    """The module's hand: blinds 1/3, button seat 1, so seat 2 posts the small blind and seat 3 the big (BLD-1,
    three-handed); the next big blind is due left of seat 3 (TRN-8 reads it). Nothing was put back into the
    deck. Before any hand there are no blinds and no blind seats."""
    t = played(cards("3c", "9h", "5d", "4s"))
    assert t.hand_blinds() == (1, 3)
    assert t.blind_seats() == (2, 3)
    assert t.returned_cards() == frozenset()
    fresh = Table()
    assert (fresh.hand_blinds(), fresh.blind_seats(), fresh.returned_cards()) == (None, (None, None), frozenset())


def test_next_blind_seats_are_those_a_start_would_deal_bld1_bld4() -> None:
    """The room's balancing reads who is due the big blind before a table's first hand (TRN-8). Six seats,
    players on 2, 4 and 5, the button drawn to seat 5: BLD-1 puts the small blind on the first player left of
    the button (seat 2: seats 6 and 1 are empty) and the big blind on the next (seat 4), and START deals exactly
    that. Heads-up (seats 2 and 4, button 4) the button posts the small blind (BLD-4): (4, 4, 2). None during a
    hand, with fewer than two players, and before a table."""
    t = Table()
    assert t.next_blind_seats() is None
    for entry in [table(seats=6), sit(2), sit(4)]:
        assert t.apply(entry).accepted, entry
    assert t.apply({"type": "button", "seat": 4}).accepted
    assert t.next_blind_seats() == (4, 4, 2)
    assert t.apply(sit(5)).accepted and t.apply({"type": "button", "seat": 5}).accepted
    assert t.next_blind_seats() == (5, 2, 4)
    assert t.apply({"type": "start"}).accepted
    assert t.next_blind_seats() is None                       # a hand is being played
    assert (t.button(), t.blind_seats()) == (5, (2, 4))       # what START dealt: the same seats
    lone = Table()
    for entry in [table(seats=6), sit(2)]:
        assert lone.apply(entry).accepted
    assert lone.next_blind_seats() is None


def test_starting_stacks_are_the_dealt_seats_in_the_hands_order_trn4() -> None:
    """The module's hand: seat 2 (100) the small blind, seat 3 (300) the big, seat 1 (300) the button; the
    hand's order is first left of the button: (2, 100), (3, 300), (1, 300), whatever the stacks are now (seat
    2 all in: 0 behind). TRN-4 ranks a hand's busts by these. None before a hand."""
    t = played(cards("3c", "9h", "5d", "4s"))
    assert t.seat(2).stack == 0
    assert t.starting_stacks() == ((2, 100), (3, 300), (1, 300))
    assert Table().starting_stacks() == ()
