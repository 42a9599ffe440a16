"""Switching the evening between a cash game and a tournament (issue 19, items 3 and 4), for the host's game
and tournament forms: pure functions the daemon's API (``socket_api``) calls with the table in force.

A switch needs an empty table: a cash game's chips are money and a tournament's are not, so a player
carried from one to the other would bring chips into a ledger that never saw them bought. Going back from a
tournament to a cash game restores the last cash game's table (its game, blinds, limits, ante, policies)
with the host's changes laid over it; the tournament's own keys (the level schedule, the payouts, the
buy-in, late entry, the starting stack) go, so the level clock and the board's tournament view go with them.
Without an earlier cash game (an evening that began with the tournament) the tournament's keys are dropped
from the table in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerpi.console.game_form import changed_table, table_input
from dealerpi.engine.inputs import InputError, TableConfig, parse_config
from dealerpi.engine.policies import PRESETS, Preset
from dealerpi.engine.table import Table

TOURNAMENT_KEYS = ("levels", "payouts", "buy_in", "late_entry_levels", "starting_stack")


def is_tournament(current: TableConfig | None, changes: Mapping[str, Any]) -> bool | None:
    """Whether the table after ``changes`` is a tournament (its preset's), None if the change names no
    preset this table knows (the engine's parser then says why)."""
    rules = changes.get("rules", current.preset.value if current is not None else None)
    policies = changes.get("policies")
    if isinstance(policies, Mapping) and isinstance(policies.get("tournament"), bool):
        return bool(policies["tournament"])
    if not isinstance(rules, str) or rules not in PRESETS:
        return None
    return PRESETS[Preset(rules)].tournament


def switch_refusal(table: Table) -> str | None:
    """Why the table cannot switch now: a seat is taken (None: it is empty)."""
    for seat, info in sorted(table.seats.items()):
        return (f"seat {seat} ({info.player}, {info.stack}) is still seated: a switch between a cash game and a "
                "tournament needs an empty table (chips are money in one and not in the other)")
    return None


def back_to_cash(current: TableConfig, changes: Mapping[str, Any], last_cash: Mapping[str, Any] | None
                 ) -> dict[str, Any]:
    """The whole ``table`` input going back from a tournament to a cash game: ``last_cash`` (else the
    table in force without the tournament's keys) with ``changes`` laid over it. Raises ``InputError``."""
    if last_cash is not None:
        base = parse_config({"type": "table", **last_cash})
    else:
        kept = {k: v for k, v in table_input(current).items() if k not in TOURNAMENT_KEYS}
        try:
            base = parse_config({"type": "table", **kept, "rules": changes.get("rules", "home")})
        except InputError:
            base = current
    return changed_table(base, {k: v for k, v in changes.items() if k not in TOURNAMENT_KEYS or v is not None})
