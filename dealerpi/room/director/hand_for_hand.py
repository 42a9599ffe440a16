"""Hand-for-hand on the bubble for the room's director (:mod:`dealerpi.room.director.mtt`; TRN-5, TDA RP-8): the
tables held after each hand, a round of one hand a table, the round's busts settled when every table has
played it, and at most the tables' own cap (``Director.cap``) off the level clock per round. Pure, as the
director: these read and write its ``state``."""

from __future__ import annotations

from collections.abc import Mapping

from dealerpi.room.director.mtt_summary import standings_json, standings_of
from dealerpi.room.director.shape import DirectorLike
from dealerpi.room.director.table_view import View, asked_to_pause, held
from dealerpi.room.director.tournament import clock_off, hand_for_hand_due, next_hand_may_start, settle_round
from dealerpi.wire.pauses import H4H


def round_over(director: DirectorLike, live: Mapping[str, View], now: float) -> bool:
    """TRN-5: when every table finished the round's hand and is paused: its busts at several tables share
    (RP-8-A; at one table they finish by their starting stacks, TRN-4), and what the round took beyond two
    minutes does not come off the level clock."""
    s = director.state
    h4h = s["h4h"]
    if h4h is None or h4h["round"] is None:
        return False
    if not next_hand_may_start(list(live), {t for t, v in live.items()
                                            if held(v) and v["hand"] > h4h["round"].get(t, 0)}):
        return False
    for table, view in live.items():                  # a fault is never hidden: e.g. the host resumed it
        if view["hand"] > h4h["round"].get(table, 0) + 1:
            s["refused"].append({"op": "hand-for-hand", "table": table, "reason":
                                 f"TRN-5: hand #{view['hand']} was played beyond the round's hand "
                                 f"#{h4h['round'].get(table, 0) + 1}: one hand a table per round (TDA RP-8)"})
    busted = [p for bust in h4h["busts"] for p in bust["players"]]
    # at several tables they share the places at stake (RP-8-A); at one, TRN-4 by their starting stacks
    standings = settle_round(standings_of(s["standings"]), [(b["players"], b.get("stacks") or {})
                                                          for b in h4h["busts"]],
                             hand_for_hand=len({bust["table"] for bust in h4h["busts"]}) > 1)
    if busted:
        s["standings"] = standings_json(standings)
    s["events"].append({"kind": "hand-for-hand", "round": h4h["rounds"] + 1, "players": busted})
    taken = now - h4h["since"]
    if s.get("clock_paused") is None:         # the director's pause stopped the clock: the round took nothing
        s["offset"] = s.get("offset", 0) + taken - clock_off(taken, director.cap)
    h4h.update(round=None, busts=[], rounds=h4h["rounds"] + 1, since=None)
    if standings.remaining <= len(standings.percents):        # in the money: normal play again (_release)
        s["h4h"] = None
    return True


def pauses(director: DirectorLike, live: Mapping[str, View], now: float) -> bool:
    """TRN-5: on the bubble every table is asked to pause after the hand it is in; when all are held, a
    round starts: each table is resumed for exactly its next hand (``pause_after``), one input."""
    s = director.state
    remaining = standings_of(s["standings"]).remaining
    if s["h4h"] is None:
        if len(live) < 2 or not hand_for_hand_due(remaining, len(s["standings"]["percents"])):
            return False
        s["h4h"] = {"round": None, "busts": [], "rounds": 0, "since": None}
        s["events"].append({"kind": "hand-for-hand begins", "remaining": remaining})
        return True
    h4h = s["h4h"]
    due = [t for t, v in live.items() if not asked_to_pause(v)]    # a round's hand: after it (a table let go)
    if due:
        rounds = h4h["round"] or {}
        s["plan"] = [[{"op": "pause", "table": t, "reason": H4H,
                       **({"after_hand": rounds[t] + 1} if t in rounds else {})} for t in due]]
        return True
    if h4h["round"] is None and all(held(v) for v in live.values()):
        h4h["round"], h4h["since"] = {t: v["hand"] for t, v in live.items()}, now
        s["plan"] = [[{"op": "resume", "table": t, "pause_after": v["hand"] + 1} for t, v in live.items()]]
        return True
    return False
