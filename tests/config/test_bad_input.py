"""Bad input never a traceback (issue 12): check-config, run and replay --journal share one validation.

The cases are the issue's own: ``display = { mux = ["m0"] }`` and a level with ``ante = "x"`` gave Python
tracebacks; ``ante = -5`` passed check-config and then every START was refused; replay --journal crashed on
non-UTF-8 bytes and replayed files the daemon refuses to start from. The table's rules are the engine's
(``dealerpi.engine.inputs.parse_config``), so each refusal below is what a START would say (positions.plan_hand
refuses a negative ante and ante + big-blind ante together, BLD-10; a level schedule that starts with a break,
TRN-1).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from config_kit import MINIMAL, errors_of, write

from dealerpi.config import main as check_config
from dealerpi.engine import Table
from dealerpi.history.journal_replay import main as replay_journal
from dealerpi.journal.file import JournalError, read
from dealerpi.table import daemon

LEVELS = '''levels = [
  { blinds = [1, 2], minutes = 20 },
  { blinds = [2, 4], ante = "x", minutes = 20 },
]
'''


def test_mux_given_as_a_list_is_an_error_naming_the_key(tmp_path: Path) -> None:
    """Was: TypeError (unhashable list) out of check-config and run."""
    text = MINIMAL.replace("display = { bus = 3, address = 0x3C }", 'display = { mux = ["m0"] }')
    assert errors_of(tmp_path, text) == [
        f"{tmp_path / 'table.toml'}: dealer.display.mux: must be a non-empty string, not ['m0']"]


def test_level_ante_that_is_no_amount_names_the_level(tmp_path: Path) -> None:
    """Was: ValueError from int("x") in the engine's level parser (TRN-1)."""
    text = MINIMAL.replace('rules = "home"', 'rules = "tournament"').replace("blinds = [1, 3]\n", LEVELS)
    assert errors_of(tmp_path, text) == [
        f"{tmp_path / 'table.toml'}: table.levels[1].ante: \"levels[1].ante\" must be a whole amount of 0 or "
        "more, not 'x'"]


@pytest.mark.parametrize(("change", "key", "message"), [
    ("ante = -5", "ante", '"ante" must be a whole amount of 0 or more, not -5'),
    ("ante = 1\nbb_ante = 3", "bb_ante", '"ante" and "bb_ante": use one of them, not both (BLD-10)'),
    ("ante = 2.5", "ante", '"ante" must be a whole amount of 0 or more, not 2.5'),
    ("starting_stack = 60", "starting_stack",
     '"starting_stack": the minimum buy-in is 90 chips (30 big blinds (seed 001)), not 60'),
    ("policies = { buy_in_max_bb = 50 }", "starting_stack",
     '"starting_stack" (no starting_stack: 100 big blinds): the table maximum is 150 chips (50 big blinds, '
     "seed 001): with 0 on the table, at most 150 more"),
    ("starting_stack = 400", "starting_stack",
     '"starting_stack": the table maximum is 300 chips (100 big blinds, seed 001): with 0 on the table, '
     "at most 300 more"),
])
def test_values_every_start_or_sit_would_refuse_are_config_errors(tmp_path: Path, change: str, key: str,
                                                                  message: str) -> None:
    """Blinds 1/3 at the home preset: buy-ins of 30 to 100 big blinds = 90 to 300 chips (seed 001); a seat sat
    from its panel without a starting_stack gets 100 big blinds = 300, above a 50-big-blind maximum of 150."""
    text = MINIMAL.replace("blinds = [1, 3]", f"blinds = [1, 3]\n{change}")
    assert errors_of(tmp_path, text) == [f"{tmp_path / 'table.toml'}: table.{key}: {message}"]


@pytest.mark.parametrize(("policies", "message"), [
    ("{ buy_in_max_bb = -5 }", "policy 'buy_in_max_bb' cannot be -5: at least 0"),
    ("{ run_it_max = 0 }", "policy 'run_it_max' cannot be 0: at least 1"),
    ("{ buy_in_max_bb = 20 }", "policy 'buy_in_max_bb' 20 is below 'buy_in_min_bb' 30: no buy-in would be allowed"),
])
def test_policies_that_refuse_every_sit_or_run(tmp_path: Path, policies: str, message: str) -> None:
    """The home preset's buy-in is 30 to 100 big blinds (seed 001): a maximum of -5 or of 20 big blinds leaves no
    allowed buy-in, so every sit would be refused; running it once (POT-11) is the least a table can do."""
    text = MINIMAL.replace("blinds = [1, 3]", f"blinds = [1, 3]\npolicies = {policies}")
    assert errors_of(tmp_path, text) == [f"{tmp_path / 'table.toml'}: table.policies: {message}"]


@pytest.mark.parametrize(("blinds", "message"), [
    ("[3, 1]", '"blinds" 3/1: the big blind must be positive and at least the small blind'),
    ("[0, 0]", '"blinds" 0/0: the big blind must be positive and at least the small blind'),
    ('[1, "2"]', "\"blinds\" must be two whole amounts, e.g. [1, 2], not [1, '2']"),
])
def test_blinds_a_start_would_refuse(tmp_path: Path, blinds: str, message: str) -> None:
    text = MINIMAL.replace("blinds = [1, 3]", f"blinds = {blinds}")
    assert errors_of(tmp_path, text) == [f"{tmp_path / 'table.toml'}: table.blinds: {message}"]


def test_schedule_starting_with_a_break_and_a_level_without_minutes(tmp_path: Path) -> None:
    """TRN-1: the schedule starts with a level; every step lasts at least a minute (tournament.check_schedule,
    which the level clock runs too)."""
    f = tmp_path / "table.toml"
    base = MINIMAL.replace('rules = "home"', 'rules = "tournament"').replace("blinds = [1, 3]\n", "")
    first_break = base.replace("seats = 2", 'seats = 2\nlevels = [{ break = true, minutes = 10 }, '
                                            "{ blinds = [1, 2], minutes = 20 }]")
    assert errors_of(tmp_path, first_break) == [
        f'{f}: table.levels[0]: "levels": step 1 is a break: the schedule starts with a level (TRN-1)']
    no_minutes = base.replace("seats = 2", "seats = 2\nlevels = [{ blinds = [1, 2], minutes = 0 }]")
    assert errors_of(tmp_path, no_minutes) == [
        f'{f}: table.levels[0]: "levels": step 1 lasts 0 minutes: it must last at least one (TRN-1)']
    both_antes = base.replace("seats = 2", "seats = 2\nlevels = [{ blinds = [1, 2], minutes = 20 }, "
                                           "{ blinds = [2, 4], ante = 1, bb_ante = 4, minutes = 20 }]")
    assert errors_of(tmp_path, both_antes) == [
        f'{f}: table.levels[1]: "levels": step 2: use an ante or a big-blind ante, not both, never negative '
        "(TRN-1)"]


def test_config_that_is_not_utf8_names_the_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """TOML files are UTF-8 (TOML v1.0.0, "Spec"); tomllib raised UnicodeDecodeError. "é" in Latin-1 is 0xe9."""
    path = tmp_path / "table.toml"
    path.write_bytes(MINIMAL.replace('game = "nlhe"', 'game = "nlh\xe9"').encode("latin-1"))
    line = MINIMAL.splitlines().index('game = "nlhe"') + 1
    assert check_config([str(path)]) == 1
    assert capsys.readouterr().err.splitlines() == [f"{path}: line {line}: byte 0xe9 is not UTF-8 text",
                                                    f"{path}: 1 error(s)"]


def test_run_refuses_a_bad_config_with_the_same_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``dealerpi run`` and ``check-config`` print the same error lines (one validation, config.load)."""
    path = write(tmp_path, MINIMAL.replace("blinds = [1, 3]", "blinds = [1, 3]\nante = -5"))
    assert check_config([str(path)]) == 1
    checked = capsys.readouterr().err.splitlines()
    assert daemon.main(["--config", str(path), "--fake"]) == 2
    assert capsys.readouterr().err.splitlines() == checked[:-1]    # without the "1 error(s)" count
    assert checked[0] == f'{path}: table.ante: "ante" must be a whole amount of 0 or more, not -5'


def test_a_journal_table_input_with_a_bad_level_is_refused_not_raised() -> None:
    """Was: ValueError out of Table.apply, so the daemon could not start from that journal."""
    table = Table()
    outcome = table.apply({"type": "table", "game": "nlhe", "rules": "tournament", "seats": 6,
                           "levels": [{"blinds": [1, 2], "minutes": 20, "ante": "x"}]})
    assert not outcome.accepted
    assert outcome.reason == "table: \"levels[0].ante\" must be a whole amount of 0 or more, not 'x'"
    assert table.config is None


def journal_file(tmp_path: Path, lines: list[bytes]) -> Path:
    path = tmp_path / "journal.jsonl"
    path.write_bytes(b"".join(lines))
    return path


TABLE = json.dumps({"type": "table", "game": "nlhe", "seats": 6, "blinds": [1, 3]}).encode() + b"\n"
SIT = json.dumps({"type": "sit", "seat": 1, "player": "Ann", "stack": 300}).encode() + b"\n"


@pytest.mark.parametrize(("bad", "what"), [
    (b'{"type": "sit", "seat": 2, "player": "B\xe9a", "stack": 300}\n', "not UTF-8"),
    (b"[1, 2]\n", "a JSON list"),
    (b"\n", "a blank line"),
])
def test_replay_refuses_what_the_daemon_refuses(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                bad: bytes, what: str) -> None:
    """A damaged line before the end: the daemon's reader refuses the journal (the daemon does not start), and
    replay --journal refuses it with the same message, naming the file and line 2."""
    path = journal_file(tmp_path, [TABLE, bad, SIT])
    with pytest.raises(JournalError) as caught:
        read(path)
    assert str(caught.value).startswith(f"{path}: line 2 is not a JSON object: "), what
    assert replay_journal(["--journal", str(path)]) == 2
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err == f"dealerpi replay: {caught.value}; the daemon would not start from this journal\n"


def test_replay_drops_a_torn_non_utf8_last_line_as_the_daemon_does(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """A power cut mid-write leaves a torn last line: the daemon drops it (never acknowledged), so does replay."""
    path = journal_file(tmp_path, [TABLE, SIT, b'{"type": "sit", "seat": 2, "player": "B\xe9'])
    assert [e["type"] for e in read(path)[0]] == ["table", "sit"]
    assert replay_journal(["--journal", str(path), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["seats"] == {"1": {"player": "Ann", "stack": 300}}
    assert result["rejected"] == []


def test_replay_of_a_missing_journal_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert replay_journal(["--journal", str(tmp_path / "absent.jsonl")]) == 2
    assert capsys.readouterr().err == (f"dealerpi replay: cannot read {tmp_path / 'absent.jsonl'}: "
                                       "No such file or directory\n")
    assert replay_journal(["--journal", str(tmp_path)]) == 2
    assert capsys.readouterr().err == (f"dealerpi replay: cannot read {tmp_path}: not a journal folder "
                                       "(no 000001.jsonl or later segment)\n")
