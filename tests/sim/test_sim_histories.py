"""The evening's hand histories: finished hands written as PHH from the engine's own hands, by the one
recorder of finished hands (dealerpi/history/recorder.py) that the console, and so the simulator, use."""

from __future__ import annotations

import asyncio
import datetime
import json
from pathlib import Path
from typing import Any

from journal_kit import JournalTable, hand_records
from simkit import running_sim

from dealerpi.engine import PotPaid
from dealerpi.history.phh import dumps_all, loads_all
from dealerpi.history.replay import Status, replay
from dealerpi.room.director.stats import hand_time
from dealerpi.sim.server import START_JOURNAL

# Seat 1 Ann 300 (button), seat 2 Bob 200 (small blind 1), seat 3 Cy 100 (big blind 3). The shoe deals from
# the small blind around: Bob Kh, Cy Qh, Ann Ah, Bob Kd, Cy Qd, Ann Ad.
DEAL = ["Kh", "Qh", "Ah", "Kd", "Qd", "Ad"]
# Ann moves in for 300, Bob calls all-in for 200, Cy calls all-in for 100. Burn 2s, flop 2c 7d 9s, burn 5s,
# turn 3h, burn 6s, river Jc: no straight, no flush, so aces beat kings beat queens.
ACTIONS = [{"type": "act", "seat": 1, "action": "raise", "to": 300},
           {"type": "act", "seat": 2, "action": "call"},
           {"type": "act", "seat": 3, "action": "call"}]
BOARD = ["2s", "2c", "7d", "9s", "5s", "3h", "6s", "Jc"]


def side_pot_hand() -> list[dict[str, Any]]:
    inputs = [json.loads(line) for line in START_JOURNAL.read_text().splitlines()]
    inputs.append({"type": "start"})
    inputs += [{"type": "card", "card": card} for card in DEAL]
    inputs += ACTIONS
    inputs += [{"type": "card", "card": card} for card in BOARD]
    return inputs


def test_a_side_pot_hand_is_written_as_phh_and_replays_to_the_same_stacks() -> None:
    """POT-1, POT-2: main pot 3 x 100 = 300 (seats 1-3), side pot 2 x 100 = 200 (seats 1, 2), Ann's last 100
    unmatched comes back; Ann's aces win both: 300 - 300 + 300 + 200 + 100 = 600, Bob 0, Cy 0."""
    table = JournalTable()
    for entry in side_pot_hand():
        assert table.apply(entry).accepted, entry
    assert table.expectation().as_json() == {"expect": "start"}
    assert table.records[-1].pots == [PotPaid(300, (2, 3, 1), ((1, 300),)), PotPaid(200, (2, 1), ((1, 200),))]
    [record], skipped = hand_records(table.accepted)
    assert skipped == []
    assert record.variant == "NT"
    assert record.players == ("Bob", "Cy", "Ann")             # p1 is left of the button: the small blind
    assert record.starting_stacks == (200, 100, 300)
    assert record.blinds_or_straddles == (1, 3, 0) and record.antes == (0, 0, 0) and record.min_bet == 3
    assert record.actions == ("d dh p1 KhKd", "d dh p2 QhQd", "d dh p3 AhAd",
                              "p3 cbr 300", "p1 cc", "p2 cc",
                              "p1 sm KhKd", "p2 sm QhQd", "p3 sm AhAd",     # POT-5: all-in, all shown at once
                              "d db 2c7d9s", "d db 3h", "d db Jc")    # one line a street, as PHH writes it
    assert record.finishing_stacks == (0, 0, 600)
    assert record.extra == {"hand": 1, "seats": [2, 3, 1], "seat_count": 6}
    [again] = loads_all(dumps_all(hand_records(table.accepted)[0]))
    assert again.actions == record.actions and again.finishing_stacks == record.finishing_stacks
    assert replay(again).status is Status.MATCH


def test_a_hand_is_written_with_its_starts_time_and_a_start_without_one_gives_none() -> None:
    """The start journaled at 2026-11-24T22:05:09+01:00 (the daemon writes "at" in UTC; any offset is read
    as such) is 21:05:09 UTC: PHH's year, month, day, time and time_zone (phh-std optional.rst). Seconds
    since the epoch, by hand: 1970-2025 is 56 years with 14 leap days (1972..2024): 20,454 days; to November
    24, 2026: 31+28+31+30+31+30+31+31+30+31 + 23 = 327 days; 20,781 x 86,400 = 1,795,478,400, plus 21 h 5 min
    9 s = 75,909: 1,795,554,309. The same hand's start without "at" has no time keys and no time."""
    inputs = side_pot_hand()
    inputs[inputs.index({"type": "start"})] = {"type": "start", "at": "2026-11-24T22:05:09+01:00"}
    [record], _ = hand_records(inputs)
    assert record.extra == {"hand": 1, "year": 2026, "month": 11, "day": 24, "time": datetime.time(21, 5, 9),
                            "time_zone": "UTC", "seats": [2, 3, 1], "seat_count": 6}
    text = dumps_all(hand_records(inputs)[0])
    assert 'year = 2026\nmonth = 11\nday = 24\ntime = 21:05:09\ntime_zone = "UTC"\n' in text
    [again] = loads_all(text)
    assert hand_time(again) == 1_795_554_309
    [untimed], _ = hand_records(side_pot_hand())
    assert "time" not in untimed.extra and hand_time(untimed) is None


def test_misdeals_are_not_hands_and_an_undo_takes_a_hand_back() -> None:
    """MIS-1: a misdeal before substantial action voids the deal; the redeal is the hand that counts."""
    table = JournalTable()
    inputs = side_pot_hand()
    start = inputs.index({"type": "start"})
    for entry in inputs[:start + 2]:
        assert table.apply(entry).accepted
    assert table.apply({"type": "misdeal"}).accepted
    for entry in inputs[start + 1:]:
        assert table.apply(entry).accepted, entry
    records, _ = hand_records(table.accepted)
    assert [r.finishing_stacks for r in records] == [(0, 0, 600)]
    assert table.apply({"type": "undo"}).accepted          # the river card is taken back: no hand is over
    assert hand_records(table.accepted) == ([], [])


def test_a_hand_phh_cannot_write_is_named_not_dropped_silently() -> None:
    """Seed 000: File 'em has no PHH variant code; the file says which hand is missing and why."""
    table = JournalTable()
    inputs: list[dict[str, Any]]
    inputs = [{"type": "table", "game": "fileem-nl", "rules": "home", "seats": 6, "blinds": [1, 3]},
              {"type": "sit", "seat": 1, "player": "Ann", "stack": 300},
              {"type": "sit", "seat": 2, "player": "Bob", "stack": 300},
              {"type": "button", "seat": 1}, {"type": "start"}]
    inputs += [{"type": "card", "card": card} for card in ["1s", "2s", "3s", "4s", "5s", "6s"]]
    for entry in inputs:
        assert table.apply(entry).accepted, entry
    first = table.expectation().as_json()["seat"]
    assert table.apply({"type": "act", "seat": first, "action": "fold"}).accepted
    assert table.expectation().as_json() == {"expect": "start"}
    assert hand_records(table.accepted) == ([], ["hand 1: the game 'fileem-nl' has no PHH variant code"])


def test_deal9_a_hand_with_an_absent_players_killed_hand_is_written() -> None:
    """DEAL-9 (TDA 30): in a tournament seat 3 (Cy, the big blind) is away: dealt in, blinds posted, his hand
    killed. Ann (the button, first to act) folds, so Bob (the small blind) wins his 50 back and Cy's 100:
    Bob 1,500 - 50 + 150 = 1,600, Cy 1,400, Ann 1,500. The PHH record folds Cy at his turn, after Bob calls
    to 100 (PHH players act only in turn), and replays to the same stacks."""
    inputs: list[dict[str, Any]]
    inputs = [{"type": "table", "game": "nlhe", "rules": "tournament", "seats": 3, "blinds": [50, 100]},
              {"type": "sit", "seat": 1, "player": "Ann", "stack": 1500},
              {"type": "sit", "seat": 2, "player": "Bob", "stack": 1500},
              {"type": "sit", "seat": 3, "player": "Cy", "stack": 1500},
              {"type": "away", "seat": 3}, {"type": "button", "seat": 1}, {"type": "start"}]
    inputs += [{"type": "card", "card": card} for card in DEAL]
    inputs.append({"type": "act", "seat": 1, "action": "fold"})
    table = JournalTable()
    for entry in inputs:
        assert table.apply(entry).accepted, entry
    [record], skipped = hand_records(table.accepted)
    assert skipped == []
    assert record.players == ("Bob", "Cy", "Ann")
    assert record.actions == ("d dh p1 KhKd", "d dh p2 QhQd", "d dh p3 AhAd", "p3 f", "p1 cc", "p2 f # killed")
    assert record.finishing_stacks == (1600, 1400, 1500)
    assert replay(record).status is Status.MATCH


def test_a_showdown_left_open_is_written_when_start_settles_it_pot_7() -> None:
    """POT-7: checked down, nobody tables a hand; START settles the showdown (the engine reads the hands) and
    deals hand 2, and the record written is hand 1's. Ann calls 3, Bob completes, Cy checks: pot 9 to Ann's
    aces: Bob 200 - 3 = 197, Cy 100 - 3 = 97, Ann 300 - 3 + 9 = 306. An undo reaches back through that start
    into hand 1 (the engine takes it within the hand), so hand 1 is final with hand 2: Bob on the button folds,
    Cy folds his small blind (engine/events.py)."""
    inputs = side_pot_hand()
    inputs[inputs.index(ACTIONS[0]):] = [{"type": "act", "seat": 1, "action": "call"},
                                         {"type": "act", "seat": 2, "action": "call"},
                                         {"type": "act", "seat": 3, "action": "check"}]
    for street in (BOARD[:4], BOARD[4:6], BOARD[6:]):
        inputs += [{"type": "card", "card": card} for card in street]
        inputs += [{"type": "act", "seat": seat, "action": "check"} for seat in (2, 3, 1)]
    table = JournalTable()
    for entry in [*inputs, {"type": "start"}]:
        assert table.apply(entry).accepted, entry
    assert hand_records(table.accepted) == ([], [])
    hand_2: list[dict[str, Any]] = [*({"type": "card", "card": card} for card in DEAL),
                                    {"type": "act", "seat": 2, "action": "fold"},
                                    {"type": "act", "seat": 3, "action": "fold"}]
    for entry in hand_2:
        assert table.apply(entry).accepted, entry
    [record, _], skipped = hand_records(table.accepted)
    assert skipped == []
    assert (record.extra["hand"], record.finishing_stacks) == (1, (197, 97, 306))
    assert record.actions[-3:] == ("p1 cc", "p2 cc", "p3 cc")
    assert replay(record).status is Status.MATCH


def test_deal9_a_hand_over_at_the_deal_is_written_as_its_own_hand() -> None:
    """DEAL-9 heads-up (tournament, blinds 50/100): after hand 1 (Ann, the button, folds her small blind: Ann
    1,450, Bob 1,550) Bob goes away; in hand 2 both are dealt in (the big blind, Ann, first: DEAL-2) and Bob
    (the button, small blind 50) is killed when the last card lands (TDA 30); Ann wins at once: 1,450 + 50 =
    1,500, Bob 1,500. Hand 2 is written (not hand 1 again): the hole cards as dealt (2c 3c 4c 5c: Ann 2c 4c,
    Bob 3c 5c), and Bob's fold at his turn, first pre-flop heads-up (BLD-4)."""
    inputs: list[dict[str, Any]]
    inputs = [{"type": "table", "game": "nlhe", "rules": "tournament", "seats": 2, "blinds": [50, 100]},
              {"type": "sit", "seat": 1, "player": "Ann", "stack": 1500},
              {"type": "sit", "seat": 2, "player": "Bob", "stack": 1500},
              {"type": "button", "seat": 1}, {"type": "start"},
              *({"type": "card", "card": card} for card in DEAL[:4]),
              {"type": "act", "seat": 1, "action": "fold"}, {"type": "away", "seat": 2}, {"type": "start"},
              *({"type": "card", "card": card} for card in ("2c", "3c", "4c", "5c"))]
    table = JournalTable()
    for entry in inputs:
        assert table.apply(entry).accepted, entry
    records, skipped = hand_records(table.accepted)
    assert skipped == []
    assert [(r.extra["hand"], r.players, r.finishing_stacks) for r in records] == [
        (1, ("Bob", "Ann"), (1550, 1450)), (2, ("Ann", "Bob"), (1500, 1500))]
    assert records[1].actions == ("d dh p1 2c4c", "d dh p2 3c5c", "p2 f # killed")
    assert all(replay(record).status is Status.MATCH for record in records)


def test_the_simulators_host_page_lists_the_hands(tmp_path: Path) -> None:
    """Issue 19 item 6: the simulator started the console without its journal, so the host's hands list
    answered "503: this console has no journal". A hand played to its end (Ann on the button and Bob in the
    small blind fold; the pot is Bob's 1 and the 1 of Cy's big blind it matches, the other 2 go back to Cy
    unmatched) and the next start journaled: it is listed."""
    lines = START_JOURNAL.read_text().splitlines() + [json.dumps(entry) for entry in (
        {"type": "start"}, *({"type": "card", "card": card} for card in DEAL),
        {"type": "act", "seat": 1, "action": "fold"}, {"type": "act", "seat": 2, "action": "fold"},
        {"type": "start"})]

    async def body() -> dict[str, Any]:
        async with running_sim(tmp_path, lines=lines) as sim:
            answer = await sim.session.get(f"{sim.url}/hands.json?view=host")
            assert answer.status == 200, await answer.text()
            return dict(await answer.json())

    listed = asyncio.run(body())
    assert [(hand["number"], hand["pot"]) for hand in listed["hands"]] == [(1, 2)]
