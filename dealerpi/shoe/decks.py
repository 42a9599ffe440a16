"""Which RFID tag is on which card: one JSON file per physical deck, several decks in a folder.

A deck file ``<folder>/<name>.json``, written by ``dealerpi enroll``::

    {"format": 1, "deck": "standard", "tags": {"04A224B2C15E80": "Ah", "04B1B2B3B4B5B6": "Kd", ...}}

``deck`` names the card set (``dealerpi.cards.DECKS``: standard, hexadec) the cards are parsed against.
A tag (UID) may appear once in the whole folder and a card once per deck; anything else is an error that
names the file, the tag and the cards. ``DeckLibrary.card_for(uid)`` answers ``(deck name, card)`` or
None for a tag no deck knows, which the daemon turns into an alert naming the UID (``UnknownTagError``
carries that message). JSON rather than TOML because the standard library both reads and writes it.
"""

from __future__ import annotations

import json
import logging
import os
import re
import tempfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dealerpi.cards import DECKS, CardError, Deck

_LOGGER = logging.getLogger(__name__)

FORMAT = 1
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}")
UID_PATTERN = re.compile(r"(?:[0-9A-F]{8}|[0-9A-F]{14}|[0-9A-F]{20})")


class DeckFileError(ValueError):
    """A deck file or order file that cannot be used; the message names the file and the key."""


class DuplicateTagError(DeckFileError):
    """One tag enrolled for two cards (in one deck or in two)."""


class UnknownTagError(LookupError):
    """A tag that no enrolled deck knows."""

    def __init__(self, uid: str, folder: Path | None = None) -> None:
        where = f" in {folder}" if folder else ""
        super().__init__(f"unknown RFID tag {uid}: not enrolled in any deck{where} (enroll the deck with "
                         "`dealerpi enroll`, or take the card out of play)")
        self.uid = uid


def normalize_uid(text: str) -> str:
    """A UID as the shoe spells it (upper-case hex of 4, 7 or 10 bytes); ValueError otherwise."""
    uid = text.strip().upper()
    if not UID_PATTERN.fullmatch(uid):
        raise ValueError(f"{text!r} is not a tag UID (4, 7 or 10 bytes in hex)")
    return uid


def check_name(name: str) -> str:
    if not NAME_PATTERN.fullmatch(name):
        raise DeckFileError(f"deck name {name!r}: use 1-40 letters, digits, '-' or '_', starting with a "
                            "letter or digit (it becomes the file name)")
    return name


@dataclass(frozen=True)
class DeckMap:
    """One physical deck: its name, its card set, and tag UID -> card."""

    name: str
    deck: Deck
    tags: Mapping[str, str]

    def to_json(self) -> str:
        return json.dumps({"format": FORMAT, "deck": self.deck.name, "tags": dict(self.tags)}, indent=2) + "\n"

    @classmethod
    def from_json(cls, text: str, path: Path) -> DeckMap:
        """Parse and check one deck file; DeckFileError names the file and the key at fault."""
        try:
            data = json.loads(text, object_pairs_hook=lambda pairs: _no_duplicate_keys(pairs, path))
        except json.JSONDecodeError as err:
            raise DeckFileError(f"{path}: not valid JSON: {err}") from err
        if not isinstance(data, dict):
            raise DeckFileError(f"{path}: expected a JSON object with keys format, deck, tags")
        if data.get("format") != FORMAT:
            raise DeckFileError(f"{path}: key 'format' must be {FORMAT}, found {data.get('format')!r}")
        deck = DECKS.get(data.get("deck"))  # type: ignore[arg-type]
        if deck is None:
            raise DeckFileError(f"{path}: key 'deck' must be one of {sorted(DECKS)}, found {data.get('deck')!r}")
        raw_tags = data.get("tags")
        if not isinstance(raw_tags, dict):
            raise DeckFileError(f"{path}: key 'tags' must be an object of UID -> card")
        extra = set(data) - {"format", "deck", "tags"}
        if extra:
            raise DeckFileError(f"{path}: unknown key(s) {sorted(extra)}")
        tags: dict[str, str] = {}
        owner: dict[str, str] = {}
        for raw_uid, raw_card in raw_tags.items():
            try:
                uid = normalize_uid(raw_uid)
                if not isinstance(raw_card, str):
                    raise DeckFileError(f"expected a card string such as 'Ah', found {raw_card!r}")
                card = deck.parse(raw_card)
            except (ValueError, CardError) as err:
                raise DeckFileError(f"{path}: key 'tags.{raw_uid}': {err}") from err
            if uid in tags:
                raise DuplicateTagError(f"{path}: tag {uid} is listed twice")
            if card in owner:
                raise DeckFileError(f"{path}: card {card} has two tags, {owner[card]} and {uid}")
            tags[uid] = card
            owner[card] = uid
        return cls(check_name(path.stem), deck, tags)


def _no_duplicate_keys(pairs: list[tuple[str, Any]], path: Path) -> dict[str, Any]:
    result: dict[str, Any] = {}
    for key, value in pairs:
        if key in result:
            raise DuplicateTagError(f"{path}: key {key!r} appears twice")
        result[key] = value
    return result


def deck_path(folder: Path, name: str) -> Path:
    return folder / f"{check_name(name)}.json"


def save(deck_map: DeckMap, folder: Path) -> Path:
    """Write the deck file atomically (a crash leaves the old file or the new one, never half of one)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = deck_path(folder, deck_map.name)
    handle, temp = tempfile.mkstemp(dir=folder, prefix=f".{deck_map.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(deck_map.to_json())
            out.flush()
            os.fsync(out.fileno())
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
    return path


def read_order(path: Path, deck: Deck) -> tuple[str, ...]:
    """A custom scanning order: the deck's cards as written in ``path`` (spaces, commas, newlines; ``#``
    starts a comment), each at most once. A part of a deck is fine (re-enrolling replaced cards)."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except OSError as err:
        raise DeckFileError(f"order file {path}: {err.strerror or err}") from err
    order: list[str] = []
    for number, line in enumerate(lines, start=1):
        text = line.split("#", 1)[0]
        try:
            cards = [deck.parse(word) for word in re.split(r"[\s,]+", text) if word]
        except CardError as err:
            raise DeckFileError(f"order file {path}, line {number}: {err}") from err
        for card in cards:
            if card in order:
                raise DeckFileError(f"order file {path}, line {number}: card {card} is listed twice")
            order.append(card)
    if not order:
        raise DeckFileError(f"order file {path}: lists no cards")
    return tuple(order)


class DeckLibrary:
    """All enrolled decks: tag -> (deck name, card)."""

    def __init__(self, decks: Iterable[DeckMap], folder: Path | None = None) -> None:
        self.folder = folder
        self.decks: dict[str, DeckMap] = {}
        self._index: dict[str, tuple[str, str]] = {}
        for deck_map in decks:
            if deck_map.name in self.decks:
                raise DeckFileError(f"two decks are named {deck_map.name!r}")
            self.decks[deck_map.name] = deck_map
            for uid, card in deck_map.tags.items():
                if uid in self._index:
                    other, other_card = self._index[uid]
                    raise DuplicateTagError(f"tag {uid} is enrolled twice: as {other_card} in deck {other!r} "
                                            f"and as {card} in deck {deck_map.name!r}")
                self._index[uid] = (deck_map.name, card)

    @classmethod
    def load(cls, folder: Path) -> DeckLibrary:
        """Every ``*.json`` deck in ``folder`` (none if the folder does not exist yet)."""
        paths = sorted(folder.glob("*.json")) if folder.is_dir() else []
        decks = [DeckMap.from_json(path.read_text(encoding="utf-8"), path) for path in paths]
        _LOGGER.debug("loaded %d deck(s) from %s", len(decks), folder)
        return cls(decks, folder)

    def card_for(self, uid: str) -> tuple[str, str] | None:
        """(deck name, card) for a tag, or None if no deck has it."""
        try:
            return self._index.get(normalize_uid(uid))
        except ValueError:
            return None

    def require(self, uid: str) -> tuple[str, str]:
        """Like ``card_for`` but an unknown tag raises UnknownTagError, whose message names the UID."""
        found = self.card_for(uid)
        if found is None:
            raise UnknownTagError(uid, self.folder)
        return found

    def __len__(self) -> int:
        return len(self._index)
