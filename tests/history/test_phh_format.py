"""Reading and writing PHH text (dealerpi.history.phh): typed fields, exact amounts, errors, round trips."""

from __future__ import annotations

import datetime
from dataclasses import replace
from decimal import Decimal
from pathlib import Path

import pytest

from dealerpi.engine import UNKNOWN
from dealerpi.history import phh

ONE_HAND = """\
# a comment line
variant = 'NT'
ante_trimming_status = true
antes = [0, 0, 0]
blinds_or_straddles = [0.10, 0.25, 0]
min_bet = 0.25
starting_stacks = [25, 54.75, 16.35]
actions = [
  'd dh p1 AcAd',  # a TOML comment
  'd dh p2 ????',
  'd dh p3 7h6h',
  'p3 cbr 0.75 # action commentary',
  'p1 f',
  'p2 f',
]
time = 00:00:00
hand = 59937794410
players = ['Ann', "Bob's", 'Cy']
finishing_stacks = [24.90, 54.50, 16.95]
"""


def test_loads_types_every_field_and_keeps_the_rest() -> None:
    record = phh.loads(ONE_HAND, "a.phh")
    assert record.variant == "NT"
    assert record.ante_trimming_status is True
    assert record.antes == (0, 0, 0)
    assert record.blinds_or_straddles == (Decimal("0.10"), Decimal("0.25"), 0)
    assert record.min_bet == Decimal("0.25")
    assert record.small_bet is None and record.big_bet is None and record.bring_in is None
    assert record.starting_stacks == (25, Decimal("54.75"), Decimal("16.35"))
    assert record.actions[0] == "d dh p1 AcAd"
    assert record.actions[3] == "p3 cbr 0.75 # action commentary"
    assert len(record.actions) == 6
    assert record.players == ("Ann", "Bob's", "Cy")
    assert record.finishing_stacks == (Decimal("24.90"), Decimal("54.50"), Decimal("16.95"))
    assert record.winnings is None
    assert record.extra == {"time": datetime.time(0, 0), "hand": 59937794410}
    assert (record.source, record.index, record.name, record.player_count) == ("a.phh", None, "a.phh", 3)


def test_amounts_are_exact_decimals_not_floats() -> None:
    record = phh.loads(ONE_HAND)
    assert isinstance(record.blinds_or_straddles[0], Decimal)
    assert str(record.blinds_or_straddles[0]) == "0.10"
    assert isinstance(record.starting_stacks[0], int)


def test_a_single_amount_means_the_same_for_every_player() -> None:
    text = "variant = 'NT'\nantes = 5\nstarting_stacks = [100, 200]\nactions = []\n"
    assert phh.loads(text).antes == (5, 5)


def test_loads_all_reads_numbered_tables_in_file_order() -> None:
    one = "variant = 'FT'\nsmall_bet = 2\nbig_bet = 4\nstarting_stacks = [10, 20]\nactions = ['p1 f']\n"
    two = "variant = 'PO'\nmin_bet = 2\nstarting_stacks = [30, 40, 50]\nactions = []\n"
    records = phh.loads_all(f"[7]\n{one}\n[3]\n{two}", "x.phhs")
    assert [(r.index, r.variant, r.name) for r in records] == [("7", "FT", "x.phhs[7]"),
                                                               ("3", "PO", "x.phhs[3]")]
    assert records[0].small_bet == 2 and records[0].big_bet == 4


def test_load_path_reads_folders_recursively_and_sorted(tmp_path: Path) -> None:
    hand = "variant = 'NT'\nstarting_stacks = [1, 2]\nactions = []\n"
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "2.phh").write_text(hand)
    (tmp_path / "a.phhs").write_text(f"[1]\n{hand}\n[2]\n{hand}")
    (tmp_path / "notes.txt").write_text("not a hand")
    names = [r.name for r in phh.load_path(tmp_path)]
    assert names == [f"{tmp_path}/a.phhs[1]", f"{tmp_path}/a.phhs[2]", f"{tmp_path}/b/2.phh"]
    assert [r.name for r in phh.load_path(tmp_path / "b" / "2.phh")] == [f"{tmp_path}/b/2.phh"]


@pytest.mark.parametrize(("text", "message"), [
    ("variant = 'NT'\nactions = []\n", "x.phh: missing key 'starting_stacks'"),
    ("variant = 'NT'\nstarting_stacks = [1, 2]\nantes = [0]\nactions = []\n",
     "x.phh: key 'antes' must be an amount or a list of 2 amounts"),
    ("variant = 'NT'\nstarting_stacks = [1, 2]\nactions = ['p1 f', 3]\n",
     "x.phh: key 'actions' must be a list of strings"),
    ("variant = 'NT'\nstarting_stacks = [1, 2]\nactions = []\nmin_bet = 'two'\n",
     "x.phh: key 'min_bet' must be an amount"),
    ("variant = 'NT'\nstarting_stacks = [1, 2]\nactions = []\nplayers = ['a']\n",
     "x.phh: key 'players' must be a list of 2 names"),
    ("variant = 'NT'\nstarting_stacks = [1, 2]\nactions = []\nfinishing_stacks = [1, true]\n",
     "x.phh: key 'finishing_stacks' must be an amount or a list of 2 amounts"),
    ("variant = 'NT\n", "x.phh: not valid TOML"),
])
def test_malformed_text_names_the_file_and_the_key(text: str, message: str) -> None:
    with pytest.raises(phh.PHHError) as info:
        phh.loads(text, "x.phh")
    assert str(info.value).startswith(message)


def test_phhs_error_names_the_hand_and_a_stray_key() -> None:
    with pytest.raises(phh.PHHError, match=r"^y.phhs\[2\]: missing key 'actions'"):
        phh.loads_all("[1]\nvariant='NT'\nstarting_stacks=[1,2]\nactions=[]\n[2]\nvariant='NT'\n"
                      "starting_stacks=[1,2]\n", "y.phhs")
    with pytest.raises(phh.PHHError, match="key 'variant' is not a \\[N\\] table"):
        phh.loads_all("variant = 'NT'\n", "y.phhs")


def test_load_path_of_a_missing_path_raises_phh_error(tmp_path: Path) -> None:
    with pytest.raises(phh.PHHError, match="no such file or folder"):
        list(phh.load_path(tmp_path / "nothing"))


@pytest.mark.parametrize(("text", "expected"), [
    ("d dh p1 AcAd", phh.Action("d dh p1 AcAd", 0, "dh", ("Ac", "Ad"))),
    ("d dh p10 ????", phh.Action("d dh p10 ????", 9, "dh", ("??", "??"))),
    ("d db Jc3d5c", phh.Action("d db Jc3d5c", None, "db", ("Jc", "3d", "5c"))),
    ("p2 f", phh.Action("p2 f", 1, "f")),
    ("p3 cc # limps", phh.Action("p3 cc # limps", 2, "cc")),
    ("p1 cbr 600", phh.Action("p1 cbr 600", 0, "cbr", amount=600)),
    ("p1 cbr 0.75", phh.Action("p1 cbr 0.75", 0, "cbr", amount=Decimal("0.75"))),
    ("p4 sm 7h6h", phh.Action("p4 sm 7h6h", 3, "sm", ("7h", "6h"))),
    ("p4 sm ????", phh.Action("p4 sm ????", 3, "sm", ("??", "??"))),
    ("p4 sm", phh.Action("p4 sm", 3, "sm")),
    ("p4 sm -", phh.Action("p4 sm -", 3, "sm")),
    ("p1 sd ??", phh.Action("p1 sd ??", 0, "sd", ("??",))),
])
def test_parse_action_reads_every_phh_form(text: str, expected: phh.Action) -> None:
    assert phh.parse_action(text) == expected


def test_cards_known_is_false_with_any_unknown_card() -> None:
    assert phh.parse_action("d dh p1 AcAd").cards_known
    assert not phh.parse_action("d dh p1 Ac??").cards_known
    assert not phh.parse_action("p1 f").cards_known


@pytest.mark.parametrize("text", ["", "# only a comment", "x1 f", "p0 f", "p1 raise 5", "p1 cbr", "p1 cbr -5",
                                  "p1 cbr five", "d dh p1 AcA", "d db", "d xx p1 Ac", "p1 sm Ac Ad"])
def test_parse_action_rejects_malformed_actions(text: str) -> None:
    with pytest.raises(phh.PHHError):
        phh.parse_action(text)


def test_dumps_round_trips_every_field() -> None:
    record = phh.loads(ONE_HAND, "a.phh")
    record = replace(record, extra={**record.extra, "event": 'He said "all in" \\ ok', "name with space": 1,
                                    "tags": {"a b": [1, 2.5], "c": True}, "city": "Zürich\x7f",
                                    "date": datetime.date(2009, 7, 1)})
    text = phh.dumps(record)
    assert phh.loads(text, "a.phh") == record
    assert "blinds_or_straddles = [0.10, 0.25, 0]" in text
    assert '  "p3 cbr 0.75 # action commentary",\n' in text


def test_dumps_keeps_phh_key_order_and_leaves_out_missing_keys() -> None:
    text = phh.dumps(phh.loads("variant = 'FT'\nsmall_bet = 2\nbig_bet = 4\nstarting_stacks = [10, 20]\n"
                               "actions = ['p1 f']\nfinishing_stacks = [9, 21]\nauthor = 'me'\n"))
    assert text == ('variant = "FT"\nsmall_bet = 2\nbig_bet = 4\nstarting_stacks = [10, 20]\n'
                    'actions = [\n  "p1 f",\n]\nauthor = "me"\nfinishing_stacks = [9, 21]\n')


def test_dumps_writes_whole_decimals_as_toml_floats() -> None:
    record = phh.loads("variant = 'NT'\nstarting_stacks = [25.0, 4]\nactions = []\n")
    assert "starting_stacks = [25.0, 4]" in phh.dumps(record)


def test_dumps_all_round_trips_several_hands() -> None:
    records = phh.loads_all(f"[1]\n{ONE_HAND}\n[2]\n{ONE_HAND}", "z.phhs")
    again = phh.loads_all(phh.dumps_all(records), "z.phhs")
    assert again == records


def test_unknown_card_is_the_engines_unknown_card() -> None:
    """The replay deals PHH's ``??`` cards to the engine as they are: both must spell them the same."""
    assert phh.parse_action("d dh p1 Ac??").cards == ("Ac", UNKNOWN)


# Deal texts the replay reads with read_deal: the usual forms, and near misses it must leave to parse_action.
_DEAL_TEXTS = ["d dh p1 AcAd", "d dh p10 7h2c", "d dh p3 ????", "d dh p3 Ac??", "d dh p2 AcAdKs", "d dh p2 AcAdKsQh",
               "d db 2c7h9d", "d db Tc", "d db ??", "d db 2c7h", "d db 2c7h9dTs", "d db 2c7h # the flop",
               "d dh p1 AcAd #x", "d db 2c7h9d#x", "d dh p0 AcAd", "d dh x1 AcAd", "d xx p1 AcAd", "d db",
               "p1 cc", "p2 sm AcAd", "d dh p1 AcA", "d  dh  p4  9s9c"]


@pytest.mark.parametrize("text", _DEAL_TEXTS)
def test_read_deal_agrees_with_parse_action(text: str) -> None:
    """read_deal is the replay's shortcut for the usual deals: wherever it answers, parse_action must give the
    same player and cards; it answers for two hole cards and for a flop, turn or river without comments."""
    deal = phh.read_deal(text)
    if deal is not None:
        action = phh.parse_action(text)
        assert deal == (action.player, action.cards)
    usual = {"d dh p1 AcAd", "d dh p10 7h2c", "d db 2c7h9d", "d db Tc", "d  dh  p4  9s9c"}
    assert (deal is not None) == (text in usual)
