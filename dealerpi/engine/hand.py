"""One hand of poker, from the forced bets to the last chip pushed: the poker core of the engine.

Players are indexed in position order: 0 is the first seat left of the button, the last is the button.
The hand does not deal: it is told which cards went where (``deal_hole``, ``deal_board``) and checks them.
It knows whose turn it is and what is legal, applies actions, builds the pots and splits them at showdown.
Every method either applies completely or raises ``IllegalAction`` and changes nothing.
"""

from __future__ import annotations

import operator
from collections.abc import Sequence
from enum import StrEnum
from typing import NamedTuple

from dealerpi.engine.betting import Betting, IllegalAction, Legal
from dealerpi.engine.games import GameDef, Structure
from dealerpi.engine.hand_log import (
    BetOrRaisedTo,
    BoardDealt,
    CheckedOrCalled,
    Folded,
    HoleDealt,
    HoleSwapped,
    Killed,
    LogEntry,
    Mucked,
    RunsAgreed,
    Shown,
    StreetRetracted,
)
from dealerpi.engine.hand_setup import hand_setup
from dealerpi.engine.pots import Pot, best_players, build_pots, split_evenly, split_shares

__all__ = ["Award", "Hand", "IllegalAction", "Legal", "Phase"]

UNKNOWN = "??"   # a hole card the record does not know (PHH "????"); it cannot win a showdown


class Phase(StrEnum):
    DEAL_HOLE = "deal_hole"      # hole cards are being dealt
    BETTING = "betting"          # a betting round is open; ``actor`` is to act
    DEAL_BOARD = "deal_board"    # board cards are due
    SHOWDOWN = "showdown"        # the hands are shown or mucked; ``settle`` awards the pots
    COMPLETE = "complete"        # the chips are pushed; ``stacks`` are final


# The one speed trick kept: the hand reads its phase on every card and action, and Python 3.11 reads an enum
# member through the enum class's machinery; read through module names, a replayed hand costs 5 % fewer
# instructions (cachegrind: 540k -> 514k per hand), which bench_replay's 20x goal needs (docs/replay.md).
_DEAL_HOLE, _BETTING, _DEAL_BOARD, _SHOWDOWN, _COMPLETE = (
    Phase.DEAL_HOLE, Phase.BETTING, Phase.DEAL_BOARD, Phase.SHOWDOWN, Phase.COMPLETE)


class Award(NamedTuple):
    """What one pot paid: its amount, who could win it, and chips per winning player (a named tuple, cheap
    to make)."""

    amount: int
    eligible: tuple[int, ...]
    won: dict[int, int]


class Hand(Betting):
    """A hand in progress. See the module docstring for indexing; amounts are integer chips. The chips and the
    street's betting state are the ``Betting`` base class's fields; these slots are the hand's own."""

    __slots__ = ("_board_upto", "_deck_cards", "_evaluators", "awards", "board_count", "boards", "bomb", "cap",
                 "dead_paid", "forfeit", "game", "hole", "hole_due", "limits", "log", "min_bet", "mucked", "phase",
                 "preflop_first", "returned", "runs", "seen", "shown", "starting", "table_dead", "won")

    def __init__(self, game: GameDef, stacks: Sequence[int], *, blinds: Sequence[int] = (),
                 antes: Sequence[int] = (), dead: Sequence[int] = (), min_bet: int = 0,
                 limits: tuple[int, int] | None = None, cap: int | None = 4, cap_heads_up: bool = True,
                 boards: int | None = None, bomb: bool = False, last_street_no_limit: bool = False,
                 preflop_first: int | None = None, keep_log: bool = True) -> None:
        n = len(stacks)
        if n < 2:
            raise IllegalAction("a hand needs at least two players")
        if min(stacks) <= 0:
            raise IllegalAction("every player dealt in needs chips")
        setup = hand_setup(game, n, blinds, antes, dead, min_bet, limits, cap, cap_heads_up, boards,
                           last_street_no_limit, preflop_first)
        forced = setup.forced
        # A player who covers his blind, dead money and ante posts them all (the usual case, done at once);
        # otherwise each is posted in turn, all-in if short (BLD-10).
        covered = all(map(operator.ge, stacks, forced))
        super().__init__(list(map(operator.sub, stacks, forced)) if covered else list(stacks),
                         list(setup.blinds) if covered else [0] * n,
                         list(forced) if covered else [0] * n, setup.clockwise)
        self.game = game
        self.starting = list(stacks)
        self.dead_paid = list(setup.dead_paid) if covered else [0] * n   # antes and dead blinds: not in a bet
        self.table_dead = list(setup.table_dead) if covered else [0] * n   # of those, the table's (_post_dead)
        self.mucked = [False] * n
        self.shown = [False] * n
        self.hole: list[list[str]] = [[] for _ in range(n)]
        self.board_count = setup.board_count
        self.boards: list[list[str]] = [[] for _ in range(self.board_count)]
        self.runs = 1
        self.limits = limits
        self.min_bet = setup.min_bet
        self.cap = setup.cap
        self.bomb = bomb
        # Every step, in order (hand_log.py), for the PHH writer; None when not kept (``keep_log``).
        self.log: list[LogEntry] | None = [] if keep_log else None
        self.awards: list[Award] = []
        self.returned = [0] * n
        self.forfeit = [False] * n       # DEAL-9 (TDA 30): an absent player's blinds and antes are lost
        self.won = [0] * n
        self.seen: set[str] = set()
        self.hole_due = setup.hole_due   # hole cards still to deal
        self._deck_cards = setup.deck_cards
        self._evaluators, self._board_upto = setup.evaluators, setup.board_upto
        self.phase = _DEAL_HOLE
        self.phantom = 0
        if not covered:
            # BLD-10 (TDA 2024): a short stack pays the blind first, then the ante.
            for i, amount in enumerate(setup.blinds):
                if amount:
                    self._post(i, amount, self.bets)
            if any(setup.dead):
                self._post_dead(setup.dead, table=True)
            if any(setup.antes):
                self._post_dead(setup.antes, table=setup.lone_ante)
            # BET-8: chips a short blind did not post count as posted (the bets hold only the blinds yet).
            self.phantom = sum(setup.blinds) - sum(self.bets)
        self.opening_level = setup.opening_level
        self.preflop_first = setup.preflop_first
        self.with_chips = n - self.stacks.count(0)    # live players with chips behind
        self.limits_by_street = setup.limits_by_street
        self._open_betting()

    # --- setup helpers -------------------------------------------------------------------------------

    def _post(self, player: int, amount: int, posts: list[int]) -> int:
        """Post a forced bet, all-in if short: into ``bets`` (a live blind) or ``dead_paid`` (antes, dead).
        Returns the chips posted."""
        chips = min(amount, self.stacks[player])
        self.stacks[player] -= chips
        self.contributed[player] += chips
        posts[player] += chips
        return chips

    def _post_dead(self, amounts: Sequence[int], *, table: bool) -> None:
        """Post dead money (not part of any bet, BLD-10). ``table``: it belongs to the whole table and goes
        into the main pot whole; otherwise it is each poster's own contribution and makes the layers like a bet.

        Each player's ante is his own (POT-1, seed 004: an all-in player wins from each opponent the value of
        his all-in, so a partial ante makes a layer). A lone ante is a big-blind ante, paid for the table
        (BLD-10, TDA RP-11): every player dealt in can win all of it. A made-up dead small blind is the
        table's too (seed 002 B14: dead money "is put into the centre pot by the dealer because it is not part
        of the bet"; seed 003: "donated ... directly to the Pot"). PokerKit draws the same line with its
        ``ante_trimming_status`` (true for uniform antes, false for non-uniform ones like the BBA)."""
        for i, amount in enumerate(amounts):
            if amount:
                chips = self._post(i, amount, self.dead_paid)
                if table:
                    self.table_dead[i] += chips

    # --- queries -------------------------------------------------------------------------------------

    def at(self, phase: Phase) -> bool:
        """Whether the hand is in ``phase`` now (a method, so type checkers re-read it after each call)."""
        return self.phase is phase

    @property
    def live(self) -> list[int]:
        """Players still in the hand (not folded, not mucked)."""
        return [i for i in range(self.n) if not self.folded[i] and not self.mucked[i]]

    @property
    def betting_closed(self) -> bool:
        """No more betting is possible this hand: at most one live player has chips behind."""
        return self.with_chips <= 1

    def pot_total(self) -> int:
        return sum(self.contributed)

    def pots(self) -> list[Pot]:
        return self._pots(self.live)

    def _pots(self, live_players: list[int]) -> list[Pot]:
        """The pots, given the live players (``settle`` has them already)."""
        if all(map(self.stacks.__getitem__, live_players)):      # no live hand is all-in: one pot (POT-1)
            total = sum(self.contributed)
            return [Pot(total, tuple(live_players))] if total else []
        live = [not self.folded[i] and not self.mucked[i] for i in range(self.n)]
        all_in = [s == 0 for s in self.stacks]
        return build_pots(self._layered_chips(), live, all_in, sum(self.table_dead))

    def _layered_chips(self) -> list[int]:
        """Each player's chips that make the POT-1 layers: all he put in but the table's dead money."""
        if not any(self.table_dead):
            return self.contributed
        return [c - d for c, d in zip(self.contributed, self.table_dead, strict=True)]

    def board_target(self) -> int:
        """How many cards each board must hold before the next step (betting or the showdown)."""
        return self._board_upto[-1 if self.betting_closed else self.street]

    def cards_due(self) -> list[int]:
        """Board cards still due on each board before the next step."""
        target = self.board_target()
        return [max(0, target - len(board)) for board in self.boards]

    # --- dealing -------------------------------------------------------------------------------------

    def _take_cards(self, cards: Sequence[str]) -> None:
        """Mark a group of cards seen, or raise the reason they cannot be dealt (not of the deck, already
        seen, or twice) and change nothing."""
        seen = self.seen
        if seen.isdisjoint(cards) and self._deck_cards.issuperset(cards):    # the usual case, at C speed
            before = len(seen)
            seen.update(cards)
            if len(seen) == before + len(cards):
                return
            seen.difference_update(cards)                    # the same card twice in the group
        deck = self.game.deck
        known = [c for c in cards if c != UNKNOWN]
        for card in known:
            if card not in self._deck_cards:
                raise IllegalAction(f"{card} is not a card of the {deck.name} deck")
            if card in self.seen:
                raise IllegalAction(f"{card} was already dealt in this hand (MIS-7)")
        if len(set(known)) != len(known):
            raise IllegalAction("the same card twice in one deal (MIS-7)")
        seen.update(cards)                                   # cards the record does not know (UNKNOWN) pass

    def deal_hole(self, player: int, cards: Sequence[str]) -> None:
        if self.phase is not _DEAL_HOLE:
            raise IllegalAction("hole cards are not being dealt now")
        if not 0 <= player < self.n:
            raise IllegalAction(f"no player {player}")
        hole, count = self.hole[player], len(cards)
        if len(hole) + count > self.game.hole_cards:
            raise IllegalAction(f"player {player} would hold more than {self.game.hole_cards} hole cards")
        self._take_cards(cards)
        hole += cards
        if self.log is not None:
            self.log.append(HoleDealt(player, tuple(cards)))
        self.hole_due -= count
        if not self.hole_due:
            self._start_street()

    def deal_board(self, cards: Sequence[str], board: int = 0) -> None:
        if self.phase is not _DEAL_BOARD:
            raise IllegalAction("no board cards are due now (betting is open)" if self.phase is _BETTING
                                else f"no board cards are due now ({self.phase.value})")
        if not 0 <= board < len(self.boards):
            raise IllegalAction(f"there is no board {board + 1}")
        closed = self.betting_closed                  # dealing cards changes neither
        target = self._board_upto[-1 if closed else self.street]
        cards_now = self.boards[board]
        due = target - len(cards_now)
        if len(cards) > due:
            raise IllegalAction(f"board {board + 1} takes {due} more card(s) now, not {len(cards)}")
        self._take_cards(cards)
        cards_now += cards
        if self.log is not None:
            self.log.append(BoardDealt(board, tuple(cards)))
        if min(map(len, self.boards)) >= target:     # every board has its cards
            if closed:                                # no more betting: straight to the showdown
                self.street = len(self.game.streets) - 1
                self.phase = _SHOWDOWN
                self._maybe_finish_showdown()
            else:
                self._start_street()

    def retract_street(self) -> list[str]:
        """Take back the board cards of the current street before anyone acted on them (BRD-1: a void flop).
        Returns the cards taken back; they are due again."""
        if self.phase is not _BETTING or self.street == 0 or self.street_actions:
            raise IllegalAction("board cards can be taken back only before anyone acted on them")
        count = self.game.streets[self.street].board_cards
        taken: list[str] = []
        for board in self.boards:
            taken += board[-count:]
            del board[-count:]
        self.seen.difference_update(taken)
        self._open_betting()
        self.actor = None
        self.phase = _DEAL_BOARD
        if self.log is not None:
            self.log.append(StreetRetracted(self.street))
        return taken

    def swap_hole(self, player: int, old: str, new: str) -> None:
        """Replace one hole card (EXP-1: the exposed card is replaced by the would-be burn)."""
        if old not in self.hole[player]:
            raise IllegalAction(f"player {player} does not hold {old}")
        self._take_cards([new])
        self.hole[player][self.hole[player].index(old)] = new
        if self.log is not None:
            self.log.append(HoleSwapped(player, old, new))

    def run_it(self, times: int) -> None:
        """POT-11: deal the rest of the board ``times`` times; each run is worth 1/times of every pot."""
        if self.runs != 1:
            raise IllegalAction("the runs were already agreed")
        if not 1 <= times <= 4:
            raise IllegalAction("a board can be run 1 to 4 times (POT-11)")
        if self.phase not in (_DEAL_BOARD,) or not self.betting_closed:
            raise IllegalAction("run it N times only when no more betting is possible (POT-11)")
        if all(len(b) == self.game.board_size for b in self.boards):
            raise IllegalAction("the board is complete")
        self.boards = [list(board) for _ in range(times) for board in self.boards]
        self.runs = times
        if self.log is not None:
            self.log.append(RunsAgreed(times))

    # --- betting -------------------------------------------------------------------------------------

    def legal(self) -> Legal:
        """The legal actions of the player to act."""
        if self.actor is None:
            raise IllegalAction(f"no one is to act ({self.phase.value})")
        return self._legal(self.actor)

    def _require_actor(self, player: int | None) -> int:
        if self.actor is None:
            raise IllegalAction(f"no one is to act ({self.phase.value})")
        if player is not None and player != self.actor:
            raise IllegalAction(f"out of turn: the action is on player {self.actor} (BET-12)")
        return self.actor

    def fold(self, player: int | None = None) -> None:
        actor = self.actor
        if actor is None or (player is not None and player != actor):
            actor = self._require_actor(player)          # raises the reason
        self._give_up(actor, self.folded)
        self.acted[actor] = True
        if self.log is not None:
            self.log.append(Folded(actor))
        self.actions += 1
        if not self._pass_turn(actor):
            self._end_round()

    def check_or_call(self, player: int | None = None) -> None:
        actor = self.actor
        if actor is None or (player is not None and player != actor):
            actor = self._require_actor(player)          # raises the reason
        current, bets = self.current, self.bets
        owe = current - bets[actor]
        if owe > 0:
            stack = self.stacks[actor]
            if owe >= stack:                             # all-in, possibly for less
                owe = stack
                self.with_chips -= 1
            self.stacks[actor] = stack - owe
            bets[actor] += owe
            self.contributed[actor] += owe
            self.chip_actions += 1
        self.acted[actor] = True
        self.level_at_action[actor] = current
        if self.log is not None:
            self.log.append(CheckedOrCalled(actor))
        self.actions += 1
        if not self._pass_turn(actor):
            self._end_round()

    def bet_or_raise_to(self, amount: int, player: int | None = None) -> None:
        actor = self.actor
        if actor is None or (player is not None and player != actor):
            actor = self._require_actor(player)          # raises the reason
        span = self._raise_span(actor)
        if span is None:
            raise IllegalAction(f"cannot bet or raise now: {self._no_raise_reason(actor)}")
        low, high = span
        if not low <= amount <= high:
            word = "bet" if self.current == 0 else "raise"
            allowed = f"exactly {low}" if low == high else f"from {low} to {high}"
            raise IllegalAction(f"a {word} to {amount} is not legal: the {word} must be to {allowed}")
        before = self.current
        chips = amount - self.bets[actor]
        self.stacks[actor] -= chips
        if not self.stacks[actor]:
            self.with_chips -= 1
        self.bets[actor] = amount
        self.contributed[actor] += chips
        self.current = amount
        self.aggressor = actor
        limits = self.street_limits
        fixed_limit = limits.structure is Structure.FIXED_LIMIT
        if fixed_limit:
            full = 2 * (amount - self.last_full_level) >= limits.min_bet        # BET-7: half a bet or more
        else:
            full = amount - before >= self.full_increment                      # BET-2, BET-4
        if full:
            if not fixed_limit:
                self.full_increment = amount - before
            self.last_full_level = amount
            self.raises += 1
            if limits.cap is not None and self.raises >= limits.cap and self._raise_capped():
                self.capped = True
            self.acted = [False] * self.n
        else:
            # BET-4: several short all-ins that add up to a full raise reopen the betting for those behind them.
            acted, level_at_action, increment = self.acted, self.level_at_action, self.full_increment
            for j in range(self.n):
                if acted[j] and amount - level_at_action[j] >= increment:
                    acted[j] = False
        self.acted[actor] = True
        self.level_at_action[actor] = amount
        if self.log is not None:
            self.log.append(BetOrRaisedTo(actor, amount))
        self.actions += 1
        self.chip_actions += 1
        if not self._pass_turn(actor):
            self._end_round()

    def kill(self, player: int, *, forfeit: bool = False) -> None:
        """Kill a hand out of turn (MIS-4 wrong number of cards, MIS-8, a clock that ran out): it folds.
        ``forfeit``: an absent player's hand (DEAL-9, TDA 30): his posted blinds never come back (no POT-2)."""
        if self.phase is _COMPLETE or self.folded[player] or self.mucked[player]:
            raise IllegalAction(f"player {player} has no live hand")
        self.forfeit[player] = forfeit
        self._give_up(player, self.folded)
        if self.log is not None:
            self.log.append(Killed(player))
        if self.live_count == 1:
            self._end_round()
        elif self.phase is _BETTING and self.actor is not None:
            self.acted[player] = True
            if not self._pass_turn(player if self.actor == player else (self.actor - 1) % self.n):
                self._end_round()
        elif self.phase is _SHOWDOWN:
            self._maybe_finish_showdown()

    def _start_street(self) -> None:
        """Open the betting of the current street, or go on dealing when no betting is possible."""
        if self.street:
            self._open_betting()                        # pre-flop it was opened with the blinds, in __init__
        if self.bomb and self.street == 0:            # seed 001: a bomb pot goes straight to the flop
            self._end_round()
            return
        self.phase = _BETTING
        if not self._pass_turn((self.preflop_first if self.street == 0 else 0) - 1):   # the first to act
            self._end_round()

    def _end_round(self) -> None:
        self.actor = None
        if self.current:                                # else every bet is 0 (no bet exceeds the level)
            forfeit = True in self.forfeit and self.forfeit[max(range(self.n), key=self.bets.__getitem__)]
            returned = None if forfeit else self._return_uncalled()
            if returned:
                self.returned[returned[0]] += returned[1]
            self.bets[:] = [0] * self.n
        if self.live_count == 1:                        # POT-8: the last live hand wins unshown
            self._award_all(self.live[0])
            return
        if self.street == len(self.game.streets) - 1:
            self.phase = _SHOWDOWN
            self._maybe_finish_showdown()
            return
        self.street += 1
        self.phase = _DEAL_BOARD

    # --- showdown ------------------------------------------------------------------------------------

    def show(self, player: int, cards: Sequence[str] | None = None) -> None:
        """Table a hand (POT-7). ``cards`` reveals hole cards the engine did not know (PHH ``????``)."""
        self._check_showdown_move(player)
        if cards is not None and list(cards) != self.hole[player]:
            if any(c != UNKNOWN for c in self.hole[player]):
                raise IllegalAction(f"player {player} holds {' '.join(self.hole[player])}, not {' '.join(cards)}")
            if len(cards) != self.game.hole_cards:
                raise IllegalAction(f"a hand of this game has {self.game.hole_cards} cards")
            self._take_cards(cards)
            self.hole[player] = list(cards)
        self.shown[player] = True
        if self.log is not None:
            self.log.append(Shown(player, tuple(self.hole[player])))
        self._maybe_finish_showdown()

    def muck(self, player: int) -> None:
        """Give up a hand at showdown; refused for the last live hand of a pot (it wins, POT-8)."""
        self._check_showdown_move(player)
        if self._sole_claimant(player):
            raise IllegalAction(f"player {player} holds the last live hand of a pot and wins it (POT-8)")
        self._give_up(player, self.mucked)
        if self.log is not None:
            self.log.append(Mucked(player))
        self._maybe_finish_showdown()

    def _sole_claimant(self, player: int) -> bool:
        """Whether ``player`` is the only live hand eligible for some pot."""
        layered = self._layered_chips()
        chips = {i: layered[i] for i in self.live}                                 # as pots() counts them
        top = max(chips.values())
        if any(chips[i] == top for i in chips if i != player):
            return False        # the usual case: another live hand put in the most, so it is in every pot
        return any(pot.eligible == (player,) for pot in self.pots())

    def _check_showdown_move(self, player: int) -> None:
        open_showdown = self.phase is _SHOWDOWN or (self.phase is _DEAL_BOARD and self.betting_closed)
        if not open_showdown:
            raise IllegalAction("hands are shown at the showdown, or once no more betting is possible (POT-5)")
        if self.folded[player] or self.mucked[player] or self.shown[player]:
            raise IllegalAction(f"player {player} has no hand left to show or muck")

    def _maybe_finish_showdown(self) -> None:
        if self.phase is not _SHOWDOWN:
            return
        shown, folded, mucked = self.shown, self.folded, self.mucked
        for i in range(self.n):
            if not shown[i] and not folded[i] and not mucked[i]:
                return
        self.settle()

    def settle(self) -> None:
        """Award every pot: live hands not mucked are shown, the engine decides from the cards it saw."""
        if self.phase is _COMPLETE:
            return
        if self.phase is not _SHOWDOWN:
            raise IllegalAction(f"the hand is not at the showdown ({self.phase.value})")
        hole, live = self.hole, self.live
        contenders = [i for i in live if hole[i] and UNKNOWN not in hole[i]]
        for i in contenders:
            self.shown[i] = True
        # Each hand is evaluated once per board and per half (high, low); every pot then compares the values.
        strengths = [[{i: ev(hole[i], board) for i in contenders} for ev in self._evaluators]
                     for board in self.boards]
        for pot in self._pots(live):
            players = [i for i in pot.eligible if i in contenders]
            if not players:                   # nobody's cards are known (a record's ????): an even split
                won = split_evenly(pot.amount, pot.eligible)
            elif len(strengths) == 1:
                won = self._split_share(pot.amount, players, strengths[0])
            else:
                won = {}
                for share, values in zip(split_shares(pot.amount, len(strengths)), strengths, strict=True):
                    for player, chips in self._split_share(share, players, values).items():
                        won[player] = won.get(player, 0) + chips
            self._pay(Award(pot.amount, pot.eligible, won))
        self._finish()

    def _split_share(self, amount: int, players: list[int], values: list[dict[int, int | None]]) -> dict[int, int]:
        """One board's (or run's) share of a pot among ``players``, whose cards are known."""
        if len(players) == 1:
            return {players[0]: amount}
        high = {i: v for i in players if (v := values[0][i]) is not None}
        if len(values) == 1:
            return split_evenly(amount, best_players(high))
        low = {i: v for i in players if (v := values[1][i]) is not None}
        if not low:                      # POT-4: no qualifying low, the high hand scoops
            return split_evenly(amount, best_players(high))
        result = split_evenly(amount - amount // 2, best_players(high))   # POT-4: the odd chip goes high
        for player, chips in split_evenly(amount // 2, best_players(low)).items():
            result[player] = result.get(player, 0) + chips
        return result

    def _award_all(self, winner: int) -> None:
        total = self.pot_total()
        self._pay(Award(total, (winner,), {winner: total}))
        self._finish()

    def _pay(self, award: Award) -> None:
        self.awards.append(award)
        for player, chips in award.won.items():
            self.stacks[player] += chips
            self.won[player] += chips

    def _finish(self) -> None:
        self.phase = _COMPLETE
        self.actor = None
