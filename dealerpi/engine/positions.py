"""Planning a hand between hands: the button, the blinds, who is dealt in and who posts what.

``plan_hand`` is pure: it takes the bookkeeping kept since the last hand (``Lineup``) and what the table knows
of each occupied seat (``SeatInfo``), and returns a ``HandPlan`` whose ``after`` is the bookkeeping to keep once
the hand is played (a misdeal replays the same plan). Rules: BLD-1..7 and BLD-10, DEAL-9; the choices made
where the sources are silent are in ``docs/blinds-and-button.md``.

Two ways to move the button (BLD-2, BLD-3, RRoP section 4):

- **dead button** (seed 001, seed 002 "No Missed Blinds", TDA 32): the big blind moves to the next player who can
  take it; the small blind goes on the seat that had the big blind and the button on the seat that had the
  small blind, even when those seats are empty or their players are away (a dead small blind, a dead button).
- **no dead button** (seed 002 "No Dead Button", seed 003): the button moves to the next player who may have
  it, then the small blind and the big blind to the next players who may post them; a player may escape a blind.

Heads-up, the button posts the small blind and the big blind moves on from the last one (BLD-4, BLD-5).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from dealerpi.engine import missed_blinds as mb
from dealerpi.engine.buy_in import check_buy_in
from dealerpi.engine.games import Structure
from dealerpi.engine.policies import AbsentPlayer, ButtonMethod, MissedBlinds, NewPlayer, Policies
from dealerpi.engine.seating import (
    MISSED_BB,
    MISSED_SB,
    HandLists,
    HandPlan,
    Lineup,
    PositionError,
    Ring,
    SeatInfo,
    merge_missed,
)
from dealerpi.engine.straddles import apply_straddles, plan_bomb, straddle

__all__ = ["HandLists", "HandPlan", "Lineup", "PositionError", "SeatInfo", "apply_straddles", "button_method",
           "check_buy_in", "move_button", "plan_bomb", "plan_hand", "straddle"]

_LOGGER = logging.getLogger(__name__)

def button_method(policies: Policies, structure: Structure) -> ButtonMethod:
    """``DEAD_BUTTON`` or ``NO_DEAD_BUTTON`` for this table (seed 002 B11: tournaments always use the dead
    button)."""
    if policies.button_method is not ButtonMethod.BY_STRUCTURE:
        return policies.button_method
    if policies.tournament or structure is Structure.FIXED_LIMIT:
        return ButtonMethod.DEAD_BUTTON                      # B11a, B11b (limit)
    return ButtonMethod.NO_DEAD_BUTTON                       # B11b (big-bet)


def move_button(lineup: Lineup, seat: int) -> Lineup:
    """The dealer puts the button on ``seat`` for the next hand (seed 002 B4: the first deal; TDA: a draw)."""
    if seat < 1:
        raise PositionError(f"seat {seat} does not exist")
    return replace(lineup, start=seat)


def plan_hand(lineup: Lineup, seats: Mapping[int, SeatInfo], *, table_seats: int, small_blind: int,
              big_blind: int, structure: Structure, policies: Policies, ante: int = 0,
              bb_ante: int = 0) -> HandPlan:
    """Plan the next hand. Raises ``PositionError`` when fewer than two players can be dealt in."""
    _check_arguments(lineup, seats, table_seats, small_blind, big_blind, ante, bb_ante)
    return _Planner(lineup, seats, Ring(table_seats), policies, structure, (small_blind, big_blind),
                    (ante, bb_ante)).plan()


def _check_arguments(lineup: Lineup, seats: Mapping[int, SeatInfo], table_seats: int, small_blind: int,
                     big_blind: int, ante: int, bb_ante: int) -> None:
    if table_seats < 2:
        raise PositionError(f"a table needs at least two seats, not {table_seats}")
    for seat, info in seats.items():
        if seat != info.seat:
            raise PositionError(f"seat {seat} holds the record of seat {info.seat}")
        if not 1 <= seat <= table_seats:
            raise PositionError(f"seat {seat} does not exist: seats are 1 to {table_seats}")
        if info.stack < 0:
            raise PositionError(f"seat {seat} has a negative stack ({info.stack})")
    for name, where in (("button", lineup.button), ("small blind", lineup.sb), ("big blind", lineup.bb),
                        ("button", lineup.start)):
        if where is not None and not 1 <= where <= table_seats:
            raise PositionError(f"the {name} is on seat {where}, but seats are 1 to {table_seats}")
    if big_blind <= 0 or small_blind < 0 or small_blind > big_blind:
        raise PositionError(f"blinds {small_blind}/{big_blind}: the big blind must be positive and at least "
                            "the small blind")
    if ante < 0 or bb_ante < 0 or (ante and bb_ante):
        raise PositionError(f"antes: ante {ante}, big-blind ante {bb_ante}: use one of them, not negative")


@dataclass(frozen=True, slots=True)
class _Roles:
    """Where the button and blinds go. ``sb`` may be a dead seat; heads-up the button posts the small blind."""

    button: int
    sb: int | None
    bb: int
    heads_up: bool = False


@dataclass(slots=True)
class _Draft:
    """One hand being planned."""

    roles: _Roles
    dealt: set[int] = field(default_factory=set)
    live: dict[int, int] = field(default_factory=dict)
    dead: dict[int, int] = field(default_factory=dict)
    hand_sb: int | None = None
    hand_bb: int = 0
    after_sb: int | None = None
    after_bb: int | None = None
    missed: dict[int, str] = field(default_factory=dict)
    no_button: set[int] = field(default_factory=set)
    passing: set[int] = field(default_factory=set)
    notes: list[tuple[str, str]] = field(default_factory=list)

    def post(self, seat: int, live: int, dead: int = 0) -> None:
        self.dealt.add(seat)
        if live:
            self.live[seat] = live
        if dead:
            self.dead[seat] = dead


class _Planner:
    """One planning pass over the inputs of ``plan_hand`` (local state only; nothing outlives ``plan``)."""

    def __init__(self, lineup: Lineup, seats: Mapping[int, SeatInfo], ring: Ring, policies: Policies,
                 structure: Structure, blinds: tuple[int, int], antes: tuple[int, int]) -> None:
        self.lineup, self.ring, self.structure = lineup, ring, structure
        self.small_blind, self.big_blind = blinds
        self.ante, self.bb_ante = antes
        self.method = button_method(policies, structure)
        self.deal_absent = policies.absent_player is AbsentPlayer.DEALT_KILLED          # DEAL-9 (TDA 30)
        self.new_free = policies.new_player is NewPlayer.TOURNAMENT                  # TDA 8-A
        self.policy = policies.missed_blinds
        self.tournament = policies.tournament
        # Tournament: no chips means out (an empty seat). Cash: a broke player who stays seated misses blinds
        # like an absent one (seed 002 B19).
        self.players = {s: i for s, i in seats.items() if not (self.tournament and i.stack <= 0)}
        self.passing = {s for s in lineup.passing if s in self.players}     # BLD-8, B21: not dealt in, owes nothing
        self.playing = {s for s, i in self.players.items()
                        if i.stack > 0 and (not i.away or self.deal_absent) and s not in self.passing}
        first = lineup.bb is None
        self.new = set() if first else {s for s, i in self.players.items() if i.new}
        keep = mb.marks(self.policy)
        self.missed = {s: m for s, m in lineup.missed.items() if keep and s in self.players and s not in self.new}
        self.no_button = {s for s in lineup.no_button if s in self.players and s not in self.new}
        # The player who posted the last big blind, unless a new player has his seat: never the big blind twice.
        last_bb = lineup.bb_poster if lineup.bb_poster is not None else lineup.bb
        self.last_bb = last_bb if last_bb is not None and last_bb not in self.new else None
        waiting_new = set() if self.new_free else self.new
        self.core = {s for s in self.playing if s not in waiting_new and s not in self.missed}

    # --- the plan ------------------------------------------------------------------------------------

    def plan(self) -> HandPlan:
        if len(self.playing) < 2:
            raise PositionError(f"BLD-1: a hand needs two players who can be dealt in; {len(self.playing)} can")
        lineup = self.lineup
        if lineup.bb is None:                                    # seed 002 B4, B18: everyone plays the first deal
            return self._finish(self._deal(self._first_roles(), "fresh"), "first hand")
        if len(self.core) < 2:                                   # nobody left to keep the rotation: a new game
            return self._finish(self._deal(self._restart_roles(), "fresh"), "new game")
        mode = "placed" if lineup.start is not None else "normal"
        if mode == "placed":
            roles = self._moving_roles(self.ring.step(lineup.start or 1, -1))
        elif self.method is ButtonMethod.DEAD_BUTTON:
            roles = self._dead_roles()
        else:
            roles = self._moving_roles(lineup.button or lineup.bb)
        if roles is None:
            roles = self._core_roles()
        draft = self._deal(roles, mode)
        if len(draft.dealt) == 2 and not roles.heads_up:
            draft = self._deal(self._heads_up_roles(draft.dealt), mode)
        return self._finish(draft, "")

    # --- where the button and blinds go --------------------------------------------------------------

    def _can_hold(self, seat: int) -> bool:
        """May the player on ``seat`` have the small blind or the button (not a new or marked player, B10)?"""
        if seat not in self.playing or seat in self.missed:
            return False
        return self.new_free or seat not in self.new

    def _first_roles(self) -> _Roles:
        lineup, ring, playing = self.lineup, self.ring, self.playing
        start = lineup.start or (ring.step(lineup.button) if lineup.button else 1)
        button = ring.next_in(ring.step(start, -1), playing) or start
        if len(playing) == 2:
            return self._heads_up_pair(button, playing)
        sb = ring.next_in(button, playing - {button}) or button
        return _Roles(button, sb, ring.next_in(sb, playing - {button, sb}) or sb)

    def _restart_roles(self) -> _Roles:
        """A new game: the big blind moves on from the last one; the small blind and button sit behind it."""
        return self._bb_first(self.playing, self.playing, self.playing)

    def _core_roles(self) -> _Roles:
        """The method found no place for the button: only the players who owe nothing keep the rotation."""
        if len(self.core) == 2:
            return self._heads_up_roles(self.core)
        return self._bb_first(self.core, self.core, self.core)

    def _bb_first(self, bb_ok: set[int], sb_ok: set[int], button_ok: set[int]) -> _Roles:
        ring = self.ring
        bb = ring.next_in(self.lineup.bb or 1, bb_ok)
        if bb is None:
            raise PositionError("BLD-1: nobody can take the big blind")
        if len(bb_ok) == 2:
            return self._heads_up_pair(bb, bb_ok, bb_given=True)
        sb = ring.prev_in(bb, sb_ok - {bb})
        button = ring.prev_in(sb, button_ok - {bb, sb}) if sb is not None else None
        if sb is None or button is None or not ring.distance(button, sb) < ring.distance(button, bb):
            raise PositionError("BLD-1: no seat can take the small blind and the button")
        return _Roles(button, sb, bb)

    def _heads_up_pair(self, seat: int, pair: set[int], bb_given: bool = False) -> _Roles:
        other = next(s for s in pair if s != seat)
        return _Roles(other, other, seat, True) if bb_given else _Roles(seat, seat, other, True)

    def _heads_up_roles(self, pair: set[int]) -> _Roles:
        """BLD-4, BLD-5 (TDA 34-B): the big blind moves on from the last one; the other player is the button.
        Without a dead button, the last button takes the big blind when he is still there, so that nobody has
        the button twice in a row either (seed 002 B12b); that is the same seats whenever three become two."""
        last_button = self.lineup.button
        if self.method is ButtonMethod.NO_DEAD_BUTTON and last_button in pair and last_button != self.last_bb \
                and last_button not in self.new:
            return self._heads_up_pair(last_button, pair, bb_given=True)
        bb = self.ring.next_in(self.lineup.bb or 1, pair)
        if bb is None:
            raise PositionError("BLD-4: nobody can take the big blind")
        if bb == self.last_bb:
            bb = next(s for s in pair if s != bb)
        return self._heads_up_pair(bb, pair, bb_given=True)

    def _dead_roles(self) -> _Roles | None:
        """BLD-2 / seed 002 B12a: the big blind moves one player; small blind and button follow, dead or not."""
        lineup, ring = self.lineup, self.ring
        prev_bb = lineup.bb or 1
        prev_sb = lineup.sb or lineup.button or ring.step(prev_bb, -1)
        bb = ring.next_in(prev_bb, self.playing)
        if bb is not None and bb == self.last_bb:
            bb = ring.next_in(bb, self.playing - {bb})
        if bb is None or bb == prev_bb:
            return None
        if bb in ring.between(prev_bb, prev_sb):
            return _Roles(prev_sb, prev_bb, bb)
        # The big blind went round past the last small blind (two players left there, or a returning player
        # behind the blinds): place the small blind and the button behind it on players who may have them.
        holders = {s for s in self.playing if self._can_hold(s)}
        sb = ring.prev_in(bb, holders - {bb})
        button = ring.prev_in(sb, holders - self.no_button - {bb, sb}) if sb is not None else None
        if sb is None or button is None or not ring.distance(button, sb) < ring.distance(button, bb):
            return None
        return _Roles(button, sb, bb)

    def _moving_roles(self, prev_button: int) -> _Roles | None:
        """Seed 002 B12b, seed 003: the button moves to the next player who may have it, the blinds follow."""
        ring = self.ring
        holders = {s for s in self.playing if self._can_hold(s)}
        button = ring.next_in(prev_button, holders - self.no_button - {prev_button})
        if button is None:
            return None
        sb = ring.next_in(button, holders - {button})
        if sb is None:
            return None
        lineup = self.lineup
        if sb == lineup.sb and sb != lineup.button and sb not in self.new and lineup.start is None:
            # A player came back between the button and the small blind and took the button: the small blind
            # still moves on (seed 001: never the same blind twice in a row); that player escapes it.
            sb = ring.next_in(sb, holders - {button, sb}) or sb
        bb = ring.next_in(sb, self.playing - {button, sb})
        if bb is not None and bb == self.last_bb and self.lineup.start is None:
            # A player came back between the blinds: the big blind still moves past the last one (TDA 34-B,
            # seed 001: never the same blind twice in a row); the last big blind escapes the small blind.
            bb = ring.next_in(bb, self.playing - {button, sb, bb})
        if bb is None or not ring.distance(button, sb) < ring.distance(button, bb):
            return None
        return _Roles(button, sb, bb)

    # --- who is dealt in and what they post ----------------------------------------------------------

    def _deal(self, roles: _Roles, mode: str) -> _Draft:
        fresh = mode == "fresh"
        d = _Draft(roles, hand_bb=roles.bb, after_sb=roles.sb, after_bb=roles.bb)
        d.missed = dict(self.missed)                 # a new game clears them for those it deals in (_finish)
        d.passing = set(self.passing)
        if not fresh:
            d.no_button = set(self.no_button)
        if mode == "normal" and self.lineup.button is not None:
            for seat in self.ring.between(self.lineup.button, roles.button):     # the button passed these seats
                d.no_button.discard(seat)
                if mb.cleared_by_button(self.policy) and d.missed.pop(seat, "") != "":
                    d.notes.append(("BLD-7", f"Seat {seat}: the button has passed, the missed-blind button is "
                                             "cleared (seed 001)"))
        d.post(roles.bb, self.big_blind)
        if not fresh and roles.bb in self.new and not self.new_free:
            d.notes.append(("BLD-6", f"Seat {roles.bb} comes in on the big blind"))
        if roles.heads_up:
            d.post(roles.button, self.small_blind)
            d.hand_sb = roles.button
        else:
            if roles.sb is not None and (fresh or self._can_hold(roles.sb)):
                d.post(roles.sb, self.small_blind)
                d.hand_sb = roles.sb
            elif roles.sb is not None:
                d.notes.append((self._dead_rule(), f"Dead small blind on seat {roles.sb}: nobody posts it"))
            if fresh or self._can_hold(roles.button):
                d.dealt.add(roles.button)
        for seat in self.ring.order_after(roles.button, self.playing):
            if seat not in d.dealt:
                self._deal_other(seat, d, mode)
        if mode == "normal" and self.policy is MissedBlinds.BUY_BLINDS and not roles.heads_up:
            self._buy_the_blinds(d)
        return d

    def _dead_rule(self) -> str:
        return "BLD-2" if self.tournament else "BLD-3"

    def _in_zone(self, seat: int, roles: _Roles) -> bool:
        """Between the blinds and the button: the button seat up to the big blind (seed 002 B5, BLD-6)."""
        return seat == roles.button or seat in self.ring.between(roles.button, roles.bb)

    def _deal_other(self, seat: int, d: _Draft, mode: str) -> None:
        """A player who has neither blind nor the button: dealt in, posting, or waiting."""
        roles, info = d.roles, self.players[seat]
        if mode == "fresh":
            d.dealt.add(seat)
            return
        if roles.heads_up:
            d.notes.append(("BLD-4", f"Seat {seat} waits for the big blind: no posting heads-up (seed 003)"))
            return
        if seat in self.new:
            if self.new_free:
                if roles.sb is not None and seat in self.ring.between(roles.button, roles.sb):
                    d.notes.append(("BLD-6", f"Seat {seat} is not dealt in between the small blind and the "
                                             "button (TDA 8-A)"))
                else:
                    d.dealt.add(seat)
            elif self._in_zone(seat, roles):
                d.notes.append(("BLD-6", f"Seat {seat} waits: a new player is not dealt in between the blinds "
                                         "and the button (seed 002 B5)"))
            elif info.wants_to_post:
                d.post(seat, self.big_blind)
                d.notes.append(("BLD-6", f"Seat {seat} posts {self.big_blind} live to play now"))
            else:
                d.notes.append(("BLD-6", f"Seat {seat} waits for the big blind"))
            return
        marker = d.missed.get(seat)
        if marker is None:
            d.dealt.add(seat)
            return
        zone = self._in_zone(seat, roles)
        if not info.wants_to_post:
            d.notes.append(("BLD-7", f"Seat {seat} missed {mb.describe(marker)}: waits, or posts to play"))
        elif zone and not mb.may_post_between_blinds(self.policy, self.structure):
            d.notes.append(("BLD-7", f"Seat {seat} may not make up blinds between the blinds: waits for the "
                                     "button to pass (seed 002 B16)"))
        elif not (mode == "normal" and self.policy is MissedBlinds.BUY_BLINDS and roles.sb is not None
                  and seat in self.ring.between(roles.button, roles.sb)):      # those buy in _buy_the_blinds
            make_up = mb.make_up(marker, self.policy, self.structure, self.small_blind, self.big_blind)
            d.post(seat, make_up.live, make_up.dead)
            amounts = " and ".join(f"{chips} {kind}" for chips, kind in ((make_up.live, "live"), (make_up.dead, "dead"))
                                   if chips)
            d.notes.append(("BLD-7", f"Seat {seat} posts {amounts} ({make_up.source})"))
            if zone and mb.no_button_after_posting_between_blinds(self.policy, self.structure):
                d.no_button.add(seat)
                d.notes.append(("BLD-7", f"Seat {seat} takes no button this round (seed 002 B16)"))

    def _buy_the_blinds(self, d: _Draft) -> None:
        """Seed 001: a player who missed his big blind and buys the blinds left of the button posts the small
        blind dead and the big blind live in place of this hand's blinds; the next hand he has the button and
        the player on his left (who posted the last big blind) the small blind."""
        roles = d.roles
        if roles.sb is None:
            return
        buyers = [s for s in self.ring.between(roles.button, roles.sb)
                  if s in self.playing and s in d.missed and s not in self.new and self.players[s].wants_to_post]
        if not buyers:
            return
        for seat in (d.hand_sb, d.hand_bb):
            if seat is not None:
                d.live.pop(seat, None)
        if roles.bb not in self.core:              # a joiner who would have come in on this big blind waits
            d.dealt.discard(roles.bb)
            d.notes = [note for note in d.notes if note != ("BLD-6", f"Seat {roles.bb} comes in on the big blind")]
        for seat in buyers:
            d.post(seat, self.big_blind, self.small_blind)
            d.notes.append(("BLD-7", f"Seat {seat} buys the blinds: {self.small_blind} dead and {self.big_blind} "
                                     "live; no other blind this hand (seed 001)"))
        d.hand_sb, d.hand_bb = None, buyers[-1]
        d.after_sb, d.after_bb = buyers[-1], self.lineup.bb

    # --- finishing -----------------------------------------------------------------------------------

    def _mark_missed(self, d: _Draft) -> None:
        """BLD-7: blinds that passed a seat whose player was not dealt in (away, broke, or waiting)."""
        lineup, ring = self.lineup, self.ring
        if lineup.bb is None or d.after_bb is None:
            return

        def owes(seat: int) -> bool:
            return seat in self.players and seat not in d.dealt and seat not in self.new and seat not in self.passing

        for seat in ring.between(lineup.bb, d.after_bb):
            if owes(seat):
                d.missed[seat] = merge_missed(d.missed.get(seat), MISSED_BB)
                d.notes.append(("BLD-7", f"Seat {seat} missed the big blind: missed-blind button"))
        prev_sb = lineup.sb or lineup.button
        if mb.marks_small_blind(self.policy) and prev_sb is not None and d.after_sb is not None:
            for seat in [*ring.between(prev_sb, d.after_sb), d.after_sb]:
                if owes(seat) and seat != prev_sb:
                    d.missed[seat] = merge_missed(d.missed.get(seat), MISSED_SB)
                    d.notes.append(("BLD-7", f"Seat {seat} missed the small blind: missed-blind button"))

    def _end_passing(self, d: _Draft) -> None:
        """BLD-8, seed 002 B21: a moved player who lets the blinds pass plays again once the small blind has
        moved over or onto his seat (both blinds have gone by him)."""
        prev_sb = self.lineup.sb or self.lineup.button
        if not d.passing or prev_sb is None or d.after_sb is None:
            return
        for seat in [*self.ring.between(prev_sb, d.after_sb), d.after_sb]:
            if seat in d.passing:
                d.passing.discard(seat)
                d.notes.append(("BLD-8", f"Seat {seat}: the blinds have passed; plays from the next hand "
                                         "(seed 002 B21)"))

    def _finish(self, d: _Draft, occasion: str) -> HandPlan:
        roles, ring = d.roles, self.ring
        if len(d.dealt) < 2:
            raise PositionError("BLD-1: fewer than two players can be dealt in this hand")
        if mb.marks(self.policy) and occasion == "" and self.lineup.start is None:
            self._mark_missed(d)
        elif mb.marks(self.policy) and occasion:
            # Seed 002 B4: who is not dealt in on the first deal of a game comes in as an incoming player, on
            # or posting the big blind: his seat gets a missed big blind.
            for seat in sorted(s for s in set(self.players) - d.dealt - self.passing if not self.players[s].new):
                d.missed[seat] = merge_missed(d.missed.get(seat), MISSED_BB)
                d.notes.append(("BLD-7", f"Seat {seat} is not dealt in on the first deal: missed-blind button "
                                         "(seed 002 B4)"))
        self._end_passing(d)
        for seat in d.dealt:
            if d.missed.pop(seat, None) is not None and seat == d.hand_bb:
                d.notes.append(("BLD-7", f"Seat {seat} takes the big blind: the missed-blind button is cleared"))
        order = ring.order_after(roles.button, d.dealt)
        preflop_first = order[(order.index(d.hand_bb) + 1) % len(order)]
        killed = tuple(s for s in order if self.players[s].away)
        antes: dict[int, int] = {}
        if self.ante:
            antes = dict.fromkeys(order, self.ante)
        elif self.bb_ante:
            antes = {d.hand_bb: self.bb_ante}
        notes = [self._summary(d, occasion), *d.notes]
        notes += [("DEAL-9", f"Seat {s} is away: dealt in, his blinds and antes posted; his hand is killed if he "
                             "is not back when the last card of the deal lands (TDA 30)")
                  for s in killed]
        if self.bb_ante:
            notes.append(("BLD-10", f"Big-blind ante: seat {d.hand_bb} pays {self.bb_ante} for the table"))
        after = Lineup(roles.button, d.after_sb, d.after_bb, d.missed, frozenset(d.no_button), None, d.hand_bb,
                       frozenset(d.passing))
        waiting = tuple(s for s in sorted(self.players) if s not in d.dealt)
        _LOGGER.debug("planned hand: button %s order %s", roles.button, order)
        return HandPlan(roles.button, order, dict(d.live), dict(d.dead), antes, d.hand_sb, d.hand_bb, preflop_first,
                        killed, {s: self.players[s].stack for s in order}, waiting, after, self.lineup,
                        tuple(notes))

    def _summary(self, d: _Draft, occasion: str) -> tuple[str, str]:
        roles = d.roles
        if roles.heads_up:
            rule, text = "BLD-4", (f"heads-up: seat {roles.button} has the button and posts the small blind, "
                                   f"seat {roles.bb} the big blind")
        else:
            button = f"button seat {roles.button}" + ("" if roles.button in d.dealt else " (dead)")
            sb = f"small blind seat {d.hand_sb}" if d.hand_sb is not None else "no small blind"
            rule, text = "BLD-1", f"{button}, {sb}, big blind seat {d.hand_bb}"
        if occasion:
            text = f"{occasion}: {text}"
        return rule, text[0].upper() + text[1:]
