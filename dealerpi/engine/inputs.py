"""Checking journal inputs: required keys and their types, and the table's configuration input.

Errors name the key, so a bad journal line or config says exactly what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from dealerpi.engine.games import GAMES, GameDef, Structure
from dealerpi.engine.policies import Policies, PolicyError, Preset, policies_for

T = TypeVar("T")


class InputError(ValueError):
    """An input that is malformed or names something that does not exist."""


def require(entry: Mapping[str, Any], key: str, kind: type[T]) -> T:
    """``entry[key]``, checked to be a ``kind`` (a bool is not an int here)."""
    if key not in entry:
        raise InputError(f'{entry.get("type", "input")}: missing key "{key}"')
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise InputError(f'{entry.get("type", "input")}: "{key}" must be a {kind.__name__}, not {value!r}')
    return value


def _pair(entry: Mapping[str, Any], key: str) -> tuple[int, int]:
    value = entry.get(key)
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) and v >= 0 for v in value)):
        raise InputError(f'table: "{key}" must be two whole amounts, e.g. [1, 2], not {value!r}')
    return value[0], value[1]


@dataclass(frozen=True, slots=True)
class Level:
    """One tournament level (TRN-1). A break has no blinds."""

    small_blind: int
    big_blind: int
    ante: int = 0
    bb_ante: int = 0
    minutes: int = 20
    is_break: bool = False


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The table's game, stakes and house rules, from a ``{"type": "table"}`` input or the config file."""

    game: GameDef
    preset: Preset
    policies: Policies
    seats: int
    small_blind: int
    big_blind: int
    limits: tuple[int, int] | None = None
    ante: int = 0
    bb_ante: int = 0
    levels: tuple[Level, ...] = ()
    payouts: tuple[int, ...] = ()          # percent per place, e.g. (50, 30, 20)
    buy_in: int = 0                        # tournament entry fee, for the prize pool

    @property
    def min_bet(self) -> int:
        return self.limits[0] if self.limits else self.big_blind


def _levels(raw: object) -> tuple[Level, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InputError('table: "levels" must be a list of levels')
    levels = []
    for k, item in enumerate(raw):
        if not isinstance(item, Mapping):
            raise InputError(f'table: "levels"[{k}] must be an object')
        if item.get("break"):
            levels.append(Level(0, 0, minutes=require(item, "minutes", int), is_break=True))
            continue
        sb, bb = _pair(item, "blinds")
        levels.append(Level(sb, bb, int(item.get("ante", 0)), int(item.get("bb_ante", 0)),
                            require(item, "minutes", int)))
    return tuple(levels)


def parse_config(entry: Mapping[str, Any]) -> TableConfig:
    """Check a ``table`` input and build the configuration; errors name the key."""
    game_key = require(entry, "game", str)
    if game_key not in GAMES:
        raise InputError(f'table: "game" {game_key!r} is not a game: choose one of {", ".join(GAMES)}')
    game = GAMES[game_key]
    preset = entry.get("rules", "home")
    overrides = entry.get("policies") or {}
    if not isinstance(overrides, Mapping):
        raise InputError('table: "policies" must be an object of policy names and values')
    try:
        policies = policies_for(str(preset), overrides)
    except PolicyError as error:
        raise InputError(f"table: {error}") from None
    seats = require(entry, "seats", int)
    if not 2 <= seats <= 10:
        raise InputError(f'table: "seats" must be 2 to 10, not {seats}')
    levels = _levels(entry.get("levels"))
    if "blinds" in entry or not levels:
        small_blind, big_blind = _pair(entry, "blinds")
    else:
        small_blind, big_blind = levels[0].small_blind, levels[0].big_blind
    limits = None
    if game.structure is Structure.FIXED_LIMIT:
        limits = _pair(entry, "limits")
    for key in ("ante", "bb_ante", "buy_in", "starting_stack"):
        if key in entry:
            require(entry, key, int)
    payouts = entry.get("payouts", [50, 30, 20])
    if not (isinstance(payouts, list) and all(isinstance(p, int) and p > 0 for p in payouts)
            and sum(payouts) == 100):
        raise InputError('table: "payouts" must be whole percentages per place that add up to 100')
    return TableConfig(game, Preset(str(preset)), policies, seats, small_blind, big_blind, limits,
                       int(entry.get("ante", 0)), int(entry.get("bb_ante", 0)), levels, tuple(payouts),
                       int(entry.get("buy_in", 0)))
