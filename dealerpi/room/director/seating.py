"""Where the room's tournament director seats a player, read from a table's public view (issue 20).

Pure: the views in, seats out; randomness comes in as a ``random.Random`` (the director's, seeded from the seed
drawn at the room's edge and stored, so a restarted room draws the same).

- Who is still at a table (TDA 11, RP-6): a player all in during a hand (stack 0 while the hand is on) is in
  it, not gone; only between hands is a player at 0 out (and his seat free once the room has taken him off).
- TDA 11 (TRN-8): the moved player goes to the worst position: the seat due the big blind next if one is
  empty (between the next hand's small and big blind), else the next empty seat toward it; never the small
  blind, never between the small blind and the button (nobody is dealt in there, TDA 8). The engine's own plan
  of the next hand (``next_hand``: button, small and big blind, BLD-1, dead button TRN-7) decides, so the room
  keeps no copy of the blind rules.
- TDA 8 (TRN-9, R8): a late entrant or an alternate is seated at random, never on the small blind nor between
  it and the button.
- TDA 10 (R10-B): the players of a broken table are seated by a two-step random draw: a table first (among
  the tables with room, so they stay even), then a seat at it; they may get any seat (a blind, the button).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from dealerpi.room.director.table_view import View, view_seats


def present(view: View) -> dict[int, str]:
    """The players still in at a table: chips, or (during a hand) dealt in with chips at its start (all in)."""
    started = {int(seat) for seat, chips in view.get("starting_stacks") or [] if chips} if view.get("in_hand") \
        else set()
    return {int(n): v["player"] for n, v in view_seats(view).items()
            if v.get("player") and (v.get("stack", 0) > 0 or int(n) in started)}


def _plan(view: View) -> tuple[int, int | None, int] | None:
    """The next hand's button, small blind (None: a dead small blind, TRN-7) and big blind."""
    plan = view.get("next_hand") or {}
    button, small, big = plan.get("button"), plan.get("sb"), plan.get("bb")
    if not isinstance(button, int) or not isinstance(big, int):
        return None
    return button, small if isinstance(small, int) else None, big


def _after(start: int, seats: int) -> list[int]:
    """The seats clockwise after ``start``, once round, ``start`` last."""
    return [(start + k - 1) % seats + 1 for k in range(1, seats + 1)]


def no_go(view: View, seats: int) -> set[int]:
    """TDA 8/11: the seats nobody new may take in the next hand: the small blind and the seats between the
    button and it (the button's own seat when it is empty: a dead button). With a dead small blind (TRN-7) the
    small blind's place is the last hand's big blind's seat (``last_blinds``): the seats up to it; a seat
    after it, before the big blind, would be the next big blind itself (the engine's plan: it moves one seat
    a hand), the worst position. A view without ``last_blinds``: every seat up to the big blind."""
    plan = _plan(view)
    if plan is None:
        return set()
    button, small, big = plan
    after = _after(button, seats)
    if small is None:
        last = view.get("last_blinds") or []
        last_big = last[1] if len(last) == 2 and isinstance(last[1], int) else None
        if last_big in after[:after.index(big)]:
            return {button, *after[:after.index(last_big) + 1]}
        return {button, *after[:after.index(big)]}
    return {button, *after[:after.index(small) + 1]}


def due_big_blind(view: View) -> str | None:
    """TDA 11: the player the next hand's big blind falls on (the engine's plan), None if it has no plan."""
    big = (view.get("next_hand") or {}).get("bb")
    return present(view).get(big) if isinstance(big, int) else None


def worst_seat(view: View, seats: int) -> int | None:
    """TDA 11: the empty seat of a table between hands a moved player takes (see the module docstring)."""
    plan = _plan(view)
    if plan is None:
        return None
    taken = {int(n) for n, v in view_seats(view).items() if v.get("player")}
    banned = no_go(view, seats)
    button, small, _big = plan
    start = button if small is None else small
    return next((seat for seat in _after(start, seats) if seat not in taken and seat not in banned), None)


def entry_seats(view: View, seats: int) -> list[int]:
    """TDA 8: the empty seats a late entrant may be drawn to at a table between hands."""
    taken = {int(n) for n, v in view_seats(view).items() if v.get("player")}
    banned = no_go(view, seats)
    return [seat for seat in range(1, seats + 1) if seat not in taken and seat not in banned]


def two_step_draw(players: Sequence[str], open_seats: Mapping[str, Sequence[int]], seated: Mapping[str, int],
                  rng: random.Random) -> dict[str, tuple[str, int]]:
    """TDA 10 (R10-B): each of ``players`` (in a random order) draws a table, then a seat at it. The tables'
    shares keep them even (the emptiest filled first; which of equally full tables gets one more is drawn)."""
    if len(players) > sum(len(seats) for seats in open_seats.values()):
        raise ValueError(f"{len(players)} players do not fit in the open seats")
    count = {t: seated.get(t, 0) for t in open_seats}
    room = {t: len(s) for t, s in open_seats.items()}
    slots: list[str] = []
    for _ in players:                  # the shares: the emptiest table with room, ties drawn
        fewest = min(count[t] for t in count if room[t])
        table = rng.choice(sorted(t for t in count if room[t] and count[t] == fewest))
        slots.append(table)
        count[table] += 1
        room[table] -= 1
    order = list(players)
    rng.shuffle(order)
    rng.shuffle(slots)                                     # step 1: a table for each player, at random
    free = {t: rng.sample(list(s), len(s)) for t, s in sorted(open_seats.items())}
    return {player: (table, free[table].pop()) for player, table in zip(order, slots, strict=True)}  # step 2


def shows(view: View, done: Mapping[str, Any]) -> bool:
    """Whether a table's view shows a command it accepted (``done``: the command, with the player a ``leave``
    took off): the room decides nothing more on a view from before it (issue 20: a second ``leave``, ``pause``
    or ``resume`` for one intent, refused)."""
    kind, seat = done.get("type"), str(done.get("seat"))
    if kind == "sit":
        return view_seats(view).get(seat, {}).get("player") == done.get("player")
    if kind == "leave":
        return view_seats(view).get(seat, {}).get("player") != done.get("player")
    if kind == "pause":
        return view.get("paused") is not None or view.get("pausing") is not None
    if kind == "resume":
        return view.get("paused") is None or int(view.get("hand") or 0) >= int(done.get("pause_after") or 1 << 62)
    return True
