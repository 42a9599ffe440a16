"""Read and write PHH hand histories (Poker Hand History, TOML).

A ``.phh`` file holds one hand as top-level TOML keys; a ``.phhs`` file holds several hands, each under a
``[N]`` table. A folder is read recursively. Each hand becomes a :class:`HandRecord`: the fields the replay
needs, typed, and every other key kept as it was in ``extra`` so that :func:`dumps` writes it back.

Amounts are exact: TOML floats are read as :class:`~decimal.Decimal` (``0.10`` stays ``0.10``), integers stay
``int``. Reading uses ``tomli``, the package the standard library's ``tomllib`` was taken from: its wheels
are compiled with mypyc and read PHH twice as fast, to the same values (docs/replay.md). Writing is done here
rather than with a TOML writer library because PHH needs a small subset of TOML (strings, numbers, booleans,
times, arrays, inline tables) and a layout of its own (one action per line, exact decimals), and the only
candidate (``tomli-w``) writes neither ``Decimal`` nor that layout.
"""

from __future__ import annotations

import datetime
import functools
import json
import logging
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import Any, NamedTuple

try:
    import tomli as toml
except ModuleNotFoundError:     # a virtualenv made before tomli became a dependency: the same parser, slower
    import tomllib as toml  # type: ignore[no-redef]

_LOGGER = logging.getLogger(__name__)

Amount = int | Decimal
"""A chip amount as written in the file: ``int``, or ``Decimal`` for fractional stakes (``0.25``)."""

SUFFIXES = (".phh", ".phhs")

UNKNOWN_CARD = "??"
"""A card the record does not know (``d dh p1 ????``)."""

# The keys that HandRecord types; every other key goes to HandRecord.extra.
_AMOUNT_LIST_KEYS = ("antes", "blinds_or_straddles", "starting_stacks", "finishing_stacks", "winnings")
_AMOUNT_KEYS = ("bring_in", "small_bet", "big_bet", "min_bet")
# The order dumps() writes the typed keys in (PHH's own order); extras come before the results.
_HEAD_KEYS = ("variant", "ante_trimming_status", "antes", "blinds_or_straddles", "bring_in", "small_bet",
              "big_bet", "min_bet", "starting_stacks", "actions")
_TAIL_KEYS = ("players", "finishing_stacks", "winnings")


class PHHError(ValueError):
    """A PHH text that cannot be read: the message names the file, the hand and the key."""


@dataclass(frozen=True)
class HandRecord:
    """One hand of a PHH file, as written (amounts unscaled, players 0-based as p1 -> 0)."""

    variant: str
    starting_stacks: tuple[Amount, ...]
    actions: tuple[str, ...]
    antes: tuple[Amount, ...] = ()
    blinds_or_straddles: tuple[Amount, ...] = ()
    bring_in: Amount | None = None
    small_bet: Amount | None = None
    big_bet: Amount | None = None
    min_bet: Amount | None = None
    ante_trimming_status: bool | None = None
    players: tuple[str, ...] | None = None
    finishing_stacks: tuple[Amount, ...] | None = None
    winnings: tuple[Amount, ...] | None = None
    extra: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""
    index: str | None = None
    """The ``[N]`` table name in a ``.phhs`` file; None for a ``.phh`` file."""

    @property
    def player_count(self) -> int:
        return len(self.starting_stacks)

    @property
    def name(self) -> str:
        """Where the hand came from, for messages: ``file`` or ``file[N]``."""
        return self.source if self.index is None else f"{self.source}[{self.index}]"


class Action(NamedTuple):
    """One parsed action string. ``player`` is 0-based (``p1`` -> 0), None for the dealer (``d``).

    ``cards`` holds the cards named (``"??"`` for an unknown card, as PHH writes it, which is also the
    engine's ``UNKNOWN``), or None when the action names none; ``amount`` is the to-amount of ``cbr``.
    ``verb`` is the PHH verb: ``dh``, ``db``, ``f``, ``cc``, ``cbr``, ``sm``, and for games the replay does
    not support ``pb``, ``sd``. (A named tuple, not a
    dataclass: a replay parses every action, and a tuple is several times cheaper to make.)
    """

    text: str
    player: int | None
    verb: str
    cards: tuple[str, ...] | None = None
    amount: Amount | None = None

    @property
    def cards_known(self) -> bool:
        return self.cards is not None and UNKNOWN_CARD not in self.cards


@functools.lru_cache(maxsize=16384)   # hands repeat the same action strings ("p3 f", "p1 cc"): parse each once
def parse_action(text: str) -> Action:
    """Parse one PHH action string, e.g. ``"d dh p1 AcAd"``, ``"p2 cbr 600"``, ``"p3 sm -"``.

    A ``#`` starts a comment that is ignored. Raise PHHError for anything else.
    """
    words = (text.split("#", 1)[0] if "#" in text else text).split()
    count = len(words)
    if not count:
        raise PHHError(f"empty action {text!r}")
    if words[0] == "d":
        if count == 4 and words[1] == "dh":
            player, cards = _PLAYERS.get(words[2]), words[3]
            if player is not None and len(cards) == 4:           # hold'em hole cards, the usual case
                return Action(text, player, "dh", (cards[:2], cards[2:]), None)
            return Action(text, _player(words[2], text), "dh", _cards(cards, text), None)
        if count == 3 and words[1] == "db":
            return Action(text, None, "db", _cards(words[2], text), None)
        raise PHHError(f"action {text!r}: expected 'd dh pN CARDS' or 'd db CARDS'")
    player = _PLAYERS.get(words[0])
    if player is None:
        player = _player(words[0], text)
    verb = words[1] if count > 1 else ""
    if count == 2 and verb in ("f", "cc", "pb", "sm"):
        return Action(text, player, verb, None, None)
    if count == 3 and verb == "cbr":
        return Action(text, player, "cbr", None, _amount_text(words[2], text))
    if count == 3 and verb == "sm":
        return Action(text, player, "sm", None if words[2] == "-" else _cards(words[2], text), None)
    if verb == "sd" and count <= 3:
        return Action(text, player, "sd", _cards(words[2], text) if count == 3 else (), None)
    raise PHHError(f"action {text!r}: expected 'pN f', 'pN cc', 'pN cbr AMOUNT', 'pN sm [CARDS]'")


_PLAYERS = {f"p{number}": number - 1 for number in range(1, 100)}
"""The usual player words, looked up rather than parsed."""


def read_deal(text: str) -> tuple[int | None, tuple[str, ...]] | None:
    """The usual deals read straight from the text: ``(player, cards)`` for two hole cards (``"d dh p3 AcAd"``),
    ``(None, cards)`` for one or three board cards (``"d db 2c7h9d"``); None for any other action or form
    (read it with :func:`parse_action`, which gives the same player and cards for these). A replay meets nearly
    every deal once: caching it, or making an ``Action`` of it, would only cost."""
    if "#" in text or "?" in text:
        return None
    words = text.split()
    count = len(words)
    if count == 4 and words[1] == "dh" and words[0] == "d":
        player, cards = _PLAYERS.get(words[2]), words[3]
        if player is not None and len(cards) == 4:
            return player, (cards[:2], cards[2:])
    elif count == 3 and words[1] == "db" and words[0] == "d":
        cards = words[2]
        if len(cards) == 6:
            return None, (cards[:2], cards[2:4], cards[4:])
        if len(cards) == 2:
            return None, (cards,)
    return None


def clear_parse_cache() -> None:
    """Forget the parsed action strings (benchmarks measure parsing from scratch)."""
    parse_action.cache_clear()


def _player(word: str, text: str) -> int:
    digits = word[1:]
    if word[:1] == "p" and digits.isascii() and digits.isdigit() and digits[0] != "0":
        return int(digits) - 1
    raise PHHError(f"action {text!r}: {word!r} is not a player (expected p1, p2, ...)")


def _cards(word: str, text: str) -> tuple[str, ...]:
    size = len(word)
    if size % 2:
        raise PHHError(f"action {text!r}: {word!r} is not a list of 2-character cards")
    if size == 4:                                          # hold'em hole cards, the usual case
        return (word[:2], word[2:])
    if size == 6:                                          # a flop
        return (word[:2], word[2:4], word[4:])
    return tuple(word[i:i + 2] for i in range(0, size, 2))


def _amount_text(word: str, text: str) -> Amount:
    if word.isascii() and word.isdigit():
        return int(word)
    try:
        value = Decimal(word)
    except ArithmeticError as exc:
        raise PHHError(f"action {text!r}: {word!r} is not an amount") from exc
    if not value.is_finite() or value < 0:
        raise PHHError(f"action {text!r}: {word!r} is not an amount")
    return value


# --- reading -------------------------------------------------------------------------------------------


def loads(text: str, source: str = "") -> HandRecord:
    """Read one hand (the text of a ``.phh`` file)."""
    return _record(_toml(text, source), source, None)


def loads_all(text: str, source: str = "") -> list[HandRecord]:
    """Read the hands of a ``.phhs`` file, in file order; every top-level key must be a ``[N]`` table."""
    document = _toml(text, source)
    records = []
    for key, table in document.items():
        if not isinstance(table, dict):
            raise PHHError(f"{source or '<text>'}: key {key!r} is not a [N] table of a .phhs file")
        records.append(_record(table, source, key))
    return records


def load_path(path: str | Path) -> Iterator[HandRecord]:
    """Read a ``.phh`` or ``.phhs`` file, or every such file under a folder (recursively, sorted by path)."""
    for file in find_files(path):
        yield from load_file(file)


def find_files(path: str | Path) -> Iterator[Path]:
    """The PHH files a path names: the file itself, or the ``.phh``/``.phhs`` files under a folder in sorted
    order (as ``sorted(folder.rglob("*"))`` sorts them), found as they are needed: a corpus of a million files
    is never listed whole. Raise PHHError now for a path that names nothing, later for a folder that cannot
    be listed."""
    root = Path(path)
    if root.is_dir():
        return _walk(root)
    if root.is_file():
        return iter([root])
    raise PHHError(f"{root}: no such file or folder")


def _walk(folder: Path) -> Iterator[Path]:
    # Sorting each folder's entries by name gives the order of sorted paths (a Path sorts by its parts), one
    # folder's listing at a time. Symbolic links to folders are not followed, as rglob does not follow them.
    try:
        with os.scandir(folder) as listing:
            entries = sorted(listing, key=lambda entry: entry.name)
    except OSError as exc:
        raise PHHError(f"{folder}: cannot list the folder: {exc}") from exc
    for entry in entries:
        if entry.is_dir(follow_symlinks=False):
            yield from _walk(Path(entry.path))
        elif os.path.splitext(entry.name)[1] in SUFFIXES and entry.is_file():   # as Path.suffix
            yield Path(entry.path)


def load_file(file: Path) -> list[HandRecord]:
    """Read one ``.phh`` (one hand) or ``.phhs`` (several hands) file."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise PHHError(f"{file}: cannot read: {exc}") from exc
    if file.suffix == ".phhs":
        return loads_all(text, str(file))
    return [loads(text, str(file))]


def _toml(text: str, source: str) -> dict[str, Any]:
    try:
        return toml.loads(text, parse_float=Decimal)
    except toml.TOMLDecodeError as exc:
        raise PHHError(f"{source or '<text>'}: not valid TOML: {exc}") from exc


def _record(table: Mapping[str, Any], source: str, index: str | None) -> HandRecord:
    where = (source or "<text>") + ("" if index is None else f"[{index}]")
    values = dict(table)

    def fail(key: str, expected: str) -> PHHError:
        return PHHError(f"{where}: key {key!r} {expected} (got {values.get(key)!r})")

    for key in ("variant", "starting_stacks", "actions"):
        if key not in values:
            raise PHHError(f"{where}: missing key {key!r}")
    variant = values.pop("variant")
    if not isinstance(variant, str):
        raise fail("variant", "must be a string")
    stacks = _amounts(values.pop("starting_stacks"), None)
    if stacks is None or not stacks:
        raise PHHError(f"{where}: key 'starting_stacks' must be a non-empty list of amounts")
    count = len(stacks)
    actions = values.pop("actions")
    if not isinstance(actions, list) or not all(isinstance(a, str) for a in actions):
        raise PHHError(f"{where}: key 'actions' must be a list of strings")
    lists: dict[str, tuple[Amount, ...] | None] = {}
    for key in _AMOUNT_LIST_KEYS[:2] + _AMOUNT_LIST_KEYS[3:]:
        if key in values:
            parsed = _amounts(values[key], count)
            if parsed is None or len(parsed) != count:
                raise fail(key, f"must be an amount or a list of {count} amounts, one per player")
            lists[key] = parsed
            del values[key]
    scalars: dict[str, Amount | None] = {}
    for key in _AMOUNT_KEYS:
        if key in values:
            if not _is_amount(values[key]):
                raise fail(key, "must be an amount")
            scalars[key] = values.pop(key)
    trimming = values.pop("ante_trimming_status", None)
    if trimming is not None and not isinstance(trimming, bool):
        raise PHHError(f"{where}: key 'ante_trimming_status' must be true or false (got {trimming!r})")
    players = values.pop("players", None)
    if players is not None and (not isinstance(players, list) or len(players) != count
                                or not all(isinstance(p, str) for p in players)):
        raise PHHError(f"{where}: key 'players' must be a list of {count} names")
    return HandRecord(
        variant=variant, starting_stacks=stacks, actions=tuple(actions),
        antes=lists.get("antes") or (), blinds_or_straddles=lists.get("blinds_or_straddles") or (),
        ante_trimming_status=trimming, players=None if players is None else tuple(players),
        finishing_stacks=lists.get("finishing_stacks"), winnings=lists.get("winnings"),
        extra=values, source=source, index=index, **scalars,
    )


def _is_amount(value: object) -> bool:
    return isinstance(value, int | Decimal) and not isinstance(value, bool)


def _amounts(value: object, count: int | None) -> tuple[Amount, ...] | None:
    """A list of amounts; a single amount means the same for each of ``count`` players."""
    if _is_amount(value) and count is not None:
        return (value,) * count  # type: ignore[return-value]
    if isinstance(value, list) and all(_is_amount(v) for v in value):
        return tuple(value)
    return None


# --- writing -------------------------------------------------------------------------------------------


def dumps(record: HandRecord) -> str:
    """The PHH text of one hand (a ``.phh`` file); :func:`loads` reads it back to an equal record."""
    lines = []
    values: dict[str, Any] = {
        "variant": record.variant, "ante_trimming_status": record.ante_trimming_status,
        "antes": record.antes or None, "blinds_or_straddles": record.blinds_or_straddles or None,
        "bring_in": record.bring_in, "small_bet": record.small_bet, "big_bet": record.big_bet,
        "min_bet": record.min_bet, "starting_stacks": record.starting_stacks,
    }
    for key, value in values.items():
        if value is not None:
            lines.append(f"{_key(key)} = {_value(value)}")
    lines.append("actions = [")
    lines += [f"  {_string(action)}," for action in record.actions]
    lines.append("]")
    for key, value in record.extra.items():
        lines.append(f"{_key(key)} = {_value(value)}")
    for key in _TAIL_KEYS:
        value = getattr(record, key)
        if value is not None:
            lines.append(f"{key} = {_value(value)}")
    return "\n".join(lines) + "\n"


def dumps_all(records: Iterable[HandRecord]) -> str:
    """The PHH text of several hands (a ``.phhs`` file), under ``[1]``, ``[2]``, ... tables."""
    parts = []
    for number, record in enumerate(records, start=1):
        parts.append(f"[{number}]\n{dumps(record)}")
    return "\n".join(parts)


_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _string(text: str) -> str:
    # A JSON string without ensure_ascii is a valid TOML basic string, except that TOML also bars DEL.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007F")


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Decimal):
        return _decimal(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(str(k))} = {_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, Sequence):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} ({type(value).__name__}) as PHH")


def _decimal(value: Decimal) -> str:
    """A TOML float that reads back as the same Decimal (``0.10`` stays ``0.10``)."""
    if not value.is_finite():
        raise ValueError(f"cannot write {value} as a PHH amount")
    text = format(value, "f")
    return text if "." in text else text + ".0"
