"""Re-entries, rebuys, add-ons and progressive knockouts (issue 20: what The Tournament Director offers).

Rules (our choices where the rule sources are silent, docs/tournaments.md):
- Re-entry: a player who busted buys a new entry (``sit`` again, his name) while late entry is open (TRN-9),
  at most ``reentries`` times; each entry pays ``buy_in`` into the pool and counts in the field.
- Rebuy: between hands, while the level is at most ``rebuy_levels``, a player with at most the starting stack
  buys ``starting_stack`` chips for ``buy_in``, at most ``rebuys`` times.
- Add-on: once per player, at the break that ends the rebuy period: ``addon_chips`` for ``addon_price``.
- PKO: ``bounty`` of every buy-in goes on the buyer's head instead of into the prize pool. The player who
  busts him takes half his bounty in cash and adds the other half to his own head; the winner takes his own
  head. Winners of the pot he busted in share (odd units to the first clockwise from the button).

Hand 1 for all (worked by hand): Ann (seat 1, button), Bob (seat 2, SB 50), Cy (seat 3, BB 100), 1,000 each.
Ann moves all in with 7d 2d, Bob folds, Cy calls with aces; the board 9s 8c 4h Qc 6h pairs nobody: Cy wins
1,000 + 1,000 + 50 = 2,050; Bob 950; Ann busts.
"""

from __future__ import annotations

from typing import Any

from journal_kit import act, cards, replay, sit, table

from dealerpi.engine.table import Table

START: dict[str, Any] = {"type": "start"}
LEVELS = [{"blinds": [50, 100], "minutes": 20}, {"blinds": [100, 200], "minutes": 20},
          {"break": True, "minutes": 10}, {"blinds": [200, 400], "minutes": 20}]
HAND_1 = [{"type": "button", "seat": 1}, START, *cards("2c", "Ah", "7d", "3c", "As", "2d"),
          act(1, "all_in"), act(2, "fold"), act(3, "call"), *cards("Kh", "9s", "8c", "4h", "Jd", "Qc", "5s", "6h")]


def opening(**extra: Any) -> list[dict[str, Any]]:
    config = table(rules="tournament", seats=4, levels=LEVELS, buy_in=30, starting_stack=1000,
                   late_entry_levels=2, **extra)
    return [config, sit(1, 1000, "Ann"), sit(2, 1000, "Bob"), sit(3, 1000, "Cy")]


def books(played: Table) -> tuple[int, int]:
    standings = played.state.standings
    assert standings is not None
    return standings.pool, standings.remaining


def reasons(result: dict[str, Any]) -> list[str]:
    return [r["reason"] for r in result["rejected"]]


def test_reentry_a_busted_player_buys_a_new_entry_once() -> None:
    """reentries 1: Ann busts (3 entries, pool 90, 2 left), re-enters on seat 4: pool 120, 3 left, and her bust
    is no longer a finish (she is in again). She busts again: a second re-entry is refused."""
    journal = [*opening(reentries=1), *HAND_1]
    played, _ = replay(journal)
    assert books(played) == (90, 2)
    journal.append(sit(4, 1000, "Ann"))
    played, result = replay(journal)
    assert reasons(result) == [] and books(played) == (120, 3)
    assert played.state.standings is not None and played.state.standings.finishes == ()
    freeze = [*opening(), *HAND_1, sit(4, 1000, "Ann")]
    _, result = replay(freeze)
    assert reasons(result) == ["TRN-9: Ann is out: this tournament has no re-entry"]


def test_reentry_limit_per_player() -> None:
    """reentries 1: Ann re-enters on seat 4 and busts again in hand 2 (dead button, BLD-2: the big blind moves
    from Cy to Ann on seat 4, Cy is the small blind, Bob the button). The deal goes Cy, Ann, Bob: Cy 2h 3h, Ann
    Kd Kc, Bob Ks 3s. Bob folds, Cy moves all in, Ann calls all in; the board Ad 4c 5h 9d Js (burns Qs Jc Th)
    gives Cy the wheel against Ann's kings. Pool 4 x 30 = 120, two left; a second re-entry is refused."""
    journal = [*opening(reentries=1), *HAND_1, sit(4, 1000, "Ann"), START,
               *cards("2h", "Kd", "Ks", "3h", "Kc", "3s"), act(2, "fold"), act(3, "all_in"), act(4, "call"),
               *cards("Qs", "Ad", "4c", "5h", "Jc", "9d", "Th", "Js")]
    played, result = replay(journal)
    assert reasons(result) == [] and books(played) == (120, 2)
    _, result = replay([*journal, sit(1, 1000, "Ann")])
    assert reasons(result) == ["TRN-9: Ann has re-entered 1 time: no more re-entries (reentries = 1)"]


def test_rebuy_at_or_below_the_starting_stack_during_the_rebuy_levels() -> None:
    """rebuys 1, rebuy_levels 2: Bob (950, at most 1,000) rebuys: 1,950, pool 90 + 30 = 120. A second rebuy is
    refused (one allowed); Cy (2,050, above the starting stack) may not; after level 2 nobody may."""
    journal = [*opening(rebuys=1, rebuy_levels=2, reentries=1), *HAND_1, {"type": "rebuy", "seat": 2}]
    played, result = replay(journal)
    assert reasons(result) == [] and played.seat(2).stack == 1950 and books(played) == (120, 2)
    journal += [{"type": "rebuy", "seat": 2}, {"type": "rebuy", "seat": 3}, {"type": "tick", "seconds": 2400},
                {"type": "rebuy", "seat": 2}]
    _, result = replay(journal)
    assert reasons(result) == ["rebuy: Bob has rebought 1 time (rebuys = 1)",
                               "rebuy: Cy has 2050, more than the starting stack (1000)",
                               "rebuy: the rebuy period ended with level 2"]


def test_addon_once_at_the_break_after_the_rebuy_period() -> None:
    """addon_chips 2,000 for 20: refused during level 1; at the break after level 2 Cy takes it (4,050, pool
    90 + 20 = 110); a second add-on is refused."""
    journal = [*opening(rebuys=1, rebuy_levels=2, addon_chips=2000, addon_price=20), *HAND_1,
               {"type": "addon", "seat": 3}, {"type": "tick", "seconds": 2400}, {"type": "addon", "seat": 3},
               {"type": "addon", "seat": 3}]
    played, result = replay(journal)
    assert reasons(result) == ["addon: add-ons are taken at the break after level 2",
                               "addon: Cy has taken the add-on"]
    assert played.seat(3).stack == 4050 and books(played) == (110, 2)


def test_pko_half_the_bounty_in_cash_half_on_the_winners_head() -> None:
    """bounty 10 of the 30: the pool gets 20 an entry (60), each head 10. Cy busts Ann: Cy wins 5 in cash and
    his head becomes 15; Ann's head is gone. The ledger: cash 5 + heads 10 + 15 = the 30 of bounties paid in."""
    played, result = replay([*opening(bounty=10), *HAND_1])
    assert reasons(result) == [] and books(played) == (60, 2)
    bounties = played.state.bounties
    assert bounties is not None
    assert (dict(bounties.heads), dict(bounties.won)) == ({"Bob": 10, "Cy": 15}, {"Cy": 5})
    assert sum(dict(bounties.heads).values()) + sum(dict(bounties.won).values()) == 30
    assert "PKO: Cy busts Ann: 5 in cash, 5 on Cy's head (15)" in [a["message"] for a in result["alerts"]]


def test_pko_the_winner_takes_his_own_head_and_the_books_balance() -> None:
    """Heads-up after hand 1 (BLD-5: Cy, who just posted the big blind, is the button and small blind; Bob the
    big blind, dealt first): Bob Kd Ks, Cy 7c 2h. Cy moves all in, Bob calls all in; the board 7s 7h 2s 3d 4s
    (burns Qs Jc Th) gives Cy sevens full. Bob busts: Cy takes 5 of Bob's 10 in cash and puts 5 more on his
    head (20); as the winner he takes his own head: Cy's cash 5 + 5 + 20 = 30, every bounty unit paid."""
    journal = [*opening(bounty=10), *HAND_1, START, *cards("Kd", "7c", "Ks", "2h"),
               act(3, "all_in"), act(2, "call"), *cards("Qs", "7s", "7h", "2s", "Jc", "3d", "Th", "4s")]
    played, result = replay(journal)
    assert reasons(result) == []
    bounties = played.state.bounties
    assert bounties is not None
    assert (dict(bounties.heads), dict(bounties.won)) == ({}, {"Cy": 30})
