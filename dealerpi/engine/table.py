"""The table: the fold of its journal inputs. ``Table.apply(input)`` is the engine's one entry point.

An input is a plain dict (one JSON line of the journal, see docs/journal.md). ``apply`` either accepts it and
changes the table, or rejects it with the reason and changes nothing. Alerts carry the digest's rule ids.
Between hands the table keeps seats, stacks, the button and the blind bookkeeping; during a hand it holds a
``Hand`` (the poker) and a ``DealFollower`` (the cards). A rejected input and an undo rebuild the table from
the last between-hands snapshot by applying the accepted inputs after it again: the same fold as a replay.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from dealerpi.engine.betting import IllegalAction
from dealerpi.engine.dealing import DealFollower
from dealerpi.engine.hand import Hand, Phase
from dealerpi.engine.inputs import InputError, TableConfig, parse_config, require
from dealerpi.engine.payouts import Standings
from dealerpi.engine.positions import HandPlan, Lineup, PositionError, SeatInfo, check_buy_in, move_button
from dealerpi.engine.records import Alert, DealRecord, Outcome, Seat
from dealerpi.engine.seat_change import move_seat
from dealerpi.engine.table_hand import HandInputs
from dealerpi.engine.tournament import ActionClock, LevelClock, ScheduleError


class Table(HandInputs):
    """See the module docstring."""

    def __init__(self) -> None:
        self.config: TableConfig | None = None
        self.seats: dict[int, Seat] = {}
        self.lineup = Lineup()
        self.hand: Hand | None = None
        self.deal: DealFollower | None = None
        self.plan: HandPlan | None = None
        self.redeal_plan: HandPlan | None = None       # MIS-6 / MIS-7: the next deal replays this plan
        self.straddles: list[tuple[int, int]] = []
        self.bomb: Mapping[str, int] | None = None
        self.record: DealRecord | None = None
        self.records: list[DealRecord] = []
        self.hand_number = 0
        self.accepted: list[dict[str, Any]] = []
        self.clock: ActionClock | None = None          # TRN-2: a clock called on the seat to act
        self.checkpoint: tuple[int, dict[str, Any]] = (0, {})
        self.levels: LevelClock | None = None           # TRN-1: the level schedule, advanced by ticks
        self.standings: Standings | None = None         # TRN-4: entrants, eliminations, prizes
        self.stakes: tuple[int, int, int, int] = (0, 0, 0, 0)   # this hand's small blind, big blind, ante, bb ante

    # --- the entry point -----------------------------------------------------------------------------

    def apply(self, entry: Mapping[str, Any]) -> Outcome:
        """Apply one input; a rejected input changes nothing."""
        if not isinstance(entry, Mapping) or not isinstance(entry.get("type"), str):
            return Outcome(False, 'an input is a JSON object with a "type"')
        kind = entry["type"]
        if kind == "undo":
            return self._undo()
        handler = getattr(self, f"_on_{kind}", None)
        if handler is None:
            return Outcome(False, f"unknown input type {kind!r}")
        if self.hand is None or self.hand.at(Phase.COMPLETE):
            self.checkpoint = (len(self.accepted), self._snapshot())
        try:
            alerts = handler(entry) or []
        except (IllegalAction, InputError, PositionError, ScheduleError) as error:
            self._rebuild(len(self.accepted))
            return Outcome(False, self._seat_words(str(error)), self._refusal_alerts(kind, entry, str(error)))
        self.accepted.append(dict(entry))
        return Outcome(True, None, tuple(Alert(a.rule, self._seat_words(a.message)) for a in alerts))

    def _snapshot(self) -> dict[str, Any]:
        """The table between hands, copied cheaply: containers are copied, the objects in them are not
        mutated between hands (frozen configs and plans, finished hands and records)."""
        state: dict[str, Any] = {}
        for key, value in self.__dict__.items():
            if key in ("checkpoint", "accepted"):
                continue
            if key == "seats":
                value = {seat: copy.copy(info) for seat, info in value.items()}
            elif isinstance(value, list):
                value = list(value)
            state[key] = value
        return state

    def _rebuild(self, keep: int) -> None:
        """Become the table that the first ``keep`` accepted inputs make: restore the last between-hands
        snapshot and apply the accepted inputs after it again (the same fold, so exactly the same table)."""
        inputs = self.accepted[:keep]
        start, state = self.checkpoint
        if start > keep:
            fresh = Table()
            for entry in inputs:
                fresh.apply(entry)
            self.__dict__.update(fresh.__dict__)
            return
        self.__dict__.update(state)
        self.__dict__.update(self._snapshot())            # the snapshot stays reusable
        self.accepted = inputs[:start]
        self.checkpoint = (start, state)
        for entry in inputs[start:]:
            self.apply(entry)

    def _undo(self) -> Outcome:
        if not self.accepted:
            return Outcome(False, "nothing to undo")
        self._rebuild(len(self.accepted) - 1)
        return Outcome(True, None, (Alert("UNDO", "The last input was taken back"),))

    def _refusal_alerts(self, kind: str, entry: Mapping[str, Any], reason: str) -> tuple[Alert, ...]:
        if kind == "act" and "out of turn" in reason:
            return (Alert("BET-12", self._seat_words(reason)),)
        return ()

    def _seat_words(self, text: str) -> str:
        """Engine messages name player indices; the dealer reads seat numbers."""
        if self.plan is None:
            return text
        for index, seat in sorted(enumerate(self.plan.order), reverse=True):
            text = text.replace(f"player {index}", f"seat {seat}").replace(f"Player {index}", f"Seat {seat}")
        return text

    # --- table and seats -----------------------------------------------------------------------------

    def _on_table(self, entry: Mapping[str, Any]) -> list[Alert]:
        self._between_hands("change the table")
        self.config = parse_config(entry)
        self.levels = LevelClock(self.config.levels) if self.config.levels else None
        self.standings = Standings(0, 0, self.config.payouts) if self.config.policies.tournament else None
        return []

    def _require_config(self) -> TableConfig:
        if self.config is None:
            raise InputError('no table yet: the first input is {"type": "table", ...}')
        return self.config

    def _between_hands(self, what: str) -> None:
        if self.hand is not None and self.hand.phase is not Phase.COMPLETE:
            raise IllegalAction(f"cannot {what} during a hand")

    def _seat_number(self, entry: Mapping[str, Any], *, occupied: bool = True) -> int:
        config = self._require_config()
        seat = require(entry, "seat", int)
        if not 1 <= seat <= config.seats:
            raise InputError(f"seat {seat} does not exist: seats are 1 to {config.seats}")
        if occupied and seat not in self.seats:
            raise InputError(f"seat {seat} is empty")
        return seat

    def _on_sit(self, entry: Mapping[str, Any]) -> list[Alert]:
        config = self._require_config()
        seat = self._seat_number(entry, occupied=False)
        if seat in self.seats:
            raise InputError(f"seat {seat} is taken by {self.seats[seat].player}")
        player = require(entry, "player", str)
        stack = require(entry, "stack", int)
        reason = check_buy_in(stack, policies=config.policies, big_blind=config.big_blind,
                              small_bet=config.limits[0] if config.limits else None)
        if reason:
            raise InputError(reason)
        # seed 001 late entry: a reserved stack is placed in advance and blinded as an absent player (TRN-9)
        reserved = bool(entry.get("reserved", False))
        self.seats[seat] = Seat(player, stack, away=reserved, wants_to_post=bool(entry.get("post", False)),
                                reserved=reserved)
        if self.standings is not None and not reserved:
            self.standings = self.standings.enter(config.buy_in)
        return []

    def _on_leave(self, entry: Mapping[str, Any]) -> list[Alert]:
        seat = self._seat_number(entry)
        if self.hand is not None and self.plan is not None and self.hand.phase is not Phase.COMPLETE \
                and seat in self.plan.order and not self.hand.folded[self.plan.order.index(seat)]:
            raise IllegalAction(f"seat {seat} is in the hand: fold first")
        info = self.seats[seat]
        if self.standings is not None and info.stack > 0 and not info.reserved:
            raise IllegalAction(f"seat {seat}: a tournament stack stays in play (TRN-4); mark the player away "
                                "(DEAL-9: dealt in, blinded, killed)")
        del self.seats[seat]
        return []

    def _on_move(self, entry: Mapping[str, Any]) -> list[Alert]:
        """BLD-8: a player changes seats between hands; ``seat_change.move_seat`` says what he owes."""
        config = self._require_config()
        seat = self._seat_number(entry)
        self._between_hands("change seats")
        to = require(entry, "to", int)
        infos = {s: SeatInfo(s, info.stack, away=info.away) for s, info in self.seats.items()}
        moved = move_seat(self.lineup, infos, seat, to, table_seats=config.seats, policies=config.policies,
                          wait=bool(entry.get("wait", False)))
        player = self.seats.pop(seat)
        player.new = player.new or moved.new
        player.wants_to_post = bool(entry.get("post", player.wants_to_post))
        self.seats[to] = player
        self.lineup = moved.lineup
        return [Alert(rule, text) for rule, text in moved.notes]

    def _on_away(self, entry: Mapping[str, Any]) -> list[Alert]:
        self.seats[self._seat_number(entry)].away = True
        return []

    def _on_back(self, entry: Mapping[str, Any]) -> list[Alert]:
        seat = self.seats[self._seat_number(entry)]
        seat.away = False
        seat.wants_to_post = bool(entry.get("post", seat.wants_to_post))
        if "player" in entry:                        # a late entrant takes over a reserved stack (seed 001)
            seat.player = require(entry, "player", str)
            if seat.reserved and self.standings is not None and self.config is not None:
                self.standings = self.standings.enter(self.config.buy_in)     # TRN-4: now an entrant
            seat.reserved = False
        return []

    def _on_chips(self, entry: Mapping[str, Any]) -> list[Alert]:
        config = self._require_config()
        seat_number = self._seat_number(entry)
        self._between_hands("add chips")             # BET-16: top-ups between hands only
        if config.policies.tournament:
            raise IllegalAction("no top-ups in a tournament")
        amount = require(entry, "amount", int)
        if amount <= 0:
            raise InputError("chips: amount must be positive (chips never come off the table in a cash game)")
        seat = self.seats[seat_number]
        reason = check_buy_in(amount, policies=config.policies, big_blind=config.big_blind,
                              small_bet=config.limits[0] if config.limits else None, current_stack=seat.stack)
        if reason:
            raise InputError(reason)
        seat.stack += amount
        return []

    def _on_button(self, entry: Mapping[str, Any]) -> list[Alert]:
        seat = self._seat_number(entry, occupied=False)
        self._between_hands("move the button")
        self.lineup = move_button(self.lineup, seat)
        return []
