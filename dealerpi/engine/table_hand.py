"""The table's inputs during a hand: start, straddles, cards, actions, irregularities, showdown, the clock.

A mixin of ``Table`` (see table.py): it turns seat numbers into the hand's player indices and back, feeds the
``Hand`` and the ``DealFollower``, and writes the finished deal into the record.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerpi.cards import CardError
from dealerpi.engine.betting import IllegalAction
from dealerpi.engine.dealing import DealFollower, DealResult
from dealerpi.engine.expectation import Expectation, LegalActions, Waiting
from dealerpi.engine.hand import Hand, Phase
from dealerpi.engine.inputs import InputError, TableConfig, require
from dealerpi.engine.payouts import Standings
from dealerpi.engine.positions import HandPlan, Lineup, SeatInfo, apply_straddles, plan_bomb, plan_hand, straddle
from dealerpi.engine.records import Alert, DealRecord, Seat
from dealerpi.engine.tournament import ActionClock, LevelClock, call_clock, when_time_is_up

_ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")


class HandInputs:
    """Hand-time input handlers; the attributes are the ``Table``'s."""

    config: TableConfig | None
    seats: dict[int, Seat]
    lineup: Lineup
    hand: Hand | None
    deal: DealFollower | None
    plan: HandPlan | None
    redeal_plan: HandPlan | None
    straddles: list[tuple[int, int]]
    bomb: Mapping[str, int] | None
    record: DealRecord | None
    records: list[DealRecord]
    hand_number: int
    clock: ActionClock | None
    levels: LevelClock | None
    standings: Standings | None
    stakes: tuple[int, int, int, int]

    def _require_config(self) -> TableConfig:
        raise NotImplementedError

    def _between_hands(self, what: str) -> None:
        raise NotImplementedError

    # --- helpers -------------------------------------------------------------------------------------

    def _live_hand(self) -> tuple[Hand, DealFollower, HandPlan]:
        if self.hand is None or self.deal is None or self.plan is None or self.hand.phase is Phase.COMPLETE:
            raise IllegalAction("no hand is being played")
        return self.hand, self.deal, self.plan

    def _index(self, seat: int) -> int:
        _, _, plan = self._live_hand()
        if seat not in plan.order:
            raise IllegalAction(f"seat {seat} is not in this hand")
        index: int = plan.order.index(seat)
        return index

    def _card(self, entry: Mapping[str, Any]) -> str:
        text = require(entry, "card", str)
        try:
            return self._require_config().game.deck.parse(text)
        except CardError as error:
            # DEAL-7: a card that is no card of the deck in play fouls the deck.
            if len(text.strip()) == 2:
                return text.strip()
            raise InputError(str(error)) from None

    def _actor_seat(self) -> int | None:
        if self.hand is None or self.plan is None or self.hand.actor is None:
            return None
        seat: int = self.plan.order[self.hand.actor]
        return seat

    # --- starting a deal -----------------------------------------------------------------------------

    def _on_start(self, entry: Mapping[str, Any]) -> list[Alert]:
        config = self._require_config()
        alerts: list[Alert] = []
        if self.hand is not None and self.hand.phase is Phase.SHOWDOWN:
            self.hand.settle()                 # START/NEXT ends a showdown left open: the engine reads the hands
            alerts += self._finish_deal()
        self._between_hands("start a hand")
        bomb = entry.get("bomb")
        if bomb is not None:
            if not isinstance(bomb, Mapping) or not isinstance(bomb.get("ante"), int) or bomb["ante"] <= 0:
                raise InputError('start: "bomb" must be {"ante": N, "boards": 1 or 2}')
            if bomb.get("boards", 1) not in (1, 2):
                raise InputError('start: "bomb" boards must be 1 or 2')
        plan = self.redeal_plan
        if plan is None:
            self.stakes = self._next_stakes(config)
            small_blind, big_blind, ante, bb_ante = self.stakes
            infos = {seat: SeatInfo(seat, s.stack, away=s.away, new=s.new, wants_to_post=s.wants_to_post)
                     for seat, s in self.seats.items()}
            plan = plan_hand(self.lineup, infos, table_seats=config.seats, small_blind=small_blind,
                             big_blind=big_blind, structure=config.game.structure,
                             policies=config.policies, ante=ante, bb_ante=bb_ante)
            if bomb is not None:
                plan = plan_bomb(plan, int(bomb["ante"]))     # seed 001: antes only; the button stays
            self.straddles = []
            self.bomb = bomb
        # else MIS-6/MIS-7: the redeal is an exact re-play (the same plan, straddles and bomb)
        self.redeal_plan = None
        self.plan = plan
        self.hand_number += 1 if not self.records or not self.records[-1].misdeal else 0
        self._deal_new_hand()
        alerts += [Alert(rule, text) for rule, text in plan.notes]
        return alerts

    def _next_stakes(self, config: TableConfig) -> tuple[int, int, int, int]:
        """TRN-1: the level in force when the hand starts; a cash game's stakes are the config's."""
        if self.levels is None:
            return config.small_blind, config.big_blind, config.ante, config.bb_ante
        level = self.levels.level_for_next_hand()
        if level is None:
            raise IllegalAction("TRN-1: the tournament is on a break; no hand starts")
        return level.small_blind, level.big_blind, level.ante, level.bb_ante

    def _deal_new_hand(self) -> None:
        config = self._require_config()
        plan = self.plan
        if plan is None:
            raise IllegalAction("no hand was planned")
        order = plan.order
        dealt = apply_straddles(plan, self.straddles, config.policies, self.stakes[1])
        lists = dealt.hand_lists()
        stacks, blinds, dead, antes = [self.seats[s].stack for s in order], lists.blinds, lists.dead, lists.antes
        boards = int(self.bomb.get("boards", 1)) if self.bomb is not None else config.game.boards
        self.hand = Hand(config.game, stacks, blinds=blinds, antes=antes, dead=dead,
                         min_bet=config.limits[0] if config.limits else self.stakes[1],
                         limits=config.limits, cap_heads_up=config.policies.limit_cap_heads_up, boards=boards,
                         bomb=self.bomb is not None,
                         last_street_no_limit=self.bomb is not None and bool(self.bomb.get("river_no_limit", 1)),
                         preflop_first=lists.preflop_first)
        self.deal = DealFollower(self.hand, config.policies)
        self.clock = None                               # TRN-2: a clock belongs to one deal's decision
        for seat in plan.killed:
            self.hand.kill(order.index(seat), forfeit=True)   # DEAL-9 (TDA 30): dealt in, killed, blinds forfeit
        self.record = DealRecord(self.hand_number, plan.button, order)
        for index, seat in enumerate(order):              # what was actually posted (a short stack posts less)
            live = self.hand.bets[index]
            dead_part = min(dead[index] if dead else 0, stacks[index] - live)
            post = {"live": live, "dead": dead_part, "ante": self.hand.dead_paid[index] - dead_part}
            if any(post.values()):
                self.record.posts[seat] = post

    def _on_straddle(self, entry: Mapping[str, Any]) -> list[Alert]:
        config = self._require_config()
        seat = require(entry, "seat", int)
        _, deal, plan = self._live_hand()
        if deal.read_order or self.bomb is not None:
            raise IllegalAction("a straddle is posted before the first card (BLD-9)")
        amount = straddle(plan, self.straddles, seat, config.policies, self.stakes[1])
        self.straddles.append((seat, amount))
        self._deal_new_hand()
        return [Alert("BLD-9", f"Seat {seat} straddles {amount}")]

    # --- cards ---------------------------------------------------------------------------------------

    def _on_card(self, entry: Mapping[str, Any]) -> list[Alert]:
        _, deal, _ = self._live_hand()
        return self._deal_result(deal.read(self._card(entry)))

    def _on_exposed(self, entry: Mapping[str, Any]) -> list[Alert]:
        _, deal, _ = self._live_hand()
        return self._deal_result(deal.exposed(self._card(entry)))

    def _on_boxed(self, entry: Mapping[str, Any]) -> list[Alert]:
        _, deal, _ = self._live_hand()
        return self._deal_result(deal.boxed(self._card(entry)))

    def _on_burn(self, entry: Mapping[str, Any]) -> list[Alert]:
        _, deal, _ = self._live_hand()
        return self._deal_result(deal.choose_burn(self._card(entry)))

    def _on_misdeal(self, entry: Mapping[str, Any]) -> list[Alert]:
        _, deal, _ = self._live_hand()
        return self._deal_result(deal.misdeal())

    def _on_dead(self, entry: Mapping[str, Any]) -> list[Alert]:
        """The dealer declares a hand dead: a wrong number of cards found after substantial action (MIS-4), or a
        player who looked at a hand he had not posted for (MIS-8). It folds out of turn; the deal goes on."""
        hand, _, _ = self._live_hand()
        seat = require(entry, "seat", int)
        hand.kill(self._index(seat))
        return [Alert("MIS-4", f"Seat {seat}'s hand is dead: muck its cards; deal on, one burn per street"),
                *self._after_change()]

    def _on_extra(self, entry: Mapping[str, Any]) -> list[Alert]:
        _, deal, _ = self._live_hand()
        return self._deal_result(deal.extra(require(entry, "count", int)))

    def _deal_result(self, result: DealResult) -> list[Alert]:
        if self.record is not None:
            self.record.irregularities += result.alerts
        if result.fouled:                         # MIS-7: stop, return every bet; the next start replays
            return [*result.alerts, *self._void(fouled=True)]
        if result.misdeal:                        # MIS-6: the next reads are the redeal
            self._void(fouled=False)
            self._deal_new_hand()
            return result.alerts
        return [*result.alerts, *self._after_change()]

    def _void(self, *, fouled: bool) -> list[Alert]:
        if self.record is not None:
            self.record.misdeal = True
            self.record.fouled = fouled
            self.records.append(self.record)
            self.record = None
        if fouled:
            self.redeal_plan = self.plan
            if self.hand is not None:
                self.hand.phase = Phase.COMPLETE
                self.hand.stacks[:] = self.hand.starting
            return [Alert("MIS-7", "All bets are returned; replace the deck and start the hand again")]
        return []

    # --- betting -------------------------------------------------------------------------------------

    def _on_act(self, entry: Mapping[str, Any]) -> list[Alert]:
        hand, deal, _ = self._live_hand()
        seat = require(entry, "seat", int)
        action = require(entry, "action", str)
        if action not in _ACTIONS:
            raise InputError(f'act: "action" must be one of {", ".join(_ACTIONS)}, not {action!r}')
        index = self._index(seat)
        if hand.phase is not Phase.BETTING:
            raise IllegalAction(f"no betting now: {self.expectation().words()}")
        blocked = deal.blocks_action()
        if blocked:
            raise IllegalAction(blocked)
        if hand.actor != index:
            raise IllegalAction(f"out of turn: the action is on seat {self._actor_seat()} (BET-12)")
        legal = hand.legal()
        if action == "fold":
            hand.fold(index)
        elif action in ("check", "call"):
            if action == "check" and not legal.check:
                raise IllegalAction(f"seat {seat} cannot check: {legal.call_to} to call")
            hand.check_or_call(index)               # BET-11: "call" facing no bet is a check
        elif action == "all_in":
            if legal.raise_max_to is not None:
                hand.bet_or_raise_to(legal.raise_max_to, index)
            else:
                hand.check_or_call(index)
        else:
            hand.bet_or_raise_to(require(entry, "to", int), index)
        self.clock = None
        return self._after_change()

    def _on_run(self, entry: Mapping[str, Any]) -> list[Alert]:
        config = self._require_config()
        hand, deal, _ = self._live_hand()
        times = require(entry, "times", int)
        if times > config.policies.run_it_max:
            raise IllegalAction(f"these house rules run the board at most {config.policies.run_it_max} time(s)")
        if not deal.stub_can_serve(times):
            raise IllegalAction(f"the stub cannot serve {times} runs (POT-11)")
        hand.run_it(times)
        deal.board_slots.clear()
        deal.sync()
        return [Alert("POT-11", f"Run it {times} times: each run burns before each card; each is worth 1/{times}")]

    # --- showdown ------------------------------------------------------------------------------------

    def _on_show(self, entry: Mapping[str, Any]) -> list[Alert]:
        hand, _, _ = self._live_hand()
        hand.show(self._index(require(entry, "seat", int)))
        return self._after_change()

    def _on_muck(self, entry: Mapping[str, Any]) -> list[Alert]:
        hand, _, _ = self._live_hand()
        hand.muck(self._index(require(entry, "seat", int)))
        return self._after_change()

    def _after_change(self) -> list[Alert]:
        hand, deal = self.hand, self.deal
        if hand is None or deal is None:
            return []
        deal.sync()
        if hand.phase in (Phase.DEAL_BOARD, Phase.SHOWDOWN) and hand.betting_closed and len(hand.live) > 1:
            for player in hand.live:              # POT-5: all-in, every hand is turned face up at once
                if not hand.shown[player] and not hand.at(Phase.COMPLETE):
                    hand.show(player)
        if hand.at(Phase.COMPLETE):
            return self._finish_deal()
        return []

    def _finish_deal(self) -> list[Alert]:
        hand, plan, record = self.hand, self.plan, self.record
        if hand is None or plan is None or record is None:
            return []
        order = plan.order
        for index, seat in enumerate(order):
            self.seats[seat].stack = hand.stacks[index]
            self.seats[seat].new = False
            self.seats[seat].wants_to_post = False
        record.boards = [list(b) for b in hand.boards]
        record.pots = [{"amount": award.amount, "eligible": [order[i] for i in award.eligible],
                        "won": {str(order[i]): chips for i, chips in sorted(award.won.items())}}
                       for award in hand.awards]
        record.hole = {order[i]: list(cards) for i, cards in enumerate(hand.hole)}
        record.shown = [order[i] for i in range(hand.n) if hand.shown[i]]
        self.records.append(record)
        self.record = None
        self.lineup = plan.after
        alerts = self._eliminations(order)
        pushes = ", ".join(f"seat {order[i]} {chips}" for i, chips in enumerate(hand.won) if chips)
        return ([Alert("POT", f"Push: {pushes}")] if pushes else []) + alerts

    def _eliminations(self, order: tuple[int, ...]) -> list[Alert]:
        """TRN-4: players who lost their last chip leave. Of players busted on one hand, the one who started it
        with more chips places higher; only equal starting stacks share the places (digest TRN-4)."""
        if self.standings is None:
            return []
        for seat in [s for s in order if self.seats[s].stack == 0 and self.seats[s].reserved]:
            del self.seats[seat]                         # a stack nobody bought finishes nowhere
        busted = [seat for seat in order if seat in self.seats and self.seats[seat].stack == 0]
        if not busted:
            return []
        names = [self.seats[seat].player for seat in busted]      # clockwise from the button, like odd chips
        starting = self.hand.starting if self.hand is not None else [0] * len(order)
        self.standings = self.standings.bust(names, {self.seats[s].player: starting[order.index(s)] for s in busted})
        for seat in busted:
            del self.seats[seat]
        alerts = [Alert("TRN-4", f"{f.player} finishes {f.place}" + (f", wins {f.prize}" if f.prize else ""))
                  for f in self.standings.finishes if f.player in names]
        if self.standings.remaining == 1 and len(self.seats) == 1:
            winner = next(iter(self.seats.values())).player
            self.standings = self.standings.win(winner)
            alerts.append(Alert("TRN-4", f"{winner} wins the tournament and {self.standings.prize_for(1)}"))
        return alerts

    # --- the clock (TRN-2) ---------------------------------------------------------------------------

    def _on_clock(self, entry: Mapping[str, Any]) -> list[Alert]:
        config = self._require_config()
        seat = self._actor_seat()
        if seat is None:
            raise IllegalAction("no one is to act")
        clock = call_clock(config.policies, seat)
        if clock is None:
            raise IllegalAction("the clock is off under these house rules")
        self.clock = clock
        return [Alert("TRN-2", f"Clock on seat {seat}: {clock.remaining} seconds")]

    def _on_tick(self, entry: Mapping[str, Any]) -> list[Alert]:
        seconds = require(entry, "seconds", int)
        if seconds < 0:
            raise InputError("tick: seconds must not be negative")
        alerts: list[Alert] = []
        if self.levels is not None:                   # TRN-1: a new level applies from the next hand
            self.levels, notes = self.levels.advance(seconds)
            alerts += [Alert(rule, text) for rule, text in notes]
        return alerts + self._clock_tick(seconds)

    def _clock_tick(self, seconds: int) -> list[Alert]:
        clock, hand = self.clock, self.hand
        if clock is None or hand is None or self._actor_seat() != clock.seat:
            self.clock = None
            return []
        clock = clock.tick(seconds)
        if not clock.expired:
            self.clock = clock
            return []
        self.clock = None
        if when_time_is_up(facing_bet=not hand.legal().check) == "check":
            hand.check_or_call()
            verdict = "checked"
        else:
            hand.fold()
            verdict = "folded"
        return [Alert("TRN-2", f"Time: seat {clock.seat}'s hand is {verdict}"), *self._after_change()]

    # --- what the table waits for --------------------------------------------------------------------

    def expectation(self) -> Expectation:
        """What the table waits for now (see expectation.py)."""
        if self.config is None:
            return Expectation(Waiting.TABLE)
        hand, deal, plan = self.hand, self.deal, self.plan
        if hand is None or deal is None or plan is None or hand.phase is Phase.COMPLETE:
            return Expectation(Waiting.START)
        if deal.pending_choice is not None:
            return Expectation(Waiting.BURN_CHOICE, cards=tuple(deal.pending_choice))
        slot = deal.expected()
        if slot is not None and (hand.phase is not Phase.BETTING or deal.blocks_action()):
            if slot.kind == "hole":
                return Expectation(Waiting.CARD, seat=plan.order[slot.player])
            if slot.kind == "burn":
                return Expectation(Waiting.BURN)
            street = hand.game.streets[slot.street].name
            board = f" board {slot.board + 1}" if len(hand.boards) > 1 else ""
            return Expectation(Waiting.CARD, street=f"{street}{board}")
        if hand.phase is Phase.BETTING and hand.actor is not None:
            legal = hand.legal()
            span = None if legal.raise_min_to is None or legal.raise_max_to is None \
                else (legal.raise_min_to, legal.raise_max_to)
            return Expectation(Waiting.ACTION, seat=plan.order[hand.actor],
                               legal=LegalActions(legal.fold, legal.check, legal.call_to, span))
        if hand.phase is Phase.SHOWDOWN:
            return Expectation(Waiting.SHOWDOWN, seats=tuple(plan.order[i] for i in hand.live if not hand.shown[i]))
        return Expectation(Waiting.START)
