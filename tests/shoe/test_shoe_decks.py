"""Deck enrollment files and lookups (dealerpi/shoe/decks.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from dealerpi.cards import HEXADEC, STANDARD
from dealerpi.shoe.decks import (
    DeckFileError,
    DeckLibrary,
    DeckMap,
    DuplicateTagError,
    UnknownTagError,
    read_order,
    save,
)


def uid(n: int) -> str:
    return f"04{n:012X}"


def test_saved_decks_load_back_and_answer_lookups(tmp_path: Path) -> None:
    save(DeckMap("red-1", STANDARD, {uid(1): "Ah", uid(2): "Td"}), tmp_path)
    save(DeckMap("blue", HEXADEC, {"DEADBEEF": "0s", uid(3): "Ah"}), tmp_path)
    assert json.loads((tmp_path / "red-1.json").read_text()) == {
        "format": 1, "deck": "standard", "tags": {uid(1): "Ah", uid(2): "Td"}}
    library = DeckLibrary.load(tmp_path)
    assert library.card_for(uid(1)) == ("red-1", "Ah")
    assert library.card_for("deadbeef") == ("blue", "0s")  # case does not matter
    assert library.card_for(uid(3)) == ("blue", "Ah")  # the Hexadec "A" face card, not an ace
    assert library.card_for(uid(99)) is None
    assert library.card_for("not a uid") is None
    assert len(library) == 4
    assert sorted(p.name for p in tmp_path.iterdir()) == ["blue.json", "red-1.json"]  # no temp files left


def test_an_unknown_tag_raises_with_the_uid_in_the_message(tmp_path: Path) -> None:
    library = DeckLibrary.load(tmp_path / "nothing-yet")
    with pytest.raises(UnknownTagError, match=r"unknown RFID tag 04000000000063: not enrolled in any deck in"):
        library.require(uid(99))


def test_a_tag_enrolled_in_two_decks_is_an_error_naming_both(tmp_path: Path) -> None:
    save(DeckMap("red-1", STANDARD, {uid(1): "Ah"}), tmp_path)
    save(DeckMap("red-2", STANDARD, {uid(1): "Kc"}), tmp_path)
    with pytest.raises(DuplicateTagError, match=r"tag 04000000000001 is enrolled twice: as Ah in deck 'red-1' and "
                                                r"as Kc in deck 'red-2'"):
        DeckLibrary.load(tmp_path)


@pytest.mark.parametrize(("content", "message"), [
    ("{", "not valid JSON"),
    ("[]", "expected a JSON object"),
    ('{"format": 2, "deck": "standard", "tags": {}}', "key 'format' must be 1"),
    ('{"format": 1, "deck": "pinochle", "tags": {}}', "key 'deck' must be one of"),
    ('{"format": 1, "deck": "standard", "tags": []}', "key 'tags' must be an object"),
    ('{"format": 1, "deck": "standard", "tags": {}, "extra": 1}', "unknown key"),
    ('{"format": 1, "deck": "standard", "tags": {"XYZ": "Ah"}}', "key 'tags.XYZ'"),
    ('{"format": 1, "deck": "standard", "tags": {"DEADBEEF": "1s"}}', "key 'tags.DEADBEEF'"),
    ('{"format": 1, "deck": "standard", "tags": {"DEADBEEF": 5}}', "expected a card string"),
    ('{"format": 1, "deck": "standard", "tags": {"DEADBEEF": "Ah", "DEADBEEF": "Kh"}}', "appears twice"),
    ('{"format": 1, "deck": "standard", "tags": {"DEADBEEF": "Ah", "deadbeef": "Kh"}}', "listed twice"),
    ('{"format": 1, "deck": "standard", "tags": {"DEADBEEF": "Ah", "CAFEBABE": "Ah"}}', "card Ah has two tags"),
])
def test_a_bad_deck_file_names_the_file_and_the_key(tmp_path: Path, content: str, message: str) -> None:
    (tmp_path / "red-1.json").write_text(content)
    with pytest.raises(DeckFileError, match=message) as caught:
        DeckLibrary.load(tmp_path)
    assert str(tmp_path / "red-1.json") in str(caught.value)


def test_custom_order_files(tmp_path: Path) -> None:
    order = tmp_path / "order.txt"
    order.write_text("# new deck order, spades first\nAs 2s,3s\n\n10s Js  # a comment\n")
    assert read_order(order, STANDARD) == ("As", "2s", "3s", "Ts", "Js")
    order.write_text("As 2s\nAs\n")
    with pytest.raises(DeckFileError, match=r"line 2: card As is listed twice"):
        read_order(order, STANDARD)
    order.write_text("As 1s\n")
    with pytest.raises(DeckFileError, match=r"line 1: '1s' is not a card of the standard deck"):
        read_order(order, STANDARD)
    order.write_text("# nothing\n")
    with pytest.raises(DeckFileError, match="lists no cards"):
        read_order(order, STANDARD)
    with pytest.raises(DeckFileError, match="No such file"):
        read_order(tmp_path / "missing.txt", STANDARD)
