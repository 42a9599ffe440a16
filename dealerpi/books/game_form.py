"""The host's game form: the table in force as a ``table`` input, and a change of it made from the fields the
host changed (issue 14, "Game, preset, blinds, ante, limits, policy overrides ... always showing the current
values").

The old simulator's form was filled with fixed defaults, so it showed ``ante 0`` during an ante game and
re-submitting it dropped the ante. Here the form is filled from the table in force (:func:`table_input`, the
inverse of the engine's ``parse_config``), the page sends only the fields that differ from those values, and
:func:`changed_table` lays them over the table in force: a field the host did not touch keeps its value.
Pure functions: the daemon (``socket_api``) calls them with the engine's current config.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from dealerpi.engine import CHOICES, GAMES, MONEY_KEYS, PRESETS, InputError, Level, Policies, Preset, TableConfig

# the keys of a ``table`` input the form may change (docs/journal.md, docs/tournaments.md)
FORM_KEYS = ("game", "rules", "policies", "seats", "blinds", "limits", "ante", "bb_ante", "starting_stack",
             "levels", "payouts", "buy_in", "late_entry_levels", *MONEY_KEYS)   # re-entries ... bounty (issue 20)


def _policy_value(value: object) -> object:
    return value.value if hasattr(value, "value") else value


def policy_values(policies: Policies) -> dict[str, object]:
    """Every policy's value in force, in the words a table input uses."""
    return {f.name: _policy_value(getattr(policies, f.name)) for f in fields(policies)}


def _level(level: Level) -> dict[str, Any]:
    if level.is_break:
        return {"break": True, "minutes": level.minutes}
    step: dict[str, Any] = {"blinds": [level.small_blind, level.big_blind], "minutes": level.minutes}
    if level.ante:
        step["ante"] = level.ante
    if level.bb_ante:
        step["bb_ante"] = level.bb_ante
    return step


def table_input(config: TableConfig) -> dict[str, Any]:
    """The ``table`` input (without ``type``) that ``parse_config`` turns into ``config``: only the policies
    that differ from the preset's are overrides."""
    preset = policy_values(PRESETS[config.preset])
    overrides = {k: v for k, v in policy_values(config.policies).items() if preset[k] != v}
    entry: dict[str, Any] = {"game": config.game.key, "rules": config.preset.value, "seats": config.seats,
                             "blinds": [config.small_blind, config.big_blind]}
    if overrides:
        entry["policies"] = overrides
    if config.limits is not None:
        entry["limits"] = list(config.limits)
    for key in ("ante", "bb_ante", "starting_stack", "buy_in", "late_entry_levels", *MONEY_KEYS):
        if getattr(config, key):
            entry[key] = getattr(config, key)
    if config.levels:
        entry["levels"] = [_level(level) for level in config.levels]
    if config.policies.tournament or list(config.payouts) != [50, 30, 20] or config.payouts_by_field:
        entry["payouts"] = _payouts(config)
    return entry


def _payouts(config: TableConfig) -> Any:
    if config.payouts_by_field:
        return [{"players": players, "percents": list(percents)} for players, percents in config.payouts_by_field]
    return list(config.payouts)


def changed_table(current: TableConfig | None, changes: object) -> dict[str, Any]:
    """The whole ``table`` input: ``current``'s values with ``changes`` laid over them. ``changes`` names only
    what the host changed; ``null`` removes a key (back to its default: no ante, the preset's policy);
    ``policies`` adds to and replaces the overrides in force one by one. The result still goes through the
    engine's ``parse_config``, which names a bad key. Raises ``InputError`` naming an unknown key."""
    if not isinstance(changes, Mapping) or not changes:
        raise InputError("table: the change names at least one field of the table")
    entry = table_input(current) if current is not None else {}
    for key, value in changes.items():
        if key not in FORM_KEYS:
            raise InputError(f'table: "{key}" is not a setting of the table: one of {", ".join(FORM_KEYS)}', key)
        if key == "policies":
            if not isinstance(value, Mapping):
                raise InputError('table: "policies" must be an object of policy names and values', "policies")
            overrides = {**entry.get("policies", {}), **value}
            entry["policies"] = {k: v for k, v in overrides.items() if v is not None}
        elif value is None:
            entry.pop(key, None)
        else:
            entry[key] = value
    rules = entry.get("rules")
    if "policies" in entry and isinstance(rules, str) and rules in PRESETS:     # keep only true overrides
        preset = policy_values(PRESETS[Preset(rules)])
        entry["policies"] = {k: v for k, v in entry["policies"].items() if preset.get(k) != v}
        if not entry["policies"]:
            del entry["policies"]
    return {"type": "table", **entry}


def choices() -> dict[str, Any]:
    """What the form offers: the games, the presets, each word policy's choices (the others are numbers or
    yes/no)."""
    return {"games": {key: game.title for key, game in GAMES.items()},
            "fixed_limit": [key for key, game in GAMES.items() if game.structure.value == "fixed-limit"],
            "presets": [preset.value for preset in PRESETS],
            "policies": {f.name: list(CHOICES.get(f.name, ())) for f in fields(Policies)}}


CHOICES_VIEW = choices()
