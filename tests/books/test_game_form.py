"""The host's game form (issue 14: game, preset, blinds, ante, limits, policy overrides from the host page, applied
between hands, always showing the current values) and the start-up rule between the config's ``[table]`` and the
journal's table (table_source.py, docs/journal.md "The config against the journal")."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from console_kit import start
from daemon_kit import CONFIG

from dealerpi.books.game_form import changed_table, table_input
from dealerpi.config import Config
from dealerpi.engine import InputError, parse_config
from dealerpi.table.api.server import _Client

SIT = [{"type": "sit", "seat": s, "player": n, "stack": 250} for s, n in ((1, "Ann"), (2, "Bob"), (3, "Cy"))]
ANTE_GAME = {"type": "table", "game": "nlhe", "rules": "home", "seats": 6, "blinds": [1, 2], "ante": 1}


def lines(config: Config) -> list[dict[str, Any]]:
    """Every line of the daemon's journal folder, segment by segment."""
    folder = config.journal.with_suffix("")
    return [json.loads(line) for path in sorted(folder.glob("*.jsonl")) for line in path.read_text().splitlines()]


def host(api: Any) -> _Client:
    peer = _Client(writer=None)  # type: ignore[arg-type]   # handle() never writes
    assert api.handle(peer, {"id": 1, "method": "hello", "params": {"role": "host"}})["result"]["role"] == "host"
    return peer


def change(api: Any, peer: _Client, changes: object, rid: str | None = None) -> dict[str, Any]:
    reply = api.handle(peer, {"id": 2, "method": "change_table", "params": {"changes": changes, "rid": rid}})
    assert "result" in reply, reply
    result: dict[str, Any] = reply["result"]
    return result


# --- the form's values: the table in force, and a change laid over it ---------------------------------------

@pytest.mark.parametrize("entry", [
    ANTE_GAME,
    {"type": "table", "game": "flhe", "rules": "casino", "seats": 9, "blinds": [2, 4], "limits": [4, 8],
     "policies": {"straddles": "none", "clock_seconds": 60}, "bb_ante": 4},
    {"type": "table", "game": "plo", "rules": "home", "seats": 6, "blinds": [1, 2], "starting_stack": 200},
    {"type": "table", "game": "nlhe", "rules": "tournament", "seats": 9, "buy_in": 30, "payouts": [70, 30],
     "levels": [{"blinds": [50, 100], "minutes": 20}, {"blinds": [100, 200], "ante": 25, "minutes": 20},
                {"break": True, "minutes": 10}, {"blinds": [150, 300], "bb_ante": 300, "minutes": 20}]},
    {"type": "table", "game": "nlhe", "rules": "tournament", "seats": 9, "late_entry_levels": 2,
     "payouts": [{"players": 6, "percents": [65, 35]}, {"players": 10, "percents": [50, 30, 20]}],
     "levels": [{"blinds": [25, 50], "minutes": 15}]},
])
def test_the_form_shows_the_table_in_force_as_the_input_that_makes_it(entry: dict[str, Any]) -> None:
    """``table_input`` is the inverse of the engine's parser: parsing what the form shows gives the same table
    (so an ante game shows its ante, a limit game its limits, an override its value)."""
    config = parse_config(entry)
    shown = table_input(config)
    assert parse_config(shown) == config
    assert {k: v for k, v in shown.items() if k in entry} == {k: v for k, v in entry.items() if k != "type"}


def test_changing_the_blinds_keeps_the_ante() -> None:
    """The old simulator's defect: its form showed ``ante 0`` during an ante game and re-submitting it dropped
    the ante. A change names only what the host changed: the ante (1) stays."""
    entry = changed_table(parse_config(ANTE_GAME), {"blinds": [2, 4]})
    assert entry == {**ANTE_GAME, "blinds": [2, 4]}
    assert parse_config(entry).ante == 1


def test_policy_overrides_are_laid_over_the_ones_in_force_and_null_removes() -> None:
    current = parse_config({**ANTE_GAME, "policies": {"straddles": "none"}})
    entry = changed_table(current, {"policies": {"run_it_max": 2}, "ante": None})
    assert entry == {"type": "table", "game": "nlhe", "rules": "home", "seats": 6, "blinds": [1, 2],
                     "policies": {"straddles": "none", "run_it_max": 2}}
    # a change of preset keeps the overrides that still differ from the new preset's values: the casino's own
    # straddle rule is "single" (BLD-9), so "none" stays an override; its run_it_max is 1, so 2 stays too
    casino = changed_table(parse_config(entry), {"rules": "casino"})
    assert casino["policies"] == {"straddles": "none", "run_it_max": 2}
    # an override set back to the preset's own value is no override any more
    assert "policies" not in changed_table(parse_config(casino), {"policies": {"straddles": "single",
                                                                                "run_it_max": 1}})


def test_an_unknown_field_is_named() -> None:
    with pytest.raises(InputError, match=r'^table: "colour" is not a setting of the table') as error:
        changed_table(parse_config(ANTE_GAME), {"colour": "red"})
    assert error.value.key == "colour"
    with pytest.raises(InputError, match="names at least one field"):
        changed_table(parse_config(ANTE_GAME), {})


# --- through the daemon's API ---------------------------------------------------------------------------------

def seated(tmp_path: Path, text: str = CONFIG) -> tuple[Config, Any, Any]:
    config, controller, api = start(tmp_path, text)
    for entry in [*SIT, {"type": "button", "seat": 1}]:
        assert controller.submit(entry).accepted
    return config, controller, api


def test_a_change_between_hands_is_journaled_whole_with_the_sender_and_shown(tmp_path: Path) -> None:
    config, _controller, api = seated(tmp_path)
    peer = host(api)
    assert api.view("host")["setup"]["values"] == {"game": "nlhe", "rules": "home", "seats": 3, "blinds": [1, 3]}
    assert api.view("host")["setup"]["from"] == "the config file's [table]"
    result = change(api, peer, {"blinds": [2, 4], "ante": 1}, rid="g-1")
    assert result == {"accepted": True, "reason": None, "pending": False, "alerts": []}
    last = lines(config)[-1]
    assert {k: v for k, v in last.items() if k != "at"} == {
        "type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [2, 4], "ante": 1, "by": "host",
        "rid": "g-1"}
    game = api.view("host")["setup"]
    assert game["values"]["blinds"] == [2, 4] and game["values"]["ante"] == 1
    assert game["from"] == f"the console (host, {last['at']})"
    assert change(api, peer, {"blinds": [2, 4]}, rid="g-1") == \
        {"accepted": True, "reason": None, "pending": False, "alerts": [], "duplicate": True}
    assert len([e for e in lines(config) if e["type"] == "table"]) == 2      # the config's, the host's


def test_a_refused_change_says_why_and_journals_nothing(tmp_path: Path) -> None:
    config, _controller, api = seated(tmp_path)
    peer = host(api)
    before = lines(config)
    assert change(api, peer, {"blinds": [5, 2]}) == {
        "accepted": False, "reason": 'table: "blinds" 5/2: the big blind must be positive and at least the small blind'}
    assert change(api, peer, {"ante": 1, "bb_ante": 2}) == {
        "accepted": False, "reason": 'table: "ante" and "bb_ante": use one of them, not both (BLD-10)'}
    assert change(api, peer, {"seats": 6}) == {
        "accepted": False, "reason": 'table: "seats" 6: this table has seat panels for seats 1 to 3 only (the '
                                     "config's [[seats]])"}
    assert lines(config) == before
    dealer = _Client(writer=None)  # type: ignore[arg-type]
    api.handle(dealer, {"id": 1, "method": "hello", "params": {"role": "dealer"}})
    assert api.handle(dealer, {"id": 3, "method": "change_table", "params": {"changes": {"ante": 1}}}) == \
        {"id": 3, "error": {"message": "the game and the stakes are the host's"}}


def play_to_the_end(controller: Any) -> None:
    """Hand 1: button seat 1, blinds seats 2 and 3; six hole cards; seat 1 and seat 2 fold: seat 3 wins."""
    for uid in range(6):
        controller.on_card(f"T{uid:02d}")
    for seat in (1, 2):
        assert controller.submit({"type": "act", "seat": seat, "action": "fold"}).accepted
    assert controller.table.between_hands


def test_a_change_during_a_hand_is_durable_at_once_and_applies_from_the_next_hand(tmp_path: Path) -> None:
    """Nothing acknowledged that is not durable: the change is journaled when the host sends it (marked
    ``after_hand``; the engine refuses a table change during a hand, so the hand keeps its blinds 1/3), survives
    a restart mid-hand, and is applied, journaled again, right after the input that ends the hand."""
    config, controller, api = seated(tmp_path)
    assert controller.submit({"type": "start"}).accepted
    alerts = list(controller.alerts)
    result = change(api, host(api), {"blinds": [2, 4]}, rid="g-2")
    assert result == {"accepted": True, "reason": None, "pending": True, "alerts": []}
    queued = lines(config)[-1]
    assert queued["after_hand"] is True and queued["blinds"] == [2, 4] and queued["rid"] == "g-2"
    assert controller.table.config.big_blind == 3
    assert api.view("host")["setup"]["pending"]["blinds"] == [2, 4]
    assert list(controller.alerts) == alerts                   # a queued change is not a refusal to show
    controller.journal.close()

    config, controller, api = start(tmp_path)                   # the daemon restarts mid-hand
    assert controller.table.config is not None
    assert controller.table.config.big_blind == 3
    assert api.view("host")["setup"]["pending"]["blinds"] == [2, 4]
    assert change(api, host(api), {"blinds": [2, 4]}, rid="g-2") == \
        {"accepted": True, "reason": None, "pending": True, "alerts": [], "duplicate": True}
    play_to_the_end(controller)
    assert controller.table.config is not None
    assert (controller.table.config.small_blind, controller.table.config.big_blind) == (2, 4)
    applied = lines(config)[-1]
    assert "after_hand" not in applied and applied["by"] == "host" and applied["blinds"] == [2, 4]
    assert api.view("host")["setup"]["pending"] is None
    assert [e["type"] for e in lines(config)].count("table") == 3   # the config's, the queued one, the applied one


def test_a_console_change_survives_a_restart_unless_the_host_edits_the_config(tmp_path: Path) -> None:
    """Issue 12 made the config's [table] win at every start-up, undoing a console change. Now: the config wins only
    when the host edited its [table] since the daemon last applied it (table_source.py)."""
    config, controller, api = seated(tmp_path)
    assert change(api, host(api), {"blinds": [2, 4]})["accepted"]
    controller.journal.close()
    tables = len([e for e in lines(config) if e["type"] == "table"])

    config, controller, api = start(tmp_path)                   # the same config: the console's blinds stand
    assert controller.table.config is not None
    assert (controller.table.config.small_blind, controller.table.config.big_blind) == (2, 4)
    assert len([e for e in lines(config) if e["type"] == "table"]) == tables
    assert list(controller.alerts) == []
    assert api.view("host")["setup"]["from"].startswith("the console (host, ")
    assert controller.submit({"type": "start"}).accepted        # a checkpoint: the record must survive it
    play_to_the_end(controller)
    assert controller.submit({"type": "start"}).accepted
    controller.journal.close()

    config, controller, api = start(tmp_path)                   # past two checkpoints, still the console's
    assert controller.table.config is not None
    assert controller.table.config.big_blind == 4
    play_to_the_end_of_hand_2(controller)
    controller.journal.close()

    edited = CONFIG.replace("blinds = [1, 3]", "blinds = [5, 10]")
    config, controller, api = start(tmp_path, edited)           # the host edited [table]: the config wins
    assert [(a.rule, a.message) for a in controller.alerts] == [
        ("TABLE", "Config differs from the journal: blinds: 2/4 -> 5/10. Applied now")]
    assert controller.table.config is not None
    assert (controller.table.config.small_blind, controller.table.config.big_blind) == (5, 10)
    assert lines(config)[-1] == {"type": "table", "game": "nlhe", "rules": "home", "seats": 3, "blinds": [5, 10],
                                 "by": "config"}
    controller.journal.close()
    count = len(lines(config))
    config, controller, api = start(tmp_path, edited)           # and once applied, it is not applied again
    assert len(lines(config)) == count and list(controller.alerts) == []


def play_to_the_end_of_hand_2(controller: Any) -> None:
    """Hand 2: the button moved to seat 2 (BLD-1), blinds seats 3 and 1; seat 2 and seat 3 fold."""
    for uid in range(6, 12):
        controller.on_card(f"T{uid:02d}")
    for seat in (2, 3):
        assert controller.submit({"type": "act", "seat": seat, "action": "fold"}).accepted
    assert controller.table.between_hands


def test_a_change_keeps_the_tournaments_money_keys_issue_20() -> None:
    """A tournament with one re-entry, one rebuy until level 1, an add-on of 2000 chips for 20 and a 10
    bounty: the host raises the buy-in to 40 from the form; the other keys stay (the form's table in force
    used to leave them out, so the change dropped them: a freezeout without bounties)."""
    current = parse_config({"type": "table", "game": "nlhe", "rules": "tournament", "seats": 6, "blinds": [50, 100],
                            "buy_in": 30, "starting_stack": 1000, "reentries": 1, "rebuys": 1, "rebuy_levels": 1,
                            "addon_chips": 2000, "addon_price": 20, "bounty": 10,
                            "levels": [{"blinds": [50, 100], "minutes": 20}]})
    changed = parse_config(changed_table(current, {"buy_in": 40}))
    assert (changed.buy_in, changed.reentries, changed.rebuys, changed.rebuy_levels, changed.addon_chips,
            changed.addon_price, changed.bounty) == (40, 1, 1, 1, 2000, 20, 10)
