"""``room.toml`` ``[tournament]``: a multi-table tournament the room runs (docs/room.md). Errors name the key.

    [tournament]
    tables = ["t1", "t2", "t3"]       # the tables it uses; broken from the last; the first is the final table
    seats = 7                         # seats per table (each table's ``table`` input)
    buy_in = 100                      # into the prize pool per entrant
    starting_stack = 10000
    payouts = [30, 20, 15, 12, 10, 8, 5]     # percent per place (TRN-4), or rows by field size:
    # payouts = [{players = 6, percents = [65, 35]}, {players = 20, percents = [50, 30, 20]}]
    game = "nlhe"                     # optional
    late_entry_levels = 2             # optional: late registration until the end of level 2 (0: any time)
    levels = [{blinds = [50, 100], minutes = 20}, {break = true, minutes = 10}, {blinds = [100, 200], ante = 25,
              minutes = 20}]          # TRN-1, the engine's schedule check
    # optional, the tournament's money (the engine's own keys and checks, engine/tournament_money.py):
    reentries = 2                     # re-entries per player while late registration is open (TRN-9)
    rebuys = 1                        # rebuys per player until the end of level rebuy_levels
    rebuy_levels = 2
    addon_chips = 10000               # the add-on at the break after level rebuy_levels
    addon_price = 100
    bounty = 50                       # PKO: the part of each buy-in on the buyer's head
    colour_ups = [{level = 2, remove = 25, chip = 100}]   # TRN-6: at the break after level 2 (room/director/money.py)

Each table plays the tournament preset (TRN-7: dead button, TDA 8-A new players, the 25 s clock) with the
engine's own tournament bookkeeping off (``policies.tournament = false``): the room keeps the one prize pool,
places and level clock for the whole field, so a busted player stays seated at 0 until the room's ``leave``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from dealerpi.engine import MONEY_KEYS, InputError, Level, TableConfig, parse_config, percents_for
from dealerpi.wire.broker import NAME

KEYS = ("tables", "seats", "buy_in", "starting_stack", "payouts", "game", "levels", "late_entry_levels",
        *MONEY_KEYS, "colour_ups")


@dataclass(frozen=True)
class TournamentSettings:
    tables: tuple[str, ...]
    seats: int
    buy_in: int
    starting_stack: int
    payouts: tuple[int, ...]
    levels: tuple[Level, ...]
    game: str = "nlhe"
    late_entry_levels: int | None = None    # TRN-9: late registration until the end of this level; None: none
    payouts_by_field: tuple[tuple[int, tuple[int, ...]], ...] = ()    # TRN-4: rows (players, percents)
    engine: TableConfig | None = None       # the engine's config of the whole tournament: its money rules
    colour_ups: tuple[tuple[int, int, int], ...] = ()     # TRN-6: (after level, remove, chip), at that break

    def percents(self, entrants: int) -> tuple[int, ...]:
        """TRN-4: the percents per place for a field of ``entrants``: the row for that field size when
        ``payouts`` is rows by field size (issue 20: not the last row for any field)."""
        return percents_for(self.payouts_by_field, entrants) if self.payouts_by_field else self.payouts

    def late_entry_open(self, level_index: int) -> bool:
        """TRN-9: a late entrant is taken until the end of level ``late_entry_levels`` and the break after it
        (0: any time), as a table's own tournament (engine ``late_entry_levels``)."""
        if self.late_entry_levels is None:
            return False
        played = sum(1 for step in self.levels[: level_index + 1] if not step.is_break)
        return self.late_entry_levels == 0 or played <= self.late_entry_levels

    def table_input(self, level: int) -> dict[str, Any]:
        """The ``table`` input that sets a table to level ``level`` (0-based; a break keeps the level before)."""
        step = next(s for s in reversed(self.levels[: level + 1]) if not s.is_break)
        return {"type": "table", "game": self.game, "rules": "tournament", "policies": {"tournament": False},
                "seats": self.seats, "blinds": [step.small_blind, step.big_blind], "ante": step.ante,
                "bb_ante": step.bb_ante, "starting_stack": self.starting_stack}


def parse_tournament(raw: object, source: object) -> tuple[TournamentSettings | None, list[str]]:
    """``[tournament]`` checked: the settings, or None and the errors (each naming the file and the key)."""
    if not isinstance(raw, dict):
        return None, [f"{source}: tournament: must be a table"]
    errors = [f"{source}: tournament.{key}: unknown key (expected one of: {', '.join(KEYS)})"
              for key in raw if key not in KEYS]
    tables, seats, payouts = raw.get("tables"), raw.get("seats", 10), raw.get("payouts", [50, 30, 20])
    if not (isinstance(tables, list) and tables and all(isinstance(t, str) and NAME.match(t) for t in tables)
            and len(set(tables)) == len(tables)):
        errors.append(f"{source}: tournament.tables: a list of distinct table names, not {tables!r}")
    amounts: dict[str, int] = {}
    for key in ("buy_in", "starting_stack"):
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
            errors.append(f"{source}: tournament.{key}: a positive whole number, not {value!r}")
        else:
            amounts[key] = value
    if not raw.get("levels"):
        return None, [*errors, f"{source}: tournament.levels: the level schedule is missing (TRN-1)"]
    # the tables' own check: seats 2-10, the game, payouts adding up to 100, the level schedule (TRN-1)
    entry = {"type": "table", "game": raw.get("game", "nlhe"), "rules": "tournament", "seats": seats,
             "payouts": payouts, "levels": raw["levels"], "late_entry_levels": raw.get("late_entry_levels", 0),
             **{key: raw[key] for key in MONEY_KEYS if key in raw}, **amounts}
    config: TableConfig | None = None
    try:
        config = parse_config(entry)
    except InputError as error:
        errors.append(f"{source}: tournament.{error.key or 'levels'}: {error}")
    if errors or config is None:
        return None, errors
    colour_ups, wrong = parse_colour_ups(raw.get("colour_ups", []), config.levels, source)
    if wrong:
        return None, [wrong]
    assert isinstance(tables, list)
    return TournamentSettings(tuple(tables), config.seats, amounts["buy_in"], amounts["starting_stack"],
                              config.payouts, config.levels, config.game.key,
                              config.late_entry_levels if "late_entry_levels" in raw else None,
                              config.payouts_by_field, config, colour_ups), []


def parse_colour_ups(raw: object, levels: tuple[Level, ...],
                     source: object) -> tuple[tuple[tuple[int, int, int], ...], str | None]:
    """TRN-6: ``colour_ups = [{level = 2, remove = 25, chip = 100}]``: at the break that follows level 2, the
    25s leave play for 100s (the next chip a whole number of them, engine/chip_race.py). An error names the key."""
    key = f"{source}: tournament.colour_ups"
    if not isinstance(raw, list):
        return (), f"{key}: a list of {{level, remove, chip}}, not {raw!r}"
    breaks = {sum(1 for s in levels[:i] if not s.is_break) for i, step in enumerate(levels) if step.is_break}
    out: list[tuple[int, int, int]] = []
    for n, row in enumerate(raw):
        values = [row.get(k) for k in ("level", "remove", "chip")] if isinstance(row, dict) else []
        whole = [v for v in values if isinstance(v, int) and not isinstance(v, bool) and v > 0]
        if len(whole) != 3 or set(row) - {"level", "remove", "chip"}:
            return (), f"{key}[{n}]: {{level = L, remove = C, chip = D}} with positive whole numbers, not {row!r}"
        level, remove, chip = whole
        if level not in breaks:
            return (), f"{key}[{n}].level: no break follows level {level} in tournament.levels"
        if chip <= remove or chip % remove:
            return (), f"{key}[{n}].chip: {chip} must be a whole number of {remove}s, more than one (TRN-6)"
        out.append((level, remove, chip))
    return tuple(out), None
