"""The room tournament's money: entries, re-entries, rebuys, the add-on, PKO bounties and colour-ups (issue 20).

The rules are the engine's (engine/tournament_money.py, engine/bounties.py, engine/chip_race.py): each buy is
checked and booked by calling them on a one-seat ``TableState`` made from the room's books (the buyer, his
stack as his table shows it, the room's level, standings, buys and bounties), so the room and a table keep
one rule. The room keeps the books (the director's JSON ``state["money"]``):

- ``buys``: every buy-in in order, ``[player, entry|reentry|rebuy|addon]`` (TableState.buys' shape);
- ``bounties``: the heads of the players still in and the bounty cash won (engine ``Bounties``), and
  ``bounty_in``: the bounty money paid in, which ``check_ledger`` asserts they sum to at every moment;
- ``wanted``: rebuys, add-ons and race results the director asked for, sent when the player's table is
  between hands; ``colour``: the colour-up plans sent and races applied, by table.

How a table learns of a buy: the room's tables keep no standings (``policies.tournament = false``), so the
room sends the table's ``chips`` input (a top-up between hands, journaled like any input) for exactly the
chips bought, and books the buy when the table accepts it: each table's journal holds, per player, the chips
of his rebuys and add-ons, which the room's books equal (tests/room/test_room_money.py).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from dealerpi.engine import (
    AddOn,
    Bounties,
    Finish,
    IllegalAction,
    LevelClock,
    Rebuy,
    SeatState,
    Standings,
    TableState,
    buy_addon,
    buy_rebuy,
    enter_tournament,
    plan_race,
    race_result,
)
from dealerpi.room.director.books import HandOver
from dealerpi.room.director.table_view import View, view_seats
from dealerpi.wire.pauses import BREAK

if TYPE_CHECKING:
    from dealerpi.room.director.mtt_config import TournamentSettings

_LOGGER = logging.getLogger(__name__)
OPS = ("chips", "colour_up")
BUYS = ("rebuy", "addon")


class MoneyError(ValueError):
    """A buy or a race result the tournament refuses; the message names the rule."""


def new_books() -> dict[str, Any]:
    return {"buys": [], "bounties": {"heads": [], "won": []}, "bounty_in": 0, "wanted": [], "colour": {}}


def bounties_of(books: Mapping[str, Any]) -> Bounties:
    data = books["bounties"]
    return Bounties(tuple((p, a) for p, a in data["heads"]), tuple((p, a) for p, a in data["won"]))


def standings_of(data: Mapping[str, Any]) -> Standings:
    """The director's JSON standings (mtt.py ``_standings_json``) as the engine's."""
    return Standings(data["pool"], data["remaining"], tuple(data["percents"]),
                     tuple(Finish(p, place, prize) for p, place, prize in data["finishes"]),
                     tuple((p, amount) for p, amount in data.get("deal", [])))


def standings_json(standings: Standings) -> dict[str, Any]:
    return {"pool": standings.pool, "remaining": standings.remaining, "percents": list(standings.percents),
            "finishes": [[f.player, f.place, f.prize] for f in standings.finishes],
            "deal": [list(pair) for pair in standings.deal]}


def check_ledger(books: Mapping[str, Any]) -> None:
    """PKO: the heads of the players still in plus the bounty cash won are the bounty money paid in."""
    bounties = bounties_of(books)
    held = sum(a for _, a in bounties.heads) + sum(a for _, a in bounties.won)
    if held != books["bounty_in"]:
        raise AssertionError(f"PKO ledger: heads + cash won = {held}, bounty money paid in {books['bounty_in']}")


def entries(books: Mapping[str, Any]) -> int:
    """The field (TRN-4, TRN-9): every entry and re-entry counts."""
    return sum(1 for _, kind in books["buys"] if kind in ("entry", "reentry"))


class Money:
    """The director's money: ``Money(settings, state)`` reads and writes ``state["money"]`` and the standings."""

    def __init__(self, settings: TournamentSettings, state: dict[str, Any]) -> None:
        self.settings, self.state = settings, state
        self.books: dict[str, Any] = state.setdefault("money", new_books())

    # --- entries ---------------------------------------------------------------------------------------

    def opening(self, players: list[str]) -> Standings:
        """The start: every player's entry (the bounty of each on his head, the rest in the pool)."""
        standings = Standings(0, 0, self.settings.percents(len(players)))
        for player in players:
            standings = self.enter(player, 0, standings)
        return standings

    def enter(self, player: str, level: int, standings: Standings) -> Standings:
        """TRN-9: ``player`` enters or re-enters (engine ``enter``: the re-entry limit, his earlier finish no
        longer one, the pool, the field's payout row, his head); ``MoneyError`` if he may not."""
        state = self._call(lambda proxy, config: enter_tournament(proxy, config, player, f"enter {player}"),
                           player, 0, level, standings)
        if not _config(self.settings).payouts_by_field:     # TRN-4: the room's payouts for this field
            state = replace(state, standings=(state.standings or standings).with_percents(
                self.settings.percents(entries({"buys": state.buys}))))
        return self._keep(state)

    def reentry(self, player: str, level: int) -> bool:
        """TRN-9: ``player``, whose bust is on the books, registers again: True, or ``MoneyError`` by the engine's
        limit (refused at registration rather than when a seat opens); False if he is still in."""
        standings = standings_of(self.state["standings"])
        if self._still_in(player, standings):
            return False
        self._call(lambda proxy, config: enter_tournament(proxy, config, player, f"re-enter {player}"),
                   player, 0, level, standings)
        return True

    def unregister(self, player: str, standings: Standings) -> Standings:
        """The director unregisters ``player`` before his first hand (room/director/controls.py): his entry is refunded,
        so it leaves the books: the field, his part of the prize pool, his head and its bounty money."""
        config = _config(self.settings)
        buys = self.books["buys"]
        last = max(i for i, (p, kind) in enumerate(buys) if p == player and kind in ("entry", "reentry"))
        del buys[last]
        heads = dict(bounties_of(self.books).heads)
        self.books["bounty_in"] -= heads.pop(player, 0)
        self.books["bounties"]["heads"] = [[p, a] for p, a in heads.items()]
        check_ledger(self.books)
        return replace(standings, pool=standings.pool - (config.buy_in - config.bounty),
                       remaining=standings.remaining - 1)

    # --- rebuys and add-ons --------------------------------------------------------------------------

    def want(self, player: str, kind: str, standings: Standings) -> None:
        """The director's rebuy or add-on for ``player``: sent as ``chips`` once his table is between hands."""
        if kind not in BUYS:
            raise MoneyError(f"a buy is one of {', '.join(BUYS)}, not {kind!r}")
        if player not in self.state["players"] or not self._still_in(player, standings):
            raise MoneyError(f"{player} is not in the tournament")
        if any(w.get("player") == player and w["kind"] == kind for w in self.books["wanted"]):
            raise MoneyError(f"{player}'s {kind} is on its way to his table")
        self.books["wanted"].append({"player": player, "kind": kind})

    def race(self, table: str, won: list[int]) -> None:
        """TRN-6: the dealer reports the race's winners (seats) at ``table``: sent as its ``colour_up``."""
        colour = self.books["colour"].get(table)
        if colour is None or colour.get("done") is not None or not colour["planned"]:
            raise MoneyError(f"{table}: no colour-up waits for its race (TRN-6)")
        self.check_race(table, won)
        self.books["wanted"].append({"kind": "race", "table": table, "won": list(won)})

    def plan(self, live: Mapping[str, View], level: int, standings: Standings) -> list[dict[str, Any]]:
        """The next batch: each wanted buy at a table between hands (checked against the engine's rules with
        his stack there; a refusal is on the page), each race result, then each colour-up plan due."""
        batch: list[dict[str, Any]] = []
        for want in list(self.books["wanted"]):
            if want["kind"] == "race":
                view = live.get(want["table"])
                if view and not view.get("in_hand"):
                    batch.append({"op": "colour_up", "table": want["table"], "won": want["won"]})
                continue
            if not self._still_in(want["player"], standings):       # busted first: a re-entry, not a rebuy
                self.books["wanted"].remove(want)
                self.state["refused"].append({"op": want["kind"], "table": "room", "player": want["player"],
                                              "reason": f"{want['player']} is out (a re-entry, not a {want['kind']})"})
                continue
            where = next(((t, int(n), v["stack"]) for t, view in live.items() for n, v in view_seats(view).items()
                          if v.get("player") == want["player"]), None)
            if where is None or live[where[0]].get("in_hand"):
                continue
            table, seat, stack = where
            try:
                chips = self._buy(want["player"], want["kind"], stack, level, standings)[1]
            except MoneyError as error:
                self.books["wanted"].remove(want)
                self.state["refused"].append({"op": want["kind"], "table": table, "player": want["player"],
                                              "reason": str(error)})
                continue
            batch.append({"op": "chips", "table": table, "player": want["player"], "kind": want["kind"],
                          "seat": seat, "amount": chips, "level": level})
        batch += self._colour_plans(live, level)
        if not self.settings.levels[level].is_break:      # TRN-6: a table held past its break for its race
            batch += [{"op": "resume", "table": t} for t, view in live.items()
                      if view.get("paused") == BREAK and not view.get("in_hand") and self.raced(t)
                      and t in self.books["colour"]]
        return batch

    def raced(self, table: str) -> bool:
        """TRN-6: no colour-up at ``table`` waits for its race (the break is not over for it until then)."""
        colour = self.books["colour"].get(table)
        return colour is None or colour["done"] is not None

    def payload(self, item: Mapping[str, Any]) -> dict[str, Any]:
        if item["op"] == "chips":
            return {"type": "chips", "seat": item["seat"], "amount": item["amount"]}
        colour = self.books["colour"][item["table"]]
        return {"type": "colour_up", "remove": colour["remove"], "chip": colour["chip"],
                **({"won": item["won"]} if "won" in item else {"plan": True})}

    def answered(self, item: Mapping[str, Any], accepted: bool, reason: str, standings: Standings) -> Standings:
        """A money command's answer: a buy booked when its ``chips`` is taken; a race applied."""
        if item["op"] == "chips":
            want = {"player": item["player"], "kind": item["kind"]}
            if accepted:
                state, _ = self._buy(item["player"], item["kind"], 0, item["level"], standings)   # as checked
                standings = self._keep(state)
            if accepted or "during a hand" not in reason:
                self.books["wanted"].remove(want)
            return standings
        colour = self.books["colour"][item["table"]]
        if "won" in item:
            self.books["wanted"] = [w for w in self.books["wanted"]
                                    if not (w["kind"] == "race" and w["table"] == item["table"])]
            if accepted:
                colour["done"] = list(item["won"])
        elif accepted:
            colour["planned"] = True
            if not colour["raced"]:               # nothing to race: the odd chips are just removed
                self.books["wanted"].append({"kind": "race", "table": item["table"], "won": []})
        return standings

    # --- PKO ---------------------------------------------------------------------------------------------

    def knock_out(self, hand: HandOver, busted: list[str]) -> list[str]:
        """PKO: each player ``busted`` on ``hand``: half his head in cash to his eliminators, half onto their
        heads (engine ``Bounties.bust``); the dealer's lines. The ledger is checked after each."""
        if not _config(self.settings).bounty:
            return []
        bounties, words = bounties_of(self.books), []
        for player in busted:
            if not hand.knocked_by.get(player):       # a fault is never hidden: his head stays on the books
                self.state["refused"].append({"op": "bounty", "table": "room", "player": player, "reason":
                                              f"PKO: hand #{hand.number}: who busted him is not known: his "
                                              "bounty stays on his head until the floor settles it"})
                continue
            bounties, line = bounties.bust(player, list(hand.knocked_by[player]))
            words += [line] if line else []
        self.books["bounties"] = bounties.as_json()
        check_ledger(self.books)
        return words

    def win(self, player: str) -> None:
        """The winner takes his own head."""
        if not _config(self.settings).bounty:
            return
        self.books["bounties"] = bounties_of(self.books).win(player).as_json()
        check_ledger(self.books)

    # --- inside ------------------------------------------------------------------------------------------

    def _colour_plans(self, live: Mapping[str, View], level: int) -> list[dict[str, Any]]:
        """TRN-6: at the break after a level ``colour_ups`` names, each table held on the break gets the race's
        plan on its dealer's display (the engine's ``colour_up`` with ``plan``), once."""
        step = self.settings.levels[level]
        played = sum(1 for s in self.settings.levels[: level + 1] if not s.is_break)
        due = next(((remove, chip) for after, remove, chip in self.settings.colour_ups if after == played), None)
        if not step.is_break or due is None:
            return []
        out = []
        for table, view in live.items():
            if view.get("in_hand") or view.get("paused") is None or (
                    self.books["colour"].get(table) or {}).get("level") == played:
                continue
            stacks = {int(n): v["stack"] for n, v in view_seats(view).items() if v.get("player")}
            race = plan_race(stacks, *due)
            self.books["colour"][table] = {"level": played, "remove": due[0], "chip": due[1], "odd": {
                str(seat): count for seat, count in race.odd.items()}, "raced": race.raced, "removed": race.removed,
                "planned": False, "done": None, "stacks": {str(k): v for k, v in stacks.items()}}
            out.append({"op": "colour_up", "table": table})
        return out

    def check_race(self, table: str, won: list[int]) -> dict[int, int]:
        """The stacks after the reported race at ``table``, by the engine's check (``MoneyError``)."""
        colour = self.books["colour"][table]
        stacks = {int(k): v for k, v in colour["stacks"].items()}
        try:
            return race_result(stacks, plan_race(stacks, colour["remove"], colour["chip"]), won)[0]
        except IllegalAction as error:
            raise MoneyError(str(error)) from None

    def _buy(self, player: str, kind: str, stack: int, level: int, standings: Standings) -> tuple[TableState, int]:
        config = _config(self.settings)
        if kind == "rebuy":
            state = self._call(lambda proxy, c: buy_rebuy(proxy, c, Rebuy(1))[0], player, stack, level,
                               standings)
            return state, config.panel_stack
        state = self._call(lambda proxy, c: buy_addon(proxy, c, AddOn(1))[0], player, stack, level,
                           standings)
        return state, config.addon_chips

    def _call(self, rule: Any, player: str, stack: int, level: int, standings: Standings) -> TableState:
        """``rule(proxy, config)`` on the one-seat state of the room's books; ``MoneyError`` for a refusal."""
        config = _config(self.settings)
        bounties = bounties_of(self.books) if config.bounty else None
        proxy = TableState(config=config, seats=(SeatState(1, player, stack),),
                           levels=LevelClock(self.settings.levels, level), standings=standings,
                           buys=tuple((p, k) for p, k in self.books["buys"]), bounties=bounties)
        try:
            result: TableState = rule(proxy, config)
        except IllegalAction as error:
            raise MoneyError(str(error)) from None
        return result

    def _keep(self, state: TableState) -> Standings:
        """The proxy's books become the room's; its standings are returned."""
        config = _config(self.settings)
        before = len(self.books["buys"])
        self.books["buys"] = [list(pair) for pair in state.buys]
        for player, kind in state.buys[before:]:
            if config.bounty and kind in ("entry", "reentry", "rebuy"):
                self.books["bounty_in"] += config.bounty
                _LOGGER.info("room tournament: %s %s, bounty %s", player, kind, config.bounty)
        if state.bounties is not None:
            self.books["bounties"] = state.bounties.as_json()
        check_ledger(self.books)
        assert state.standings is not None
        return state.standings

    @staticmethod
    def _still_in(player: str, standings: Standings) -> bool:
        return all(f.player != player for f in standings.finishes)


def _config(settings: TournamentSettings) -> Any:
    if settings.engine is None:
        raise MoneyError("this tournament has no money rules (room.toml [tournament])")
    return settings.engine
