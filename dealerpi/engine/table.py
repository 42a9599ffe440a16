"""The table: the fold of its journal inputs. ``Table.apply(input)`` is the engine's one entry point.

An input is one JSON object of the journal (docs/journal.md), parsed once into its typed record
(entries.py). ``apply`` either accepts it and changes the table, or refuses it with the reason and changes
nothing. The table is two things:

- ``state``, a ``TableState`` (state.py): the immutable between-hands record (seats, button, levels, ...);
- ``play``, a ``HandPlay`` (play.py): the hand in progress, the only object that changes it.

Each input type has one handler in the table ``self._handlers``. Between-hands handlers compute a new record
(between.py); hand handlers go to the ``HandPlay``; when a hand ends, ``between.close_deal`` folds it into
the record.

Undo and refusals: when a hand starts, the table keeps the record before it (``_base``) and the inputs
accepted since (``_since``). A refused input during a hand, and an undo, rebuild the table from that record by
applying those inputs again: cost O(this hand), never all of history. So an undo reaches back to the start of
the last hand, no further; and once that hand is complete, into it only until another input that is not a
tick is accepted: that input fixes the hand (``_floor``: the undo stops there) and its outcome says the hand is
final (events.py). ``snapshot()`` is that record and those inputs as JSON, valid at any time (replayed, they
fix the hand again); ``Table.from_snapshot`` rebuilds an equal table (the durability checkpoint; docs/journal.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from dealerpi.engine import between, reading, tournament_money
from dealerpi.engine.betting import IllegalAction
from dealerpi.engine.chip_race import plan_race, plan_words, race_result, race_words
from dealerpi.engine.deals import DealError, check_deal
from dealerpi.engine.entries import (
    Act,
    AddOn,
    Away,
    Back,
    Button,
    Card,
    Chips,
    Clock,
    ColourUp,
    Dead,
    Deal,
    Extra,
    Input,
    Leave,
    Misdeal,
    Move,
    Muck,
    Pause,
    Rebuy,
    Resume,
    Run,
    SetTable,
    Show,
    Sit,
    Start,
    Straddle,
    Tick,
    Undo,
    parse_input,
)
from dealerpi.engine.events import Event, HandFinal, HandStarted, Left, Outcome, Sat, Undone
from dealerpi.engine.expectation import Expectation, Waiting
from dealerpi.engine.inputs import InputError, TableConfig
from dealerpi.engine.payouts import Standings
from dealerpi.engine.play import HandPlay
from dealerpi.engine.policies import AbsentPlayer, Preset
from dealerpi.engine.positions import PositionError
from dealerpi.engine.reading import DealtHand, PotNow, SeatNow
from dealerpi.engine.records import Alert, DealRecord
from dealerpi.engine.state import FORMAT_VERSION, SeatState, TableState
from dealerpi.engine.tournament import ActionClock, LevelClock, ScheduleError

_REFUSALS = (IllegalAction, InputError, PositionError, ScheduleError)


class Table:
    """See the module docstring."""

    def __init__(self, state: TableState | None = None) -> None:
        self.state = state or TableState()
        self.play: HandPlay | None = None
        self.records: list[DealRecord] = []        # the deals played, for the record (not needed to play on)
        self.records_kept: int | None = None       # None: every deal; N: the last N deals before this hand
        self.accepted_count = 0                    # inputs accepted so far, less those undone
        self._closed = True                        # the play's result is folded into ``state``
        self._base: tuple[TableState, HandPlay | None, int] = (self.state, None, 0)
        self._since: list[tuple[Input, Mapping[str, Any]]] = []
        self._deals: list[tuple[DealRecord, DealtHand | None]] = []   # the deals since ``_base``
        self._final = 0                            # how many of them are final (said so by HandFinal)
        self._floor = 0                            # an undo takes back the inputs of ``_since`` from here on
        self._handlers: dict[type[Any], Callable[[Any], list[Alert]]] = {
            SetTable: self._on_table, Sit: self._on_sit, Leave: self._on_leave, Move: self._on_move,
            Away: self._on_away, Back: self._on_back, Chips: self._on_chips, Button: self._on_button,
            Start: self._on_start,
            Straddle: lambda e: self._live().on_straddle(e), Card: lambda e: self._live().on_card(e),
            Misdeal: lambda e: self._live().on_misdeal(), Dead: lambda e: self._live().on_dead(e),
            Extra: lambda e: self._live().on_extra(e), Act: lambda e: self._live().on_act(e),
            Run: lambda e: self._live().on_run(e), Show: lambda e: self._live().on_show(e),
            Muck: lambda e: self._live().on_muck(e), Clock: self._on_clock, Tick: self._on_tick,
            Pause: self._on_pause, Resume: self._on_resume, Deal: self._on_deal,
            ColourUp: self._on_colour_up, Rebuy: self._on_rebuy, AddOn: self._on_addon,
        }

    # --- the entry point -----------------------------------------------------------------------------

    def apply(self, entry: Mapping[str, Any]) -> Outcome:
        """Apply one input; a refused input changes nothing."""
        try:
            command = parse_input(entry)
        except InputError as error:
            return Outcome(False, str(error))
        if isinstance(command, Undo):
            return self._undo()
        in_hand = not self.between_hands
        saved, state, play = (self._base, self._since, self._deals, self._final, self._floor), self.state, self.play
        # an input after a complete hand fixes it (events.py), a tick excepted; a start begins a new base
        final = self._deals[self._final:] if not in_hand else []
        fixes = bool(final) and not isinstance(command, Tick)
        if fixes:
            self._final, self._floor = len(self._deals), len(self._since)
        if isinstance(command, Start) and not in_hand:
            self._base = (self.state, self.play, len(self.records))     # the record before the hand
            self._since, self._deals, self._final, self._floor = [], [], 0, 0
        try:
            alerts = self._dispatch(command)
        except _REFUSALS as error:
            self._base, self._since, self._deals, self._final, self._floor = saved
            if in_hand:                                    # the hand may be half changed: rebuild it
                self._rebuild(len(self._since))
            reason = self._seat_words(str(error))
            refusal = (Alert("BET-12", reason),) if isinstance(command, Act) and "out of turn" in reason else ()
            return Outcome(False, reason, refusal)
        if isinstance(command, Start) and not in_hand:
            self._forget_old_records()
        self._since.append((command, dict(entry)))
        self.accepted_count += 1
        events: list[Event] = [HandFinal(record, dealt) for record, dealt in final] if fixes else []
        if isinstance(command, Sit):
            events.append(Sat(command.seat, command.player))
        elif isinstance(command, Leave) and (left := state.seat(command.seat)) is not None:
            events.append(Left(command.seat, left.player))
        if self.play is not None and self.play is not play:
            events.append(HandStarted(self.play.number, self.play.plan.button, self.play.plan.order))
        return Outcome(True, None, tuple(Alert(a.rule, self._seat_words(a.message)) for a in alerts), tuple(events))

    def _forget_old_records(self) -> None:
        """Keep only the last ``records_kept`` deals from before this hand, so that a daemon's memory is
        bounded by the current hand, not by the evening (the journal folder keeps the history)."""
        state, play, count = self._base
        excess = count - self.records_kept if self.records_kept is not None else 0
        if excess > 0:
            del self.records[:excess]
            self._base = (state, play, count - excess)

    def _dispatch(self, command: Input) -> list[Alert]:
        alerts = self._handlers[type(command)](command) + self._collect()
        if self.play is not None and not self.play.over:
            self.play.arm_clock()                          # TRN-2: the shot clock follows the decision
        return alerts

    def _collect(self) -> list[Alert]:
        """Record the deals the play finished; fold a complete hand into the between-hands record once."""
        play = self.play
        if play is None:
            return []
        self.records += play.done
        # a played-out deal keeps the hand for the PHH writer; a misdealt one is no hand (MIS-6, MIS-7)
        self._deals += [(record, None if record.misdeal else reading.dealt_hand(play)) for record in play.done]
        play.done.clear()
        if not play.over or self._closed:
            return []
        self._closed = True
        self.state, alerts = between.close_deal(self.state, play)
        return alerts

    def _rebuild(self, keep: int) -> None:
        """Become the table that the record before the hand and the first ``keep`` inputs since make."""
        since = self._since[:keep]
        self.state, self.play, count = self._base
        self._closed = True
        del self.records[count:]
        self._deals = []                                   # collected again; ``_final`` of them stay final
        for command, _ in since:
            self._dispatch(command)                        # accepted once, so accepted again: the same fold
        self._since = since

    def _undo(self) -> Outcome:
        if len(self._since) <= self._floor:
            return Outcome(False, "nothing to undo" if not self._floor else
                                  f"nothing to undo: hand #{self.hand_number} is over and final")
        if isinstance(self._since[-1][0], SetTable):
            # issue 22, probe 5: two UNDOs before the first hand took the config's table back (no game, START
            # refused "no table yet"); a table is replaced by another table input, and an undo stops at it
            return Outcome(False, "nothing to undo: the table's game and stakes are changed by a new table "
                                  "input, not undone")
        complete = self.play.number if self.play is not None and self.play.over else None
        self._rebuild(len(self._since) - 1)
        self.accepted_count -= 1
        play = self.play
        reopened = complete if play is not None and not play.over and play.number == complete else None
        return Outcome(True, None, (Alert("UNDO", "The last input was taken back"),), (Undone(1, reopened),))

    def last_input(self) -> Mapping[str, Any] | None:
        """The input an ``undo`` would take back (None: nothing to undo), for the dealer to confirm."""
        if len(self._since) <= self._floor or isinstance(self._since[-1][0], SetTable):
            return None
        return self._since[-1][1]

    def _seat_words(self, text: str) -> str:
        return text if self.play is None else self.play.seat_words(text)

    # --- the checkpoint ------------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """This table as JSON data: the record before the last hand and the inputs accepted since."""
        return {"version": FORMAT_VERSION, "state": self._base[0].as_json(),
                "inputs": [dict(raw) for _, raw in self._since]}

    @classmethod
    def from_snapshot(cls, data: object) -> Table:
        """The table ``snapshot()`` described; ``InputError`` names what is wrong with a bad document."""
        if not isinstance(data, Mapping) or data.get("version") != FORMAT_VERSION:
            raise InputError(f"checkpoint: not a version {FORMAT_VERSION} table snapshot")
        inputs = data.get("inputs")
        if not isinstance(inputs, list):
            raise InputError('checkpoint: bad "inputs"')
        table = cls(TableState.from_json(data.get("state")))
        for number, entry in enumerate(inputs, 1):
            outcome = table.apply(entry)
            if not outcome.accepted:
                raise InputError(f"checkpoint: input {number} is refused: {outcome.reason}")
        return table

    # --- handlers ------------------------------------------------------------------------------------

    @property
    def between_hands(self) -> bool:
        """No hand is being played (none yet, or the last one is complete)."""
        return self.play is None or self.play.over

    def _no_hand(self, what: str) -> None:
        if not self.between_hands:
            raise IllegalAction(f"cannot {what} during a hand")

    def _live(self) -> HandPlay:
        if self.play is None or self.play.over:
            raise IllegalAction("no hand is being played")
        return self.play

    def table_may_change(self) -> bool:
        """Whether a ``table`` input would be taken now: between hands, and no fouled deal waits to be played
        again with the same plan (MIS-7)."""
        return self.between_hands and self.state.redeal is None

    def off_table(self) -> list[Alert]:
        """Players kept on seats this table does not have, each an alert asking to move or cash them out."""
        return [] if self.state.config is None else between.off_table(self.state)

    def _on_table(self, entry: SetTable) -> list[Alert]:
        self._no_hand("change the table")
        self.state, alerts = between.set_table(self.state, entry)
        return alerts

    def _on_sit(self, entry: Sit) -> list[Alert]:
        self.state = between.sit(self.state, entry)
        return []

    def _on_leave(self, entry: Leave) -> list[Alert]:
        self.state = between.leave(self.state, entry, self.play)
        return []

    def _on_move(self, entry: Move) -> list[Alert]:
        between.occupied(self.state, entry.seat)
        self._no_hand("change seats")
        self.state, alerts = between.move(self.state, entry)
        return alerts

    def _on_away(self, entry: Away) -> list[Alert]:
        self.state = between.away(self.state, entry)
        self._absent_in_hand(entry.seat, away=True)
        return []

    def _on_back(self, entry: Back) -> list[Alert]:
        self.state = between.back(self.state, entry)
        self._absent_in_hand(entry.seat, away=False)
        return []

    def _absent_in_hand(self, seat: int, *, away: bool) -> None:
        """DEAL-9 (TDA 30): in a hand that deals absent players in, away or back counts until the last card of
        the initial deal lands."""
        config = self.state.config
        if self.play is not None and not self.play.over and config is not None \
                and config.policies.absent_player is AbsentPlayer.DEALT_KILLED:
            self.play.mark_absent(seat, away=away)

    def _on_chips(self, entry: Chips) -> list[Alert]:
        between.occupied(self.state, entry.seat)
        self._no_hand("add chips")                   # BET-16: top-ups between hands only
        self.state = between.chips(self.state, entry)
        return []

    def _on_button(self, entry: Button) -> list[Alert]:
        between.require_config(self.state)
        self._no_hand("move the button")
        self.state = between.button(self.state, entry)
        return []

    def _on_start(self, entry: Start) -> list[Alert]:
        between.require_config(self.state)
        alerts: list[Alert] = []
        state, play = self.state, self.play
        if play is not None and play.expectation().waiting is Waiting.SHOWDOWN and state.pause_after is not None \
                and state.hand_number >= state.pause_after:
            # TRN-5: START would settle this showdown and then be refused by the pause: say how to end the hand
            raise IllegalAction(f"TRN-5: the table is paused{between.paused_why(state)} once hand "
                                f"#{state.hand_number} is over: show or muck the hands to end it; no hand starts "
                                "until the table is resumed")
        if self.play is not None:
            alerts += self.play.settle_open_showdown()     # START/NEXT ends a showdown left open
            alerts += self._collect()
        self._no_hand("start a hand")
        self.state, play, notes = between.start(self.state, entry)
        self.play, self._closed = play, False
        return alerts + notes

    def _on_pause(self, entry: Pause) -> list[Alert]:
        if entry.after_hand is None:
            self._no_hand("pause the table")             # TRN-5: a hand in play is played out first
        self.state = between.pause(self.state, entry, not self.between_hands)
        return []

    def _on_resume(self, entry: Resume) -> list[Alert]:
        self.state = between.resume(self.state, entry, not self.between_hands)
        return []

    def _on_deal(self, entry: Deal) -> list[Alert]:
        """A deal at the final table (engine/deals.py): between hands, every player still in is at this table and
        agreed, and the amounts are the prizes still to pay, nobody below the lowest of them."""
        self._no_hand("make a deal")
        standings = self.state.standings
        if standings is None:
            raise IllegalAction("a deal is for a tournament's prizes")
        players = [s.player for s in self.state.seats if not s.reserved]
        if len(players) != standings.remaining:
            raise IllegalAction(f"a deal is made at the final table: {standings.remaining} players are still in, "
                                f"{len(players)} at this table")
        prizes = dict(entry.prizes)
        if sorted(entry.agreed) != sorted(players):
            missing = ", ".join(p for p in players if p not in entry.agreed) or "nobody"
            raise IllegalAction(f"a deal needs every player still in to agree; not agreed: {missing}")
        try:
            check_deal(prizes, players, standings.still_to_pay())
        except DealError as error:
            raise IllegalAction(f"deal: {error}") from None
        self.state = replace(self.state, standings=standings.with_deal(prizes))
        paid = ", ".join(f"{name} {amount}" for name, amount in entry.prizes)
        return [Alert("TRN-4", f"Deal: {paid}; every player agreed; the places are still played out")]

    def _on_colour_up(self, entry: ColourUp) -> list[Alert]:
        """TRN-6: between hands in a tournament (its own, or a room's: the tournament preset), the race's result
        applied to the stacks; with ``plan``, only the race's plan shown to the dealer."""
        self._no_hand("colour up")
        config = self.state.config
        if self.state.standings is None and (config is None or config.preset is not Preset.TOURNAMENT):
            raise IllegalAction("TRN-6: a colour-up is for a tournament's chips")
        stacks = {s.seat: s.stack for s in self.state.seats}
        plan = plan_race(stacks, entry.remove, entry.chip)
        if entry.plan:
            return [Alert("TRN-6", plan_words(plan))]
        after, saved = race_result(stacks, plan, entry.won)
        for seat in self.state.seats:
            self.state = self.state.with_seat(replace(seat, stack=after[seat.seat]))
        return [Alert("TRN-6", race_words(plan, entry.won, saved))]

    def _on_rebuy(self, entry: Rebuy) -> list[Alert]:
        self._no_hand("rebuy")
        self.state, alerts = tournament_money.rebuy(self.state, between.require_config(self.state), entry)
        return alerts

    def _on_addon(self, entry: AddOn) -> list[Alert]:
        self._no_hand("take the add-on")
        self.state, alerts = tournament_money.addon(self.state, between.require_config(self.state), entry)
        return alerts

    def _on_clock(self, entry: Clock) -> list[Alert]:
        between.require_config(self.state)
        if self.play is None:
            raise IllegalAction("no one is to act")
        return self.play.on_clock()

    def _on_tick(self, entry: Tick) -> list[Alert]:
        self.state, alerts = between.tick_levels(self.state, entry.seconds)
        if self.play is not None:
            alerts += self.play.tick(entry.seconds)
        return alerts

    # --- what the table waits for --------------------------------------------------------------------

    def expectation(self) -> Expectation:
        """What the table waits for now (see expectation.py)."""
        if self.state.config is None:
            return Expectation(Waiting.TABLE)
        if self.play is None:
            return Expectation(Waiting.START)
        return self.play.expectation()

    # --- reading, by seat number (reading.py) ------------------------------------------------------

    @property
    def config(self) -> TableConfig | None:
        return self.state.config

    @property
    def seats(self) -> dict[int, SeatState]:
        """The occupied seats as the between-hands record has them (stacks before the hand in progress)."""
        return {s.seat: s for s in self.state.seats}

    @property
    def hand_number(self) -> int:
        return self.state.hand_number

    @property
    def paused(self) -> str | None:
        """TRN-5: the pause's reason while the table is held (no hand starts), else None."""
        return self.state.paused if self.state.pause_after is None else None

    @property
    def pausing(self) -> tuple[str, int] | None:
        """TRN-5: a pause asked for that holds once a hand is over: its reason and that hand's number."""
        state = self.state
        return None if state.paused is None or state.pause_after is None else (state.paused, state.pause_after)

    @property
    def levels(self) -> LevelClock | None:
        return self.state.levels

    @property
    def standings(self) -> Standings | None:
        return self.state.standings

    @property
    def clock(self) -> ActionClock | None:
        """TRN-2: the clock on the seat to act (called, or the shot clock), if any."""
        return None if self.play is None else self.play.clock

    @property
    def record(self) -> DealRecord | None:
        """The deal being played, for the record (None between hands)."""
        return None if self.play is None or self.play.over else self.play.record

    @property
    def open_deals(self) -> tuple[DealRecord, ...]:
        """The deals played and not final yet (an undo may still change them: events.py), oldest first: a
        reader that lists every deal takes the final ones from the ``HandFinal`` events, then these."""
        return tuple(record for record, _ in self._deals[self._final:])

    def seat(self, seat: int) -> SeatNow:
        """Seat ``seat`` now: player, chips behind, status, bet, what it may do."""
        return reading.seat_now(self.state, self.play, seat)

    def button(self) -> int | None:
        """The button of the hand in progress (or just played); before any hand, where the dealer put it."""
        return self.state.lineup.button if self.play is None else self.play.plan.button

    def dealt_seats(self) -> tuple[int, ...]:
        """The seats dealt into the hand in progress (or just played), first left of the button."""
        return () if self.play is None else self.play.plan.order

    def pots(self) -> tuple[PotNow, ...]:
        return reading.pots(self.play)

    def pot_total(self) -> int:
        """Every chip in the middle of the hand in progress, this street's bets included."""
        play = reading.live(self.play)
        return 0 if play is None else play.hand.pot_total()

    def payouts(self) -> tuple[tuple[int, int], ...]:
        return reading.payouts(self.play)

    def board(self) -> tuple[tuple[str, ...], ...]:
        return reading.board(self.play)

    def shown_cards(self) -> dict[int, tuple[str, ...]]:
        return reading.shown_cards(self.play)

    def dealt_hand(self) -> DealtHand | None:
        """The hand in progress or just played, for the hand histories (PHH); None before the first hand."""
        return reading.dealt_hand(self.play)

    def hand_blinds(self) -> tuple[int, int] | None:
        return reading.hand_blinds(self.play)

    def blind_seats(self) -> tuple[int | None, int | None]:
        return reading.blind_seats(self.play)

    def starting_stacks(self) -> tuple[tuple[int, int], ...]:
        return reading.starting_stacks(self.play)

    def bust_by(self) -> dict[int, list[int]]:
        """PKO: after a hand, each seat it left at 0 and the seats that busted it (the winners of the last pot it
        was in, between.py's rule; the room's bounties read it, room/director/knockouts.py); {} during a hand."""
        play = self.play
        if play is None or not self.between_hands or not play.over:
            return {}
        busted = {seat for seat, _ in self.starting_stacks() if (info := self.state.seat(seat)) is None
                  or info.stack == 0}
        return {seat: winners for seat, winners in between._bust_by(play).items() if seat in busted}

    def next_blind_seats(self) -> tuple[int, int | None, int | None] | None:
        """Between hands, the button, small blind and big blind seats a START would deal now (BLD-1..5, as
        ``start`` plans them); None during a hand or when no hand can be dealt."""
        plan = between.next_plan(self.state) if self.between_hands else None
        return None if plan is None else (plan.button, plan.sb, plan.bb)

    def returned_cards(self) -> frozenset[str]:
        return reading.returned_cards(self.play)

    def hole_cards(self, seat: int) -> tuple[str, ...]:
        """``seat``'s own cards: for that seat's display only (hole cards are secret)."""
        return reading.hole_cards(self.play, seat)

    def cards_read(self) -> tuple[str, ...]:
        """The cards the shoe has read for the hand in progress (or just played), in order, burns included: a
        card exposed in the dealing (MIS-3, EXP-*) is one of them."""
        return () if self.play is None else tuple(self.play.deal.read_order)

    @property
    def awaiting_first_card(self) -> bool:
        """A hand is being played and the shoe has not read a card of it yet (the deck may be shuffled)."""
        return not self.between_hands and not self.cards_read()
