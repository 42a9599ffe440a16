"""``dealerpi equity``: the JSON and table a user reads, and one clear error line (exit 2) for bad input
(issue 21). Expected equities are worked by hand (outs over the unseen cards)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dealerpi.cli import main as dealerpi_main


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = dealerpi_main(["equity", *argv])
    out, err = capsys.readouterr()
    return status, out, err


def test_json_turn_kings_two_outs(capsys: pytest.CaptureFixture[str]) -> None:
    """Kings need Ks or Kh of the 44 unseen rivers."""
    status, out, err = _run(capsys, "AhAs", "KdKc", "--board", "2c7d9h3s", "--json")
    assert status == 0 and err == ""
    data = json.loads(out)
    assert [hand["cards"] for hand in data["hands"]] == ["AhAs", "KdKc"]
    assert data["hands"][0]["equity"] == pytest.approx(42 / 44, abs=1e-12)
    assert data["hands"][1]["equity"] == pytest.approx(2 / 44, abs=1e-12)
    assert data["exact"] is True and data["boards"] == 44
    assert "stderr" not in data["hands"][0] and "high" not in data["hands"][0]


def test_json_hi_lo_river_split_low_scooped_high(capsys: pytest.CaptureFixture[str]) -> None:
    """POT-4 on the river 2c 3h 8d 9s Ks. High: hand 1's 2s3d with 2c3h Ks is two pair, threes and deuces;
    hand 2 (Ad4c5hQh) pairs nothing and has no straight (A-2-3-4-5 would need three hole cards): hand 1 takes
    the high half. Low: the board's only low cards are 2, 3, 8, so a low takes all three and two hole ranks
    outside them: hand 1 has only its ace (2 and 3 counterfeited), no low; hand 2 makes 8-4-3-2-A and takes
    the low half. Neither scoops."""
    status, out, _ = _run(capsys, "--game", "plo8", "Ah2s3dKc", "Ad4c5hQh", "--board", "2c3h8d9sKs", "--json")
    assert status == 0
    first, second = json.loads(out)["hands"]
    assert (first["equity"], first["high"], first["low"], first["scoop"]) == (0.5, 0.5, 0.0, 0.0)
    assert (second["equity"], second["high"], second["low"], second["scoop"]) == (0.5, 0.0, 0.5, 0.0)


def test_table_prints_percentages(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(capsys, "AhAs", "KdKc", "--board", "2c7d9h3s")
    assert status == 0
    assert out.splitlines()[0] == "No-limit hold'em: exact, 44 boards; board 2c7d9h3s"
    assert out.splitlines()[2].split() == ["AhAs", "95.4545%"]
    assert out.splitlines()[3].split() == ["KdKc", "4.5455%"]


def test_fileem_preflop_is_monte_carlo_with_its_error(capsys: pytest.CaptureFixture[str]) -> None:
    """C(58, 7) boards is too many: sampled boards, each hand's standard error in the JSON."""
    status, out, _ = _run(capsys, "--game", "fileem", "0h0sFd", "1d2c3h", "--samples", "2000", "--json")
    assert status == 0
    data = json.loads(out)
    assert data["exact"] is False and data["boards"] == 2000
    for hand in data["hands"]:
        assert 0 < hand["stderr"] < 0.02
    assert data["hands"][0]["equity"] + data["hands"][1]["equity"] == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(("argv", "message"), [
    (["AhAs", "KdKx"], "dealerpi equity: hand 2: 'Kx' is not a card of the standard deck: suit 'x' is not "
                       "one of s h d c"),
    (["AhAs", "KdKc", "--board", "AhKh2d"], "dealerpi equity: --board: Ah is already in hand 1"),
    (["AhAsKc", "KdKh"], "dealerpi equity: hand 1: No-limit hold'em hands have 2 cards, got 3 (AhAsKc)"),
    (["AhAs", "KdKc", "--dead", "2c2c"], "dealerpi equity: --dead: 2c appears twice"),
    (["AhAs", "KdKc", "--board", "2c3c4c5c6c7c"],
     "dealerpi equity: --board: a No-limit hold'em board has at most 5 cards, got 6"),
    (["--game", "plo", "AhAs", "KdKc"], "dealerpi equity: hand 1: Pot-limit Omaha hands have 4 cards, got 2 (AhAs)"),
])
def test_bad_input_is_one_line_naming_the_argument(capsys: pytest.CaptureFixture[str], argv: list[str],
                                                   message: str) -> None:
    status, out, err = _run(capsys, *argv)
    assert status == 2 and out == ""
    assert err == message + "\n"


@pytest.mark.parametrize(("argv", "start"), [
    (["--game", "stud", "AhAs"], "dealerpi equity: argument --game: invalid choice: 'stud' (choose from "),
    ([], "dealerpi equity: the following arguments are required: HAND"),
])
def test_usage_errors_are_one_line_too(capsys: pytest.CaptureFixture[str], argv: list[str], start: str) -> None:
    """argparse's own words (their quoting varies between Python versions), on one line without the usage."""
    with pytest.raises(SystemExit) as stopped:
        dealerpi_main(["equity", *argv])
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith(start) and err.endswith(" (see dealerpi equity --help)\n") and err.count("\n") == 1


def test_installed_command_gives_no_traceback() -> None:
    """The real entry point in a child process: stderr is the one line, nothing of Python's."""
    done = subprocess.run([sys.executable, "-m", "dealerpi", "equity", "AhAs", "KdKx"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["dealerpi equity: hand 2: 'Kx' is not a card of the standard deck: "
                                        "suit 'x' is not one of s h d c"]
