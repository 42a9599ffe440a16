"""House-rule policies and the four presets that bundle them (rules digest, "Decisions").

Where the rule sources disagree, the choice is a named policy: an enum whose values are the words a config
or a journal's table input uses. A table names a ``Preset`` and may override any single policy.
``docs/house-rules.md`` lists every policy, its choices, each preset's value and the source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import get_type_hints


class Preset(StrEnum):
    """The four bundles of policies (rules digest, "Decisions"): the one list of preset names."""

    HOME = "home"
    CASINO = "casino"
    ONLINE = "online"
    TOURNAMENT = "tournament"


class ButtonMethod(StrEnum):
    """BLD-2, BLD-3: seed 001 / TDA 32 (moving BB); seed 002 B12; seed 002 B11/B12 (limit -> dead button)."""

    DEAD_BUTTON = "dead_button"
    NO_DEAD_BUTTON = "no_dead_button"
    BY_STRUCTURE = "by_structure"


class FirstCard(StrEnum):
    """DEAL-2: heads-up, the first card goes to the big blind (TDA 34-B) or the button (seed 003)."""

    BIG_BLIND = "big_blind"
    BUTTON = "button"


class ExposedFirstCards(StrEnum):
    """EXP-1/2: an exposed first or second card is replaced (seed 001) or is a misdeal (TDA 35-A-7, RRoP)."""

    REPLACE = "replace"
    MISDEAL = "misdeal"


class FourCardFlop(StrEnum):
    """BRD-1: seed 002 B2, RRoP or TDA."""

    SEED002 = "seed002"
    RROP = "rrop"
    TDA = "tda"


class RuleSource(StrEnum):
    """BRD-3 (premature turn), MIS-5 (substantial action): RRoP or TDA (RP-5-B, TDA 36)."""

    RROP = "rrop"
    TDA = "tda"


class StraddleRule(StrEnum):
    """BLD-9: multiple (seed 001), single (seed 002 B8) or none."""

    MULTIPLE = "multiple"
    SINGLE = "single"
    NONE = "none"


class MissedBlinds(StrEnum):
    """BLD-7: buy_blinds (seed 001), by_structure (B14/15), online (seed 003), none (tournament: always
    posted)."""

    BUY_BLINDS = "buy_blinds"
    BY_STRUCTURE = "by_structure"
    ONLINE = "online"
    NONE = "none"


class NewPlayer(StrEnum):
    """BLD-6: post_or_wait, casino (B5/B17), tournament (TDA 8-A)."""

    POST_OR_WAIT = "post_or_wait"
    CASINO = "casino"
    TOURNAMENT = "tournament"


class SeatChange(StrEnum):
    """BLD-8: a seat change at one table is measured by the blinds (seed 002 B20-B22) or makes the player new
    (BLD-6; TDA 8-A for moved players)."""

    BY_POSITION = "by_position"
    AS_NEW = "as_new"


class AbsentPlayer(StrEnum):
    """DEAL-9: not dealt (cash) or dealt in and killed if still away when the deal is complete (TDA 30)."""

    NOT_DEALT = "not_dealt"
    DEALT_KILLED = "dealt_killed"


class PolicyError(ValueError):
    """An unknown preset, policy or choice; the message names it and the choices."""


@dataclass(frozen=True, slots=True)
class Policies:
    """One value per policy; each default is the ``home`` value. A word policy's enum lists its choices."""

    button_method: ButtonMethod = ButtonMethod.DEAD_BUTTON              # BLD-2, BLD-3
    heads_up_first_card: FirstCard = FirstCard.BIG_BLIND               # DEAL-2
    exposed_first_cards: ExposedFirstCards = ExposedFirstCards.REPLACE  # EXP-1/2
    four_card_flop: FourCardFlop = FourCardFlop.SEED002                # BRD-1
    premature_turn: RuleSource = RuleSource.RROP                       # BRD-3
    substantial_action: RuleSource = RuleSource.TDA                    # MIS-5
    straddles: StraddleRule = StraddleRule.MULTIPLE                    # BLD-9
    missed_blinds: MissedBlinds = MissedBlinds.BUY_BLINDS              # BLD-7
    new_player: NewPlayer = NewPlayer.POST_OR_WAIT                     # BLD-6
    seat_change: SeatChange = SeatChange.BY_POSITION                   # BLD-8
    limit_cap_heads_up: bool = False          # BET-6: the cap holds heads-up (TDA 48) or not (RRoP)
    clock_seconds: int = 120                  # TRN-2: 0 = off; home 2 minutes; tournament 25 (+5)
    clock_countdown: int = 0                  # TRN-2: extra countdown seconds (TDA 29: 5)
    shot_clock: int = 0                       # TRN-2: every decision on the clock, these seconds (+ the
                                              # countdown); 0 = off (a clock is called, clock_seconds)
    shot_clock_preflop: int = 0               # TRN-2: pre-flop's own shot clock seconds; 0 = as shot_clock
    time_banks: int = 0                       # TRN-2: time-bank tokens a player; they come back at every break
    time_bank_seconds: int = 30               # TRN-2: what one token adds when time is up (+ the countdown)
    hand_for_hand_seconds: int = 120          # TRN-5 (TDA RP-8): at most this comes off the level clock per
                                              # hand-for-hand hand (TDA: 3 minutes at most, 2 preferred); 0 = all
    absent_player: AbsentPlayer = AbsentPlayer.NOT_DEALT               # DEAL-9
    run_it_max: int = 4                       # POT-11: 1 = off, else at most N runs (seed 001: 4)
    buy_in_min_bb: int = 30                   # seed 001: 30 to 100 big blinds; 0 = no minimum
    buy_in_max_bb: int = 100                  # 0 = no maximum
    buy_in_min_small_bets: int = 0            # seed 003: at least 10 x the small bet (limit)
    tournament: bool = False                  # TRN-*: levels, eliminations, payouts; chips never top up


# Each preset names only the policies that differ from home.
PRESETS: dict[Preset, Policies] = {
    Preset.HOME: Policies(),
    Preset.CASINO: Policies(
        button_method=ButtonMethod.BY_STRUCTURE, exposed_first_cards=ExposedFirstCards.MISDEAL,
        substantial_action=RuleSource.RROP, straddles=StraddleRule.SINGLE, missed_blinds=MissedBlinds.BY_STRUCTURE,
        new_player=NewPlayer.CASINO, clock_seconds=0, run_it_max=1, buy_in_min_bb=0, buy_in_max_bb=0),
    Preset.ONLINE: Policies(
        button_method=ButtonMethod.NO_DEAD_BUTTON, heads_up_first_card=FirstCard.BUTTON,
        exposed_first_cards=ExposedFirstCards.MISDEAL, substantial_action=RuleSource.RROP,
        straddles=StraddleRule.NONE, missed_blinds=MissedBlinds.ONLINE, new_player=NewPlayer.POST_OR_WAIT,
        seat_change=SeatChange.AS_NEW,
        limit_cap_heads_up=True, clock_seconds=0, run_it_max=1, buy_in_min_bb=0, buy_in_max_bb=0,
        buy_in_min_small_bets=10),
    Preset.TOURNAMENT: Policies(
        button_method=ButtonMethod.DEAD_BUTTON, exposed_first_cards=ExposedFirstCards.MISDEAL,
        four_card_flop=FourCardFlop.TDA, premature_turn=RuleSource.TDA, straddles=StraddleRule.NONE,
        missed_blinds=MissedBlinds.NONE, new_player=NewPlayer.TOURNAMENT, seat_change=SeatChange.AS_NEW,
        limit_cap_heads_up=True,
        clock_seconds=25, clock_countdown=5, absent_player=AbsentPlayer.DEALT_KILLED, run_it_max=1,
        buy_in_min_bb=0, buy_in_max_bb=0, tournament=True),
}

_TYPES: dict[str, type] = get_type_hints(Policies)
# The choices of each policy that takes a word: its enum's values.
CHOICES: dict[str, tuple[str, ...]] = {name: tuple(kind) for name, kind in _TYPES.items() if issubclass(kind, StrEnum)}


def policies_for(preset: str, overrides: Mapping[str, object] | None = None) -> Policies:
    """The preset's policies with ``overrides`` applied; raises PolicyError naming the bad key or value."""
    if preset not in PRESETS:
        raise PolicyError(f"unknown rules preset {preset!r}: choose one of {', '.join(PRESETS)}")
    base = PRESETS[Preset(preset)]
    if not overrides:
        return base
    values: dict[str, object] = {}
    for key, value in overrides.items():
        if key not in _TYPES:
            raise PolicyError(f"unknown policy {key!r}: known policies are {', '.join(_TYPES)}")
        if key in CHOICES:
            if value not in CHOICES[key]:
                raise PolicyError(f"policy {key!r} cannot be {value!r}: choose one of {', '.join(CHOICES[key])}")
            value = _TYPES[key](value)
        elif not isinstance(value, _TYPES[key]) or (_TYPES[key] is int and isinstance(value, bool)):
            raise PolicyError(f"policy {key!r} takes a {_TYPES[key].__name__}, not {value!r}")
        elif isinstance(value, int) and value < (1 if key == "run_it_max" else 0):
            raise PolicyError(f"policy {key!r} cannot be {value}: at least {1 if key == 'run_it_max' else 0}")
        values[key] = value
    policies = replace(base, **values)  # type: ignore[arg-type]
    if 0 < policies.buy_in_max_bb < policies.buy_in_min_bb:     # every buy-in would be refused (seed 001)
        raise PolicyError(f"policy 'buy_in_max_bb' {policies.buy_in_max_bb} is below 'buy_in_min_bb' "
                          f"{policies.buy_in_min_bb}: no buy-in would be allowed")
    return policies
