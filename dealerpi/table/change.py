"""The config's ``[table]`` against the journal's table: what differs, in the config's own key names (issue 12).

The journal is the table's history; the config is what the host wants from now on. At start-up the daemon
replays the journal, then compares the two tables as the engine parsed them (so ``blinds = [1, 3]`` and a
journal line with the same blinds in another order of keys are the same table) and says exactly what differs.
The change itself is an ordinary ``table`` input, applied between hands only: the hand in play finishes with
the game and stakes it was dealt with.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from dealerpi.engine import TableConfig, parse_config


def against_journal(journal: TableConfig | None, config_input: Mapping[str, Any]) -> list[str] | None:
    """None when the journal's table already is the config's; else what differs (nothing to list when the
    journal has no table yet). ``config_input`` is the config's ``table`` input, already checked by the same
    parser when the config was loaded."""
    wanted = parse_config(config_input)
    if journal is None:
        return []
    return differences(journal, wanted) or None


def differences(journal: TableConfig, config: TableConfig) -> list[str]:
    """One ``key: journal -> config`` line per difference, e.g. ``seats: 6 -> 4``, ``blinds: 1/3 -> 2/5``."""
    lines: list[str] = []

    def differ(key: str, old: object, new: object) -> None:
        if old != new:
            lines.append(f"{key}: {old} -> {new}")

    differ("game", journal.game.key, config.game.key)
    differ("rules", journal.preset.value, config.preset.value)
    if journal.preset == config.preset:        # a new preset changes its policies with it: said once, above
        for policy in fields(journal.policies):
            differ(f"policies.{policy.name}", getattr(journal.policies, policy.name),
                   getattr(config.policies, policy.name))
    differ("seats", journal.seats, config.seats)
    differ("blinds", f"{journal.small_blind}/{journal.big_blind}", f"{config.small_blind}/{config.big_blind}")
    differ("limits", _limits(journal.limits), _limits(config.limits))
    differ("ante", journal.ante, config.ante)
    differ("bb_ante", journal.bb_ante, config.bb_ante)
    if journal.levels != config.levels:
        old, new = _levels(journal), _levels(config)
        lines.append(f"levels: {old} -> {new}" if old != new else f"levels: {new}, another schedule")
    differ("starting_stack", journal.starting_stack or "none", config.starting_stack or "none")
    if journal.policies.tournament or config.policies.tournament:
        differ("payouts", list(journal.payouts_by_field or journal.payouts),
               list(config.payouts_by_field or config.payouts))
        differ("late_entry_levels", journal.late_entry_levels, config.late_entry_levels)
        differ("buy_in", journal.buy_in, config.buy_in)
    return lines


def _limits(limits: tuple[int, int] | None) -> str:
    return "none" if limits is None else f"{limits[0]}/{limits[1]}"


def _levels(config: TableConfig) -> str:
    count = len(config.levels)
    return "none" if not count else "1 level" if count == 1 else f"{count} levels"
