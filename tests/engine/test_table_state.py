"""The table between hands as an immutable record, its JSON checkpoint, and undo reaching back one hand.

``Table.snapshot()`` is the record before the last hand plus the inputs accepted since; ``from_snapshot`` must
rebuild a table that is equal (same record, same hand in progress, same next input) and that goes on exactly
as the original does. Journals: a tournament with levels, a bust (TRN-4), a fouled deck and its redeal (MIS-7,
TRN-10), a reserved stack (seed 001), missed blinds (BLD-7).
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest
from journal_kit import act, cards, play_of, sit, table

from dealerpi.engine import Posted, PotPaid, Table, Waiting
from dealerpi.engine.inputs import InputError
from dealerpi.engine.state import TableState

START: dict[str, Any] = {"type": "start"}
LEVELS = [{"blinds": [50, 100], "minutes": 20}, {"blinds": [100, 200], "ante": 25, "minutes": 20},
          {"break": True, "minutes": 10}, {"blinds": [150, 300], "bb_ante": 300, "minutes": 20}]
BOARD = ["Qs", "Kc", "9d", "4h", "Qc", "Js", "Qd", "3s"]


def tournament_journal() -> list[dict[str, Any]]:
    """Seat 2 (1000) busts in hand 1 (TRN-4); a reserved stack waits on seat 4 (seed 001); level 2 begins during
    hand 2, whose deck is then fouled (Ah read twice, MIS-7); the redeal is played at level 1 (TRN-10)."""
    journal = [table(rules="tournament", seats=4, blinds=(50, 100), buy_in=20, levels=LEVELS)]
    journal += [sit(1, 3000), sit(2, 1000), sit(3, 3000), {"type": "button", "seat": 1}, START]
    journal += cards("7h", "Ah", "4c", "2d", "Ad", "5d")                      # seats 2, 3, 1, twice
    journal += [act(1, "fold"), act(2, "all_in"), act(3, "call"), *cards(*BOARD)]
    journal += [{"type": "sit", "seat": 4, "player": "late", "stack": 3000, "reserved": True}, START]
    journal += [{"type": "tick", "seconds": 1200}, *cards("Ah", "Ah"), START]
    journal += cards("2c", "3c", "4d", "5h", "6c", "7d")
    return journal


def cash_journal() -> list[dict[str, Any]]:
    """A home game: seat 4 is away for hand 1 and misses the blinds (BLD-7); seat 2 (the small blind) folds
    to the big blind and tops up his 1 lost chip; seat 4 comes back to post; hand 2 is half dealt."""
    journal = [table(seats=6), sit(1), sit(2), sit(3), sit(4), {"type": "button", "seat": 1}]
    journal += [{"type": "away", "seat": 4}, START, *cards(*[r + "h" for r in "234567"])]
    journal += [act(1, "fold"), act(2, "fold")]
    journal += [{"type": "chips", "seat": 2, "amount": 1}, {"type": "back", "seat": 4, "post": True}, START]
    journal += cards("As", "Ks", "Qs", "Js", "Ts", "9s", "8s", "7s")
    return journal


def restored(played: Table) -> Table:
    """The table rebuilt from its snapshot, written as JSON text and read back."""
    return Table.from_snapshot(json.loads(json.dumps(played.snapshot())))


def same_table(a: Table, b: Table) -> None:
    assert a.state == b.state
    assert a.expectation() == b.expectation()
    assert (a.hand_number, a.between_hands, a.dealt_seats()) == (b.hand_number, b.between_hands, b.dealt_seats())
    assert [(a.seat(s), a.hole_cards(s)) for s in a.dealt_seats()] == \
           [(b.seat(s), b.hole_cards(s)) for s in b.dealt_seats()]
    assert (a.board(), a.cards_read()) == (b.board(), b.cards_read())


@pytest.mark.parametrize("journal", [tournament_journal(), cash_journal()], ids=["tournament", "cash"])
def test_a_snapshot_after_every_input_rebuilds_the_same_table_which_goes_on_the_same(
        journal: list[dict[str, Any]]) -> None:
    """After each input of the journal, the snapshot (through JSON text) rebuilds an equal table; applying the
    rest of the journal to both gives equal tables again, input by input, with the same outcomes."""
    played = Table()
    for k, entry in enumerate(journal):
        outcome = played.apply(entry)
        assert outcome.accepted, (k, entry, outcome.reason)
        again = restored(played)
        same_table(played, again)
    again = restored(played)
    for entry in [*cards("2s", "3s"), {"type": "undo"}, *cards("3s")]:
        assert played.apply(entry) == again.apply(entry)
        same_table(played, again)


def test_the_record_carries_the_tournament_and_a_pending_redeal() -> None:
    """The record between hands holds what the next hand needs: after the fouled deck (MIS-7) the redeal's plan
    at the old level (TRN-10: 50/100 though level 2 began), the standings after seat 2's bust (3rd of 3, a pool
    of 3 x 20 = 60), the reserved stack (no entrant), and the level clock (level 2, 0 s in)."""
    played = Table()
    journal = tournament_journal()
    second = journal.index(START, journal.index(START) + 1)
    for entry in journal[: second + 1]:
        assert played.apply(entry).accepted
    plan = play_of(played).plan
    for entry in journal[second + 1: second + 4]:
        assert played.apply(entry).accepted
    state = played.state
    assert played.between_hands and state.redeal is not None
    assert state.redeal.stakes == (50, 100, 0, 0) and state.redeal.plan == plan
    assert state.standings is not None and (state.standings.pool, state.standings.remaining) == (60, 2)
    assert [(s.seat, s.reserved) for s in state.seats] == [(1, False), (3, False), (4, True)]
    assert state.levels is not None and (state.levels.index, state.levels.elapsed) == (1, 0)
    assert TableState.from_json(json.loads(json.dumps(state.as_json()))) == state


def test_the_record_is_immutable_and_a_change_makes_a_new_one() -> None:
    """A handler never changes a record: the one before a ``sit`` is unchanged after it."""
    played = Table()
    played.apply(table())
    before = played.state
    assert played.apply(sit(1)).accepted
    assert before.seats == () and played.state.seat(1) is not None
    with pytest.raises(dataclasses.FrozenInstanceError):
        before.hand_number = 3        # type: ignore[misc]


def test_a_snapshot_holds_only_this_hands_inputs() -> None:
    """O(this hand): after two hands, the snapshot's inputs start at the last ``start``; the record before it
    has hand number 1 (the hand the first start dealt)."""
    played = Table()
    journal = cash_journal()
    for entry in journal:
        assert played.apply(entry).accepted
    data = played.snapshot()
    last_start = len(journal) - 1 - journal[::-1].index(START)
    assert data["inputs"] == journal[last_start:]
    assert data["state"]["hand_number"] == 1


def test_undo_reaches_back_to_the_start_of_the_last_hand_and_no_further() -> None:
    """Undo rebuilds from the record before the hand: the start itself can be taken back, the seat before it
    cannot (the table does not keep earlier inputs)."""
    played = Table()
    for entry in [table(), sit(1), sit(2), START, *cards("Ah")]:
        assert played.apply(entry).accepted
    assert played.apply({"type": "undo"}).accepted
    assert played.apply({"type": "undo"}).accepted                      # the start
    assert played.expectation().waiting is Waiting.START and played.play is None
    outcome = played.apply({"type": "undo"})
    assert (outcome.accepted, outcome.reason) == (False, "nothing to undo")
    assert played.state.seat(2) is not None


@pytest.mark.parametrize(("document", "message"), [
    ({"version": 2}, "checkpoint: not a version 1 table snapshot"),
    ({"version": 1, "state": {}, "inputs": "x"}, 'checkpoint: bad "inputs"'),
    ({"version": 1, "state": {"seats": "ab"}, "inputs": []}, 'table state: bad "seats"'),
    ({"version": 1, "state": {"seats": [], "lineup": {"missed": {}, "no_button": []}, "hand_number": "1"},
      "inputs": []}, 'table state: bad "hand_number"'),
])
def test_a_bad_checkpoint_is_an_input_error_naming_the_key(document: dict[str, Any], message: str) -> None:
    with pytest.raises(InputError) as error:
        Table.from_snapshot(document)
    assert str(error.value) == message


def test_a_refused_start_keeps_what_undo_can_reach() -> None:
    """BLD-1: one player cannot be dealt a hand, so the start is refused; the sit before it can still be
    taken back, and then the table has no seat 1."""
    played = Table()
    for entry in [table(), sit(1)]:
        assert played.apply(entry).accepted
    assert not played.apply(START).accepted
    assert played.apply({"type": "undo"}).accepted
    assert played.state.seats == ()


def fold_round_hand(played: Table, deck: list[str]) -> None:
    """START, deal three seats, and fold to the big blind (whoever is to act folds: 3-handed, two folds)."""
    assert played.apply(START).accepted
    for entry in cards(*deck):
        assert played.apply(entry).accepted
    while played.expectation().waiting is Waiting.ACTION:
        assert played.apply(act(played.expectation().seat or 0, "fold")).accepted


def test_records_kept_bounds_the_deals_a_daemon_holds_and_undo_still_reaches_the_last_start() -> None:
    """A daemon keeps one deal from before the current hand (the journal folder is the evening's record):
    each start drops all but the last earlier deal, so after hands 1-3 the table holds hands 2 and 3 (hand 1
    went at hand 3's start), after hand 4's start only hand 3; undoing that start gives back the table between
    hands 3 and 4 with hand 3 still held; the button moved once per hand, 1 -> 2 -> 3 (BLD-1)."""
    played = Table()
    played.records_kept = 1
    for entry in [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}]:
        assert played.apply(entry).accepted
    deck = ["2h", "3h", "4h", "5h", "6h", "7h"]
    for _ in range(3):
        fold_round_hand(played, deck)
    assert [record.number for record in played.records] == [2, 3]
    assert played.apply(START).accepted
    assert [record.number for record in played.records] == [3]
    assert played.apply({"type": "undo"}).accepted
    assert [record.number for record in played.records] == [3]
    assert played.expectation().waiting is Waiting.START
    assert played.button() == 3


def test_every_deal_is_kept_without_records_kept() -> None:
    """The default (journal replay, simulator): every deal of the evening stays on record."""
    played = Table()
    for entry in [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}]:
        played.apply(entry)
    for _ in range(3):
        fold_round_hand(played, ["2h", "3h", "4h", "5h", "6h", "7h"])
    played.apply(START)
    assert [record.number for record in played.records] == [1, 2, 3]


# A checkpoint as the first version of the format wrote it (written by hand from docs/journal.md): no "paused"
# (TRN-5 came later), no "passing" in the lineup (BLD-8 B21 came later), the config as its "table" input.
# Ann (seat 1, 300) placed the button, Bob (seat 2, 200) and Cy (seat 3, 100); hand 1 dealt, Ann to act.
OLD_CHECKPOINT = """{"version": 1,
 "state": {"config": {"type": "table", "game": "nlhe", "rules": "home", "seats": 6, "blinds": [1, 3]},
           "seats": [{"seat": 1, "player": "Ann", "stack": 300, "away": false, "new": true, "wants_to_post": false,
                      "reserved": false},
                     {"seat": 2, "player": "Bob", "stack": 200, "away": false, "new": true, "wants_to_post": false,
                      "reserved": false},
                     {"seat": 3, "player": "Cy", "stack": 100, "away": false, "new": true, "wants_to_post": false,
                      "reserved": false}],
           "lineup": {"button": null, "sb": null, "bb": null, "missed": {}, "no_button": [], "start": 1,
                      "bb_poster": null},
           "hand_number": 0, "levels": null, "standings": null, "redeal": null},
 "inputs": [{"type": "start"}, {"type": "card", "card": "Kh"}, {"type": "card", "card": "Qh"},
            {"type": "card", "card": "Ah"}, {"type": "card", "card": "Kd"}, {"type": "card", "card": "Qd"},
            {"type": "card", "card": "Ad"}]}"""


def test_an_old_checkpoint_loads_and_its_deal_is_written_with_typed_posts_and_pots_pot_2() -> None:
    """The first format's checkpoint still loads (issue 11: the deal's posts and pots became typed records; the
    checkpoint format did not change). Button seat 1: Bob posts the small blind 1, Cy the big blind 3. Ann raises
    to 9, both fold: POT-2 gives Ann back the 6 nobody called; the pot is 1 + 3 + 3 = 7, all Ann's:
    Ann 300 - 9 + 6 + 7 = 304, Bob 199, Cy 97."""
    loaded = Table.from_snapshot(json.loads(OLD_CHECKPOINT))
    assert loaded.expectation().waiting is Waiting.ACTION and loaded.expectation().seat == 1
    for entry in (act(1, "raise", 9), act(2, "fold"), act(3, "fold")):
        assert loaded.apply(entry).accepted, entry
    [deal] = loaded.records
    assert deal.posts == {2: Posted(live=1), 3: Posted(live=3)}
    assert deal.pots == [PotPaid(7, (1,), ((1, 7),))]
    assert [loaded.seat(s).stack for s in (1, 2, 3)] == [304, 199, 97]
    assert deal.as_json() == {"number": 1, "button": 1, "boards": [[]], "irregularities": [], "misdeal": False,
                              "posts": {"2": {"live": 1, "dead": 0, "ante": 0}, "3": {"live": 3, "dead": 0, "ante": 0}},
                              "pots": [{"amount": 7, "eligible": [1], "won": {"1": 7}}]}
