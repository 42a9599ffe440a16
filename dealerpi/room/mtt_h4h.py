"""TRN-5 hand-for-hand in the room's director (dealerpi.room.mtt): its rounds, out of mtt.py to keep that
module to one screenful of decisions. Both are ``Director`` methods (bound there by name), pure like it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from dealerpi.room.money import standings_json, standings_of
from dealerpi.room.table_view import View, asked_to_pause, held
from dealerpi.room.tournament import HAND_FOR_HAND_SECONDS, hand_for_hand_due
from dealerpi.room_pauses import H4H

if TYPE_CHECKING:
    from dealerpi.room.mtt import Director

_standings, _standings_json = standings_of, standings_json


def hand_for_hand_round(self: Director, live: Mapping[str, View], now: float) -> bool:
    """TRN-5: when every table finished the round's hand and is paused: its busts at several tables share
    (RP-8-A; at one table they finish by their starting stacks, TRN-4), and what the round took beyond two
    minutes does not come off the level clock."""
    s = self.state
    h4h = s["h4h"]
    if h4h is None or h4h["round"] is None:
        return False
    if not all(held(v) and v["hand"] > h4h["round"].get(t, 0) for t, v in live.items()):
        return False
    for table, view in live.items():                  # a fault is never hidden: e.g. the host resumed it
        if view["hand"] > h4h["round"].get(table, 0) + 1:
            s["refused"].append({"op": "hand-for-hand", "table": table, "reason":
                                 f"TRN-5: hand #{view['hand']} was played beyond the round's hand "
                                 f"#{h4h['round'].get(table, 0) + 1}: one hand a table per round (TDA RP-8)"})
    busted = [p for bust in h4h["busts"] for p in bust["players"]]
    standings = _standings(s["standings"])
    if len({bust["table"] for bust in h4h["busts"]}) == 1:     # one table: TRN-4, hand by hand, by the
        for bust in h4h["busts"]:                              # stacks they started it with
            standings = standings.bust(bust["players"], bust.get("stacks"))
    elif busted:                        # at several tables: they share the places at stake (RP-8-A)
        standings = standings.bust(busted)
    if busted:
        s["standings"] = _standings_json(standings)
    s["events"].append({"kind": "hand-for-hand", "round": h4h["rounds"] + 1, "players": busted})
    taken = now - h4h["since"]
    s["offset"] = s.get("offset", 0) + max(0.0, taken - HAND_FOR_HAND_SECONDS)
    h4h.update(round=None, busts=[], rounds=h4h["rounds"] + 1, since=None)
    if standings.remaining <= len(standings.percents):        # in the money: normal play again (_release)
        s["h4h"] = None
    return True


def hand_for_hand_pauses(self: Director, live: Mapping[str, View], now: float) -> bool:
    """TRN-5: on the bubble every table is asked to pause after the hand it is in; when all are held, a
    round starts: each table is resumed for exactly its next hand (``pause_after``), one input."""
    s = self.state
    remaining = _standings(s["standings"]).remaining
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
