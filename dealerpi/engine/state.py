"""The table between hands as one immutable record, and its JSON form (the durability checkpoint).

``TableState`` holds everything a table carries from one hand to the next: the configuration, the occupied
seats, the button and blind bookkeeping (``Lineup``), the hand number, the tournament's level clock and
standings, a pending redeal (MIS-7: after a fouled deck the next ``start`` replays the same plan) and a pause
(TRN-5: no hand starts until ``resume``), held now or once hand ``pause_after`` is over. It is
frozen: a change makes a new record (``dataclasses.replace``), so a copy is never needed to go back.

``as_json()`` gives plain JSON data and ``TableState.from_json`` rebuilds an equal record; a malformed
document raises ``InputError`` naming the key. ``Table.snapshot()`` (table.py) wraps this record with the
inputs accepted since it; docs/journal.md describes the format.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from typing import Any, TypeVar

from dealerpi.engine.bounties import Bounties
from dealerpi.engine.inputs import MONEY_KEYS, InputError, TableConfig, parse_config
from dealerpi.engine.payouts import Finish, Standings
from dealerpi.engine.positions import HandPlan, Lineup
from dealerpi.engine.tournament import LevelClock

T = TypeVar("T")

FORMAT_VERSION = 1


@dataclass(frozen=True, slots=True)
class SeatState:
    """An occupied seat between hands. ``new``: not dealt a hand yet (BLD-6). ``reserved``: a stack placed
    for a late entrant who has not bought it yet (seed 001, TRN-9). ``banks_used``: time-bank tokens used since
    the last break (TRN-2)."""

    seat: int
    player: str
    stack: int
    away: bool = False
    new: bool = True
    wants_to_post: bool = False
    reserved: bool = False
    banks_used: int = 0


@dataclass(frozen=True, slots=True)
class Bomb:
    """A bomb pot (seed 001): every player antes ``ante``; ``boards`` 1 or 2; a no-limit river by default."""

    ante: int
    boards: int = 1
    river_no_limit: bool = True


@dataclass(frozen=True, slots=True)
class Redeal:
    """MIS-7: a fouled deck voids the deal; the next ``start`` deals the same plan at the same stakes (small
    blind, big blind, ante, big-blind ante), with the same straddles and bomb."""

    plan: HandPlan
    stakes: tuple[int, int, int, int]
    straddles: tuple[tuple[int, int], ...] = ()
    bomb: Bomb | None = None


@dataclass(frozen=True, slots=True)
class TableState:
    """See the module docstring. ``seats`` are in seat order."""

    config: TableConfig | None = None
    seats: tuple[SeatState, ...] = ()
    lineup: Lineup = field(default_factory=Lineup)
    hand_number: int = 0
    levels: LevelClock | None = None          # TRN-1
    standings: Standings | None = None        # TRN-4
    redeal: Redeal | None = None              # MIS-7
    paused: str | None = None                 # TRN-5: no hand starts until ``resume``; the pause's reason
    pause_after: int | None = None            # TRN-5: the pause holds once this hand is over (None: it holds)
    clock_allowance: int | None = None        # TRN-5: seconds this hand-for-hand hand may still take off the
                                              # level clock (None: the hand is played on the clock)
    buys: tuple[tuple[str, str], ...] = ()    # a tournament's buy-ins in order: (player, entry|reentry|rebuy|addon)
    bounties: Bounties | None = None          # PKO: the heads and the bounty cash won

    def seat(self, number: int) -> SeatState | None:
        return next((s for s in self.seats if s.seat == number), None)

    def with_seat(self, seat: SeatState) -> TableState:
        """This state with ``seat`` placed (replacing whoever held that number)."""
        others = [s for s in self.seats if s.seat != seat.seat]
        return replace(self, seats=tuple(sorted([*others, seat], key=lambda s: s.seat)))

    def without_seat(self, number: int) -> TableState:
        return replace(self, seats=tuple(s for s in self.seats if s.seat != number))

    def as_json(self) -> dict[str, Any]:
        config, levels, standings, redeal = self.config, self.levels, self.standings, self.redeal
        return {
            "config": None if config is None else config_json(config),
            "seats": [{f.name: getattr(s, f.name) for f in fields(SeatState)} for s in self.seats],
            "lineup": _lineup_json(self.lineup),
            "hand_number": self.hand_number,
            "levels": None if levels is None else {"index": levels.index, "elapsed": levels.elapsed,
                                                   "paused": levels.paused},
            "standings": None if standings is None else {
                "pool": standings.pool, "remaining": standings.remaining, "percents": list(standings.percents),
                "finishes": [[f.player, f.place, f.prize] for f in standings.finishes],
                "deal": [list(pair) for pair in standings.deal]},
            "redeal": None if redeal is None else {
                "plan": _plan_json(redeal.plan), "stakes": list(redeal.stakes),
                "straddles": [list(s) for s in redeal.straddles],
                "bomb": None if redeal.bomb is None else {f.name: getattr(redeal.bomb, f.name)
                                                          for f in fields(Bomb)}},
            "paused": self.paused,
            "pause_after": self.pause_after,
            "clock_allowance": self.clock_allowance,
            "buys": [list(buy) for buy in self.buys],
            "bounties": None if self.bounties is None else self.bounties.as_json(),
        }

    @classmethod
    def from_json(cls, data: object) -> TableState:
        """The record ``as_json`` wrote; ``InputError`` names the key of a malformed document."""
        return _read("table state", lambda: _state(_obj(data)))


# --- writing -------------------------------------------------------------------------------------------

def config_json(config: TableConfig) -> dict[str, Any]:
    """The configuration as the ``table`` input that makes it (every policy spelled out)."""
    policies = {f.name: _plain(getattr(config.policies, f.name)) for f in fields(config.policies)}
    data: dict[str, Any] = {
        "type": "table", "game": config.game.key, "rules": config.preset.value, "policies": policies,
        "seats": config.seats, "blinds": [config.small_blind, config.big_blind], "ante": config.ante,
        "bb_ante": config.bb_ante, "payouts": list(config.payouts), "buy_in": config.buy_in}
    if config.payouts_by_field:                          # TRN-4: the rows by field size
        data["payouts"] = [{"players": n, "percents": list(p)} for n, p in config.payouts_by_field]
    if config.late_entry_levels:
        data["late_entry_levels"] = config.late_entry_levels
    for key in MONEY_KEYS:                               # re-entries, rebuys, the add-on, PKO: when set
        if getattr(config, key):
            data[key] = getattr(config, key)
    if config.limits is not None:
        data["limits"] = list(config.limits)
    if config.starting_stack:
        data["starting_stack"] = config.starting_stack
    if config.levels:
        data["levels"] = [{"break": True, "minutes": level.minutes} if level.is_break else
                          {"blinds": [level.small_blind, level.big_blind], "ante": level.ante,
                           "bb_ante": level.bb_ante, "minutes": level.minutes} for level in config.levels]
    return data


def _plain(value: object) -> object:
    return value.value if isinstance(value, StrEnum) else value


def _seat_map(values: Mapping[int, T]) -> dict[str, T]:
    return {str(seat): value for seat, value in sorted(values.items())}


def _lineup_json(lineup: Lineup) -> dict[str, Any]:
    return {"button": lineup.button, "sb": lineup.sb, "bb": lineup.bb, "missed": _seat_map(lineup.missed),
            "no_button": sorted(lineup.no_button), "start": lineup.start, "bb_poster": lineup.bb_poster,
            "passing": sorted(lineup.passing)}


def _plan_json(plan: HandPlan) -> dict[str, Any]:
    return {"button": plan.button, "order": list(plan.order), "blinds": _seat_map(plan.blinds),
            "dead": _seat_map(plan.dead), "antes": _seat_map(plan.antes), "sb": plan.sb, "bb": plan.bb,
            "preflop_first": plan.preflop_first, "killed": list(plan.killed), "stacks": _seat_map(plan.stacks),
            "waiting": list(plan.waiting), "after": _lineup_json(plan.after), "before": _lineup_json(plan.before),
            "notes": [list(note) for note in plan.notes]}


# --- reading -------------------------------------------------------------------------------------------

class _Bad(Exception):
    """A malformed part of a document: the key path."""


def _read(what: str, build: Callable[[], T]) -> T:
    try:
        return build()
    except _Bad as bad:
        raise InputError(f"{what}: bad {bad}") from None
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"{what}: malformed ({error})") from None


def _obj(data: object, key: str = "document") -> Mapping[str, Any]:
    if not isinstance(data, Mapping):
        raise _Bad(key)
    return data


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise _Bad(f'"{key}"')
    return value


def _opt_int(data: Mapping[str, Any], key: str) -> int | None:
    return None if data.get(key) is None else _int(data, key)


def _ints(data: Mapping[str, Any], key: str) -> tuple[int, ...]:
    value = data.get(key)
    if not isinstance(value, list) or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        raise _Bad(f'"{key}"')
    return tuple(value)


def _int_map(data: Mapping[str, Any], key: str) -> dict[int, int]:
    return {int(seat): int(value) for seat, value in _obj(data.get(key), f'"{key}"').items()}


def _state(data: Mapping[str, Any]) -> TableState:
    config = None if data.get("config") is None else parse_config(_obj(data["config"], '"config"'))
    seats = tuple(SeatState(**_obj(s, '"seats"')) for s in data["seats"])
    levels = standings = redeal = None
    if data.get("levels") is not None:
        if config is None or not config.levels:
            raise _Bad('"levels" (no level schedule in the config)')
        raw = _obj(data["levels"], '"levels"')
        levels = LevelClock(config.levels, _int(raw, "index"), _int(raw, "elapsed"), bool(raw.get("paused")))
    if data.get("standings") is not None:
        raw = _obj(data["standings"], '"standings"')
        standings = Standings(_int(raw, "pool"), _int(raw, "remaining"), _ints(raw, "percents"),
                              tuple(Finish(str(p), int(place), int(prize)) for p, place, prize in raw["finishes"]),
                              tuple((str(p), int(amount)) for p, amount in raw.get("deal", ())))   # none before deals
    if data.get("redeal") is not None:
        raw = _obj(data["redeal"], '"redeal"')
        bomb = None if raw.get("bomb") is None else Bomb(**_obj(raw["bomb"], '"bomb"'))
        small_blind, big_blind, ante, bb_ante = _ints(raw, "stakes")
        redeal = Redeal(_plan(_obj(raw["plan"], '"plan"')), (small_blind, big_blind, ante, bb_ante),
                        tuple((int(s), int(a)) for s, a in raw["straddles"]), bomb)
    paused = data.get("paused")                      # absent from checkpoints written before pause existed
    if paused is not None and not isinstance(paused, str):
        raise _Bad('"paused"')
    pause_after = _opt_int(data, "pause_after")     # absent before a pause could wait for a hand's end
    if pause_after is not None and paused is None:
        raise _Bad('"pause_after" (no pause)')
    allowance = _opt_int(data, "clock_allowance")   # absent before TRN-5's cap on a hand-for-hand hand
    if allowance is not None and allowance < 0:
        raise _Bad('"clock_allowance"')
    buys = tuple((str(player), str(kind)) for player, kind in data.get("buys", ()))   # none before re-entries
    bounties = None
    if data.get("bounties") is not None:                                              # none before PKO
        raw = _obj(data["bounties"], '"bounties"')
        bounties = Bounties(tuple((str(p), int(a)) for p, a in raw["heads"]),
                            tuple((str(p), int(a)) for p, a in raw["won"]))
    return TableState(config, seats, _lineup(_obj(data["lineup"], '"lineup"')), _int(data, "hand_number"),
                      levels, standings, redeal, paused, pause_after, allowance, buys, bounties)


def _lineup(data: Mapping[str, Any]) -> Lineup:
    missed = {int(seat): str(marker) for seat, marker in _obj(data["missed"], '"missed"').items()}
    return Lineup(_opt_int(data, "button"), _opt_int(data, "sb"), _opt_int(data, "bb"), missed,
                  frozenset(_ints(data, "no_button")), _opt_int(data, "start"), _opt_int(data, "bb_poster"),
                  frozenset(_ints(data, "passing")) if "passing" in data else frozenset())   # BLD-8 B21


def _plan(data: Mapping[str, Any]) -> HandPlan:
    return HandPlan(_int(data, "button"), _ints(data, "order"), _int_map(data, "blinds"), _int_map(data, "dead"),
                    _int_map(data, "antes"), _opt_int(data, "sb"), _opt_int(data, "bb"),
                    _int(data, "preflop_first"), _ints(data, "killed"), _int_map(data, "stacks"),
                    _ints(data, "waiting"), _lineup(_obj(data["after"], '"after"')),
                    _lineup(_obj(data["before"], '"before"')),
                    tuple((str(rule), str(text)) for rule, text in data["notes"]))
