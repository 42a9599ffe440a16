"""What the room page shows of a tournament (docs/room.md): the clock, the field, the prizes, each table's
players and the last refusals, read from the director's state and the tables' views."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from dealerpi.room.director.books import waiting_words
from dealerpi.room.director.deal import page
from dealerpi.room.director.money import entries
from dealerpi.room.director.money import standings_json as standings_json  # re-exported (controls.py, hand_for_hand.py)
from dealerpi.room.director.money import standings_of as standings_of
from dealerpi.room.director.shape import DirectorLike
from dealerpi.room.director.table_view import View, view_seats

if TYPE_CHECKING:
    from dealerpi.room.director.mtt_config import TournamentSettings


def bought_chips(settings: TournamentSettings, state: Mapping[str, Any]) -> int:
    """The chips of the rebuys and add-ons (room/director/money.py), for the average stack."""
    engine, buys = settings.engine, (state.get("money") or {}).get("buys", [])
    if engine is None:
        return 0
    return sum(engine.panel_stack if kind == "rebuy" else engine.addon_chips if kind == "addon" else 0
               for _, kind in buys)


def summary(director: DirectorLike, views: Mapping[str, View], now: float) -> dict[str, Any]:
    """The clock, the field and each table, for the room page (and for tests: the state to inspect). Once
    there is a winner, one player is left (issue 20: the page said "players 0 of 19")."""
    s, settings = director.state, director.settings
    standings = standings_of(s["standings"]) if s["standings"] else None
    index, left = director.level_at(now)
    step = settings.levels[index]
    entrants = entries(s["money"]) if s.get("money") else len(s["players"])    # re-entries count (TRN-9)
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
        "average": (settings.starting_stack * entrants + bought_chips(settings, s)) // remaining if remaining else 0,
        "pool": standings.pool if standings else settings.buy_in * entrants, "paid": paid,
        "prizes": list(standings.prizes) if standings else [],
        "hand_for_hand": s["h4h"] is not None, "tables": tables,
        "finishes": [[f.player, f.place, f.prize] for f in standings.results()] if standings else [],
        "refused": [f"{r['table']}: {' '.join(filter(None, (r['op'], r.get('player'))))}: {r['reason']}"
                    for r in s["refused"][-5:]],                # a fault is never hidden
        "waiting": [w for t, c in s["done"].items() if t in s["active"] and views.get(t)
                    and (w := waiting_words(t, c, views[t]))],
        "money": page(director, views),                         # room/director/deal.py
    }
