"""Issue 22, fault probe 5: UNDO never takes back the table's setup (the ``table`` input).

Before the fix two UNDOs before the first hand took back a sit and then the config's ``table`` line: no
game, no seats, and START refused "no table yet" until the daemon restarted. A ``table`` input is changed by
another one (the host's page, the config), never undone; an undo reaches back to it and no further, as it
reaches back to the last ``start`` and no further (docs/journal.md)."""

from __future__ import annotations

from pathlib import Path

from console_kit import make

from dealerpi.engine import Table

TABLE = {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]}
SITS = [{"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"))]


def test_undo_stops_at_the_table_setup_before_the_first_hand() -> None:
    table = Table()
    assert table.apply(TABLE).accepted
    assert table.apply(SITS[0]).accepted
    assert table.apply({"type": "undo"}).accepted                 # takes Ann's sit back
    refused = table.apply({"type": "undo"})
    assert (refused.accepted, refused.reason) == (
        False, "nothing to undo: the table's game and stakes are changed by a new table input, not undone")
    assert table.config is not None and table.config.game.key == "nlhe"
    for entry in SITS:
        assert table.apply(entry).accepted
    assert table.apply({"type": "start"}).accepted


def test_undo_stops_at_a_table_change_between_hands() -> None:
    """The host's change between hands (5/10) stands; the inputs after it are undone one by one."""
    table = Table()
    for entry in (TABLE, *SITS):
        assert table.apply(entry).accepted
    assert table.apply({**TABLE, "blinds": [5, 10]}).accepted
    assert table.apply({"type": "sit", "seat": 3, "player": "Cy", "stack": 1000}).accepted
    assert table.apply({"type": "undo"}).accepted
    assert table.apply({"type": "undo"}).accepted is False
    assert table.config is not None and (table.config.small_blind, table.config.big_blind) == (5, 10)
    assert sorted(table.seats) == [1, 2]


def test_two_undos_from_the_dealer_leave_the_config_table_and_start_works(tmp_path: Path) -> None:
    """The daemon: the config's table, a sit from the host, then UNDO twice from the dealer's page."""
    _config, controller, _api = make(tmp_path)
    assert controller.submit(SITS[0]).accepted
    assert controller.submit({"type": "undo"}).accepted
    assert controller.submit({"type": "undo"}).accepted is False
    for entry in SITS:
        assert controller.submit(entry).accepted
    assert controller.submit({"type": "start"}).accepted
