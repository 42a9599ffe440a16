"""House-rule policies and the four presets that bundle them (rules digest, "Decisions").

Where the rule sources disagree, the choice is a named policy. A table names a preset and may override any
single policy. ``docs/house-rules.md`` lists every policy, its choices, each preset's value and the source.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields, replace


class PolicyError(ValueError):
    """An unknown preset, policy or choice; the message names it and the choices."""


@dataclass(frozen=True, slots=True)
class Policies:
    """One value per policy. Field comments give the choices; the first is the ``home`` value."""

    # BLD-2, BLD-3: dead_button (seed 001, TDA 32 / moving BB), no_dead_button (seed 002 B12), or
    # by_structure (seed 002 B11/B12: limit -> dead_button, big-bet -> no_dead_button).
    button_method: str = "dead_button"
    heads_up_first_card: str = "big_blind"          # DEAL-2: big_blind (TDA 34-B) | button (seed 003)
    exposed_first_cards: str = "replace"            # EXP-1/2: replace (seed 001) | misdeal (TDA 35-A-7, RRoP)
    four_card_flop: str = "seed002"                 # BRD-1: seed002 (B2) | rrop | tda
    premature_turn: str = "rrop"                    # BRD-3: rrop | tda (RP-5-B)
    substantial_action: str = "tda"                 # MIS-5: tda (TDA 36) | rrop
    straddles: str = "multiple"                     # BLD-9: multiple (seed 001) | single (seed 002 B8) | none
    missed_blinds: str = "buy_blinds"               # BLD-7: buy_blinds (seed 001) | by_structure (B14/15) |
    #                                                  online (seed 003) | none (tournament: always posted)
    new_player: str = "post_or_wait"                # BLD-6: post_or_wait | casino (B5/B17) | tournament (TDA 8-A)
    limit_cap_heads_up: bool = False                # BET-6: the cap holds heads-up (TDA 48) or not (RRoP)
    clock_seconds: int = 120                        # TRN-2: 0 = off; home 2 minutes; tournament 25 (+5)
    clock_countdown: int = 0                        # TRN-2: extra countdown seconds (TDA 29: 5)
    absent_player: str = "not_dealt"                # DEAL-9: not_dealt (cash) | dealt_killed (TDA 30)
    run_it_max: int = 4                             # POT-11: 1 = off, else at most N runs (seed 001: 4)
    buy_in_min_bb: int = 30                         # seed 001: 30 to 100 big blinds; 0 = no minimum
    buy_in_max_bb: int = 100                        # 0 = no maximum
    buy_in_min_small_bets: int = 0                  # seed 003: at least 10 x the small bet (limit)
    tournament: bool = False                        # TRN-*: levels, eliminations, payouts; chips never top up


PRESETS: dict[str, Policies] = {
    "home": Policies(),
    "casino": Policies(
        button_method="by_structure", exposed_first_cards="misdeal", substantial_action="rrop",
        straddles="single", missed_blinds="by_structure", new_player="casino", clock_seconds=0,
        run_it_max=1, buy_in_min_bb=0, buy_in_max_bb=0),
    "online": Policies(
        button_method="no_dead_button", heads_up_first_card="button", exposed_first_cards="misdeal",
        substantial_action="rrop", straddles="none", missed_blinds="online", new_player="post_or_wait",
        limit_cap_heads_up=True, clock_seconds=0, run_it_max=1, buy_in_min_bb=0, buy_in_max_bb=0,
        buy_in_min_small_bets=10),
    "tournament": Policies(
        button_method="dead_button", exposed_first_cards="misdeal", four_card_flop="tda", premature_turn="tda",
        straddles="none", missed_blinds="none", new_player="tournament", limit_cap_heads_up=True,
        clock_seconds=25, clock_countdown=5, absent_player="dealt_killed", run_it_max=1, buy_in_min_bb=0,
        buy_in_max_bb=0, tournament=True),
}

CHOICES: dict[str, tuple[str, ...]] = {
    "button_method": ("dead_button", "no_dead_button", "by_structure"),
    "heads_up_first_card": ("big_blind", "button"),
    "exposed_first_cards": ("replace", "misdeal"),
    "four_card_flop": ("seed002", "rrop", "tda"),
    "premature_turn": ("rrop", "tda"),
    "substantial_action": ("tda", "rrop"),
    "straddles": ("multiple", "single", "none"),
    "missed_blinds": ("buy_blinds", "by_structure", "online", "none"),
    "new_player": ("post_or_wait", "casino", "tournament"),
    "absent_player": ("not_dealt", "dealt_killed"),
}


def policies_for(preset: str, overrides: Mapping[str, object] | None = None) -> Policies:
    """The preset's policies with ``overrides`` applied; raises PolicyError naming the bad key or value."""
    if preset not in PRESETS:
        raise PolicyError(f"unknown rules preset {preset!r}: choose one of {', '.join(PRESETS)}")
    base = PRESETS[preset]
    if not overrides:
        return base
    types = {f.name: f.type for f in fields(Policies)}
    for key, value in overrides.items():
        if key not in types:
            raise PolicyError(f"unknown policy {key!r}: known policies are {', '.join(types)}")
        if key in CHOICES and value not in CHOICES[key]:
            raise PolicyError(f"policy {key!r} cannot be {value!r}: choose one of {', '.join(CHOICES[key])}")
        expected = bool if types[key] in (bool, "bool") else int if types[key] in (int, "int") else str
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise PolicyError(f"policy {key!r} takes a {expected.__name__}, not {value!r}")
    return replace(base, **overrides)  # type: ignore[arg-type]
