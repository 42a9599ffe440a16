"""The table's inputs that change its between-hands record: pure functions from a ``TableState`` to the next.

Each function takes the record and a typed input (entries.py) and returns a new record, or raises
``InputError`` / ``IllegalAction`` and changes nothing. ``start`` plans a hand and hands it to a ``HandPlay``
(play.py); ``close_deal`` folds a finished hand back into the record (stacks, the button, TRN-4 places).
"""

from __future__ import annotations

from dataclasses import replace

from dealerpi.engine import tournament_money
from dealerpi.engine.betting import IllegalAction
from dealerpi.engine.entries import Away, Back, Button, Chips, Leave, Move, Pause, Resume, SetTable, Sit, Start
from dealerpi.engine.inputs import InputError, TableConfig
from dealerpi.engine.payouts import Standings
from dealerpi.engine.play import HandPlay
from dealerpi.engine.policies import SeatChange
from dealerpi.engine.positions import (
    HandPlan,
    Lineup,
    PositionError,
    SeatInfo,
    check_buy_in,
    move_button,
    plan_bomb,
    plan_hand,
)
from dealerpi.engine.records import Alert
from dealerpi.engine.seat_change import move_seat
from dealerpi.engine.state import Redeal, SeatState, TableState
from dealerpi.engine.tournament import LevelClock


def require_config(state: TableState) -> TableConfig:
    if state.config is None:
        raise InputError('no table yet: the first input is {"type": "table", ...}')
    return state.config


def occupied(state: TableState, seat: int) -> SeatState:
    """The seat ``seat``, which must be taken: on the table, or beyond a table made smaller (set_table)."""
    config = require_config(state)
    info = state.seat(seat)
    if info is not None:
        return info
    if not 1 <= seat <= config.seats:
        raise InputError(f"seat {seat} does not exist: seats are 1 to {config.seats}")
    raise InputError(f"seat {seat} is empty")


def no_redeal_waiting(state: TableState, what: str) -> None:
    """MIS-7, MIS-6 (TDA 35-C): a fouled deal is played again as an exact re-play, the same players, stacks,
    button and blinds, no new player seated; so until its START nothing the redeal could not follow is taken
    (issue 14: such changes used to be accepted, then ignored by the redeal). Once the redeal is under way the
    table is in an ordinary hand and takes them as in any hand."""
    if state.redeal is not None:
        raise IllegalAction(f"cannot {what} now: hand #{state.hand_number} is dealt again first (MIS-7 fouled "
                            "deck), exactly as it was: the same players, stacks, button and blinds (MIS-6); "
                            "press START")


def off_table(state: TableState) -> list[Alert]:
    """One alert per player kept on a seat the table does not have (a table made smaller, see set_table)."""
    seats = require_config(state).seats
    return [Alert("TABLE", f"Seat {s.seat} ({s.player}, {s.stack}) is not at this {seats}-seat table: move the "
                           "player to an empty seat or cash out") for s in state.seats if s.seat > seats]


def set_table(state: TableState, entry: SetTable) -> tuple[TableState, list[Alert]]:
    """A new table, or a change of it between hands. A running level clock and the tournament's standings go
    on when the schedule and the tournament do (TRN-1, TRN-4). A seat the table no longer has keeps its player
    and stack on record, out of play (``start`` deals only the table's seats), until the host moves or cashes
    out that player (issue 12)."""
    no_redeal_waiting(state, "change the table")
    old, config = state.config, entry.config
    levels = state.levels
    if old is None or old.levels != config.levels or levels is None:
        levels = LevelClock(config.levels) if config.levels else None
    standings = None
    if config.policies.tournament:
        standings = Standings(0, 0, config.payouts) if state.standings is None \
            else replace(state.standings, percents=config.payouts)
        standings = tournament_money.field_percents(state, config, standings)
    alerts = off_table(replace(state, config=config))
    lineup = state.lineup
    if any(s is not None and s > config.seats
           for s in (lineup.button, lineup.sb, lineup.bb, lineup.start, lineup.bb_poster)):
        # BLD-1 counts seats around this table: a button or blind on a seat it lacks cannot move on from
        # there, so the next hand is planned as a first hand (seed 002 B4)
        lineup = Lineup()
        alerts.append(Alert("BLD-1", f"The button or a blind was on a seat this {config.seats}-seat table does "
                                     "not have: the next hand is dealt as a first hand"))
    return replace(state, config=config, levels=levels, standings=standings, lineup=lineup), alerts


def sit(state: TableState, entry: Sit) -> TableState:
    config, seat = require_config(state), entry.seat
    no_redeal_waiting(state, f"seat a player at seat {seat}")
    if not 1 <= seat <= config.seats:
        raise InputError(f"seat {seat} does not exist: seats are 1 to {config.seats}")
    taken = state.seat(seat)
    if taken is not None:
        raise InputError(f"seat {seat} is taken by {taken.player}")
    reason = check_buy_in(entry.stack, policies=config.policies, big_blind=config.big_blind,
                          small_bet=config.limits[0] if config.limits else None)
    if reason:
        raise InputError(reason)
    # seed 001 late entry: a reserved stack is placed in advance and blinded as an absent player (TRN-9)
    state = state.with_seat(SeatState(seat, entry.player, entry.stack, away=entry.reserved,
                                      wants_to_post=entry.post, reserved=entry.reserved))
    if state.standings is not None and not entry.reserved:         # TRN-4/TRN-9: an entry or a re-entry
        state = tournament_money.enter(state, config, entry.player, f"seat {entry.player}")
    return state


def leave(state: TableState, entry: Leave, play: HandPlay | None) -> TableState:
    info = occupied(state, entry.seat)
    no_redeal_waiting(state, f"cash out seat {entry.seat}")
    if play is not None and not play.over and entry.seat in play.plan.order \
            and not play.hand.folded[play.index(entry.seat)]:
        raise IllegalAction(f"seat {entry.seat} is in the hand: fold first")
    over = state.standings is not None and state.standings.remaining == 0     # TRN-4: it has its winner
    if state.standings is not None and info.stack > 0 and not info.reserved and not over:
        raise IllegalAction(f"seat {entry.seat}: a tournament stack stays in play (TRN-4); mark the player away "
                            "(DEAL-9: dealt in, blinded, killed)")
    return state.without_seat(entry.seat)


def move(state: TableState, entry: Move) -> tuple[TableState, list[Alert]]:
    """BLD-8: a player changes seats between hands; ``seat_change.move_seat`` says what he owes."""
    config, player = require_config(state), occupied(state, entry.seat)
    no_redeal_waiting(state, f"move seat {entry.seat}")
    infos = {s.seat: SeatInfo(s.seat, s.stack, away=s.away) for s in state.seats}
    policies = config.policies
    if entry.seat > config.seats:     # from a seat this table no longer has: no position to measure from (BLD-6)
        policies = replace(policies, seat_change=SeatChange.AS_NEW)
    moved = move_seat(state.lineup, infos, entry.seat, entry.to, table_seats=config.seats,
                      policies=policies, wait=entry.wait)
    player = replace(player, seat=entry.to, new=player.new or moved.new,
                     wants_to_post=player.wants_to_post if entry.post is None else entry.post)
    state = replace(state.without_seat(entry.seat), lineup=moved.lineup).with_seat(player)
    return state, [Alert(rule, text) for rule, text in moved.notes]


def away(state: TableState, entry: Away) -> TableState:
    info = occupied(state, entry.seat)
    no_redeal_waiting(state, f"mark seat {entry.seat} away")
    return state.with_seat(replace(info, away=True))


def back(state: TableState, entry: Back) -> TableState:
    info = occupied(state, entry.seat)
    no_redeal_waiting(state, f"mark seat {entry.seat} back")
    info = replace(info, away=False, wants_to_post=info.wants_to_post if entry.post is None else entry.post)
    if entry.player is not None:                     # a late entrant takes over a reserved stack (seed 001)
        if info.reserved and state.standings is not None and state.config is not None:   # TRN-4: an entrant
            state = tournament_money.enter(state, state.config, entry.player,
                                           f"give seat {entry.seat}'s reserved stack to {entry.player}")
        info = replace(info, player=entry.player, reserved=False)
    return state.with_seat(info)


def chips(state: TableState, entry: Chips) -> TableState:
    config, info = require_config(state), occupied(state, entry.seat)
    no_redeal_waiting(state, f"add chips to seat {entry.seat}")
    if config.policies.tournament:
        raise IllegalAction("no top-ups in a tournament")
    if entry.amount <= 0:
        raise InputError("chips: amount must be positive (chips never come off the table in a cash game)")
    reason = check_buy_in(entry.amount, policies=config.policies, big_blind=config.big_blind,
                          small_bet=config.limits[0] if config.limits else None, current_stack=info.stack)
    if reason:
        raise InputError(reason)
    return state.with_seat(replace(info, stack=info.stack + entry.amount))


def button(state: TableState, entry: Button) -> TableState:
    config = require_config(state)
    no_redeal_waiting(state, "move the button")
    if not 1 <= entry.seat <= config.seats:
        raise InputError(f"seat {entry.seat} does not exist: seats are 1 to {config.seats}")
    return replace(state, lineup=move_button(state.lineup, entry.seat))


def tick_levels(state: TableState, seconds: int) -> tuple[TableState, list[Alert]]:
    """TRN-1: the level clock runs; a new level applies from the next hand. TRN-5 (TDA RP-8): a hand-for-hand
    hand takes at most its allowance off the clock; levels advance as that time runs out."""
    clock, allowance = state.levels, state.clock_allowance
    if clock is None:
        return state, []
    if allowance is not None and not clock.paused:
        seconds = min(seconds, allowance)
        state = replace(state, clock_allowance=allowance - seconds)
    levels, notes = clock.advance(seconds)
    if any(step.is_break for step in levels.levels[clock.index + 1: levels.index + 1]):
        # TRN-2: a break gives every player his time-bank tokens back
        state = replace(state, seats=tuple(replace(seat, banks_used=0) for seat in state.seats))
    return replace(state, levels=levels), [Alert(rule, text) for rule, text in notes]


def _clock_allowance(state: TableState, config: TableConfig) -> int | None:
    """TRN-5 (TDA RP-8): a hand dealt while a pause waits for it (the room's hand-for-hand round: ``resume``
    with ``pause_after``) may take at most ``hand_for_hand_seconds`` off the level clock; a redeal (MIS-7) is
    the same hand and keeps what is left. Any other hand is played on the clock."""
    if state.redeal is not None:
        return state.clock_allowance
    cap = config.policies.hand_for_hand_seconds
    hand_for_hand = state.paused is not None and state.pause_after is not None
    return cap if hand_for_hand and cap > 0 else None


def pause(state: TableState, entry: Pause, in_hand: bool) -> TableState:
    """TRN-5: hand-for-hand (or a break): no hand starts until ``resume``. Without ``after_hand`` between hands
    only, and the table is held at once; with it (taken during a hand too) the table is held once hand
    ``after_hand`` is over (``holds_if_due``), so a START pressed right after that hand cannot beat the pause.
    The table's own level clock, if any, stops when the pause holds: time spent waiting for the other tables
    does not come off the level (TDA RP-8); until then the hand is played on the clock."""
    require_config(state)
    if state.paused is not None:
        raise IllegalAction("the table is already paused" if state.pause_after is None else
                            f"the table is already to be paused after hand #{state.pause_after}")
    if entry.after_hand is None:                     # between hands (Table._on_pause): held at once
        levels = None if state.levels is None else state.levels.pause()
        return replace(state, paused=entry.reason, levels=levels)
    state = replace(state, paused=entry.reason, pause_after=entry.after_hand)
    return state if in_hand else holds_if_due(state)


def holds_if_due(state: TableState) -> TableState:
    """A pause waiting for hand ``pause_after`` holds once that hand is over, between hands: the hand number
    reached it and no fouled deal waits to be dealt again (MIS-6/MIS-7: a redeal is the same hand)."""
    if state.pause_after is None or state.hand_number < state.pause_after or state.redeal is not None:
        return state
    levels = None if state.levels is None else state.levels.pause()
    return replace(state, pause_after=None, levels=levels)


def resume(state: TableState, entry: Resume, in_hand: bool) -> TableState:
    """The pause ends (a pause still waiting for its hand is called off). With ``pause_after`` the table plays
    until hand ``pause_after`` is over and is then held again, with the same reason or the one given (the
    room's round holds a table it had held for a move as hand-for-hand): one hand-for-hand round is one input
    (TRN-5), no window for a START between two."""
    if state.paused is None:
        raise IllegalAction("the table is not paused")
    levels = None if state.levels is None else state.levels.resume()
    after = entry.pause_after
    if after is None:
        return replace(state, paused=None, pause_after=None, levels=levels)
    number = state.hand_number
    if after < number or (after == number and not in_hand and state.redeal is None):
        raise IllegalAction(f"resume: pause_after {after} would keep the table paused: hand #{number} is over "
                            f"(TRN-5: pause_after {number + 1} plays one more hand)" if not in_hand else
                            f"resume: pause_after {after} names a hand already over: hand #{number} is in play")
    reason = state.paused if entry.reason is None else entry.reason
    return replace(state, paused=reason, pause_after=after, levels=levels)


def paused_why(state: TableState) -> str:
    return f" ({state.paused})" if state.paused else ""


def _next_stakes(state: TableState, config: TableConfig) -> tuple[int, int, int, int]:
    """TRN-1: the level in force when the hand starts; a cash game's stakes are the config's."""
    if state.levels is None:
        return config.small_blind, config.big_blind, config.ante, config.bb_ante
    level = state.levels.level_for_next_hand()
    if level is None:
        raise IllegalAction("TRN-1: the tournament is on a break; no hand starts")
    return level.small_blind, level.big_blind, level.ante, level.bb_ante


def _plan(state: TableState, config: TableConfig, stakes: tuple[int, int, int, int]) -> HandPlan:
    """The next hand's button, blinds and who is dealt in (positions.py), at ``stakes``."""
    infos = {s.seat: SeatInfo(s.seat, s.stack, away=s.away, new=s.new, wants_to_post=s.wants_to_post)
             for s in state.seats if s.seat <= config.seats}           # beyond a table made smaller: not dealt
    small_blind, big_blind, ante, bb_ante = stakes
    return plan_hand(state.lineup, infos, table_seats=config.seats, small_blind=small_blind, big_blind=big_blind,
                     structure=config.game.structure, policies=config.policies, ante=ante, bb_ante=bb_ante)


def next_plan(state: TableState) -> HandPlan | None:
    """The plan a START would deal now (a voided deal's again, MIS-7), for the room's balancing (TRN-8: who
    is due the big blind before the table's first hand); None when no hand can be dealt (no table, fewer
    than two players). A break or a pause does not change the seats: the config's stakes stand in."""
    if state.config is None:
        return None
    if state.redeal is not None:
        return state.redeal.plan
    config = state.config
    try:
        return _plan(state, config, (config.small_blind, config.big_blind, 0, 0))
    except PositionError:
        return None


def start(state: TableState, entry: Start) -> tuple[TableState, HandPlay, list[Alert]]:
    """Plan and deal a hand: the button, blinds and who is dealt in (positions.py), or the voided deal's
    plan again (MIS-7)."""
    config = require_config(state)
    if state.paused is not None and state.pause_after is None:
        raise IllegalAction(f"TRN-5: the table is paused{paused_why(state)}: no hand starts until it is resumed")
    redeal = state.redeal
    if redeal is None:
        stakes = _next_stakes(state, config)
        plan = _plan(state, config, stakes)
        if entry.bomb is not None:
            plan = plan_bomb(plan, entry.bomb.ante)       # seed 001: antes only; the button stays
        redeal = Redeal(plan, stakes, (), entry.bomb)
        number = state.hand_number + 1
    else:
        number = state.hand_number                       # MIS-6/MIS-7: an exact re-play of the voided deal
    stacks, players = [], []
    for seat in redeal.plan.order:
        info = state.seat(seat)
        if info is None:
            raise IllegalAction(f"seat {seat} of the voided deal is empty: the redeal needs every player of it")
        stacks.append(info.stack)
        players.append(info.player)
    # DEAL-9 (TDA 30): who is away now; a fouled deal's redeal (MIS-7) is dealt to who is at the table for it
    absent = frozenset(s for s in redeal.plan.killed if (info := state.seat(s)) is not None and info.away)
    banks = {s: max(0, config.policies.time_banks - info.banks_used) for s in redeal.plan.order
             if (info := state.seat(s)) is not None}                                     # TRN-2 time banks
    play = HandPlay(config, redeal.plan, tuple(stacks), number, redeal.stakes, straddles=redeal.straddles,
                    bomb=redeal.bomb, players=tuple(players), absent=absent, banks=banks)
    state = replace(state, hand_number=number, redeal=None, clock_allowance=_clock_allowance(state, config))
    return state, play, [Alert(rule, text) for rule, text in redeal.plan.notes]


def close_deal(state: TableState, play: HandPlay) -> tuple[TableState, list[Alert]]:
    """Fold a finished hand into the record: stacks, the next button, TRN-4 eliminations. A fouled deck
    (MIS-7) changes nothing but keeps the deal to play again."""
    if play.fouled:
        return replace(state, redeal=Redeal(play.plan, play.stakes, play.straddles, play.bomb)), []
    hand, order = play.hand, play.plan.order
    for index, seat in enumerate(order):
        info = state.seat(seat)
        if info is not None:                             # a folded player may have left during the hand
            state = state.with_seat(replace(info, stack=hand.stacks[index], new=False, wants_to_post=False,
                                            banks_used=info.banks_used + play.banks_used.get(seat, 0)))
    state, alerts = _eliminations(replace(state, lineup=play.plan.after), order, hand.starting,
                                  _bust_by(play))
    return holds_if_due(state), alerts


def _bust_by(play: HandPlay) -> dict[int, list[int]]:
    """PKO: for each seat dealt in, who won the last pot it was in (its last chips), clockwise from the button."""
    order, by = play.plan.order, {}
    for award in play.hand.awards:
        winners = [order[i] for i in sorted(award.won) if award.won[i] > 0]
        for index in award.eligible:
            by[order[index]] = winners                   # awards run from the main pot up: the last one stands
    return by


def _eliminations(state: TableState, order: tuple[int, ...], starting: list[int],
                  bust_by: dict[int, list[int]]) -> tuple[TableState, list[Alert]]:
    """TRN-4: players who lost their last chip leave. Of players busted on one hand, the one who started it
    with more chips places higher; only equal starting stacks share the places (digest TRN-4)."""
    standings = state.standings
    if standings is None:
        return state, []
    for seat in order:
        info = state.seat(seat)
        if info is not None and info.stack == 0 and info.reserved:
            state = state.without_seat(seat)             # a stack nobody bought finishes nowhere
    busted = [info for seat in order if (info := state.seat(seat)) is not None and info.stack == 0]
    if not busted:
        return state, []
    names = [info.player for info in busted]             # clockwise from the button, like odd chips
    standings = standings.bust(names, {info.player: starting[order.index(info.seat)] for info in busted})
    alerts = [Alert("TRN-4", f"{f.player} finishes {f.place}" + (f", wins {f.prize}" if f.prize else ""))
              for f in standings.finishes if f.player in names]
    for info in busted:
        winners = [w.player for seat in bust_by.get(info.seat, []) if (w := state.seat(seat)) is not None
                   and w.stack > 0]
        state, knocks = tournament_money.knock_out(state, info.player, winners)       # PKO
        alerts += knocks
    for info in busted:
        state = state.without_seat(info.seat)
    if standings.remaining == 1 and len(state.seats) == 1:
        winner = state.seats[0].player
        standings = standings.win(winner)
        state = tournament_money.winner_takes_his_head(state, winner)
        alerts.append(Alert("TRN-4", f"{winner} wins the tournament and {standings.finishes[-1].prize}"))
    return replace(state, standings=standings), alerts
