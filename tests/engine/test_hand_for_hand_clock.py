"""TRN-5 (TDA RP-8): in hand-for-hand play "at most 3 minutes, preferably 2, come off the clock per hand, and
levels advance as that time runs out". The cap is the ``hand_for_hand_seconds`` policy, 120 (the TDA's preferred
2 minutes) in every preset. A hand-for-hand hand is one dealt while a pause waits for it (``resume`` with
``pause_after``, the room's round); time spent held between rounds never comes off (the clock stops).

Issue 20 item 9: a 360 s hand-for-hand hand took the whole 360 s off the level, and the next hand started at the
next level's blinds. Levels: 50/100 for 20 minutes (1,200 s), then 100/200. Three seats of 5,000; hand 1's
button is seat 1 and it moves one seat a hand. Three-handed the button acts first pre-flop: in each hand the
button and the small blind fold, and the big blind wins.
"""

from __future__ import annotations

from typing import Any

import pytest
from journal_kit import act, cards, replay, sit, table

from dealerpi.engine.policies import PolicyError, policies_for
from dealerpi.engine.table import Table

START: dict[str, Any] = {"type": "start"}
LEVELS = [{"blinds": [50, 100], "minutes": 20}, {"blinds": [100, 200], "minutes": 20}]
HOLE = cards("Ah", "Kh", "Qh", "Jh", "Th", "9h")


def tick(seconds: int) -> dict[str, Any]:
    return {"type": "tick", "seconds": seconds}


def hand(button: int, *extra: dict[str, Any]) -> list[dict[str, Any]]:
    """One hand on ``button``: START, the hole cards, ``extra`` (ticks), the button and the small blind fold."""
    small_blind = button % 3 + 1
    return [START, *HOLE, *extra, act(button, "fold"), act(small_blind, "fold")]


def opening(gone: int = 1000, **policies: Any) -> list[dict[str, Any]]:
    """Hand 1 (button seat 1) played with ``gone`` seconds of its level used; the room then holds the table for
    hand-for-hand."""
    extra: dict[str, Any] = {"policies": policies} if policies else {}
    config = table(rules="tournament", seats=3, levels=LEVELS, **extra)
    return [config, sit(1, 5000), sit(2, 5000), sit(3, 5000), {"type": "button", "seat": 1},
            *hand(1, tick(gone)), {"type": "pause", "reason": "hand-for-hand"}]


def elapsed(played: Table) -> tuple[int, int]:
    levels = played.state.levels
    assert levels is not None
    return levels.index, levels.elapsed


def test_trn5_a_360_s_hand_for_hand_hand_takes_120_s_off_the_level() -> None:
    """TRN-5: the round (``resume`` with ``pause_after`` 2) deals hand 2, which lasts 360 s in three ticks of 120.
    Only 120 s come off the level: 1,000 + 120 = 1,120 < 1,200, still level 1. The table is held after hand 2
    (the clock stops); the next round deals hand 3 at 50/100 (the old engine: 1,360 s, level 2, 100/200). Hand 3's
    button is seat 3: seat 1 posts 50, seat 2 100, and seat 1 gets the first card."""
    journal = [*opening(), {"type": "resume", "pause_after": 2}, *hand(2, tick(120), tick(120), tick(120))]
    played, result = replay(journal)
    assert result["rejected"] == []
    assert elapsed(played) == (0, 1120)
    journal += [tick(600), {"type": "resume", "pause_after": 3}, START]
    played, result = replay(journal)
    assert elapsed(played) == (0, 1120)                          # held between rounds: nothing came off
    assert result["next"] == {"expect": "card", "for": "seat 1"}
    assert result["hands"][2]["posts"] == {"1": {"live": 50, "dead": 0, "ante": 0},
                                           "2": {"live": 100, "dead": 0, "ante": 0}}


def test_trn5_levels_advance_as_the_hand_for_hand_time_runs_out() -> None:
    """TRN-5: "levels advance as that time runs out": with 150 s of level 1 left (1,050 s gone), three hands of
    100 s each take 100 s apiece: after hand 2 1,150; hand 3 reaches 1,200 + 50 = level 2 with 50 s gone; hand 4
    (button seat 1 again) is dealt at 100/200: seat 2 posts 100, seat 3 200. A tick while held comes off nothing."""
    journal = [*opening(gone=1050), tick(50), {"type": "resume", "pause_after": 2}, *hand(2, tick(100))]
    played, _ = replay(journal)
    assert elapsed(played) == (0, 1150)
    journal += [{"type": "resume", "pause_after": 3}, *hand(3, tick(100))]
    played, _ = replay(journal)
    assert elapsed(played) == (1, 50)
    journal += [{"type": "resume", "pause_after": 4}, START]
    _, result = replay(journal)
    assert result["hands"][3]["posts"] == {"2": {"live": 100, "dead": 0, "ante": 0},
                                           "3": {"live": 200, "dead": 0, "ante": 0}}


def test_trn5_a_hand_played_outside_hand_for_hand_is_on_the_clock_in_full() -> None:
    """TRN-1: a hand dealt with no pause waiting is played on the clock: 360 s in it are 360 s of the level."""
    journal = [*opening()[:-1], *hand(2, tick(360))]
    played, _ = replay(journal)
    assert elapsed(played) == (1, 160)                          # 1,000 + 360 = 1,360 = level 2 + 160


def test_trn5_the_cap_is_a_policy_0_means_the_whole_hand_comes_off() -> None:
    """The ``hand_for_hand_seconds`` policy: 180 (the TDA's most) lets 180 s of the 360 come off; 0 turns the
    cap off. The presets all say 120; a negative value is refused naming the policy."""
    journal = [*opening(hand_for_hand_seconds=180), {"type": "resume", "pause_after": 2}, *hand(2, tick(360))]
    assert elapsed(replay(journal)[0]) == (0, 1180)
    journal = [*opening(hand_for_hand_seconds=0), {"type": "resume", "pause_after": 2}, *hand(2, tick(360))]
    assert elapsed(replay(journal)[0]) == (1, 160)
    assert {policies_for(p).hand_for_hand_seconds for p in ("home", "casino", "online", "tournament")} == {120}
    with pytest.raises(PolicyError, match="hand_for_hand_seconds"):
        policies_for("tournament", {"hand_for_hand_seconds": -1})


def test_trn5_the_hand_for_hand_allowance_survives_a_checkpoint() -> None:
    """The allowance left in a hand is in the checkpoint: a table restarted from its snapshot mid-hand (60 s
    used) takes at most the 60 s left, like the table that never stopped."""
    journal = [*opening(), {"type": "resume", "pause_after": 2}, START, *HOLE, tick(60)]
    played, _ = replay(journal)
    restarted = Table.from_snapshot(played.snapshot())
    for t in (played, restarted):
        assert t.apply(tick(300)).accepted
    assert elapsed(played) == elapsed(restarted) == (0, 1120)
