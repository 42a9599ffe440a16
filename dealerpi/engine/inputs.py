"""Checking journal inputs: required keys and their types, and the table's configuration input.

Errors name the key, so a bad journal line or config says exactly what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from dealerpi.engine.buy_in import check_buy_in
from dealerpi.engine.games import GAMES, GameDef, Structure
from dealerpi.engine.policies import PRESETS, Policies, PolicyError, Preset, policies_for
from dealerpi.engine.tournament import ScheduleError, check_schedule

T = TypeVar("T")


class InputError(ValueError):
    """An input that is malformed or names something that does not exist. ``key`` is the bad key's path in the
    input (``levels[2].ante``) when one is to blame, so a config file's error can name its key."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key


_KIND_WORDS: dict[type, str] = {int: "a whole number", str: "a string", bool: "true or false", list: "a list"}
"""How an error names the type a key needs (the dealer's words, not Python's)."""


def require(entry: Mapping[str, Any], key: str, kind: type[T]) -> T:
    """``entry[key]``, checked to be a ``kind`` (a bool is not an int here)."""
    if key not in entry:
        raise InputError(f'{entry.get("type", "input")}: missing key "{key}"', key)
    value = entry[key]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        words = _KIND_WORDS.get(kind, f"a {kind.__name__}")
        raise InputError(f'{entry.get("type", "input")}: "{key}" must be {words}, not {value!r}', key)
    return value


def _amount(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _pair(entry: Mapping[str, Any], key: str, where: str = "") -> tuple[int, int]:
    value = entry.get(key)
    if not (isinstance(value, list) and len(value) == 2 and all(_amount(v) for v in value)):
        raise InputError(f'table: "{where}{key}" must be two whole amounts, e.g. [1, 2], not {value!r}', where + key)
    return value[0], value[1]


def _whole(entry: Mapping[str, Any], key: str, where: str = "") -> int:
    """``entry[key]``, a whole amount of 0 or more (0 when absent)."""
    value = entry.get(key, 0)
    if not _amount(value):
        raise InputError(f'table: "{where}{key}" must be a whole amount of 0 or more, not {value!r}', where + key)
    return int(value)


def _check_stakes(small_blind: int, big_blind: int, ante: int, bb_ante: int) -> None:
    """What the hand planner refuses at every START (positions.plan_hand, BLD-10), refused here once, when the
    table is configured, so a config that could never start a hand is an error naming its key."""
    if big_blind <= 0 or small_blind > big_blind:
        raise InputError(f'table: "blinds" {small_blind}/{big_blind}: the big blind must be positive and at least '
                         "the small blind", "blinds")
    if ante and bb_ante:
        raise InputError('table: "ante" and "bb_ante": use one of them, not both (BLD-10)', "bb_ante")


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
    starting_stack: int = 0                # chips for a player sat from the seat panel; 0: not given
    # TRN-4: payout rows by field size, ((players, percents), ...): the first row whose players >= the entrants
    payouts_by_field: tuple[tuple[int, tuple[int, ...]], ...] = ()
    late_entry_levels: int = 0             # TRN-9: new entrants until the end of this level (0: any time)
    reentries: int = 0                     # re-entries a busted player may buy (0: a freezeout)
    rebuys: int = 0                        # rebuys a player may buy, at most the starting stack (0: none)
    rebuy_levels: int = 0                  # rebuys until the end of this level; the add-on at the break after it
    addon_chips: int = 0                   # the add-on's chips (0: no add-on)
    addon_price: int = 0                   # the add-on's price, into the prize pool
    bounty: int = 0                        # PKO: the part of each buy-in that goes on the buyer's head

    @property
    def min_bet(self) -> int:
        return self.limits[0] if self.limits else self.big_blind

    @property
    def panel_stack(self) -> int:
        """The stack of a player sat from the seat panel: ``starting_stack``, or 100 big blinds (seed 001's
        maximum buy-in; a tournament gives every player the same stack)."""
        return self.starting_stack or 100 * self.big_blind


def _levels(raw: object) -> tuple[Level, ...]:
    """The level schedule (TRN-1): each field's type here, what makes a schedule runnable in the one place
    the level clock checks it too (``tournament.check_schedule``)."""
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise InputError('table: "levels" must be a list of levels (TRN-1)', "levels")
    levels = []
    for k, item in enumerate(raw):
        where = f"levels[{k}]."
        if not isinstance(item, Mapping):
            raise InputError(f'table: "levels[{k}]" must be an object', f"levels[{k}]")
        minutes = _whole(item, "minutes", where)
        if item.get("break"):
            levels.append(Level(0, 0, minutes=minutes, is_break=True))
            continue
        sb, bb = _pair(item, "blinds", where)
        levels.append(Level(sb, bb, _whole(item, "ante", where), _whole(item, "bb_ante", where), minutes))
    if levels:
        try:
            check_schedule(levels)
        except ScheduleError as error:
            raise InputError(f'table: "levels": {error} (TRN-1)', f"levels[{error.index}]") from None
    return tuple(levels)


def _percents(values: object) -> bool:
    return isinstance(values, list) and all(_amount(p) and p > 0 for p in values) and sum(values) == 100


def _payouts_by_field(rows: list[Any]) -> tuple[tuple[int, tuple[int, ...]], ...]:
    """TRN-4: ``[{"players": 6, "percents": [65, 35]}, {"players": 10, "percents": [50, 30, 20]}]``: a row per
    field size, in increasing ``players``; no row pays more places than its players."""
    table: list[tuple[int, tuple[int, ...]]] = []
    for k, row in enumerate(rows):
        players, percents = row.get("players"), row.get("percents")
        if not (_amount(players) and players > 0 and _percents(percents)):
            raise InputError(f'table: "payouts[{k}]" must be {{"players": N, "percents": [whole percentages that '
                             f'add up to 100]}}, not {dict(row)!r}', f"payouts[{k}]")
        if table and players <= table[-1][0]:
            raise InputError(f'table: "payouts[{k}]": the rows go up in "players" ({players} after {table[-1][0]})',
                             f"payouts[{k}]")
        if len(percents) > players:
            raise InputError(f'table: "payouts[{k}]": {len(percents)} places paid for {players} players',
                             f"payouts[{k}]")
        table.append((players, tuple(percents)))
    return tuple(table)


MONEY_KEYS = ("reentries", "rebuys", "rebuy_levels", "addon_chips", "addon_price", "bounty")
"""The tournament's buy-ins beyond the first entry and its bounties (engine/tournament_money.py), in order."""


def _check_money(config: TableConfig) -> None:
    """Re-entries, rebuys, the add-on and a bounty that a tournament can run."""
    if config.bounty and config.bounty >= config.buy_in:
        raise InputError(f'table: "bounty" {config.bounty} must be less than "buy_in" {config.buy_in}: the rest '
                         "is the prize pool's", "bounty")
    if config.rebuys and not config.rebuy_levels:
        raise InputError('table: "rebuys" need "rebuy_levels": the level rebuys end with', "rebuy_levels")
    if bool(config.addon_chips) != bool(config.addon_price) or (config.addon_chips and not config.rebuy_levels):
        raise InputError('table: an add-on needs "addon_chips", "addon_price" and "rebuy_levels" (it is taken at '
                         "the break after that level)", "addon_chips")


def parse_config(entry: Mapping[str, Any]) -> TableConfig:
    """Check a ``table`` input and build the configuration; errors name the key (``InputError.key``).

    Whatever a START would refuse for the table's sake (stakes, antes, the level schedule) is refused here, so
    ``dealerpi check-config``, which runs the config's ``[table]`` through this function, refuses it too.
    """
    game_key = require(entry, "game", str)
    if game_key not in GAMES:
        raise InputError(f'table: "game" {game_key!r} is not a game: choose one of {", ".join(GAMES)}', "game")
    game = GAMES[game_key]
    preset = require(entry, "rules", str) if "rules" in entry else "home"
    overrides = entry.get("policies") or {}
    if not isinstance(overrides, Mapping):
        raise InputError('table: "policies" must be an object of policy names and values', "policies")
    try:
        policies = policies_for(preset, overrides)
    except PolicyError as error:
        raise InputError(f"table: {error}", "rules" if preset not in PRESETS else "policies") from None
    seats = require(entry, "seats", int)
    if not 2 <= seats <= 10:
        raise InputError(f'table: "seats" must be 2 to 10, not {seats}', "seats")
    levels = _levels(entry.get("levels"))
    if "blinds" in entry or not levels:
        small_blind, big_blind = _pair(entry, "blinds")
    else:
        small_blind, big_blind = levels[0].small_blind, levels[0].big_blind
    ante, bb_ante = _whole(entry, "ante"), _whole(entry, "bb_ante")
    _check_stakes(small_blind, big_blind, ante, bb_ante)
    limits = None
    if game.structure is Structure.FIXED_LIMIT:
        limits = _pair(entry, "limits")
        if not 0 < limits[0] <= limits[1]:
            raise InputError(f'table: "limits" {list(limits)}: the small bet must be positive and at most the '
                             "big bet", "limits")
    buy_in = _whole(entry, "buy_in")
    payouts = entry.get("payouts", [50, 30, 20])
    by_field = _payouts_by_field(payouts) if isinstance(payouts, list) and payouts and all(
        isinstance(row, Mapping) for row in payouts) else ()
    if by_field:
        payouts = list(by_field[-1][1])
    if not (isinstance(payouts, list) and _percents(payouts)):
        raise InputError('table: "payouts" must be whole percentages per place that add up to 100, or rows '
                         '{"players": N, "percents": [...]} by field size', "payouts")
    config = TableConfig(game, Preset(preset), policies, seats, small_blind, big_blind, limits, ante, bb_ante,
                         levels, tuple(payouts), buy_in, _whole(entry, "starting_stack"), by_field,
                         _whole(entry, "late_entry_levels"), *(_whole(entry, key) for key in MONEY_KEYS))
    _check_money(config)
    # the stack a seat gets when sat from its panel: one that every such sit would refuse is refused now
    reason = check_buy_in(config.panel_stack, policies=policies, big_blind=big_blind,
                          small_bet=limits[0] if limits else None)
    if reason:
        given = "" if config.starting_stack else " (no starting_stack: 100 big blinds)"
        raise InputError(f'table: "starting_stack"{given}: {reason}', "starting_stack")
    return config
