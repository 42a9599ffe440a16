"""Switching the evening between a cash game and a tournament (issue 19, items 3 and 4), for the host's game
and tournament forms: pure functions the daemon's API (``socket_api``) calls with the table in force.

A switch needs an empty table: a cash game's chips are money and a tournament's are not, so a player
carried from one to the other would bring chips into a ledger that never saw them bought. A cash game's
players cash out first; a tournament's cannot (TRN-4), so ending it takes the host's confirmation and its
players leave with it (``leave`` tagged ``"ends": "tournament"``, journaled right after the switch). Going back from a
tournament to a cash game restores the last cash game's table (its game, blinds, limits, ante, policies)
with the host's changes laid over it; the tournament's own keys (the level schedule, the payouts, the
buy-in, late entry, the starting stack) go, so the level clock and the board's tournament view go with them.
Without an earlier cash game (an evening that began with the tournament) the tournament's keys are dropped
from the table in force.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from dealerpi.books.game_form import changed_table, table_input
from dealerpi.engine import MONEY_KEYS, PRESETS, InputError, Preset, Table, TableConfig, parse_config

TOURNAMENT_KEYS = ("levels", "payouts", "buy_in", "late_entry_levels", "starting_stack", *MONEY_KEYS)


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


ENDS = "tournament"          # a ``leave`` journaled with ``"ends": "tournament"``: chips that were never money


def switch_refusal(table: Table, confirmed: bool) -> dict[str, Any] | None:
    """Why the table cannot switch now (an answer for the page), or None. A cash game's seats must be
    cashed out first (always possible between hands). A tournament's players cannot cash out (their stacks
    stay in play, TRN-4): ending a tournament that has no winner yet takes the host's confirmation, and
    then its players leave the table with it (:func:`carried`)."""
    if not table.table_may_change():
        return {"accepted": False, "reason": "a switch between a cash game and a tournament is made between hands"}
    seated = sorted(table.seats.items())
    if not seated:
        return None
    seat, info = seated[0]
    config = table.config
    if config is not None and config.policies.tournament:
        if confirmed or (table.standings is not None and table.standings.remaining == 0):   # or it has its winner
            return None
        names = ", ".join(f"seat {s} ({i.player}, {i.stack})" for s, i in seated)
        return {"accepted": False, "confirm": True,
                "reason": f"the tournament is still on: {names}; confirm to end it: its players leave the table "
                          "and no prize is paid (their chips were never money)"}
    return {"accepted": False,
            "reason": f"seat {seat} ({info.player}, {info.stack}) is still seated: a switch between a cash game "
                      "and a tournament needs an empty table (chips are money in one and not in the other)"}


def carried(table: Table) -> list[dict[str, Any]]:
    """The ``leave`` inputs that take a tournament's players off the table once it is over: tagged so that
    the ledger counts no cash-out (ledger.py)."""
    return [{"type": "leave", "seat": seat, "ends": ENDS} for seat in sorted(table.seats)]


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


def odd_stack(config: TableConfig | None, entry: Mapping[str, Any]) -> str | None:
    """Issue 19 item 11: a tournament seat with another stack than the starting stack (TRN-9: every entrant
    buys the full stack) is refused with this reason until the host confirms it; None: fine."""
    stack = entry.get("stack")
    if config is None or not config.policies.tournament or not config.starting_stack \
            or not isinstance(stack, int) or stack == config.starting_stack:
        return None
    who = entry.get("player") if isinstance(entry.get("player"), str) else "the player"
    return (f"seat {entry.get('seat')}: {who} would start with {stack}, not the starting stack "
            f"{config.starting_stack} (TRN-9: every entrant gets the full stack): confirm to seat {who} "
            f"with {stack}")
