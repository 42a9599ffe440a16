"""One recorder of finished hands (issue 22): every reader of a journal agrees on which hands are final and
on their PHH, and the last hand of a table that stops dealing is stored (issue 20 item 8).

A hand is final when the engine says so (``HandFinal``, engine/events.py): once it is complete and the table
accepts another input that is not a tick (a start, a leave, ...): then no undo can reach it any more."""

from __future__ import annotations

import json
from datetime import time
from pathlib import Path
from typing import Any

from journal_kit import JournalTable, act, cards, hand_records, replay_lines, sit, table

from dealerpi.console.histories import HandHistories
from dealerpi.engine import Table
from dealerpi.history.final_hands import FinalHands
from dealerpi.history.phh import dumps, loads
from dealerpi.history.replay import Status, replay

START: dict[str, Any] = {"type": "start"}


def _write(path: Path, entries: list[dict[str, Any]]) -> None:
    path.write_text("".join(json.dumps(entry) + "\n" for entry in entries), encoding="utf-8")


def test_issue20_8_a_broken_tables_last_hand_is_published_when_its_players_leave(tmp_path: Path) -> None:
    """Three-handed 1/3, button seat 1 (BLD-1: seat 2 small blind, seat 3 big blind, dealt from seat 2): seats 1
    and 2 fold, seat 3 wins the pot of 2 (his uncalled 2 back, POT-2). No next hand: the room breaks the
    table and its players leave. The bridge publishes hand 1 then, with the stacks it ended with: seat 2
    299, seat 3 301, seat 1 300 (in the hand's order, first left of the button)."""
    journal = tmp_path / "journal.jsonl"
    played = [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, START,
              *cards("As", "Kd", "Qh", "Jc", "Td", "9s"), act(1, "fold"), act(2, "fold")]
    _write(journal, played)
    bridge = FinalHands(journal)
    assert bridge.poll() == []                           # complete, but an UNDO may still reopen it
    _write(journal, [*played, *({"type": "leave", "seat": s} for s in (1, 2, 3))])
    [hand] = bridge.poll()
    assert (hand.seq, hand.number, hand.players) == (1, 1, ("P2", "P3", "P1"))
    record = loads(hand.phh, "hand 1")
    assert record.finishing_stacks == (299, 301, 300)
    assert bridge.poll() == []


DECK = [rank + suit for suit in "shdc" for rank in "AKQJT98765432"]


def _evening() -> list[dict[str, Any]]:
    """The journal, played against the engine (each line accepted): home rules with DEAL-9's dealt-and-killed
    policy, 1/3, seats 1-3 with 300, button seat 1.

    - hand 1: a misdeal after two cards (MIS-6, the redeal is hand 1), everyone checks down, the showdown is
      left open; a START settles it (POT-7) and deals hand 2; UNDO twice reaches back through that start into
      hand 1 (the start, then seat 1's river check); seat 1 checks again and START settles it again;
    - hand 2: a card that is no card of the deck fouls it (MIS-7); START deals it again (hand 2, at 20:07),
      the first two to act fold;
    - seat 3 leaves; heads-up, seat 2 is away: dealt in, killed when the 4th card lands (DEAL-9, TDA 30); the
      hand is over at the deal. Then seats 1 and 2 leave: the table stops dealing."""
    table = Table()
    lines: list[dict[str, Any]] = []
    deck = iter(DECK * 4)

    def feed(*entries: dict[str, Any]) -> None:
        for entry in entries:
            assert table.apply(entry).accepted, (entry, table.apply(entry).reason)
            lines.append(entry)

    def play(fold: bool) -> None:
        """Cards from the deck; every action a check or call (``fold``: the first two to act fold)."""
        folds = 2 if fold else 0
        while (expected := table.expectation().as_json())["expect"] in ("card", "burn", "action"):
            if expected["expect"] == "action" and folds:
                feed(act(expected["seat"], "fold"))
                folds -= 1
            elif expected["expect"] == "action":
                feed(act(expected["seat"], "call"))
            else:
                feed({"type": "card", "card": next(deck)})

    feed({"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3],
          "policies": {"absent_player": "dealt_killed"}},
         sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, {"type": "start", "at": "2026-11-26T20:00:00Z"},
         *cards("2s", "3s"), {"type": "misdeal"})
    play(fold=False)
    assert table.expectation().as_json()["expect"] == "showdown"
    feed({"type": "start", "at": "2026-11-26T20:05:00Z"}, {"type": "undo"}, {"type": "undo"})
    play(fold=False)
    feed({"type": "start", "at": "2026-11-26T20:06:00Z"}, *cards("4h", "Zz"))              # MIS-7: fouled
    assert table.between_hands
    feed({"type": "start", "at": "2026-11-26T20:07:00Z"})
    play(fold=True)
    feed({"type": "leave", "seat": 3}, {"type": "away", "seat": 2}, {"type": "start", "at": "2026-11-26T20:09:00Z"})
    play(fold=False)
    assert table.between_hands                                          # over at the deal: seat 2 killed
    feed({"type": "leave", "seat": 1}, {"type": "leave", "seat": 2})
    return lines


def test_the_readers_agree_on_the_final_hands_of_an_evening_with_undos_misdeals_a_foul_and_deal9(
        tmp_path: Path) -> None:
    """The bridge (FinalHands), the pages (HandHistories), the recorder over the inputs less those undone and
    ``dealerpi replay --journal`` give the same hands: 1, 2 and 3 as PHH (the misdealt and the fouled deal
    are no hands, MIS-6, MIS-7), with the same PHH text, each the time of the start that dealt it (hand 2: the
    fouled deal's replay). Hand 3
    writes seat 2's killed hand as a fold at its turn (DEAL-9) and replays to the table's stacks. Before the
    last two leaves hand 3 is complete but not final (an UNDO may reopen it): no reader has it."""
    lines = _evening()
    journal = tmp_path / "journal.jsonl"
    bridge, pages = FinalHands(journal), HandHistories(journal)
    _write(journal, lines[:-2])
    assert [hand.number for hand in bridge.poll()] == [1, 2]
    pages.poll()
    assert [hand.number for hand in pages.played] == [1, 2]
    _write(journal, lines)
    given = [*((h.seq, h.number) for h in bridge.hands)]
    bridge.poll()
    pages.poll()
    assert [(h.seq, h.number) for h in bridge.hands] == [*given, (3, 3)] == [(1, 1), (2, 2), (3, 3)]
    untrimmed = JournalTable()
    for entry in lines:
        untrimmed.apply(entry)
    records, skipped = hand_records(untrimmed.accepted)
    assert skipped == []
    texts = [dumps(record) for record in records]
    assert [hand.phh for hand in bridge.hands] == texts
    assert [hand.number for hand in pages.played] == [1, 2, 3]
    assert [dumps(hand.phh) for hand in pages.played if hand.phh is not None] == texts
    assert [record.extra["time"] for record in records] == [time(20, 0), time(20, 7), time(20, 9)]
    replayed = [(data["number"], data["misdeal"]) for deal in replay_lines(json.dumps(e) for e in lines).table.records
                for data in [deal.as_json()]]
    assert replayed == [(1, True), (1, False), (2, True), (2, False), (3, False)]
    three = records[2]
    assert three.players is not None and len(three.players) == 2
    assert any(action.endswith("f # killed") for action in three.actions)
    assert replay(three).status is Status.MATCH


def test_each_hand_keeps_its_inputs_less_those_undone_through_the_start_that_settled_it_pot_7(
        tmp_path: Path) -> None:
    """The console's replay of a hand steps through its inputs, which the recorder keeps (keep_inputs): those
    accepted from the start that dealt it up to the input that made it final, less those undone. The
    untrimmed reference is every accepted input less those undone (JournalTable). Hand 1 (the 20:00 start):
    its misdeal (MIS-6) and redeal, not the start at 20:05 nor the check after it (both undone), then the
    start at 20:06 that settled its open showdown (POT-7) and the fouled deal it dealt (MIS-7), up to the
    start at 20:07 that made it final. Hand 2 (dealt again at 20:07): up to seat 3's leave. Hand 3 (20:09): up
    to seat 1's leave."""
    lines = _evening()
    journal = tmp_path / "journal.jsonl"
    _write(journal, lines)
    pages = HandHistories(journal)
    pages.poll()
    untrimmed = JournalTable()
    for entry in lines:
        untrimmed.apply(entry)
    accepted = untrimmed.accepted
    starts = {entry["at"][11:16]: index for index, entry in enumerate(accepted) if entry["type"] == "start"}
    assert sorted(starts) == ["20:00", "20:06", "20:07", "20:09"]          # 20:05 was undone
    leave3, leave1 = accepted.index({"type": "leave", "seat": 3}), accepted.index({"type": "leave", "seat": 1})
    assert [(hand.number, list(hand.inputs)) for hand in pages.played] == [
        (1, accepted[starts["20:00"]:starts["20:07"]]), (2, accepted[starts["20:07"]:leave3]),
        (3, accepted[starts["20:09"]:leave1])]
    assert [hand.at for hand in pages.played] == [
        "2026-11-26T20:00:00Z", "2026-11-26T20:07:00Z", "2026-11-26T20:09:00Z"]
