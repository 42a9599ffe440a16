"""What the room page shows of a tournament (docs/room.md): the clock, the field, the prizes, each table's
players and the last refusals, read from the director's state and the tables' views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dealerpi.engine.payouts import Finish, Standings
from dealerpi.room.books import waiting_words
from dealerpi.room.table_view import View, view_seats

if TYPE_CHECKING:
    from dealerpi.room.mtt import Director


def standings_of(data: Mapping[str, Any]) -> Standings:
    return Standings(data["pool"], data["remaining"], tuple(data["percents"]),
                     tuple(Finish(p, place, prize) for p, place, prize in data["finishes"]))


def standings_json(standings: Standings) -> dict[str, Any]:
    return {"pool": standings.pool, "remaining": standings.remaining, "percents": list(standings.percents),
            "finishes": [[f.player, f.place, f.prize] for f in standings.finishes]}


def summary(director: Director, views: Mapping[str, View], now: float) -> dict[str, Any]:
    """The clock, the field and each table, for the room page (and for tests: the state to inspect). Once
    there is a winner, one player is left (issue 20: the page said "players 0 of 19")."""
    s, settings = director.state, director.settings
    standings = standings_of(s["standings"]) if s["standings"] else None
    index, left = director.level_at(now)
    step = settings.levels[index]
    entrants = len(s["players"])
    paid = len(standings.percents if standings else settings.percents(max(entrants, 1)))   # the field's row
    remaining = standings.remaining if standings else entrants
    if s["phase"] == "finished":
        remaining = 1
    tables = {t: sorted(([int(n), v["player"], v["stack"]] for n, v in view_seats(views.get(t) or {}).items()
                         if v.get("player")), key=lambda row: row[0]) for t in s["active"]}
    return {
        "phase": s["phase"], "registered": list(s["players"]), "alternates": list(s.get("alternates", [])),
        "registration_open": s["phase"] == "registering" or (s["phase"] == "running"
                                                             and settings.late_entry_open(index)),
        "level": sum(1 for x in settings.levels[: index + 1] if not x.is_break), "break": step.is_break,
        "blinds": None if step.is_break else [step.small_blind, step.big_blind], "ante": step.ante,
        "bb_ante": step.bb_ante, "seconds_left": None if left is None else int(left),
        "entrants": entrants, "remaining": remaining,
        "average": settings.starting_stack * entrants // remaining if remaining else 0,
        "pool": settings.buy_in * entrants, "paid": paid,
        "prizes": list(standings.prizes) if standings else [],
        "hand_for_hand": s["h4h"] is not None, "tables": tables,
        "finishes": [[f.player, f.place, f.prize] for f in standings.results()] if standings else [],
        "refused": [f"{r['table']}: {' '.join(filter(None, (r['op'], r.get('player'))))}: {r['reason']}"
                    for r in s["refused"][-5:]],                # a fault is never hidden
        "waiting": [w for t, c in s["done"].items() if t in s["active"] and views.get(t)
                    and (w := waiting_words(t, c, views[t]))],
    }
