"""The hand in progress: the one object that changes it, from the forced bets to the push.

A ``HandPlay`` owns the ``Hand`` (the poker, by player index), the ``DealFollower`` (the cards), the plan it
was dealt from, its straddles and bomb, the TRN-2 clock and the ``DealRecord`` being written. Its methods
take the typed inputs of entries.py with seat numbers, translate them to the hand's player indices, and
return the alerts; an illegal input raises ``IllegalAction`` or ``InputError`` (the table then rebuilds the
hand from the record before it and this hand's inputs, so a half-applied input never survives).

Finished deals are appended to ``done`` for the table to record (a misdeal (MIS-6) finishes one deal and
starts the redeal in the same play). ``over`` says the hand is complete: the table then folds the result
into its between-hands record (between.py).
"""

from __future__ import annotations

from dealerpi.cards import CardError
from dealerpi.engine.betting import IllegalAction
from dealerpi.engine.dealing import DealFollower, DealResult
from dealerpi.engine.entries import Act, Card, Dead, Extra, Muck, Run, Show, Straddle
from dealerpi.engine.expectation import Expectation, LegalActions, Waiting
from dealerpi.engine.hand import Hand, Phase
from dealerpi.engine.inputs import InputError, TableConfig
from dealerpi.engine.positions import HandPlan, apply_straddles, straddle
from dealerpi.engine.records import Alert, DealRecord, Posted, PotPaid
from dealerpi.engine.state import Bomb
from dealerpi.engine.tournament import ActionClock, call_clock, shot_clock, time_bank, when_time_is_up


class HandPlay:
    """See the module docstring. ``stacks``: each dealt seat's chips, in ``plan.order``; ``stakes``: this
    hand's small blind, big blind, ante and big-blind ante; ``players``: the names dealt in, in the same order."""

    def __init__(self, config: TableConfig, plan: HandPlan, stacks: tuple[int, ...], number: int,
                 stakes: tuple[int, int, int, int], *, straddles: tuple[tuple[int, int], ...] = (),
                 bomb: Bomb | None = None, players: tuple[str, ...] = (),
                 absent: frozenset[int] | None = None, banks: dict[int, int] | None = None) -> None:
        self.config = config
        self.plan = plan
        self.players = players                      # the names of the players dealt in, in ``plan.order``
        self.stacks = stacks
        self.number = number
        self.stakes = stakes
        self.straddles = straddles
        self.bomb = bomb
        self.clock: ActionClock | None = None      # TRN-2: a clock called on the seat to act, or the shot clock
        self.banks_left = dict(banks or {})         # TRN-2: each seat's time-bank tokens at the start of the hand
        self.banks_used: dict[int, int] = {}        # TRN-2: the tokens used in this hand, for the table's record
        self.fouled = False                         # MIS-7: voided; the next start deals the same plan
        self.done: list[DealRecord] = []
        # DEAL-9 (TDA 30): seats dealt in while away; a hand is killed only if its player is still away when the
        # last card of the initial deal lands (MIS-6: the redeal is a new initial deal)
        self.absent: set[int] = set(plan.killed if absent is None else absent)
        self.absent_killed = False
        self.hand, self.deal, self.record = self._deal()

    # --- reading -------------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        return self.hand.at(Phase.COMPLETE)

    def index(self, seat: int) -> int:
        """The hand's player index of ``seat``."""
        if seat not in self.plan.order:
            raise IllegalAction(f"seat {seat} is not in this hand")
        return self.plan.order.index(seat)

    def actor_seat(self) -> int | None:
        actor = self.hand.actor
        return None if actor is None else self.plan.order[actor]

    def seat_words(self, text: str) -> str:
        """Engine messages name player indices; the dealer reads seat numbers."""
        for index, seat in sorted(enumerate(self.plan.order), reverse=True):
            text = text.replace(f"player {index}", f"seat {seat}").replace(f"Player {index}", f"Seat {seat}")
        return text

    def expectation(self) -> Expectation:
        """What this hand waits for (see expectation.py)."""
        hand, deal, order = self.hand, self.deal, self.plan.order
        if hand.phase is Phase.COMPLETE:
            return Expectation(Waiting.START)
        if deal.pending_choice is not None:
            return Expectation(Waiting.BURN_CHOICE, cards=tuple(deal.pending_choice))
        slot = deal.expected()
        if slot is not None and (hand.phase is not Phase.BETTING or deal.blocks_action()):
            if slot.kind == "hole":
                return Expectation(Waiting.CARD, seat=order[slot.player])
            if slot.kind == "burn":
                return Expectation(Waiting.BURN)
            street = hand.game.streets[slot.street].name
            board = f" board {slot.board + 1}" if len(hand.boards) > 1 else ""
            return Expectation(Waiting.CARD, street=f"{street}{board}")
        if hand.phase is Phase.BETTING and hand.actor is not None:
            actor = hand.actor
            legal = LegalActions.of(hand.legal(), structure=hand.street_limits.structure, bet=hand.bets[actor],
                                    stack=hand.stacks[actor])
            return Expectation(Waiting.ACTION, seat=order[actor], legal=legal)
        if hand.phase is Phase.SHOWDOWN:
            return Expectation(Waiting.SHOWDOWN, seats=tuple(order[i] for i in hand.live if not hand.shown[i]))
        return Expectation(Waiting.START)

    # --- dealing -------------------------------------------------------------------------------------

    def _deal(self) -> tuple[Hand, DealFollower, DealRecord]:
        """A fresh deal of the plan with the straddles posted so far (a straddle re-deals, BLD-9)."""
        config, plan, bomb = self.config, self.plan, self.bomb
        order = plan.order
        dealt = apply_straddles(plan, list(self.straddles), config.policies, self.stakes[1])
        lists = dealt.hand_lists()
        stacks, dead = self.stacks, lists.dead
        hand = Hand(config.game, stacks, blinds=lists.blinds, antes=lists.antes, dead=dead,
                    min_bet=config.limits[0] if config.limits else self.stakes[1],
                    limits=config.limits, cap_heads_up=config.policies.limit_cap_heads_up,
                    boards=bomb.boards if bomb is not None else config.game.boards,
                    bomb=bomb is not None, last_street_no_limit=bomb is not None and bomb.river_no_limit,
                    preflop_first=lists.preflop_first)
        deal = DealFollower(hand, config.policies)
        self.clock = None                                    # TRN-2: a clock belongs to one deal's decision
        record = DealRecord(self.number, plan.button, order)
        for index, seat in enumerate(order):                 # what was actually posted (a short stack posts less)
            live = hand.bets[index]
            dead_part = min(dead[index] if dead else 0, stacks[index] - live)
            ante = hand.dead_paid[index] - dead_part
            if live or dead_part or ante:
                record.posts[seat] = Posted(live, dead_part, ante)
        self.absent_killed = False                           # a redeal is a new initial deal (MIS-6)
        return hand, deal, record

    def mark_absent(self, seat: int, *, away: bool) -> None:
        """DEAL-9 (TDA 30): a player dealt in is away or back. It decides his hand when the last card of the initial
        deal lands (killed, or live), and so again at a misdeal's redeal (MIS-6: away for the first deal, back for
        the redeal, he plays it)."""
        if seat not in self.plan.order:
            return
        if away:
            self.absent.add(seat)
        else:
            self.absent.discard(seat)

    def _kill_absent(self) -> list[Alert]:
        """DEAL-9 (TDA 30): once the initial deal is complete, the hands of the players still away are killed,
        their blinds and antes forfeit (no POT-2 return); a kill may end the hand."""
        if self.absent_killed or not self.deal.delivered:
            return []
        self.absent_killed = True
        alerts = []
        for index, seat in enumerate(self.plan.order):
            if seat in self.absent and index in self.hand.live and not self.hand.at(Phase.COMPLETE):
                self.hand.kill(index, forfeit=True)
                alerts.append(Alert("DEAL-9", f"Seat {seat} was not at the table when the last card landed: his "
                                              "hand is dead (TDA 30)"))
        return alerts

    def on_straddle(self, entry: Straddle) -> list[Alert]:
        if self.deal.read_order or self.bomb is not None:
            raise IllegalAction("a straddle is posted before the first card (BLD-9)")
        amount = straddle(self.plan, list(self.straddles), entry.seat, self.config.policies, self.stakes[1])
        self.straddles = (*self.straddles, (entry.seat, amount))
        self.hand, self.deal, self.record = self._deal()
        return [Alert("BLD-9", f"Seat {entry.seat} straddles {amount}")]

    def on_card(self, entry: Card) -> list[Alert]:
        deal, card = self.deal, self._parse_card(entry.card)
        if entry.kind == "exposed":
            return self._deal_result(deal.exposed(card))
        if entry.kind == "boxed":
            return self._deal_result(deal.boxed(card))
        if entry.kind == "burn":
            return self._deal_result(deal.choose_burn(card))
        return self._deal_result(deal.read(card))

    def _parse_card(self, text: str) -> str:
        try:
            return self.config.game.deck.parse(text)
        except CardError as error:
            if len(text.strip()) == 2:       # DEAL-7: a card that is no card of the deck in play fouls the deck
                return text.strip()
            raise InputError(str(error)) from None

    def on_misdeal(self) -> list[Alert]:
        return self._deal_result(self.deal.misdeal())

    def on_extra(self, entry: Extra) -> list[Alert]:
        return self._deal_result(self.deal.extra(entry.count))

    def on_dead(self, entry: Dead) -> list[Alert]:
        """The dealer declares a hand dead: a wrong number of cards found after substantial action (MIS-4), or a
        player who looked at a hand he had not posted for (MIS-8). It folds out of turn; the deal goes on."""
        self.hand.kill(self.index(entry.seat))
        return [Alert("MIS-4", f"Seat {entry.seat}'s hand is dead: muck its cards; deal on, one burn per street"),
                *self._after_change()]

    def _deal_result(self, result: DealResult) -> list[Alert]:
        # the record names seats, as the live alert does (Table.apply's seat_words), not the hand's indices
        self.record.irregularities += [Alert(a.rule, self.seat_words(a.message)) for a in result.alerts]
        if result.fouled:                         # MIS-7: stop, return every bet; the next start replays
            self._void(fouled=True)
            return [*result.alerts, Alert("MIS-7", "All bets are returned; replace the deck and start the hand again")]
        if result.misdeal:                        # MIS-6: the next reads are the redeal
            self._void(fouled=False)
            self.hand, self.deal, self.record = self._deal()
            return result.alerts
        return [*result.alerts, *self._kill_absent(), *self._after_change()]

    def _void(self, *, fouled: bool) -> None:
        self.record.misdeal = True
        self.record.fouled = fouled
        self.done.append(self.record)
        if fouled:
            self.fouled = True
            self.hand.phase = Phase.COMPLETE
            self.hand.stacks[:] = self.hand.starting

    # --- betting and the showdown --------------------------------------------------------------------

    def on_act(self, entry: Act) -> list[Alert]:
        hand, deal, seat = self.hand, self.deal, entry.seat
        index = self.index(seat)
        if hand.phase is not Phase.BETTING:
            raise IllegalAction(f"no betting now: {self.expectation().words()}")
        blocked = deal.blocks_action()
        if blocked:
            raise IllegalAction(blocked)
        if hand.actor != index:
            raise IllegalAction(f"out of turn: the action is on seat {self.actor_seat()} (BET-12)")
        legal = hand.legal()
        if entry.action == "fold":
            hand.fold(index)
        elif entry.action in ("check", "call"):
            if entry.action == "check" and not legal.check:
                raise IllegalAction(f"seat {seat} cannot check: {legal.call_to} to call")
            hand.check_or_call(index)               # BET-11: "call" facing no bet is a check
        elif entry.action == "all_in":
            if legal.raise_max_to is not None:
                hand.bet_or_raise_to(legal.raise_max_to, index)
            else:
                hand.check_or_call(index)
        else:
            assert entry.to is not None             # entries.py requires "to" for a bet or raise
            hand.bet_or_raise_to(entry.to, index)
        self.clock = None
        return self._after_change()

    def on_run(self, entry: Run) -> list[Alert]:
        times, most = entry.times, self.config.policies.run_it_max
        if times > most:
            raise IllegalAction(f"these house rules run the board at most {most} time(s)")
        if not self.deal.stub_can_serve(times):
            raise IllegalAction(f"the stub cannot serve {times} runs (POT-11)")
        self.hand.run_it(times)
        self.deal.board_slots.clear()
        self.deal.sync()
        return [Alert("POT-11", f"Run it {times} times: each run burns before each card; each is worth 1/{times}")]

    def on_show(self, entry: Show) -> list[Alert]:
        self.hand.show(self.index(entry.seat))
        return self._after_change()

    def on_muck(self, entry: Muck) -> list[Alert]:
        self.hand.muck(self.index(entry.seat))
        return self._after_change()

    def settle_open_showdown(self) -> list[Alert]:
        """START/NEXT ends a showdown left open: the engine reads the hands (POT-7)."""
        if self.hand.phase is not Phase.SHOWDOWN:
            return []
        self.hand.settle()
        return self._finished()

    def _after_change(self) -> list[Alert]:
        hand = self.hand
        self.deal.sync()
        if hand.phase in (Phase.DEAL_BOARD, Phase.SHOWDOWN) and hand.betting_closed and len(hand.live) > 1:
            for player in hand.live:              # POT-5: all-in, every hand is turned face up at once
                if not hand.shown[player] and not hand.at(Phase.COMPLETE):
                    hand.show(player)
        return self._finished() if hand.at(Phase.COMPLETE) else []

    def _finished(self) -> list[Alert]:
        """Write the finished deal's record; the push for the dealer."""
        hand, order, record = self.hand, self.plan.order, self.record
        record.boards = [list(b) for b in hand.boards]
        record.pots = [PotPaid(award.amount, tuple(order[i] for i in award.eligible),
                               tuple((order[i], chips) for i, chips in sorted(award.won.items())))
                       for award in hand.awards]
        record.hole = {order[i]: list(cards) for i, cards in enumerate(hand.hole)}
        record.shown = [order[i] for i in range(hand.n) if hand.shown[i]]
        self.done.append(record)
        pushes = ", ".join(f"seat {order[i]} {chips}" for i, chips in enumerate(hand.won) if chips)
        return [Alert("POT", f"Push: {pushes}")] if pushes else []

    # --- the clock (TRN-2) ---------------------------------------------------------------------------

    def arm_clock(self) -> None:
        """TRN-2 shot clock: after every input, the seat to act has a clock, a fresh one for a new decision (an
        action clears the clock, so the next decision starts from 0); no clock while cards are due."""
        policies = self.config.policies
        if not policies.shot_clock:
            return
        waiting = self.expectation()
        if waiting.waiting is not Waiting.ACTION or waiting.seat is None:
            self.clock = None
        elif self.clock is None or self.clock.seat != waiting.seat:
            self.clock = shot_clock(policies, waiting.seat, self.hand.street)

    def on_clock(self) -> list[Alert]:
        seat = self.actor_seat()
        if seat is None or self.over:
            raise IllegalAction("no one is to act")
        if self.config.policies.shot_clock:
            raise IllegalAction(f"the shot clock is already running on seat {seat} (TRN-2)")
        clock = call_clock(self.config.policies, seat)
        if clock is None:
            raise IllegalAction("the clock is off under these house rules")
        self.clock = clock
        return [Alert("TRN-2", f"Clock on seat {seat}: {clock.remaining} seconds")]

    def tick(self, seconds: int) -> list[Alert]:
        clock, hand = self.clock, self.hand
        if clock is None or self.actor_seat() != clock.seat:
            self.clock = None
            return []
        clock = clock.tick(seconds)
        if not clock.expired:
            self.clock = clock
            return []
        self.clock = None
        if self.banks_left.get(clock.seat, 0) > 0:         # TRN-2: a time-bank token, then the countdown again
            left = self.banks_left[clock.seat] = self.banks_left[clock.seat] - 1
            self.banks_used[clock.seat] = self.banks_used.get(clock.seat, 0) + 1
            self.clock = time_bank(self.config.policies, clock.seat)
            return [Alert("TRN-2", f"Seat {clock.seat} uses a time bank: {self.clock.seconds} seconds more "
                                   f"({left} left)")]
        if when_time_is_up(facing_bet=not hand.legal().check) == "check":
            hand.check_or_call()
            verdict = "checked"
        else:
            hand.fold()
            verdict = "folded"
        return [Alert("TRN-2", f"Time: seat {clock.seat}'s hand is {verdict}"), *self._after_change()]
