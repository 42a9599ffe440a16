"""The shot clock with time banks (issue 20; TRN-2, TDA 29: "25 seconds plus a 5-second countdown").

With the ``shot_clock`` policy (seconds, 0 = off) every decision is on the clock, without anyone calling it:
``shot_clock`` seconds plus ``clock_countdown`` (the tournament preset's 5), pre-flop ``shot_clock_preflop``
seconds instead when it is set (per-street durations). When the time is up the hand is folded facing a bet and
checked otherwise (POT-9, TDA 29); an action journaled before the tick that ends the count stands (ties go to
the player). ``time_banks`` tokens of ``time_bank_seconds`` each: a player whose time is up and who has a token
left gets that much more (plus the countdown), once per token; the tokens come back at every break (TRN-1).

The engine has no clock: time is the journal's ``tick`` inputs, so a replay agrees. Expected values are worked
from those rules by hand. Table: tournament preset, 3 seats of 1,000 at 50/100, button seat 1: seat 2 the
small blind, seat 3 the big blind; three-handed the button (seat 1) acts first pre-flop and seat 2 first after.
"""

from __future__ import annotations

from typing import Any

from journal_kit import act, cards, replay, sit, stacks, table

from dealerpi.engine.table import Table
from dealerpi.views.build import seat_view
from dealerpi.views.render import HEIGHT, ROW_H, WIDTH, render_seat

START: dict[str, Any] = {"type": "start"}
HOLE = cards("Ah", "Kh", "Qh", "Jh", "Th", "9h")
FLOP = cards("2c", "3c", "4c", "5c")                     # burn, then the flop


def tick(seconds: int) -> dict[str, Any]:
    return {"type": "tick", "seconds": seconds}


def dealt(levels: list[dict[str, Any]] | None = None, **policies: Any) -> list[dict[str, Any]]:
    """Hand 1 with its hole cards dealt: the action is on seat 1, facing the big blind of 100."""
    extra: dict[str, Any] = {"levels": levels} if levels else {}
    return [table(rules="tournament", seats=3, blinds=(50, 100), policies=policies, **extra),
            sit(1, 1000), sit(2, 1000), sit(3, 1000), {"type": "button", "seat": 1}, START, *HOLE]


def trn2(result: dict[str, Any]) -> list[str]:
    return [a["message"] for a in result["alerts"] if a["rule"] == "TRN-2"]


def clock_of(played: Table, seat: int) -> tuple[int | None, bool]:
    view = seat_view(played, seat)
    return view.clock, view.clock_final


def test_trn2_shot_clock_facing_a_bet_the_hand_is_folded_at_30_seconds() -> None:
    """25 s + 5 s: after 29 s seat 1 still acts; the 30th second folds his hand (he faces the big blind). The
    action passes to seat 2 with a fresh 30 s."""
    journal = [*dealt(shot_clock=25), tick(29)]
    _, result = replay(journal)
    assert result["next"]["seat"] == 1 and trn2(result) == []
    journal.append(tick(1))
    played, result = replay(journal)
    assert trn2(result) == ["Time: seat 1's hand is folded"]
    assert result["next"]["seat"] == 2
    assert clock_of(played, 2) == (30, False)


def test_trn2_shot_clock_not_facing_a_bet_the_hand_is_checked() -> None:
    """Seats 1 and 2 call 100; the big blind may check: his 30 s run out and he checks. The flop is due."""
    journal = [*dealt(shot_clock=25), act(1, "call"), act(2, "call"), tick(30)]
    _, result = replay(journal)
    assert trn2(result) == ["Time: seat 3's hand is checked"]
    assert result["next"] == {"expect": "burn"}
    assert stacks(result) == {1: 900, 2: 900, 3: 900}


def test_trn2_an_action_journaled_before_the_last_tick_stands() -> None:
    """TDA 29, ties go to the player: seat 1 calls after 29 s, before the tick that would end his count; the call
    stands, and seat 2's own clock starts from 0 (one second later it has 29 s left)."""
    journal = [*dealt(shot_clock=25), tick(29), act(1, "call"), tick(1)]
    played, result = replay(journal)
    assert result["rejected"] == [] and trn2(result) == []
    assert result["next"]["seat"] == 2
    assert clock_of(played, 2) == (29, False)


def test_trn2_the_seat_display_counts_down_the_last_five_seconds_distinct() -> None:
    """The acting seat's view carries the seconds left; the last 5 (the countdown) are flagged; no other seat
    shows a clock. 20 s in: 10 left; 26 s in: 4 left, in the countdown."""
    journal = [*dealt(shot_clock=25), tick(20)]
    played, _ = replay(journal)
    assert [clock_of(played, s) for s in (1, 2, 3)] == [(10, False), (None, False), (None, False)]
    played, _ = replay([*journal, tick(6)])
    assert clock_of(played, 1) == (4, True)


def test_trn2_per_street_durations() -> None:
    """``shot_clock_preflop`` 15, ``shot_clock`` 30: pre-flop 15 + 5 = 20 s, then 30 + 5 = 35 s on the flop.
    Pre-flop seat 1 calls, seat 2 calls, seat 3 checks; on the flop seat 2 acts first: 34 s leave him live, the
    35th checks his hand; then seat 3 has 35 s."""
    journal = [*dealt(shot_clock=30, shot_clock_preflop=15)]
    played, _ = replay(journal)
    assert clock_of(played, 1) == (20, False)
    journal += [act(1, "call"), act(2, "call"), act(3, "check"), *FLOP, tick(34)]
    played, result = replay(journal)
    assert result["next"]["seat"] == 2 and clock_of(played, 2) == (1, True)
    journal.append(tick(1))
    played, result = replay(journal)
    assert trn2(result) == ["Time: seat 2's hand is checked"]
    assert clock_of(played, 3) == (35, False)


def test_trn2_time_banks_are_used_when_time_is_up_and_come_back_at_the_break() -> None:
    """Two tokens of 30 s. Seat 1's 30 s run out: a token gives him 30 s + the 5 s countdown (1 left); those run
    out: the second (0 left); then his hand is folded, and seat 2 folds (100 s of hand 1). Hand 2 (button seat 2,
    who raises to 300; seat 3 folds): seat 1, the big blind, has no token left: folded at 30 s. Level 1 (1,200 s)
    then ends: the break gives the tokens back. Hand 3 at level 3 (button seat 3, who calls 200): seat 1, the
    small blind, lets 30 s run out and a token is used again (1 left)."""
    levels: list[dict[str, Any]] = [{"blinds": [50, 100], "minutes": 20}, {"break": True, "minutes": 10},
              {"blinds": [100, 200], "minutes": 20}]
    journal = [*dealt(levels, shot_clock=25, time_banks=2, time_bank_seconds=30), tick(30)]
    played, result = replay(journal)
    assert trn2(result) == ["Seat 1 uses a time bank: 30 seconds more (1 left)"]
    assert result["next"]["seat"] == 1 and clock_of(played, 1) == (35, False)
    journal += [tick(35), tick(35)]
    _, result = replay(journal)
    assert trn2(result)[1:] == ["Seat 1 uses a time bank: 30 seconds more (0 left)", "Time: seat 1's hand is folded"]
    journal += [act(2, "fold"), START, *HOLE, act(2, "raise", 300), act(3, "fold"), tick(30)]
    _, result = replay(journal)
    assert trn2(result)[-1] == "Time: seat 1's hand is folded"
    journal += [tick(1200 - 130), tick(600), START, *HOLE, act(3, "call"), tick(30)]
    played, result = replay(journal)
    assert result["rejected"] == []
    assert played.state.levels is not None and played.state.levels.index == 2
    assert trn2(result)[-1] == "Seat 1 uses a time bank: 30 seconds more (1 left)"


def test_trn2_no_clock_to_call_while_the_shot_clock_runs() -> None:
    """With the shot clock every decision is already on the clock: ``clock`` is refused, saying so."""
    _, result = replay([*dealt(shot_clock=25), {"type": "clock"}])
    assert result["rejected"][0]["reason"] == "the shot clock is already running on seat 1 (TRN-2)"


def test_trn2_a_restarted_table_keeps_the_shot_clock() -> None:
    """The clock is rebuilt from the journal: a table restored from its checkpoint 20 s into seat 1's decision
    folds his hand 10 s later, as the table that never stopped does."""
    played, _ = replay([*dealt(shot_clock=25), tick(20)])
    restarted = Table.from_snapshot(played.snapshot())
    for t in (played, restarted):
        outcome = t.apply(tick(10))
        assert [a.message for a in outcome.alerts if a.rule == "TRN-2"] == ["Time: seat 1's hand is folded"]


def test_trn2_the_countdown_is_drawn_as_a_full_inverted_bar() -> None:
    """The seat's screen: 'YOUR ACTION' with the seconds as a tag; in the last 5 seconds row 7 is a full-width
    inverted bar (seen from across the table). Without a clock the screen is as before."""
    played, _ = replay([*dealt(shot_clock=25), tick(20)])
    calm = render_seat(seat_view(played, 1))
    played, _ = replay([*dealt(shot_clock=25), tick(27)])
    final = render_seat(seat_view(played, 1))
    bar = [(x, y) for x in range(WIDTH) for y in range(HEIGHT - ROW_H, HEIGHT)]
    assert calm.getpixel((0, HEIGHT - 1)) == 0                          # a centred tag: the corners stay dark
    assert all(final.getpixel(p) == 1 for p in bar if p[1] == HEIGHT - 1)  # the bar's bottom line: all lit
    played, _ = replay(dealt())
    assert seat_view(played, 1).clock is None
