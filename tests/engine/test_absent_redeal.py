"""Issue 20 item 9: an absent player in a tournament (DEAL-9, TDA 30) and the misdeal's redeal (MIS-6, TDA 35-C).

DEAL-9: "A hand is killed if the player is not at the seat when the last card of the initial deal lands." So a
player marked back before that card plays his hand, and one still away when it lands is killed then, his blinds
and antes forfeit. MIS-6: "Players dealt in but away for the first deal play the redeal" (the redeal is a new
initial deal: who is at the seat when its last card lands plays). Worked by hand from those two rules; the
engine of before killed every seat away at START on every deal, whatever happened after.

Table for all: tournament preset, 4 seats at 50/100, 1,000 each, button seat 1: seat 2 the small blind, seat 3
the big blind, seat 4 first to act, then 1, 2, 3. Hole cards round by round from seat 2 (DEAL-1).
"""

from __future__ import annotations

from typing import Any

from journal_kit import act, cards, replay, sit, stacks, table

START: dict[str, Any] = {"type": "start"}
DECK = [rank + suit for suit in "shdc" for rank in "AKQJT98765432"]


def seated() -> list[dict[str, Any]]:
    return [table(rules="tournament", seats=4, blinds=(50, 100))] + [sit(s, 1000) for s in (1, 2, 3, 4)]


def deal9_lines(result: dict[str, Any]) -> list[str]:
    return [a["message"] for a in result["alerts"] if a["rule"] == "DEAL-9"]


def test_deal9_back_before_the_last_card_of_the_deal_plays_the_hand() -> None:
    """DEAL-9 (TDA 30): seat 3 is away at START, is dealt in and posts his big blind, and is back after the 7th
    of the 8 hole cards: at his seat when the last card lands, so his hand is live. Seat 4 calls 100, seats 1
    and 2 fold: the action is on seat 3, the big blind, who may check (no kill, no forfeit)."""
    journal = [*seated(), {"type": "away", "seat": 3}, {"type": "button", "seat": 1}, START, *cards(*DECK[:7]),
               {"type": "back", "seat": 3}, *cards(DECK[7]), act(4, "call"), act(1, "fold"), act(2, "fold")]
    _, result = replay(journal)
    assert result["rejected"] == []
    assert result["next"]["seat"] == 3 and result["next"]["legal"]["check"] is True


def test_deal9_still_away_when_the_last_card_lands_is_killed_then() -> None:
    """DEAL-9 (TDA 30): seat 3 (the big blind) stays away: when the 8th hole card lands his hand is killed and his
    100 is forfeit. Seats 4 and 1 fold; seat 2, the small blind, is the last live hand and wins 50 + 100:
    1,100; seat 3 900. The kill is said when the last card lands, not at START."""
    journal = [*seated(), {"type": "away", "seat": 3}, {"type": "button", "seat": 1}, START, *cards(*DECK[:7])]
    _, result = replay(journal)
    assert not any("dead" in line for line in deal9_lines(result))
    journal += [*cards(DECK[7]), act(4, "fold"), act(1, "fold")]
    _, result = replay(journal)
    assert deal9_lines(result)[-1] == "Seat 3 was not at the table when the last card landed: his hand is dead (TDA 30)"
    assert stacks(result) == {1: 1000, 2: 1100, 3: 900, 4: 1000}


def test_mis6_a_player_away_for_the_first_deal_plays_the_redeal() -> None:
    """MIS-6 (TDA 35-C) with DEAL-9: seat 3 is away when the first deal's last card lands (killed), comes back,
    and the dealer declares a misdeal (no action yet, MIS-5). The redeal is an exact re-play (same button,
    blinds stay) and seat 3 is at his seat for it: his hand is live. After the 8 cards of the redeal seat 4
    raises to 300, seats 1 and 2 fold, and seat 3 calls: the flop is due, and nothing is refused."""
    journal = [*seated(), {"type": "away", "seat": 3}, {"type": "button", "seat": 1}, START, *cards(*DECK[:8]),
               {"type": "back", "seat": 3}, {"type": "misdeal"}, *cards(*DECK[8:16]),
               act(4, "raise", 300), act(1, "fold"), act(2, "fold"), act(3, "call")]
    _, result = replay(journal)
    assert result["rejected"] == []
    assert result["next"] == {"expect": "burn"}
    assert stacks(result) == {1: 1000, 2: 950, 3: 700, 4: 700}


def test_deal9_heads_up_the_absent_hand_is_killed_when_the_deal_is_complete() -> None:
    """DEAL-9 (TDA 30) heads-up: seat 2 (the button, small blind 50) is away; seat 1 posts the big blind 100. Both
    are dealt in; when the 4th card lands seat 2's hand is dead and the hand is over: POT-2 returns seat 1's
    uncalled 50 and he wins the pot of 50 + 50 = 100: 1,000 - 100 + 50 + 100 = 1,050, seat 2 950. The push (the
    pot, 100) is told at that card."""
    journal = [table(rules="tournament", seats=2, blinds=(50, 100)), sit(1, 1000), sit(2, 1000),
               {"type": "away", "seat": 2}, {"type": "button", "seat": 2}, START, *cards(*DECK[:3])]
    _, result = replay(journal)
    assert result["next"] == {"expect": "card", "for": "seat 2"}
    journal += cards(DECK[3])
    _, result = replay(journal)
    assert result["next"] == {"expect": "start"}
    assert stacks(result) == {1: 1050, 2: 950}
    assert result["alerts"][-1]["message"] == "Push: seat 1 100"
