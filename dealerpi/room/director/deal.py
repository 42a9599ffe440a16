"""The room's money on its page and JSON API: the deal at the final table, rebuys, add-ons, race results.

A deal (engine/deals.py, issue 20): the page shows the ICM (Malmuth-Harville) and chip-chop proposals for the
players still in, their stacks as their table shows them between hands, and the prizes still to pay. It is made
only at the final table, only when every player still in agrees (who agreed is recorded), and nobody gets less
than the lowest prize still to pay (``check_deal``); its amounts replace those prizes (``Standings.with_deal``)
and the places are still played out and kept. The room's tables keep no standings (room/director/mtt_config.py), so no
table's ``deal`` input is sent: the room's books are the tournament's.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerpi.engine import MOST_PLAYERS, DealError, check_deal, proposals
from dealerpi.room.director.money import MoneyError, bounties_of, entries, standings_of
from dealerpi.room.director.shape import DirectorLike
from dealerpi.room.director.table_view import View, view_seats


def still_in(director: DirectorLike, views: Mapping[str, View]) -> dict[str, int]:
    """The players still in and their stacks, read from the active tables between hands ({} in a hand)."""
    s = director.state
    standings = standings_of(s["standings"])
    out = set(f.player for f in standings.finishes)
    stacks: dict[str, int] = {}
    for table in s["active"]:
        view = views.get(table) or {}
        if view.get("in_hand"):
            return {}
        stacks.update({v["player"]: v["stack"] for v in view_seats(view).values()
                       if v.get("player") in s["players"] and v["player"] not in out})
    return dict(sorted(stacks.items())) if len(stacks) == standings.remaining else {}


def deal_proposals(director: DirectorLike, views: Mapping[str, View]) -> dict[str, Any] | None:
    """ICM and chip chop for the players left, at the final table between hands; None otherwise."""
    s = director.state
    if s["phase"] != "running" or len(s["active"]) != 1 or s["standings"].get("deal"):
        return None
    stacks = still_in(director, views)
    if not 2 <= len(stacks) <= MOST_PLAYERS or not all(stacks.values()):
        return None
    prizes = standings_of(s["standings"]).still_to_pay()
    return {"stacks": stacks, "prizes": list(prizes), **proposals(stacks, prizes)}


def make_deal(director: DirectorLike, views: Mapping[str, View], amounts: Mapping[str, int],
              agreed: list[str]) -> None:
    """The deal every player still in agreed: checked, then the standings pay it (``DealError`` says why not)."""
    s = director.state
    if s["phase"] != "running" or len(s["active"]) != 1:
        raise DealError("a deal is made at the final table")
    standings = standings_of(s["standings"])
    if standings.deal:
        raise DealError("a deal was made already")
    players = [p for p in s["players"] if all(f.player != p for f in standings.finishes)]
    missing = [p for p in players if p not in agreed]
    if missing or len(set(agreed)) != len(agreed) or set(agreed) - set(players):
        raise DealError(f"a deal needs every player still in to agree, and only them; not agreed: "
                        f"{', '.join(missing) or 'nobody'}")
    check_deal(amounts, players, standings.still_to_pay())
    dealt = standings.with_deal({p: amounts[p] for p in players})
    s["standings"] = {**s["standings"], "deal": [[p, a] for p, a in dealt.deal]}
    s["events"].append({"kind": "deal", "amounts": dict(dealt.deal), "agreed": sorted(agreed)})


def operate(director: DirectorLike, body: Mapping[str, Any], views: Mapping[str, View]) -> None:
    """The director's money commands (POST /tournament/money): ``{"op": "rebuy"|"addon", "player": P}``,
    ``{"op": "race", "table": T, "won": [seats]}``, ``{"op": "deal", "amounts": {P: N}, "agreed": [P]}``.
    ``ValueError`` (MoneyError, DealError) says why one is refused."""
    op = body.get("op")
    money = director.money
    if op in ("rebuy", "addon") and isinstance(body.get("player"), str):
        money.want(body["player"], str(op), standings_of(director.state["standings"]))
    elif op == "race" and isinstance(body.get("table"), str) and isinstance(body.get("won"), list) \
            and all(isinstance(x, int) and not isinstance(x, bool) for x in body["won"]):
        money.race(body["table"], body["won"])
    elif op == "deal" and isinstance(body.get("amounts"), dict) and isinstance(body.get("agreed"), list) \
            and all(isinstance(a, int) and not isinstance(a, bool) for a in body["amounts"].values()):
        make_deal(director, views, body["amounts"], [str(p) for p in body["agreed"]])
    else:
        raise MoneyError('{"op": "rebuy"|"addon", "player": P}, {"op": "race", "table": T, "won": [seats]} or '
                         '{"op": "deal", "amounts": {P: N}, "agreed": [P, ...]}')


def page(director: DirectorLike, views: Mapping[str, View]) -> dict[str, Any]:
    """What the room page shows of the money: entries, buys, bounties, colour-ups, the deal and its proposals."""
    books = director.state.get("money")
    if not books or director.state["standings"] is None:
        return {}
    bounties = bounties_of(books)
    return {"entries": entries(books), "buys": [list(b) for b in books["buys"] if b[1] in ("rebuy", "addon")],
            "heads": dict(bounties.heads), "bounties_won": dict(bounties.won),
            "colour_ups": books["colour"], "deal": director.state["standings"].get("deal", []),
            "proposals": deal_proposals(director, views)}
