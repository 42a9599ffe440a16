"""The config's [table] against the journal's table (issue 12, item 4).

The brick the issue found: a journal from a 6-seat table with a player on seat 5, and a 3-seat config. The
daemon applied the config's table at once; the player on seat 5 then sat on a seat that "does not exist": the
hand planner refused every START ("seat 5 does not exist: seats are 1 to 3", positions.plan_hand) and the
table refused his LEAVE for the same reason, forever. Now the difference is said (log and dealer alert), the
player stays on record off the table, START deals the seats the table has, and the host moves him (BLD-8: from
a seat the table lacks he is a new player at his new seat, BLD-6) or cashes him out. A change found mid-hand
waits for the hand's end; the hand finishes with the journal's game, stakes and panel amount step.
"""

from __future__ import annotations

import json
import logging
import re
from pathlib import Path
from typing import Any

import pytest
from daemon_kit import CONFIG
from journal_kit import cards, sit, table

from dealerpi.config import load
from dealerpi.devices import FakeDevices
from dealerpi.engine import Sit, Structure, Table, parse_config
from dealerpi.engine.policies import policies_for
from dealerpi.engine.positions import Lineup, PositionError, SeatInfo, plan_hand
from dealerpi.journal.file import Journal
from dealerpi.table.change import differences
from dealerpi.table.controller import Controller


def controller_over(tmp_path: Path, journal: list[dict[str, Any]], config_text: str = CONFIG) -> Controller:
    """The daemon's controller on the 3-seat test config (blinds 1/3), started over ``journal``."""
    tmp_path.mkdir(exist_ok=True)
    path = tmp_path / "table.toml"
    path.write_text(config_text)
    config = load(path)
    config.journal.parent.mkdir(parents=True, exist_ok=True)
    config.journal.write_text("".join(json.dumps(e) + "\n" for e in journal))
    opened, entries = Journal.open(config.journal)
    controller = Controller(config, FakeDevices(config), opened)
    controller.replay(entries)
    return controller


def journal_after(controller: Controller, count: int) -> list[dict[str, Any]]:
    lines = controller.config.journal.read_text().splitlines()
    return [json.loads(line) for line in lines[count:]]


SIX_SEATS = [table(seats=6), sit(1), sit(2), sit(3), sit(5, 250, "Eve")]


def test_seat_missing_from_the_config_keeps_its_player_and_the_table_plays(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Issue 12's brick, fixed: START deals seats 1-3; seat 5 (Eve, 250) is on record and can cash out."""
    # the brick's cause: the planner of a 3-seat ring refuses a player on seat 5, so handing it every occupied
    # seat refused every START
    with pytest.raises(PositionError, match=r"^seat 5 does not exist: seats are 1 to 3$"):
        plan_hand(Lineup(), {s: SeatInfo(s, 300) for s in (1, 2, 5)}, table_seats=3, small_blind=1, big_blind=3,
                  structure=Structure.NO_LIMIT, policies=policies_for("home"))
    with caplog.at_level(logging.WARNING):
        controller = controller_over(tmp_path, SIX_SEATS)
    source = tmp_path / "table.toml"
    assert f"{source}: the config's [table] differs from the journal's table: seats: 6 -> 3; applied now" \
        in caplog.messages
    assert [(a.rule, a.message) for a in controller.alerts] == [
        ("TABLE", "Config differs from the journal: seats: 6 -> 3. Applied now"),
        ("TABLE", "Seat 5 (Eve, 250) is not at this 3-seat table: move the player to an empty seat or cash out"),
    ]
    assert journal_after(controller, len(SIX_SEATS)) == [{**table(seats=3), "by": "config"}]
    assert controller.table.seats[5].player == "Eve" and controller.table.seats[5].stack == 250

    assert controller.submit({"type": "start"}).accepted
    assert not controller.table.between_hands and sorted(controller.table.dealt_seats()) == [1, 2, 3]
    restarted = controller_over(tmp_path / "again", [*SIX_SEATS, table(seats=3)])
    assert [(a.rule, a.message) for a in restarted.alerts] == [     # said again at every start-up until done
        ("TABLE", "Seat 5 (Eve, 250) is not at this 3-seat table: move the player to an empty seat or cash out")]
    outcome = controller.submit({"type": "leave", "seat": 5})          # a cash-out, even during the hand
    assert outcome.accepted, outcome.reason
    assert sorted(controller.table.seats) == [1, 2, 3]


def test_host_moves_the_player_from_the_missing_seat(tmp_path: Path) -> None:
    """BLD-8 measures a move from the player's seat; seat 5 is not on this table's ring, so he is a new player
    at seat 3 (BLD-6: he waits for the big blind or posts, per the preset)."""
    controller = controller_over(tmp_path, [table(seats=6), sit(1), sit(2), sit(5, 250, "Eve")])
    outcome = controller.submit({"type": "move", "seat": 5, "to": 3})
    assert outcome.accepted, outcome.reason
    assert [(a.rule, a.message) for a in outcome.alerts] == [
        ("BLD-8", "Seat 5 moves to seat 3: a new player there (BLD-6)")]
    assert controller.table.seats[3].player == "Eve" and 5 not in controller.table.seats
    assert controller.submit({"type": "start"}).accepted


def test_the_button_on_a_missing_seat_restarts_the_rotation(tmp_path: Path) -> None:
    """The last hand's button was seat 6; a 3-seat ring has no seat 6, so the next hand is a first hand
    (seed 002 B4): button on the first player from seat 1, small blind seat 2, big blind seat 3 (BLD-1)."""
    played = [table(seats=6), sit(1), sit(2), sit(3), sit(6), {"type": "button", "seat": 6}, {"type": "start"},
              *cards("Ah", "Kd", "7c", "2s", "9h", "Qc", "Jd", "Ts"),
              {"type": "act", "seat": 3, "action": "fold"},      # blinds on seats 1 and 2: seat 3 acts first
              {"type": "act", "seat": 6, "action": "fold"}, {"type": "act", "seat": 1, "action": "fold"}]
    replayed = Table()
    assert all(replayed.apply(entry).accepted for entry in played)
    assert (replayed.button(), *replayed.blind_seats()) == (6, 1, 2)
    controller = controller_over(tmp_path, played)
    messages = [a.message for a in controller.alerts]
    assert "The button or a blind was on a seat this 3-seat table does not have: the next hand is dealt as " \
           "a first hand" in messages
    outcome = controller.submit({"type": "start"})
    assert outcome.accepted, outcome.reason
    assert not controller.table.between_hands
    assert (controller.table.button(), *controller.table.blind_seats()) == (1, 2, 3)


def test_a_change_found_mid_hand_waits_for_the_hand_to_end(tmp_path: Path) -> None:
    """The journal's hand (blinds 1/3, amount step gcd(1, 3) = 1) goes on under a config of blinds 2/4; once it
    ends, the config's table is journaled and applied, and the step becomes gcd(2, 4) = 2."""
    hand = [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, {"type": "start"},
            *cards("Ah", "Kd", "7c", "2s", "9h", "Qc")]
    controller = controller_over(tmp_path, hand, CONFIG.replace("blinds = [1, 3]", "blinds = [2, 4]"))
    assert [(a.rule, a.message) for a in controller.alerts] == [
        ("TABLE", "Config differs from the journal: blinds: 1/3 -> 2/4. Applied when this hand ends")]
    assert controller.table.config is not None and controller.table.config.big_blind == 3
    assert {panel.unit for panel in controller.panels.values()} == {1}
    assert controller.config.journal.read_text().count('"type": "table"') == 1     # nothing journaled yet
    # three-handed with the button on seat 1: seat 2 posts 1, seat 3 posts 3, the button acts first
    assert controller.submit({"type": "act", "seat": 1, "action": "raise", "to": 9}).accepted
    assert controller.table.config.big_blind == 3                                   # still the journal's
    assert controller.submit({"type": "act", "seat": 2, "action": "fold"}).accepted
    assert controller.submit({"type": "act", "seat": 3, "action": "fold"}).accepted  # the hand ends here
    assert journal_after(controller, len(hand) + 3) == [{**table(seats=3, blinds=(2, 4)), "by": "config"}]
    assert controller.table.config.big_blind == 4
    assert {panel.unit for panel in controller.panels.values()} == {2}
    assert controller.table.seats[1].stack == 300 + 1 + 3                            # won both blinds


def test_mid_hand_seats_without_a_panel_are_reported(tmp_path: Path) -> None:
    """A 6-seat journal mid-hand with seats 5 and 6 dealt in, under the 3-seat config: those players have
    no buttons; the dealer is told before anyone waits on them."""
    hand = [table(seats=6), sit(1), sit(2), sit(5), sit(6), {"type": "button", "seat": 1}, {"type": "start"}]
    controller = controller_over(tmp_path, hand)
    assert [(a.rule, a.message) for a in controller.alerts] == [
        ("TABLE", "Config differs from the journal: seats: 6 -> 3. Applied when this hand ends"),
        ("TABLE", "Seats 5, 6 have no panel in this config: put the old config back until this hand ends"),
    ]
    assert controller.table.config is not None and controller.table.config.seats == 6


def test_same_table_journals_nothing(tmp_path: Path) -> None:
    """The journal's table equals the config's and came from this config (its line says ``by: config``, the same
    values in another key order): no alert, no new journal line."""
    journal = [{"blinds": [1, 3], "seats": 3, "rules": "home", "game": "nlhe", "type": "table", "by": "config"},
               sit(1)]
    controller = controller_over(tmp_path, journal)
    assert list(controller.alerts) == []
    assert journal_after(controller, 2) == []


def test_same_table_without_a_config_record_records_it(tmp_path: Path) -> None:
    """A journal from before issue 14's rule (no ``by: config`` line): the table equals the config's (the preset's
    own value of a policy spelled out), so no alert; the config's table is journaled once, as the record the
    next start-up compares the config with (table_source.py)."""
    journal = [{"policies": {"straddles": "multiple"}, "blinds": [1, 3], "seats": 3, "rules": "home",
                "game": "nlhe", "type": "table"}, sit(1)]
    controller = controller_over(tmp_path, journal)
    assert list(controller.alerts) == []
    assert journal_after(controller, 2) == [{**table(seats=3), "by": "config"}]


def test_seat_panel_sits_with_the_table_in_force(tmp_path: Path) -> None:
    """BET on an empty seat sits the table's starting_stack (200 here), else 100 big blinds (100 x 3 = 300)."""
    controller = controller_over(tmp_path, [table(seats=3, starting_stack=200)],
                                 CONFIG.replace("blinds = [1, 3]", "blinds = [1, 3]\nstarting_stack = 200"))
    assert controller.buttons.sit(2) == Sit(2, "Seat 2", 200)
    plain = controller_over(tmp_path / "plain", [])
    assert plain.buttons.sit(2).stack == 300


def test_a_new_journal_gets_the_config_table(tmp_path: Path) -> None:
    controller = controller_over(tmp_path, [])
    assert list(controller.alerts) == []
    (first,) = journal_after(controller, 0)
    assert re.fullmatch(r"[0-9a-f]{16}", first.pop("journal")) and re.fullmatch(r"\d{4}-\d\d-\d\dT[\d:]{8}Z",
                                                                                   first.pop("at"))
    assert first == {**table(seats=3), "by": "config"}       # issue 20: the new journal's id and time, above


def test_differences_are_named_by_the_config_keys() -> None:
    """Each line is ``key: journal -> config``; a new preset is one line (its policies change with it)."""
    journal = parse_config(table(seats=6, ante=1, policies={"straddles": "none"}))
    config = parse_config(table(game="flhe", seats=9, blinds=(2, 4), limits=[4, 8], policies={"straddles": "single"}))
    assert differences(journal, config) == [
        "game: nlhe -> flhe", "policies.straddles: none -> single", "seats: 6 -> 9", "blinds: 1/3 -> 2/4",
        "limits: none -> 4/8", "ante: 1 -> 0"]
    assert differences(journal, parse_config(table(seats=6, ante=1, policies={"straddles": "none"},
                                                   starting_stack=200))) == ["starting_stack: none -> 200"]
    casino = parse_config(table(rules="casino", seats=6, ante=1, policies={"straddles": "none"}))
    assert differences(journal, casino) == ["rules: home -> casino"]
    levels = [{"blinds": [1, 2], "minutes": 20}, {"blinds": [2, 4], "minutes": 20}]
    tourney = parse_config(table(rules="tournament", seats=6, levels=levels, payouts=[100]))
    longer = parse_config(table(rules="tournament", seats=6, levels=[*levels, {"blinds": [3, 6], "minutes": 20}]))
    assert differences(tourney, longer) == ["levels: 2 levels -> 3 levels", "payouts: [100] -> [50, 30, 20]"]


def test_a_tournament_table_change_keeps_the_pool_and_the_level_clock() -> None:
    """TRN-1, TRN-4: a table change between hands (here the seat count) is no new tournament: the pool of
    three 50 buy-ins (150), the players left and the clock 300 s into level 1 go on."""
    levels = [{"blinds": [1, 2], "minutes": 20}, {"blinds": [2, 4], "minutes": 20}]
    tbl = Table()
    for entry in [table(rules="tournament", seats=6, levels=levels, buy_in=50), sit(1, 1000), sit(2, 1000),
                  sit(3, 1000), {"type": "tick", "seconds": 300}]:
        outcome = tbl.apply(entry)
        assert outcome.accepted, outcome.reason
    assert tbl.standings is not None and (tbl.standings.pool, tbl.standings.remaining) == (150, 3)
    assert tbl.levels is not None and tbl.levels.elapsed == 300
    assert tbl.apply(table(rules="tournament", seats=4, levels=levels, buy_in=50)).accepted
    assert tbl.standings is not None and (tbl.standings.pool, tbl.standings.remaining) == (150, 3)
    assert tbl.levels is not None and tbl.levels.elapsed == 300


def test_a_table_change_waits_for_the_redeal_of_a_fouled_deck() -> None:
    """MIS-7: a fouled deck (Ah dealt twice, DEAL-7) voids the deal and the next START plays the same plan
    again, so the table may not change before it; between hands otherwise it may."""
    tbl = Table()
    for entry in [table(seats=3), sit(1), sit(2), sit(3), {"type": "button", "seat": 1}, {"type": "start"},
                  *cards("Ah", "Ah")]:
        assert tbl.apply(entry).accepted
    assert tbl.between_hands and not tbl.table_may_change()
    outcome = tbl.apply(table(seats=4))
    assert (outcome.accepted, outcome.reason) == (
        False, "cannot change the table now: hand #1 is dealt again first (MIS-7 fouled deck), exactly as it "
               "was: the same players, stacks, button and blinds (MIS-6); press START")
    assert tbl.apply({"type": "start"}).accepted
    assert not tbl.table_may_change()                                  # the redeal is being played
