"""Typed input records: one per journal input type (docs/journal.md), parsed once at the edge.

``parse_input`` turns one JSON object of the journal into its record, or raises ``InputError`` naming the
type and the key. Past this point the engine reads fields, never dictionary keys. Whether an input makes
sense now (a seat in the hand, whose turn) is the table's question, not the parser's. ``to_json`` is its one
inverse, the journal's form of a record: the daemon's producers (seat panels, the dealer's buttons, the
shoe, the timers) build records and the pipeline writes them with it (issue 22).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from dealerpi.engine.inputs import InputError, TableConfig, parse_config, require
from dealerpi.engine.state import Bomb, config_json

ACTIONS = ("fold", "check", "call", "bet", "raise", "all_in")


@dataclass(frozen=True, slots=True)
class SetTable:
    """``table``: the game, stakes and house rules (between hands)."""

    config: TableConfig


@dataclass(frozen=True, slots=True)
class Sit:
    seat: int
    player: str
    stack: int
    reserved: bool = False       # seed 001: a stack placed for a late entrant (TRN-9)
    post: bool = False           # BLD-6: post now rather than wait for the big blind


@dataclass(frozen=True, slots=True)
class Leave:
    seat: int


@dataclass(frozen=True, slots=True)
class Move:
    """BLD-8: a player changes seats between hands (seed 002 B20-B22)."""

    seat: int
    to: int
    wait: bool = False           # wait for the big blind at the new seat rather than post
    post: bool | None = None     # None: keep the seat's wish


@dataclass(frozen=True, slots=True)
class Away:
    seat: int


@dataclass(frozen=True, slots=True)
class Back:
    seat: int
    post: bool | None = None     # None: keep the seat's wish
    player: str | None = None    # a late entrant takes over a reserved stack (seed 001)


@dataclass(frozen=True, slots=True)
class Chips:
    seat: int
    amount: int


@dataclass(frozen=True, slots=True)
class Button:
    seat: int


@dataclass(frozen=True, slots=True)
class Start:
    bomb: Bomb | None = None


@dataclass(frozen=True, slots=True)
class Straddle:
    seat: int


@dataclass(frozen=True, slots=True)
class Card:
    """A card the shoe read (``card``), or one the dealer flags: ``exposed``, ``boxed``, or the ``burn`` he
    picks (BRD-1). ``kind`` is the journal type."""

    kind: str
    card: str


@dataclass(frozen=True, slots=True)
class Misdeal:
    pass


@dataclass(frozen=True, slots=True)
class Dead:
    seat: int


@dataclass(frozen=True, slots=True)
class Extra:
    count: int


@dataclass(frozen=True, slots=True)
class Act:
    seat: int
    action: str                  # one of ACTIONS
    to: int | None = None        # bet and raise: the total bet on this street


@dataclass(frozen=True, slots=True)
class Run:
    times: int


@dataclass(frozen=True, slots=True)
class Show:
    seat: int


@dataclass(frozen=True, slots=True)
class Muck:
    seat: int


@dataclass(frozen=True, slots=True)
class Clock:
    pass


@dataclass(frozen=True, slots=True)
class Tick:
    seconds: int


@dataclass(frozen=True, slots=True)
class Pause:
    """``pause``: no hand starts until ``resume`` (TRN-5 hand-for-hand, a break). ``reason`` is shown with the
    refusal of a ``start``. Without ``after_hand`` between hands only; with it, taken during a hand too, and
    the table is held once hand ``after_hand`` is over (so no START can slip in before the pause)."""

    reason: str = ""
    after_hand: int | None = None


@dataclass(frozen=True, slots=True)
class Resume:
    """``resume``; with ``pause_after`` the table plays until hand ``pause_after`` is over and is then held
    again, with the same reason or ``reason`` (TRN-5: one hand-for-hand round is one input per table)."""

    pause_after: int | None = None
    reason: str | None = None


@dataclass(frozen=True, slots=True)
class Undo:
    pass


@dataclass(frozen=True, slots=True)
class Deal:
    """``deal``: the players still in share the prizes still to be paid as agreed (engine/deals.py): ``prizes``
    by player, and the players who ``agreed`` (every player still in, or it is refused)."""

    prizes: tuple[tuple[str, int], ...]
    agreed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ColourUp:
    """``colour_up`` (TRN-6): the ``remove`` chips leave play for ``chip``s; ``won``: the seats that won a chip
    in the race the dealer ran (engine/chip_race.py)."""

    remove: int
    chip: int
    won: tuple[int, ...]
    plan: bool = False           # only the race's plan on the dealer's display (the room's colour-up break)


@dataclass(frozen=True, slots=True)
class Rebuy:
    """``rebuy``: the player on ``seat`` buys the starting stack again (engine/tournament_money.py)."""

    seat: int


@dataclass(frozen=True, slots=True)
class AddOn:
    """``addon``: the player on ``seat`` takes the add-on at the break after the rebuy period."""

    seat: int


Input = (SetTable | Sit | Leave | Move | Away | Back | Chips | Button | Start | Straddle | Card | Misdeal | Dead | Extra
         | Act | Run | Show | Muck | Clock | Tick | Pause | Resume | Undo | Deal | ColourUp | Rebuy | AddOn)


def _seat(entry: Mapping[str, Any]) -> int:
    return require(entry, "seat", int)


def _flag(entry: Mapping[str, Any], key: str) -> bool:
    return bool(entry.get(key, False))


def _sit(entry: Mapping[str, Any]) -> Sit:
    return Sit(_seat(entry), require(entry, "player", str), require(entry, "stack", int),
               _flag(entry, "reserved"), _flag(entry, "post"))


def _back(entry: Mapping[str, Any]) -> Back:
    return Back(_seat(entry), bool(entry["post"]) if "post" in entry else None,
                require(entry, "player", str) if "player" in entry else None)


def _start(entry: Mapping[str, Any]) -> Start:
    bomb = entry.get("bomb")
    if bomb is None:
        return Start()
    if not isinstance(bomb, Mapping) or not isinstance(bomb.get("ante"), int) or bomb["ante"] <= 0:
        raise InputError('start: "bomb" must be {"ante": N, "boards": 1 or 2}')
    if bomb.get("boards", 1) not in (1, 2):
        raise InputError('start: "bomb" boards must be 1 or 2')
    return Start(Bomb(bomb["ante"], int(bomb.get("boards", 1)), bool(bomb.get("river_no_limit", 1))))


def _act(entry: Mapping[str, Any]) -> Act:
    seat = _seat(entry)
    action = require(entry, "action", str)
    if action not in ACTIONS:
        raise InputError(f'act: "action" must be one of {", ".join(ACTIONS)}, not {action!r}')
    return Act(seat, action, require(entry, "to", int) if action in ("bet", "raise") else None)


def _tick(entry: Mapping[str, Any]) -> Tick:
    seconds = require(entry, "seconds", int)
    if seconds < 0:
        raise InputError("tick: seconds must not be negative")
    return Tick(seconds)


def _reason(entry: Mapping[str, Any], kind: str) -> str | None:
    reason = require(entry, "reason", str) if "reason" in entry else None
    if reason is not None and len(reason) > 80:
        raise InputError(f'{kind}: "reason" must be at most 80 characters')
    return reason


def _pause(entry: Mapping[str, Any]) -> Pause:
    return Pause(_reason(entry, "pause") or "", _hand_key(entry, "pause", "after_hand"))


def _resume(entry: Mapping[str, Any]) -> Resume:
    after, reason = _hand_key(entry, "resume", "pause_after"), _reason(entry, "resume")
    if reason is not None and after is None:
        raise InputError('resume: "reason" is the next pause\'s: it goes with "pause_after"')
    return Resume(after, reason)


def _hand_key(entry: Mapping[str, Any], kind: str, key: str) -> int | None:
    """An optional hand number (1 or more)."""
    if key not in entry:
        return None
    value = entry[key]
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise InputError(f'{kind}: "{key}" must be a hand number (1 or more), not {value!r}')
    return value


def _deal(entry: Mapping[str, Any]) -> Deal:
    prizes, agreed = entry.get("prizes"), entry.get("agreed")
    if not isinstance(prizes, Mapping) or not prizes or not all(
            isinstance(name, str) and isinstance(amount, int) and not isinstance(amount, bool) and amount >= 0
            for name, amount in prizes.items()):
        raise InputError('deal: "prizes" must be an object of player names and whole amounts', "prizes")
    if not isinstance(agreed, list) or not all(isinstance(name, str) for name in agreed):
        raise InputError('deal: "agreed" must be the list of the players who agreed', "agreed")
    return Deal(tuple((str(name), int(amount)) for name, amount in prizes.items()), tuple(agreed))


def _colour_up(entry: Mapping[str, Any]) -> ColourUp:
    won = entry.get("won", [])
    if not isinstance(won, list) or not all(isinstance(s, int) and not isinstance(s, bool) for s in won):
        raise InputError('colour_up: "won" must be the list of the seats that won a chip in the race', "won")
    plan = entry.get("plan", False)
    if not isinstance(plan, bool):
        raise InputError('colour_up: "plan" must be true or false', "plan")
    return ColourUp(require(entry, "remove", int), require(entry, "chip", int), tuple(won), plan)


def _card(entry: Mapping[str, Any]) -> Card:
    return Card(str(entry["type"]), require(entry, "card", str))


PARSERS: dict[str, Callable[[Mapping[str, Any]], Input]] = {
    "table": lambda e: SetTable(parse_config(e)),
    "sit": _sit,
    "leave": lambda e: Leave(_seat(e)),
    "move": lambda e: Move(_seat(e), require(e, "to", int), _flag(e, "wait"),
                           bool(e["post"]) if "post" in e else None),
    "away": lambda e: Away(_seat(e)),
    "back": _back,
    "chips": lambda e: Chips(_seat(e), require(e, "amount", int)),
    "button": lambda e: Button(_seat(e)),
    "start": _start,
    "straddle": lambda e: Straddle(_seat(e)),
    "card": _card,
    "exposed": _card,
    "boxed": _card,
    "burn": _card,
    "misdeal": lambda e: Misdeal(),
    "dead": lambda e: Dead(_seat(e)),
    "extra": lambda e: Extra(require(e, "count", int)),
    "act": _act,
    "run": lambda e: Run(require(e, "times", int)),
    "show": lambda e: Show(_seat(e)),
    "muck": lambda e: Muck(_seat(e)),
    "clock": lambda e: Clock(),
    "tick": _tick,
    "pause": _pause,
    "resume": _resume,
    "undo": lambda e: Undo(),
    "deal": _deal,
    "colour_up": _colour_up,
    "rebuy": lambda e: Rebuy(_seat(e)),
    "addon": lambda e: AddOn(_seat(e)),
}


def parse_input(entry: object) -> Input:
    """The typed record of one journal input; ``InputError`` names the type or key that is wrong."""
    if not isinstance(entry, Mapping) or not isinstance(entry.get("type"), str):
        raise InputError('an input is a JSON object with a "type"')
    parser = PARSERS.get(entry["type"])
    if parser is None:
        raise InputError(f"unknown input type {entry['type']!r}")
    return parser(entry)


def to_json(record: Input) -> dict[str, Any]:
    """The journal's form of ``record``, the inverse of ``parse_input``: ``"type"`` first, then the fields in
    their order, a key at its default left out as the journal has always written it (docs/journal.md), so the
    lines a producer writes stay byte-identical. A ``table`` is its configuration with every policy spelled
    out (``state.config_json``, the checkpoint's form)."""
    match record:
        case SetTable(config):
            return config_json(config)
        case Sit(seat, player, stack, reserved, post):
            return {"type": "sit", "seat": seat, "player": player, "stack": stack,
                    **({"reserved": True} if reserved else {}), **({"post": True} if post else {})}
        case Move(seat, to, wait, post):
            return {"type": "move", "seat": seat, "to": to, **({"wait": True} if wait else {}),
                    **({"post": post} if post is not None else {})}
        case Back(seat, post, player):
            return {"type": "back", "seat": seat, **({"post": post} if post is not None else {}),
                    **({"player": player} if player is not None else {})}
        case Chips(seat, amount):
            return {"type": "chips", "seat": seat, "amount": amount}
        case Start(bomb):
            return {"type": "start"} if bomb is None else {"type": "start", "bomb": _bomb_json(bomb)}
        case Card(kind, card):
            return {"type": kind, "card": card}
        case Extra(count):
            return {"type": "extra", "count": count}
        case Act(seat, action, to):
            return {"type": "act", "seat": seat, "action": action, **({"to": to} if to is not None else {})}
        case Run(times):
            return {"type": "run", "times": times}
        case Tick(seconds):
            return {"type": "tick", "seconds": seconds}
        case Pause(reason, after_hand):
            return {"type": "pause", **({"reason": reason} if reason else {}),
                    **({"after_hand": after_hand} if after_hand is not None else {})}
        case Resume(pause_after, reason):
            return {"type": "resume", **({"pause_after": pause_after} if pause_after is not None else {}),
                    **({"reason": reason} if reason is not None else {})}
        case Deal(prizes, agreed):
            return {"type": "deal", "prizes": dict(prizes), "agreed": list(agreed)}
        case ColourUp(remove, chip, won, plan):
            return {"type": "colour_up", "remove": remove, "chip": chip, **({"won": list(won)} if won else {}),
                    **({"plan": True} if plan else {})}
        case Leave() | Away() | Button() | Straddle() | Dead() | Show() | Muck() | Rebuy() | AddOn():
            return {"type": _SEAT_TYPES[type(record)], "seat": record.seat}
        case Misdeal() | Clock() | Undo():
            return {"type": _BARE_TYPES[type(record)]}
    raise TypeError(f"not an input record: {record!r}")     # mypy: the match above is exhaustive


_SEAT_TYPES: dict[type, str] = {Leave: "leave", Away: "away", Button: "button", Straddle: "straddle", Dead: "dead",
                                Show: "show", Muck: "muck", Rebuy: "rebuy", AddOn: "addon"}
"""The inputs that are a seat and nothing else, by their journal type."""

_BARE_TYPES: dict[type, str] = {Misdeal: "misdeal", Clock: "clock", Undo: "undo"}


def _bomb_json(bomb: Bomb) -> dict[str, Any]:
    """A bomb pot (seed 001) as ``start`` carries it: ``boards`` when 2, ``river_no_limit`` when false."""
    return {"ante": bomb.ante, **({"boards": bomb.boards} if bomb.boards != 1 else {}),
            **({"river_no_limit": False} if not bomb.river_no_limit else {})}
