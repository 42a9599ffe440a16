"""Tournament time: the level schedule and its clock (TRN-1), the player clock (TRN-2), late-entry stacks.

Both clocks are pure values advanced by ``tick(seconds)`` inputs from the journal; nothing here reads a clock.
Seconds are whole numbers. A level reached by the clock applies from the next hand (TRN-1, TDA 23): the table
reads ``LevelClock.level_for_next_hand()`` when it plans a hand and keeps those blinds for the whole hand.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from dealerpi.engine.policies import Policies

_LOGGER = logging.getLogger(__name__)

Note = tuple[str, str]


class LevelLike(Protocol):
    """One step of a schedule: a level (blinds, antes) or a break; ``minutes`` long. ``inputs.Level`` is one."""

    @property
    def small_blind(self) -> int: ...
    @property
    def big_blind(self) -> int: ...
    @property
    def ante(self) -> int: ...
    @property
    def bb_ante(self) -> int: ...
    @property
    def minutes(self) -> int: ...
    @property
    def is_break(self) -> bool: ...


class ScheduleError(ValueError):
    """A level schedule that cannot run; the message names the step (1-based), ``index`` is it 0-based."""

    def __init__(self, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.index = index


def check_schedule(levels: Sequence[LevelLike]) -> None:
    """Raise ``ScheduleError`` for an empty schedule, a step without minutes, or impossible blinds."""
    if not levels:
        raise ScheduleError("a tournament needs at least one level")
    if levels[0].is_break:
        raise ScheduleError("step 1 is a break: the schedule starts with a level", 0)
    for number, step in enumerate(levels, start=1):
        if step.minutes <= 0:
            raise ScheduleError(f"step {number} lasts {step.minutes} minutes: it must last at least one", number - 1)
        if not step.is_break and not (0 <= step.small_blind <= step.big_blind and step.big_blind > 0):
            raise ScheduleError(f"step {number}: blinds {step.small_blind}/{step.big_blind} are not possible",
                                number - 1)
        if step.ante < 0 or step.bb_ante < 0 or (step.ante and step.bb_ante):
            raise ScheduleError(f"step {number}: use an ante or a big-blind ante, not both, never negative",
                                number - 1)


@dataclass(frozen=True, slots=True)
class LevelClock:
    """Where the schedule stands: step ``index`` (a level or a break), ``elapsed`` seconds into it.

    The last level never ends. A paused clock ignores ticks (a floor decision, hand-for-hand play).
    """

    levels: tuple[LevelLike, ...]
    index: int = 0
    elapsed: int = 0
    paused: bool = False

    def __post_init__(self) -> None:
        check_schedule(self.levels)

    @property
    def current(self) -> LevelLike:
        return self.levels[self.index]

    @property
    def on_break(self) -> bool:
        return self.current.is_break

    @property
    def level_number(self) -> int:
        """1-based number of the level in play or last played (breaks are not counted)."""
        return sum(1 for step in self.levels[: self.index + 1] if not step.is_break)

    @property
    def remaining(self) -> int:
        """Seconds left in the current step; 0 once the last level's time is up (it then goes on)."""
        return max(0, self.current.minutes * 60 - self.elapsed)

    def level_for_next_hand(self) -> LevelLike | None:
        """TRN-1: the blinds and antes of a hand started now; None during a break (no hand starts)."""
        return None if self.on_break else self.current

    def pause(self) -> LevelClock:
        return replace(self, paused=True)

    def resume(self) -> LevelClock:
        return replace(self, paused=False)

    def tick(self, seconds: int) -> LevelClock:
        return self.advance(seconds)[0]

    def advance(self, seconds: int) -> tuple[LevelClock, tuple[Note, ...]]:
        """The clock ``seconds`` later, and a note for every level or break reached on the way (TRN-1)."""
        if seconds < 0:
            raise ValueError(f"a tick cannot go back in time ({seconds} s)")
        if self.paused or not seconds:
            return self, ()
        index, elapsed, notes = self.index, self.elapsed + seconds, []
        while index + 1 < len(self.levels) and elapsed >= self.levels[index].minutes * 60:
            elapsed -= self.levels[index].minutes * 60
            index += 1
            notes.append(self._announce(index))
        return replace(self, index=index, elapsed=elapsed), tuple(notes)

    def _announce(self, index: int) -> Note:
        step = self.levels[index]
        if step.is_break:
            return ("TRN-1", f"Break: {step.minutes} minutes")
        number = sum(1 for s in self.levels[: index + 1] if not s.is_break)
        return ("TRN-1", f"Level {number}: {describe_level(step)}, from the next hand")

    def describe(self) -> str:
        """One line for the dealer console, e.g. ``L3 100/200 bb ante 200 12:31``."""
        minutes, seconds = divmod(self.remaining, 60)
        what = "Break" if self.on_break else f"L{self.level_number} {describe_level(self.current, short=True)}"
        return f"{what} {minutes}:{seconds:02d}" + (" (paused)" if self.paused else "")


def describe_level(level: LevelLike, short: bool = False) -> str:
    """``blinds 100/200, ante 25`` (``100/200 ante 25`` when short)."""
    text = f"{level.small_blind}/{level.big_blind}" if short else f"blinds {level.small_blind}/{level.big_blind}"
    sep = " " if short else ", "
    if level.ante:
        text += f"{sep}ante {level.ante}"
    if level.bb_ante:
        text += f"{sep}bb ante {level.bb_ante}"
    return text


# --- TRN-2 the player clock -------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class ActionClock:
    """A clock called on ``seat`` (TRN-2): ``seconds`` to act, then a final ``countdown``.

    Time is up when ``elapsed`` reaches ``seconds + countdown``. A tie goes to the player (TDA 29): an action
    journaled before the tick that ends the count stands.
    """

    seat: int
    seconds: int
    countdown: int = 0
    elapsed: int = 0

    def tick(self, seconds: int) -> ActionClock:
        if seconds < 0:
            raise ValueError(f"a tick cannot go back in time ({seconds} s)")
        return replace(self, elapsed=self.elapsed + seconds)

    @property
    def remaining(self) -> int:
        return max(0, self.seconds + self.countdown - self.elapsed)

    @property
    def counting_down(self) -> bool:
        """In the final countdown (TDA 29: the last 5 seconds are counted aloud)."""
        return self.countdown > 0 and not self.expired and self.elapsed >= self.seconds

    @property
    def expired(self) -> bool:
        return self.elapsed >= self.seconds + self.countdown


def call_clock(policies: Policies, seat: int) -> ActionClock | None:
    """The clock a seat gets under these house rules (home: 2 minutes; tournament: 25 s + 5 s); None when off."""
    if not policies.clock_seconds:
        return None
    return ActionClock(seat, policies.clock_seconds, policies.clock_countdown)


def shot_clock(policies: Policies, seat: int, street: int) -> ActionClock | None:
    """TRN-2: the clock every decision gets under a shot clock (``street`` 0 is pre-flop, which may have its
    own seconds); None without one."""
    seconds = policies.shot_clock_preflop if street == 0 and policies.shot_clock_preflop else policies.shot_clock
    return ActionClock(seat, seconds, policies.clock_countdown) if policies.shot_clock else None


def time_bank(policies: Policies, seat: int) -> ActionClock:
    """TRN-2: what one time-bank token gives a player whose time is up: its seconds, then the countdown."""
    return ActionClock(seat, policies.time_bank_seconds, policies.clock_countdown)


def when_time_is_up(facing_bet: bool) -> str:
    """TRN-2 (TDA 29, POT-9): facing a bet the hand is dead ("fold"); otherwise it checks ("check")."""
    return "fold" if facing_bet else "check"
