"""The tournament as every page sees it (issue 14: a big clock view on the board page): the level, its blinds and
antes, the time left, the next step, the players left, the prize pool, places and prizes (TRN-1, TRN-4).

A pure function of the table: the time left is the engine's level clock as the journaled ticks left it (every
5 s, and one at start-up for the time the daemon was down, level_time.py); a page counts down between two
updates with its own clock and takes the daemon's figure again at each. Nothing here is secret: the board
gets it all.
"""

from __future__ import annotations

from typing import Any

from dealerpi.engine import LevelLike, Table


def _step(step: LevelLike) -> dict[str, Any]:
    if step.is_break:
        return {"break": True, "minutes": step.minutes}
    return {"break": False, "blinds": [step.small_blind, step.big_blind], "ante": step.ante,
            "bb_ante": step.bb_ante, "minutes": step.minutes}


def blinds_in_force(table: Table) -> list[int] | None:
    """The blinds of the hand in play, else of the next hand: in a tournament the level's (TRN-1: a level reached
    during a hand applies from the next), not the ``table`` input's first blinds; None on a break or no table."""
    config = table.config
    if config is None:
        return None
    if (dealt := table.hand_blinds()) is not None and not table.between_hands:
        return list(dealt)
    if table.levels is not None:
        level = table.levels.level_for_next_hand()
        return None if level is None else [level.small_blind, level.big_blind]
    return [config.small_blind, config.big_blind]


def tournament_view(table: Table) -> dict[str, Any] | None:
    """None at a cash table; else the clock (when the table has a level schedule) and the standings; once
    the tournament has its winner, ``finished`` (winner, prize, places) in place of the clock."""
    levels, standings, config = table.levels, table.standings, table.config
    if config is None or (levels is None and standings is None):
        return None
    view: dict[str, Any] = {"paused": table.paused is not None, "pause_reason": table.paused or None}
    if standings is not None and standings.remaining == 0 and standings.finishes:
        # issue 19: a finished tournament has its winner, places and prizes; no clock, no next step, no
        # "players 0 of 6" (the engine's level clock may tick on: nothing is played at it any more)
        places = [{"player": f.player, "place": f.place, "prize": f.prize} for f in standings.results()]
        return {**view, "finished": {"winner": places[0]["player"], "prize": places[0]["prize"], "places": places},
                "entrants": len(standings.finishes), "pool": standings.pool, "prizes": list(standings.prizes)}
    if levels is not None:
        following = levels.levels[levels.index + 1] if levels.index + 1 < len(levels.levels) else None
        view.update({"level": levels.level_number, "step": _step(levels.current), "remaining": levels.remaining,
                     "last": following is None,
                     "next": None if following is None else
                     {**_step(following), "level": levels.level_number + (0 if following.is_break else 1)}})
        late = config.late_entry_levels
        if late:
            view["late_entry"] = {"until_level": late, "open": levels.level_number <= late}
    if standings is not None:
        view.update({"players_left": standings.remaining, "entrants": standings.remaining + len(standings.finishes),
                     "pool": standings.pool, "prizes": list(standings.prizes),
                     "places": [{"player": f.player, "place": f.place, "prize": f.prize}
                                for f in standings.results()]})
    return view
