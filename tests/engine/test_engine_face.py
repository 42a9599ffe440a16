"""The engine's face (dealerpi/engine/__init__.py) re-exports its names lazily (PEP 562).

Why it matters: ``dealerpi replay`` imports ``dealerpi.engine.games`` and ``.hand``, and Python imports the
package first; an eager face would import the Table and everything behind it before the workers fork,
doubling the replay's start-up (docs/replay.md, "The whole job")."""

from __future__ import annotations

import subprocess
import sys

import pytest

import dealerpi.engine as engine
from dealerpi.engine import (
    betting,
    bounties,
    chip_race,
    deals,
    entries,
    events,
    expectation,
    games,
    hand,
    hand_log,
    inputs,
    payouts,
    policies,
    tournament,
    tournament_money,
)
from dealerpi.engine.events import Outcome
from dealerpi.engine.expectation import Expectation, LegalActions, Waiting
from dealerpi.engine.reading import DealtHand, PotNow, SeatNow, SeatStatus
from dealerpi.engine.records import Alert, DealRecord, Posted, PotPaid
from dealerpi.engine.state import SeatState, TableState
from dealerpi.engine.table import Table


def test_every_name_of_the_face_is_the_defining_modules_object() -> None:
    defined = {"Alert": Alert, "DealRecord": DealRecord, "DealtHand": DealtHand, "Expectation": Expectation,
               "LegalActions": LegalActions, "PotPaid": PotPaid, "Posted": Posted,
               "Outcome": Outcome, "PotNow": PotNow, "SeatNow": SeatNow, "SeatState": SeatState,
               "SeatStatus": SeatStatus, "Table": Table, "TableState": TableState, "Waiting": Waiting,
               **{name: getattr(hand_log, name) for name in hand_log.__all__},     # the records of Hand.log
               **{name: getattr(events, name) for name in ("Event", "HandFinal", "HandStarted", "Left", "Sat",
                                                           "Undone")},       # Outcome.events
               # issue 22: what other packages used to import from behind the face (the "engine-face" contract)
               "IllegalAction": betting.IllegalAction, "Bounties": bounties.Bounties,
               "plan_race": chip_race.plan_race, "race_result": chip_race.race_result,
               **{name: getattr(deals, name) for name in ("MOST_PLAYERS", "DealError", "check_deal", "icm_values",
                                                          "proposals")},
               "AddOn": entries.AddOn, "Rebuy": entries.Rebuy,
               # the journal's inputs as records, built by the daemon's producers (issue 22)
               **{name: getattr(entries, name) for name in ("Act", "Card", "Input", "Misdeal", "Muck", "Show", "Sit",
                                                            "Start", "Tick", "Undo", "parse_input", "to_json")},
               "call_words": expectation.call_words, "raise_words": expectation.raise_words,
               "GAMES": games.GAMES, "GameDef": games.GameDef, "Structure": games.Structure,
               "UNKNOWN": hand.UNKNOWN, "Hand": hand.Hand, "Phase": hand.Phase,
               **{name: getattr(inputs, name) for name in ("MONEY_KEYS", "InputError", "Level", "TableConfig",
                                                           "parse_config")},
               "Finish": payouts.Finish, "Standings": payouts.Standings, "percents_for": payouts.percents_for,
               "CHOICES": policies.CHOICES, "PRESETS": policies.PRESETS, "Policies": policies.Policies,
               "Preset": policies.Preset, "LevelClock": tournament.LevelClock, "LevelLike": tournament.LevelLike,
               # renamed by the face: the room's director buys by the engine's rules
               "enter_tournament": tournament_money.enter, "buy_rebuy": tournament_money.rebuy,
               "buy_addon": tournament_money.addon}
    assert sorted(engine.__all__) == sorted(defined)
    for name, value in defined.items():
        assert getattr(engine, name) is value, name
    assert set(engine.__all__) <= set(dir(engine))


def test_a_name_the_face_does_not_export_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match=r"'dealerpi\.engine' has no attribute 'HandPlay'"):
        _ = engine.HandPlay


def test_the_replay_command_does_not_import_the_table() -> None:
    """In a fresh interpreter: importing the replay command loads the hand, not the table and its modules."""
    code = ("import sys, dealerpi.history.replay_cli; "
            "print(sorted(m for m in sys.modules if m.startswith('dealerpi.engine')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == str(["dealerpi.engine", "dealerpi.engine.betting", "dealerpi.engine.games",
                               "dealerpi.engine.hand", "dealerpi.engine.hand_log", "dealerpi.engine.hand_setup",
                               "dealerpi.engine.pots"])


def test_importing_a_name_from_the_face_imports_its_module() -> None:
    """``from dealerpi.engine import Table`` (as the daemon does) still works in a fresh interpreter."""
    code = ("from dealerpi.engine import Table; import sys; "
            "print(Table.__module__, 'dealerpi.engine.table' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "dealerpi.engine.table True"
