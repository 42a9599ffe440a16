"""A tournament's money beyond one entry each: re-entries, rebuys, the add-on, and PKO bounties (issue 20).

The rule sources describe freezeouts; these are the choices DealerPi makes, as The Tournament Director and most
rooms run them (docs/tournaments.md):

- Entry and re-entry (TRN-9): while late entry is open, a new player enters with ``sit``; a player who busted
  enters again the same way, at most ``reentries`` times. Each entry pays ``buy_in`` and counts in the field; a
  re-entered player's earlier bust is no longer a finish (he is in again).
- Rebuy: between hands, until the end of level ``rebuy_levels``, a player with at most the starting stack buys
  ``starting_stack`` chips for ``buy_in``, at most ``rebuys`` times.
- Add-on: once per player, at the break that follows level ``rebuy_levels``: ``addon_chips`` for
  ``addon_price``.
- PKO (engine/bounties.py): ``bounty`` of every entry, re-entry and rebuy goes on the buyer's head instead of into
  the prize pool.

``TableState.buys`` lists every buy-in in order, (player, kind), so the counts and the console's ledger read the
same record. Pure functions from a state to the next; a refusal is an ``IllegalAction`` naming the rule.
"""

from __future__ import annotations

from dataclasses import replace

from dealerpi.engine.betting import IllegalAction
from dealerpi.engine.bounties import Bounties
from dealerpi.engine.entries import AddOn, Rebuy
from dealerpi.engine.inputs import TableConfig
from dealerpi.engine.payouts import Standings, percents_for
from dealerpi.engine.records import Alert
from dealerpi.engine.state import SeatState, TableState


def late_entry_open(state: TableState, config: TableConfig, who: str) -> None:
    """TRN-9: a new entrant until the end of level ``late_entry_levels`` (and the break after it)."""
    late = config.late_entry_levels
    if late and state.levels is not None and state.levels.level_number > late:
        raise IllegalAction(f"TRN-9: late entry closed at the end of level {late}: cannot {who}")


def bought(state: TableState, player: str, *kinds: str) -> int:
    """How many buy-ins of these kinds ``player`` made."""
    return sum(1 for name, kind in state.buys if name == player and kind in kinds)


def enter(state: TableState, config: TableConfig, player: str, who: str) -> TableState:
    """``player`` enters (or re-enters) the tournament for ``buy_in``: the pool, the field, his head."""
    late_entry_open(state, config, who)
    standings = state.standings
    assert standings is not None                      # callers enter players of a tournament only
    out = any(f.player == player for f in standings.finishes)
    if out:
        used = bought(state, player, "reentry")
        if not config.reentries:
            raise IllegalAction(f"TRN-9: {player} is out: this tournament has no re-entry")
        if used >= config.reentries:
            raise IllegalAction(f"TRN-9: {player} has re-entered {used} time{'s' if used != 1 else ''}: no more "
                                f"re-entries (reentries = {config.reentries})")
        standings = replace(standings, finishes=tuple(f for f in standings.finishes if f.player != player))
    state = replace(state, buys=(*state.buys, (player, "reentry" if out else "entry")))
    standings = field_percents(state, config, standings.enter(config.buy_in - config.bounty))
    return _on_head(replace(state, standings=standings), config, player)


def rebuy(state: TableState, config: TableConfig, entry: Rebuy) -> tuple[TableState, list[Alert]]:
    """A rebuy between hands: ``starting_stack`` chips for ``buy_in``."""
    seat = _seat_of(state, entry.seat, "rebuy")
    if not config.rebuys:
        raise IllegalAction("rebuy: this tournament has no rebuys")
    if state.levels is not None and (state.levels.level_number > config.rebuy_levels or (
            state.levels.level_number == config.rebuy_levels and state.levels.on_break)):
        raise IllegalAction(f"rebuy: the rebuy period ended with level {config.rebuy_levels}")
    done = bought(state, seat.player, "rebuy")
    if done >= config.rebuys:
        raise IllegalAction(f"rebuy: {seat.player} has rebought {done} time{'s' if done != 1 else ''} "
                            f"(rebuys = {config.rebuys})")
    if seat.stack > config.panel_stack:
        raise IllegalAction(f"rebuy: {seat.player} has {seat.stack}, more than the starting stack "
                            f"({config.panel_stack})")
    state = _bought(state, seat.player, "rebuy", config.buy_in - config.bounty)
    state = _on_head(state.with_seat(replace(seat, stack=seat.stack + config.panel_stack)), config, seat.player)
    return state, [Alert("TRN-4", f"{seat.player} rebuys: {config.panel_stack} chips for {config.buy_in}")]


def addon(state: TableState, config: TableConfig, entry: AddOn) -> tuple[TableState, list[Alert]]:
    """The add-on, once per player, at the break after the rebuy period."""
    seat = _seat_of(state, entry.seat, "addon")
    if not config.addon_chips:
        raise IllegalAction("addon: this tournament has no add-on")
    levels = state.levels
    if levels is None or not levels.on_break or levels.level_number != config.rebuy_levels:
        raise IllegalAction(f"addon: add-ons are taken at the break after level {config.rebuy_levels}")
    if bought(state, seat.player, "addon"):
        raise IllegalAction(f"addon: {seat.player} has taken the add-on")
    state = _bought(state, seat.player, "addon", config.addon_price)
    state = state.with_seat(replace(seat, stack=seat.stack + config.addon_chips))
    return state, [Alert("TRN-4", f"{seat.player} takes the add-on: {config.addon_chips} chips for "
                                  f"{config.addon_price}")]


def knock_out(state: TableState, busted: str, winners: list[str]) -> tuple[TableState, list[Alert]]:
    """PKO: ``busted`` is out, busted by ``winners``; a tournament without bounties keeps no books of it."""
    if state.bounties is None:
        return state, []
    bounties, words = state.bounties.bust(busted, winners)
    return replace(state, bounties=bounties), [Alert("TRN-4", words)] if words else []


def winner_takes_his_head(state: TableState, winner: str) -> TableState:
    return state if state.bounties is None else replace(state, bounties=state.bounties.win(winner))


def _seat_of(state: TableState, number: int, kind: str) -> SeatState:
    seat = state.seat(number)
    if seat is None:
        raise IllegalAction(f"{kind}: seat {number} is empty")
    if state.standings is None:
        raise IllegalAction(f"{kind}: this is not a tournament")
    return seat


def _bought(state: TableState, player: str, kind: str, pool_part: int) -> TableState:
    standings = state.standings
    assert standings is not None
    return replace(state, buys=(*state.buys, (player, kind)),
                   standings=replace(standings, pool=standings.pool + pool_part).priced(standings.finishes))


def _on_head(state: TableState, config: TableConfig, player: str) -> TableState:
    if not config.bounty:
        return state
    return replace(state, bounties=(state.bounties or Bounties()).enter(player, config.bounty))


def field_percents(state: TableState, config: TableConfig, standings: Standings) -> Standings:
    """TRN-4: with payouts by field size, the row for the entries so far (each entry may change it). The
    entries are the buys of entries and re-entries (a checkpoint from before re-entries has none recorded:
    then the players still in and those finished)."""
    if not config.payouts_by_field:
        return standings
    entries = max(sum(1 for _, kind in state.buys if kind in ("entry", "reentry")),
                  standings.remaining + len(standings.finishes))
    return standings.with_percents(percents_for(config.payouts_by_field, entries))
