"""The journal inputs another process may send, key by key, checked at the daemon's socket (issue 22).

A page (host, dealer, panel) and the room (through the console's MQTT bridge) send journal inputs; the daemon
checked the role and the type but journaled the rest as it came, so a page could add keys that only the
daemon itself writes: a shoe identity on a manual card (probe 1) or ``after_hand`` on a table change (probe
3), which start-up later read as the daemon's own. Here each input type lists the keys a sender may use and
what each holds; any other key, or a value of the wrong kind, is refused with the key named, before the
journal. Whether the values make sense (a seat in range, a legal bet) is still the engine's question.

The keys the daemon adds itself (``by``, ``at``, ``rid``, ``source``, ``shoe``, ``tag``, ``after_hand`` on
a table) are in no list: a sender cannot write them. :func:`shoe_read` is the one reader of a journaled
shoe identity, for start-up and ``dealerpi replay``: only a card line the shoe link wrote has one.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum


class Kind(Enum):
    """What a key holds, and the words a refusal uses for it."""

    WHOLE = "a whole number"
    TEXT = "text"
    FLAG = "true or false"
    LIST = "a list"
    OBJECT = "an object"


class WireError(ValueError):
    """A message from another process that does not have the shape its type says; the text names the key."""


_SEAT = {"seat": Kind.WHOLE}
_CARD = {"card": Kind.TEXT}
_NONE: dict[str, Kind] = {}
# the keys of each input type a page or the room may send (docs/journal.md); ``act`` and ``tick`` come
# from the seat buttons and the daemon's clock only, never from another process
SENT_KEYS: Mapping[str, Mapping[str, Kind]] = {
    "table": {"game": Kind.TEXT, "rules": Kind.TEXT, "policies": Kind.OBJECT, "seats": Kind.WHOLE,
              "levels": Kind.LIST, "blinds": Kind.LIST, "ante": Kind.WHOLE, "bb_ante": Kind.WHOLE,
              "limits": Kind.LIST, "buy_in": Kind.WHOLE, "payouts": Kind.LIST, "starting_stack": Kind.WHOLE,
              "late_entry_levels": Kind.WHOLE, "reentries": Kind.WHOLE, "rebuys": Kind.WHOLE,
              "rebuy_levels": Kind.WHOLE, "addon_chips": Kind.WHOLE, "addon_price": Kind.WHOLE, "bounty": Kind.WHOLE},
    "sit": {**_SEAT, "player": Kind.TEXT, "stack": Kind.WHOLE, "reserved": Kind.FLAG, "post": Kind.FLAG},
    "leave": _SEAT, "away": _SEAT, "button": _SEAT, "straddle": _SEAT, "dead": _SEAT, "show": _SEAT,
    "muck": _SEAT,
    "move": {**_SEAT, "to": Kind.WHOLE, "wait": Kind.FLAG, "post": Kind.FLAG},
    "back": {**_SEAT, "post": Kind.FLAG, "player": Kind.TEXT},
    "chips": {**_SEAT, "amount": Kind.WHOLE},
    "start": {"bomb": Kind.OBJECT},
    "card": _CARD, "exposed": _CARD, "boxed": _CARD, "burn": _CARD,
    "misdeal": _NONE, "clock": _NONE, "undo": _NONE,
    "extra": {"count": Kind.WHOLE},
    "run": {"times": Kind.WHOLE},
    "pause": {"reason": Kind.TEXT, "after_hand": Kind.WHOLE},
    "resume": {"pause_after": Kind.WHOLE, "reason": Kind.TEXT},
    # a tournament's money and its final table (engine/tournament_money.py, deals.py, chip_race.py)
    "rebuy": _SEAT, "addon": _SEAT,
    "deal": {"prizes": Kind.OBJECT, "agreed": Kind.LIST},
    "colour_up": {"remove": Kind.WHOLE, "chip": Kind.WHOLE, "won": Kind.LIST, "plan": Kind.FLAG},
}
BOMB_KEYS: Mapping[str, Kind] = {"ante": Kind.WHOLE, "boards": Kind.WHOLE, "river_no_limit": Kind.FLAG}
_WHY = {"shoe": " (the shoe link alone says which read a card is)"}


def _is(kind: Kind, value: object) -> bool:
    match kind:
        case Kind.WHOLE:
            return isinstance(value, int) and not isinstance(value, bool)
        case Kind.TEXT:
            return isinstance(value, str)
        case Kind.FLAG:
            return isinstance(value, bool)
        case Kind.LIST:
            return isinstance(value, list)
        case Kind.OBJECT:
            return isinstance(value, Mapping)


def _check(kind_name: str, entry: Mapping[str, object], keys: Mapping[str, Kind], where: str = "") -> None:
    for key, value in entry.items():
        if key == "type" and not where:
            continue
        kind = keys.get(key)
        if kind is None:
            raise WireError(f'{kind_name}: "{where}{key}" is not a key of a {kind_name} input{_WHY.get(key, "")}')
        if not _is(kind, value):
            raise WireError(f'{kind_name}: "{where}{key}" must be {kind.value}, not {json.dumps(value)}')


def sent_input(entry: object) -> dict[str, object]:
    """``entry`` as a page or the room may send it (a copy), or :class:`WireError` naming the key. The type
    itself is the caller's to check against the sender's role first."""
    if not isinstance(entry, Mapping) or not isinstance(entry.get("type"), str):
        raise WireError('input: entry must be a JSON object with a "type"')
    kind_name = str(entry["type"])
    keys = SENT_KEYS.get(kind_name)
    if keys is None:
        raise WireError(f"input: {kind_name!r} is not an input another process may send")
    _check(kind_name, entry, keys)
    bomb = entry.get("bomb")
    if isinstance(bomb, Mapping):
        _check(kind_name, bomb, BOMB_KEYS, "bomb.")
    return dict(entry)


@dataclass(frozen=True, slots=True)
class ShoeRead:
    """A read's identity as the shoe link journals it: the shoe's boot id and the read's number in it."""

    boot: str
    seq: int


def shoe_read(entry: Mapping[str, object]) -> ShoeRead | None:
    """The shoe identity of a journaled card line; None for a line without one. :class:`WireError` for an
    identity the shoe link did not write: a line another process sent (``by``), or one that is not a
    ``{"boot": text, "seq": whole number >= 0}`` (probe 1: "abc", null, 1e400 stopped every start-up)."""
    read = entry.get("shoe")
    if entry.get("type") != "card" or read is None:
        return None
    if "by" in entry:
        raise WireError(f'its "shoe" identity is not the shoe link\'s (sent by {entry["by"]}): ignored')
    if not isinstance(read, Mapping) or not isinstance(read.get("boot"), str):
        raise WireError(f'its "shoe" identity is not {{"boot": text, "seq": number}}: {_text(read)}')
    seq = read.get("seq")
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 0:
        raise WireError(f'its "shoe" seq is not a read number: {_text(seq)}')
    return ShoeRead(str(read["boot"]), seq)


def _text(value: object) -> str:
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    return json.dumps(value)
