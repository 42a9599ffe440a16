"""The pure rules engine: games, hands, betting, pots, dealing, the table. No I/O, clock or randomness.

This module is the engine's face, the one door into the engine from outside it: every other package imports
these names from here, never from an engine module (the contract "the engine's face" in pyproject.toml,
checked by ``lint-imports``; issue 22). The modules behind it are free to change.

Its names are imported when first read (PEP 562's module ``__getattr__``), not when the package is: importing
one engine module (``dealerpi.engine.games``, as ``dealerpi replay`` does) imports this package first, and
eagerly it would pull in the Table and everything behind it, doubling the replay's start-up (docs/replay.md).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from dealerpi.engine.betting import IllegalAction
    from dealerpi.engine.bounties import Bounties
    from dealerpi.engine.chip_race import plan_race, race_result
    from dealerpi.engine.deals import MOST_PLAYERS, DealError, check_deal, icm_values, proposals
    from dealerpi.engine.entries import (
        Act,
        AddOn,
        Card,
        Input,
        Misdeal,
        Muck,
        Rebuy,
        Show,
        Sit,
        Start,
        Tick,
        Undo,
        parse_input,
        to_json,
    )
    from dealerpi.engine.events import Event, HandFinal, HandStarted, Left, Outcome, Sat, Undone
    from dealerpi.engine.expectation import Expectation, LegalActions, Waiting, call_words, raise_words
    from dealerpi.engine.games import GAMES, GameDef, Structure
    from dealerpi.engine.hand import UNKNOWN, Hand, Phase
    from dealerpi.engine.hand_log import (
        BetOrRaisedTo,
        BoardDealt,
        CheckedOrCalled,
        Folded,
        HoleDealt,
        HoleSwapped,
        Killed,
        LogEntry,
        Mucked,
        RunsAgreed,
        Shown,
        StreetRetracted,
    )
    from dealerpi.engine.inputs import MONEY_KEYS, InputError, Level, TableConfig, parse_config
    from dealerpi.engine.payouts import Finish, Standings, percents_for
    from dealerpi.engine.policies import CHOICES, PRESETS, Policies, Preset
    from dealerpi.engine.reading import DealtHand, PotNow, SeatNow, SeatStatus
    from dealerpi.engine.records import Alert, DealRecord, Posted, PotPaid
    from dealerpi.engine.state import SeatState, TableState
    from dealerpi.engine.table import Table
    from dealerpi.engine.tournament import LevelClock, LevelLike
    from dealerpi.engine.tournament_money import addon as buy_addon
    from dealerpi.engine.tournament_money import enter as enter_tournament
    from dealerpi.engine.tournament_money import rebuy as buy_rebuy

_MODULES = {
    **dict.fromkeys(["IllegalAction"], "betting"),
    **dict.fromkeys(["Bounties"], "bounties"),
    **dict.fromkeys(["plan_race", "race_result"], "chip_race"),
    **dict.fromkeys(["DealError", "MOST_PLAYERS", "check_deal", "icm_values", "proposals"], "deals"),
    **dict.fromkeys(["Act", "AddOn", "Card", "Input", "Misdeal", "Muck", "Rebuy", "Show", "Sit", "Start", "Tick",
                     "Undo", "parse_input", "to_json"], "entries"),     # the journal's inputs as records (issue 22)
    **dict.fromkeys(["Event", "HandFinal", "HandStarted", "Left", "Outcome", "Sat", "Undone"], "events"),
    **dict.fromkeys(["Expectation", "LegalActions", "Waiting", "call_words", "raise_words"], "expectation"),
    **dict.fromkeys(["GAMES", "GameDef", "Structure"], "games"),
    **dict.fromkeys(["Hand", "Phase", "UNKNOWN"], "hand"),
    **dict.fromkeys(["BetOrRaisedTo", "BoardDealt", "CheckedOrCalled", "Folded", "HoleDealt", "HoleSwapped", "Killed",
                     "LogEntry", "Mucked", "RunsAgreed", "Shown", "StreetRetracted"], "hand_log"),   # Hand.log
    **dict.fromkeys(["InputError", "Level", "MONEY_KEYS", "TableConfig", "parse_config"], "inputs"),
    **dict.fromkeys(["Finish", "Standings", "percents_for"], "payouts"),
    **dict.fromkeys(["CHOICES", "PRESETS", "Policies", "Preset"], "policies"),
    **dict.fromkeys(["DealtHand", "PotNow", "SeatNow", "SeatStatus"], "reading"),
    **dict.fromkeys(["Alert", "DealRecord", "Posted", "PotPaid"], "records"),
    **dict.fromkeys(["SeatState", "TableState"], "state"),
    **dict.fromkeys(["Table"], "table"),
    **dict.fromkeys(["LevelClock", "LevelLike"], "tournament"),
    # the room's director buys with the engine's own rules (room/director/money.py), under names that say so
    "buy_addon": "tournament_money:addon", "enter_tournament": "tournament_money:enter",
    "buy_rebuy": "tournament_money:rebuy",
}
"""Each re-exported name -> the engine module that defines it (``module:name`` where the face renames it)."""

__all__ = [
    "CHOICES",
    "GAMES",
    "MONEY_KEYS",
    "MOST_PLAYERS",
    "PRESETS",
    "UNKNOWN",
    "Act",
    "AddOn",
    "Alert",
    "BetOrRaisedTo",
    "BoardDealt",
    "Bounties",
    "Card",
    "CheckedOrCalled",
    "DealError",
    "DealRecord",
    "DealtHand",
    "Event",
    "Expectation",
    "Finish",
    "Folded",
    "GameDef",
    "Hand",
    "HandFinal",
    "HandStarted",
    "HoleDealt",
    "HoleSwapped",
    "IllegalAction",
    "Input",
    "InputError",
    "Killed",
    "Left",
    "LegalActions",
    "Level",
    "LevelClock",
    "LevelLike",
    "LogEntry",
    "Misdeal",
    "Muck",
    "Mucked",
    "Outcome",
    "Phase",
    "Policies",
    "Posted",
    "PotNow",
    "PotPaid",
    "Preset",
    "Rebuy",
    "RunsAgreed",
    "Sat",
    "SeatNow",
    "SeatState",
    "SeatStatus",
    "Show",
    "Shown",
    "Sit",
    "Standings",
    "Start",
    "StreetRetracted",
    "Structure",
    "Table",
    "TableConfig",
    "TableState",
    "Tick",
    "Undo",
    "Undone",
    "Waiting",
    "buy_addon",
    "buy_rebuy",
    "call_words",
    "check_deal",
    "enter_tournament",
    "icm_values",
    "parse_config",
    "parse_input",
    "percents_for",
    "plan_race",
    "proposals",
    "race_result",
    "raise_words",
    "to_json",
]


def __getattr__(name: str) -> object:
    where = _MODULES.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module, _, defined_as = where.partition(":")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), defined_as or name)
    globals()[name] = value     # read once: later reads are plain attribute reads
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
