"""Fuzzing the one validation (issue 12, "Bad input never a traceback").

Mutated configs (values replaced, keys dropped or added, bytes flipped) are either loaded or refused with
``ConfigError``, never another exception, and every error line names the file and a key of the config (or the
line, for text that is not TOML). A config that check-config accepts can seat two players and START a hand: the
engine's parser is the one source of truth, so nothing a START refuses for the table's sake gets through. The
table section also goes to ``Table.apply`` as a journal line would, which answers with an outcome, never raises.
"""

from __future__ import annotations

import copy
import re
import tomllib
from pathlib import Path
from typing import Any

from config_kit import MINIMAL
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dealerpi.config import Config, ConfigError, load, parse
from dealerpi.engine import Table, parse_config

SOURCE = Path("/etc/dealerpi/fuzz.toml")
BASE = tomllib.loads(MINIMAL.replace("seats = 2", "seats = 2\nante = 0\nstarting_stack = 150"))
TOP_KEYS = ("devices", "journal", "decks", "log_level", "table", "shoe", "expanders", "muxes", "seats", "dealer",
            "input", "bogus")
WORDS = ("nlhe", "flo8", "plo", "home", "tournament", "casino", "GPIO4", "GPIO2", "x0:3", "x0:GPB7", "m0", "fake",
         "pi", "ssd1306", "", "x", "-5", "levels", "blinds", "ante", "minutes", "break", "mux", "channel")

scalars = st.one_of(st.integers(-3, 12), st.sampled_from([-5, 0x3C, 0x70, 0x20, 300, 10**9]), st.booleans(),
                    st.floats(allow_nan=True), st.sampled_from(WORDS), st.text(max_size=4))
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.sampled_from(WORDS[13:]), inner, max_size=3), max_leaves=6)


def paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every key path in the parsed TOML (dict keys and list indices)."""
    found = []
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, child in items:
        found.append((*prefix, key))
        found += paths(child, (*prefix, key))
    return found


ALL_PATHS = paths(BASE)
mutation = st.tuples(st.sampled_from(ALL_PATHS), st.sampled_from(["set", "drop", "add"]), values)


def mutate(data: dict[str, Any], path: tuple[Any, ...], how: str, value: Any) -> None:
    parent: Any = data
    for key in path[:-1]:
        parent = parent[key]
    last = path[-1]
    if how == "set":
        parent[last] = value
    elif how == "drop":
        del parent[last]
    elif isinstance(parent, dict):
        parent["bogus" if len(path) == 1 else "levels"] = value
    else:
        parent.append(value)


def assert_errors_name_file_and_key(errors: list[str]) -> None:
    assert errors
    for line in errors:
        match = re.match(rf"^{re.escape(str(SOURCE))}: ([^:]+): \S", line)
        assert match is not None, line
        key = match.group(1)
        assert re.split(r"[.\[]", key)[0] in TOP_KEYS, line


def can_start(config: Config) -> None:
    """Two players sat as the daemon's seat panel sits them (TableConfig.panel_stack), then START."""
    table = Table()
    entry = config.table_input()
    assert table.apply(entry).accepted
    stack = parse_config(entry).panel_stack
    for seat in (1, 2):
        outcome = table.apply({"type": "sit", "seat": seat, "player": f"P{seat}", "stack": stack})
        assert outcome.accepted, outcome.reason
    outcome = table.apply({"type": "start"})
    assert outcome.accepted, outcome.reason


@settings(max_examples=400, deadline=None)
@given(st.lists(mutation, min_size=1, max_size=3))
def test_mutated_configs_load_or_name_file_and_key(mutations: list[tuple[tuple[Any, ...], str, Any]]) -> None:
    data = copy.deepcopy(BASE)
    for path, how, value in mutations:
        try:
            mutate(data, path, how, value)
        except (KeyError, IndexError, TypeError, AttributeError):
            continue                                   # an earlier mutation removed or replaced the parent
    raw_table = data.get("table")
    if isinstance(raw_table, dict):
        outcome = Table().apply({**raw_table, "type": "table"})
        assert outcome.accepted or outcome.reason
    try:
        config = parse(data, SOURCE)
    except ConfigError as exc:
        assert_errors_name_file_and_key(exc.errors)
        return
    can_start(config)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.integers(0, len(MINIMAL)), st.binary(max_size=3)), min_size=1, max_size=4))
def test_mutated_bytes_load_or_name_the_file(tmp_path: Path, edits: list[tuple[int, bytes]]) -> None:
    """Bytes spliced into the file: a TOML syntax error, a byte that is not UTF-8 (with its line), or a key."""
    raw = bytearray(MINIMAL.encode())
    for at, chunk in edits:
        raw[at:at + len(chunk)] = chunk
    path = tmp_path / "fuzz.toml"
    path.write_bytes(bytes(raw))
    try:
        load(path)
    except ConfigError as exc:
        assert exc.errors
        for line in exc.errors:
            assert line.startswith(f"{path}: "), line
            assert re.match(r"(TOML syntax: |line \d+: byte 0x[0-9a-f]{2} is not UTF-8 text$|[^:\s]+: \S)",
                            line.removeprefix(f"{path}: ")), line
